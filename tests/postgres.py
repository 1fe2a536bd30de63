"""A throwaway PostgreSQL server for the tests (and the scale benchmark).

``TEST_DATABASE_URL`` (a server where the user may create databases) is used if set.
Otherwise the installed PostgreSQL binaries (``initdb``, ``postgres``: on ``PATH`` or
in ``/usr/lib/postgresql/*/bin``) start a server in a temporary folder, on a free
port of 127.0.0.1, as the ``postgres`` system user when run as root (``initdb``
refuses root). ``fsync`` is off: the server is thrown away, and the tests that kill
a process kill the bot, not the database. Each test gets its own database
(``CREATE DATABASE`` / ``DROP DATABASE``).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

ENV_URL = "TEST_DATABASE_URL"


class NoPostgres(Exception):
    """No PostgreSQL to test against: the reason, in one line."""


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``postgres``, newest version first; None if absent."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


def missing() -> str | None:
    """Why there is no PostgreSQL to test against (None if there is one)."""
    if os.environ.get(ENV_URL, "").strip() or binaries() is not None:
        return None
    return (
        "PostgreSQL is not installed (no initdb): the PostgreSQL tests are skipped; "
        f"install postgresql-15 or set {ENV_URL}"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    """A server the tests may create databases on (``admin_url``: its ``postgres`` db)."""

    admin_url: str
    process: subprocess.Popen[bytes] | None = None
    folder: Path | None = None
    _names: itertools.count[int] = field(default_factory=itertools.count)

    @classmethod
    def start(cls, *, fsync: bool = False) -> PostgresServer:
        """The server of ``TEST_DATABASE_URL``, or a new one (NoPostgres if impossible)."""
        url = os.environ.get(ENV_URL, "").strip()
        if url:
            return cls(url)
        bin_dir = binaries()
        if bin_dir is None:
            raise NoPostgres(missing())
        folder = Path(tempfile.mkdtemp(prefix="af-pg-"))
        as_user = "postgres" if os.geteuid() == 0 else None
        if as_user is not None:
            shutil.chown(folder, as_user, as_user)
        folder.chmod(0o700)
        data = folder / "data"
        subprocess.run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--locale=C",
            ],
            check=True,
            capture_output=True,
            user=as_user,
            cwd=folder,
        )
        last_error = ""
        for _ in range(5):
            port = _free_port()
            settings = [
                f"port={port}",
                "listen_addresses=127.0.0.1",
                f"unix_socket_directories={folder}",
                f"fsync={'on' if fsync else 'off'}",
                f"synchronous_commit={'on' if fsync else 'off'}",
                f"full_page_writes={'on' if fsync else 'off'}",
                "max_connections=200",
                "shared_buffers=64MB",
            ]
            args = [str(bin_dir / "postgres"), "-D", str(data)]
            for setting in settings:
                args += ["-c", setting]
            log = (folder / f"server-{port}.log").open("wb")
            process = subprocess.Popen(
                args,
                stdout=log,
                stderr=subprocess.STDOUT,
                user=as_user,
                cwd=folder,
                start_new_session=True,
            )
            server = cls(f"postgresql://postgres@127.0.0.1:{port}/postgres", process, folder)
            if server._wait_ready():
                return server
            process.kill()
            process.wait()
            last_error = (folder / f"server-{port}.log").read_text(errors="replace")[-500:]
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"the test PostgreSQL server did not start: {last_error}")

    def _wait_ready(self, timeout: float = 30.0) -> bool:
        assert self.process is not None
        host, port = self.admin_url.split("@", 1)[1].split("/", 1)[0].split(":")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            with contextlib.suppress(OSError), socket.create_connection((host, int(port)), 0.5):
                time.sleep(0.2)  # accepting connections; give it a moment to finish start-up
                return True
            time.sleep(0.1)
        return False

    def url_of(self, database: str) -> str:
        return self.admin_url.rsplit("/", 1)[0] + "/" + database

    async def create_database(self) -> str:
        """A new empty database; its URL."""
        name = f"af_test_{os.getpid()}_{next(self._names)}_{uuid.uuid4().hex[:6]}"
        conn = await self._admin()
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url_of(name)

    async def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        conn = await self._admin()
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    async def _admin(self) -> asyncpg.Connection:
        for attempt in range(50):
            try:
                return await asyncpg.connect(self.admin_url)
            except (OSError, asyncpg.CannotConnectNowError):
                if attempt == 49:
                    raise
                await _sleep(0.1)
        raise AssertionError("unreachable")

    def restart(self) -> None:
        """Stop the server (a fast shutdown: every connection is cut) and start it again
        on the same data and port, as an operator's restart does."""
        assert self.process is not None and self.folder is not None, "not a server of ours"
        args = [str(a) for a in self.process.args]  # type: ignore[union-attr]
        self.process.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown (SIGTERM waits)
        self.process.wait(30)
        log = (self.folder / "server-restarted.log").open("ab")
        as_user = "postgres" if os.geteuid() == 0 else None
        self.process = subprocess.Popen(
            args,
            stdout=log,
            stderr=subprocess.STDOUT,
            user=as_user,
            cwd=self.folder,
            start_new_session=True,
        )
        if not self._wait_ready():
            raise RuntimeError("the test PostgreSQL server did not start again")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # "smart" shutdown would wait; SIGTERM is "fast"
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


async def refuse_writes(url: str, on: bool) -> None:
    """PostgreSQL takes reads but refuses writes in every new session of the database at
    ``url`` (as a server read-only after a failover does; this database only: the test
    server is shared)."""
    name = url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(url.rsplit("/", 1)[0] + "/postgres")
    try:
        if on:
            await admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        else:
            await admin.execute(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
    finally:
        await admin.close()


async def _sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


__all__ = ["ENV_URL", "NoPostgres", "PostgresServer", "binaries", "missing", "refuse_writes"]
