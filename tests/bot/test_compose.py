"""``compose.yaml``, the deployment of a big bot: PostgreSQL and bot processes that
together run every shard once, each with a health check and a restart policy."""

from __future__ import annotations

import urllib.parse
from typing import Any

import yaml

from bot.settings import from_env
from tests.bot.processes import ROOT


def test_the_bot_processes_cover_every_shard_once_on_one_database() -> None:
    compose: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    bots = {name: s for name, s in services.items() if name.startswith("bot")}
    assert len(bots) >= 2
    settings = [from_env(s["environment"]) for s in bots.values()]  # as each process reads it
    counts = {s.shards.count for s in settings if s.shards is not None}
    assert len(counts) == 1, "every process must be given the same SHARD_COUNT"
    (count,) = counts
    shards = [i for s in settings if s.shards is not None for i in s.shards.ids]
    assert sorted(shards) == list(range(count)), "each shard run by exactly one process"
    urls = {s["environment"]["DATABASE_URL"] for s in bots.values()}
    assert len(urls) == 1 and next(iter(urls)).startswith("postgresql://")
    assert "@db:5432/" in next(iter(urls))

    for name, service in services.items():
        assert service["restart"] == "unless-stopped", name
        assert service["healthcheck"]["test"], name
    for service in bots.values():
        assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"]
        assert service["environment"]["HEALTH_FILE"]
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
    database = services["db"]
    # No default password, and none inside a URL (where @, / or : would break it): the
    # bots get it in PGPASSWORD, which asyncpg reads.
    required = "${POSTGRES_PASSWORD:?"
    assert database["environment"]["POSTGRES_PASSWORD"].startswith(required)
    for service in bots.values():
        assert service["environment"]["PGPASSWORD"].startswith(required)
        assert urllib.parse.urlsplit(service["environment"]["DATABASE_URL"]).password is None
    # The network other containers join to reach db:5432 (docs/hosting.md's copy-db).
    network = compose["networks"]["default"]["name"]
    assert f"--network {network} " in (ROOT / "docs" / "hosting.md").read_text()
    assert database["image"].startswith("postgres:")
    assert any(v.endswith(":/var/lib/postgresql/data") for v in database["volumes"])
    assert {v.split(":")[0] for v in database["volumes"]} <= {"pg-data", "./backups"}
    assert "pg-data" in compose["volumes"]
