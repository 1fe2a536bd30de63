"""An animated replay of a finished game: one board picture per turn, as a GIF.

The game is rebuilt from its action log (the engine's notation) and the board drawn
after every turn, then the frames are put together with Pillow. The whole animation
lasts at most ``MAX_SECONDS`` (each frame at least ``MIN_FRAME_MS``, at most a second;
the last one lingers), and it is made smaller, frame width by frame width, until it
fits ``MAX_BYTES`` (Discord's upload limit for a server without boosts).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from engine import GameConfig, GameState, apply_in_place, parse
from engine import new_game as engine_new_game

MAX_SECONDS: Final = 20.0
MAX_BYTES: Final = 10 * 1024 * 1024
MIN_FRAME_MS: Final = 40  # browsers slow down faster GIF frames to 100 ms
MAX_FRAME_MS: Final = 1000
LAST_FRAME_MS: Final = 2500
WIDTHS: Final = (960, 720, 540, 400)  # tried in turn until the file fits

Renderer = Callable[[GameState, "list[str] | None", str], bytes]


@dataclass(frozen=True, slots=True)
class Replay:
    """The animation and what it holds."""

    data: bytes
    frames: int
    seconds: float
    width: int
    final: GameState  # the last board's state (its description)


def turn_states(config: GameConfig, notations: Sequence[str]) -> list[GameState]:
    """The state at the end of every turn (and the final one), replayed from the log."""
    state = engine_new_game(config)
    out: list[GameState] = []
    turn = state.turn_number
    for notation in notations:
        apply_in_place(state, parse(notation))
        if state.turn_number != turn:
            if turn > 0:
                out.append(state.copy())
            turn = state.turn_number
    out.append(state.copy())
    return out


def frame_ms(frames: int) -> int:
    """How long each frame shows so the whole replay takes at most ``MAX_SECONDS``."""
    available = MAX_SECONDS * 1000 - LAST_FRAME_MS
    share = int(available / max(frames - 1, 1))
    return max(MIN_FRAME_MS, min(MAX_FRAME_MS, share // 10 * 10))


def make_replay(
    config: GameConfig,
    notations: Sequence[str],
    seat_names: list[str],
    locale: str,
    renderer: Renderer,
) -> Replay:
    """Draw every turn's board and animate them (blocking: run it in a worker thread)."""
    states = turn_states(config, notations)
    if len(states) * MIN_FRAME_MS > MAX_SECONDS * 1000:  # a very long game: skip turns
        step = -(-len(states) * MIN_FRAME_MS // int(MAX_SECONDS * 1000))
        states = [*states[:-1:step], states[-1]]
    boards = [Image.open(io.BytesIO(renderer(s, seat_names, locale))) for s in states]
    each = frame_ms(len(boards))
    durations = [each] * (len(boards) - 1) + [LAST_FRAME_MS]
    seconds = sum(durations) / 1000
    for width in WIDTHS:
        data = _gif(boards, durations, width)
        if len(data) <= MAX_BYTES or width == WIDTHS[-1]:
            return Replay(data, len(boards), seconds, min(width, boards[0].width), states[-1])
    raise AssertionError("unreachable")


def _gif(boards: Sequence[Image.Image], durations: list[int], width: int) -> bytes:
    """The frames at ``width``, in one palette (the first frame's: every colour of the
    board is there from the start), without dithering (flat colours compress well)."""
    frames: list[Image.Image] = []
    for board in boards:
        image = board.convert("RGB")
        if image.width > width:
            height = round(image.height * width / image.width)
            image = image.resize((width, height), Image.Resampling.BILINEAR)
        if frames:
            frames.append(image.quantize(palette=frames[0], dither=Image.Dither.NONE))
        else:
            frames.append(image.quantize(colors=255, method=Image.Quantize.FASTOCTREE))
    out = io.BytesIO()
    frames[0].save(
        out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0
    )
    return out.getvalue()


__all__ = ["MAX_BYTES", "MAX_SECONDS", "Replay", "frame_ms", "make_replay", "turn_states"]
