"""Board image speed and size: prints figures, asserts nothing (tests never assert on time).

    python tests/benchmarks/bench_render.py [--players 4] [--runs 5] [--renders 40] [--detail]

Renders a busy mid-game state (seeded random play; 4 players unless ``--players`` says
otherwise) ``--renders`` times per run, PNG encoding included, and prints the median per
render (median of the runs' medians; CPU time, so a busy machine changes it little), the
split between drawing and encoding, and the PNG size. The first render of a process (it
builds the cached background and the palette) is reported apart, and so is a whole game
rendered every 5th state, where new texts and sprites keep appearing. The live board
(posted with turn messages) by default; ``--detail`` measures the full board of
``/af board detail``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.render import render_board, render_board_image, render_live_board_image
from bot.render.encode import encode_png
from bot.render.live.palette import live_palette
from bot.render.sample_states import DEMO_NAMES, mid_game, states


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--renders", type=int, default=40)
    parser.add_argument("--detail", action="store_true", help="the full board")
    args = parser.parse_args()
    s = mid_game(args.players, seed=1)
    names = list(DEMO_NAMES[: args.players])
    image_of = render_board_image if args.detail else render_live_board_image
    print("the full board" if args.detail else "the live board")

    t = time.process_time()
    png = render_board(s, names, detail=args.detail)
    first = time.process_time() - t
    # As render_board encodes: the live board in its player count's palette.
    palette = True if args.detail else live_palette(args.players)

    medians: list[float] = []
    draw: list[float] = []
    encode: list[float] = []
    for _ in range(args.runs):
        times = []
        for _ in range(args.renders):
            t0 = time.process_time()
            image = image_of(s, names)
            t1 = time.process_time()
            png = encode_png(image, palette)
            t2 = time.process_time()
            times.append(t2 - t0)
            draw.append(t1 - t0)
            encode.append(t2 - t1)
        medians.append(statistics.median(times))
    print(f"state: {args.players} players, round {s.round}, {s.version} actions in")
    print(f"first render (builds the cached background and palette): {_ms(first)}")
    print(f"median per render incl. PNG encoding: {_ms(statistics.median(medians))}")
    print(f"  runs: {', '.join(_ms(m) for m in medians)}")
    print(
        f"  drawing {_ms(statistics.median(draw))}, PNG encoding {_ms(statistics.median(encode))}"
    )
    print(f"PNG size: {len(png) / 1024:.0f} KB")

    game = list(states(args.players, seed=2, every=5))
    times, sizes = [], []
    for state in game:
        t0 = time.process_time()
        sizes.append(len(render_board(state, names, detail=args.detail)))
        times.append(time.process_time() - t0)
    print(
        f"a whole game, {len(game)} states: median {_ms(statistics.median(times))}, "
        f"max {_ms(max(times))}; PNG median {statistics.median(sizes) / 1024:.0f} KB, "
        f"max {max(sizes) / 1024:.0f} KB"
    )


if __name__ == "__main__":
    main()
