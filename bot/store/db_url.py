"""A PostgreSQL ``DATABASE_URL`` read before anything connects with it, and shown without
its password.

asyncpg reads a URL as ``postgresql://user:password@host:port,host2:port2/database?options``
(the user and password up to the first ``@``, each percent-decoded). A password holding
``@``, ``/``, ``?`` or ``#`` as it is cuts the URL in the wrong place, and asyncpg then
fails with a traceback that quotes a piece of the password (``invalid literal for int()
… 's3cr3t:w'``) or looks for a server named after the rest of it. ``url_problem`` finds
those mistakes first and says what to write instead, without quoting the URL's parts;
``masked_url`` is the only form of a URL that is ever printed or logged.
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Final

POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")
_PASSWORD_OPTION: Final = re.compile(r"(?i)(password=)[^&#]*")
_IPV6: Final = re.compile(r"\[([^\]]+)\](?::(.*))?")
PASSWORD_HELP: Final = (
    "write it percent-encoded (@ as %40, / as %2F, ? as %3F, # as %23, % as %25), or leave the "
    "password out of the URL (postgresql://user@host:5432/alienfrontiers) and set PGPASSWORD"
)


def is_postgres(url: str) -> bool:
    return url.startswith(POSTGRES_SCHEMES)


def masked_url(url: str) -> str:
    """``url`` fit to print or log: a password (between the user's ``:`` and the last
    ``@``, whatever the URL's shape, and a ``password=`` option) as ``***``. A SQLite URL
    (a path) is shown as it is; any other (``postgresql://``, or a misspelt scheme) masked."""
    if url.startswith("sqlite:") or "://" not in url:
        return url
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if at and ":" in credentials:
        rest = f"{credentials.split(':', 1)[0]}:***@{host}"
    return scheme + sep + _PASSWORD_OPTION.sub(r"\1***", rest)


def url_problem(url: str) -> str | None:
    """What is wrong with a PostgreSQL URL as asyncpg would read it, in words that quote
    none of its parts (one may be the password); None if it can be read."""
    rest = url.partition("://")[2]
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:  # "Invalid IPv6 URL": a [ without its ]
        return "an IPv6 address is written in brackets, [::1]:5432, and a [ must be closed"
    netloc = parts.netloc
    if "@" not in netloc and "@" in rest:
        return (
            "the password (or the user) holds a /, ? or #, which end a URL's server part: "
            + PASSWORD_HELP
        )
    if netloc.count("@") > 1:
        return "the password (or the user) holds an @: " + PASSWORD_HELP
    hosts = netloc.rpartition("@")[2]
    if hosts:
        for spec in hosts.split(","):
            problem = _host_problem(spec)
            if problem is not None:
                return problem
    if parts.query:
        try:
            options = urllib.parse.parse_qs(parts.query, strict_parsing=True)
        except ValueError:
            return "the options after ? must be name=value pairs joined by &"
        for port in options.get("port", []):
            if not all(_is_port(p) for p in port.split(",")):
                return "the port option must be a number from 1 to 65535"
    return None


def _host_problem(spec: str) -> str | None:
    if not spec:
        return "the list of servers has an empty entry (two commas, or a comma at an end)"
    if spec.startswith("/"):  # a Unix socket's folder
        return None
    if spec.startswith("["):
        found = _IPV6.fullmatch(spec)
        if found is None:
            return "an IPv6 address is written in brackets, [::1]:5432, and a [ must be closed"
        port = found.group(2) or ""
    else:
        port = spec.partition(":")[2]
    if port and not _is_port(urllib.parse.unquote(port)):
        # Not quoted: with a / in the password, what stands here is a piece of it.
        return (
            "what follows the server's name after : is not a port (a number from 1 to 65535); "
            "if it is part of the password, " + PASSWORD_HELP
        )
    return None


def _is_port(text: str) -> bool:
    return text.isdigit() and 1 <= int(text) <= 65535


__all__ = ["PASSWORD_HELP", "POSTGRES_SCHEMES", "is_postgres", "masked_url", "url_problem"]
