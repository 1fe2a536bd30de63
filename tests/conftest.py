"""Shared pytest configuration: the fake Discord API fixtures for end-to-end bot tests, and
the databases: ``db_url`` (and ``store``) runs a test on SQLite and on PostgreSQL (``pg_url``
on PostgreSQL only), each test with a database of its own."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.store.storage import Storage
from tests.postgres import NoPostgres, PostgresServer, missing

pytest_plugins = ["tests.discord_fake.fixtures"]

BACKENDS = ("sqlite", "postgresql")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Without PostgreSQL, one line at the end says so (and why the tests were skipped)."""
    reason = missing()
    if reason is not None:
        skipped = len(terminalreporter.stats.get("skipped", []))
        terminalreporter.write_line(f"{reason} ({skipped} skipped)")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server per test session (per xdist worker).

    Without PostgreSQL the tests that need it are skipped with one line — except in CI
    (``CI`` set), which must run them: there it is an error.
    """
    try:
        server = PostgresServer.start()
    except NoPostgres as e:
        if os.environ.get("CI"):
            pytest.fail(f"{e} (CI must run the PostgreSQL tests)", pytrace=False)
        pytest.skip(str(e))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_url(pg_server: PostgresServer) -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL database of this test's own (dropped afterwards)."""
    url = await pg_server.create_database()
    try:
        yield url
    finally:
        await pg_server.drop_database(url)


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A ``DATABASE_URL`` of an empty database: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'af.db'}"
        return
    server: PostgresServer = request.getfixturevalue("pg_server")
    url = await server.create_database()
    try:
        yield url
    finally:
        await server.drop_database(url)


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Storage]:
    """The bot's storage on each database in turn (``db_url``), migrated, closed after."""
    s = await Storage.open(db_url)
    yield s
    await s.close()
