"""``python -m bot.render --demo DIR``: write sample boards (2, 3, 4 players, a finished game),
the live board posted with turn messages and the full one (``/af board detail:true``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.render import render_board
from bot.render.sample_states import (
    DEMO_NAMES,
    DemoFolderError,
    check_folder,
    finished,
    make_folder,
    mid_game,
)
from bot.text import i18n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.render",
        description="Draw sample boards (2, 3 and 4 players mid-game, a finished game) into "
        "DIR: live_*.png as posted with turn messages, full_*.png as /af board detail:true.",
    )
    parser.add_argument(
        "--demo", metavar="DIR", type=Path, required=True, help="a new or empty folder"
    )
    parser.add_argument("--seed", type=int, default=1, help="the sample games' seed")
    parser.add_argument("--locale", default="en", help="language of the boards: en, ru or pl")
    args = parser.parse_args(argv)
    known = i18n.languages()
    if args.locale not in known:
        parser.error(f"unknown language {args.locale!r}: the known ones are {', '.join(known)}")
    try:
        out = make_folder(check_folder(args.demo))  # its own: nothing else there is replaced
    except DemoFolderError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    boards = {
        "mid_2p": mid_game(2, args.seed),
        "mid_3p": mid_game(3, args.seed),
        "mid_4p": mid_game(4, args.seed),
        "over_4p": finished(4, args.seed),
    }
    for name, state in boards.items():
        for kind, detail in (("live", False), ("full", True)):
            names = DEMO_NAMES[: state.num_players]
            data = render_board(state, names, args.locale, detail=detail)
            path = out / f"{kind}_{name}.png"
            try:
                path.write_bytes(data)
            except OSError as e:
                print(f"error: cannot write {path} ({e.strerror or e})", file=sys.stderr)
                return 2
            print(f"{path}  {len(data) / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
