"""What every command of ``python -m bot`` shares: the ``--env-file`` option and the file
it names, and a mistake reported as one line with exit code 2."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.settings import SettingsError


def add_env_file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--env-file",
        metavar="FILE",
        help="file of settings to load (default: .env, if there is one); variables set in "
        "the environment win over it",
    )


def env_file(args: argparse.Namespace) -> str:
    """The settings file to load: ``--env-file`` (which must exist), else ``.env``."""
    if args.env_file is None:
        return ".env"
    path = Path(args.env_file)
    if path.is_dir():
        raise SettingsError(f"--env-file {args.env_file}: that is a folder, not a settings file")
    if not path.exists():  # /dev/null is fine: no settings from a file
        raise SettingsError(f"--env-file {args.env_file}: there is no such file")
    return str(args.env_file)


def fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2
