"""Shared pytest configuration: the fake Discord API fixtures for end-to-end bot tests."""

pytest_plugins = ["tests.discord_fake.fixtures"]
