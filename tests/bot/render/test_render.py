"""The board image: renders every kind of state, reflects the state, covers the languages."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageFont

from bot.render import BOARD_SIZE, LIVE_SIZE, layout_for, render_board, render_board_image
from bot.render.fonts import FONT_DIR, FONT_FILES
from bot.render.geometry import Rect
from bot.render.theme import PLAYER_RGB
from engine.config import GameConfig
from engine.rules import apply_in_place
from engine.selfplay import random_action
from engine.setup import new_game
from engine.state import GameState
from tests.engine.scenario import scenario

PNG_LIMIT = 500 * 1024


def _colour_share(
    image: Image.Image, rect: Rect, rgb: tuple[int, int, int], tol: int = 30
) -> float:
    """Share of the pixels in ``rect`` within ``tol`` of ``rgb``."""
    region = image.crop((rect.x, rect.y, rect.x + rect.w, rect.y + rect.h)).convert("RGB")
    data = region.tobytes()
    pixels = [data[i : i + 3] for i in range(0, len(data), 3)]
    close = sum(1 for p in pixels if all(abs(p[i] - rgb[i]) <= tol for i in range(3)))
    return close / len(pixels)


def _region(image: Image.Image, rect: Rect) -> bytes:
    return image.crop((rect.x, rect.y, rect.x + rect.w, rect.y + rect.h)).tobytes()


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(players=2),
        GameConfig(players=3, mind_control_helm=True),
        GameConfig(players=4, finite_supply=True),
        GameConfig(players=4, long_game=True, mind_control_helm=True),
    ],
    ids=lambda c: f"{c.players}p{'-helm' if c.mind_control_helm else ''}",
)
def test_every_kind_of_state_renders(config: GameConfig) -> None:
    seen = {"fields": False, "relic out": False, "over": False}
    for seed in range(3):
        rng = random.Random(seed)
        s = new_game(config)
        step = 0
        while not s.over:
            apply_in_place(s, random_action(s, rng))
            step += 1
            if step % 37 == 0 or s.over:
                names = ["Аня", "Łukasz", "Zoë", "P4"][: config.players]
                detail = step % 74 == 0  # the live board and the full one, in turn
                png = render_board(s, names, detail=detail)
                assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) <= PNG_LIMIT
                with Image.open(io.BytesIO(png)) as img:
                    assert img.size == (BOARD_SIZE if detail else LIVE_SIZE)
                seen["fields"] |= any(t is not None for t in s.fields.values())
                seen["relic out"] |= not s.relic_on_desert
                seen["over"] |= s.over
        with Image.open(io.BytesIO(render_board(s, detail=True))) as img:
            assert img.size == BOARD_SIZE
    assert all(seen.values()), seen


def _mid_game() -> GameState:
    return scenario(
        undocked="2 5",
        docks={"mine": "p1:4 -", "solar": "p2:3"},
        colonies={"lem": [0, 2, 0, 0]},
        fields={"repulsor": "asimov"},
    )


def test_a_docked_ship_is_drawn_in_its_owners_colour() -> None:
    s = _mid_game()
    layout = layout_for(4)
    img = render_board_image(s)
    mine_dock = layout.docks["mine"][0]
    assert _colour_share(img, mine_dock, PLAYER_RGB[0]) > 0.3  # red die at the mine
    assert _colour_share(img, layout.docks["solar"][0], PLAYER_RGB[1]) > 0.3  # blue at solar
    assert _colour_share(img, layout.docks["mine"][1], PLAYER_RGB[0]) < 0.05  # free dock
    # The same dock empty looks different.
    empty = render_board_image(scenario(undocked="2 5"))
    assert _region(empty, mine_dock) != _region(img, mine_dock)


def test_blocked_docks_look_different_from_free_ones() -> None:
    s = scenario(players=2)
    layout = layout_for(2)
    img = render_board_image(s)
    free, blocked = layout.docks["mine"][0], layout.docks["mine"][-1]  # 2p: last docks blocked
    assert s.docks["mine"][-1] is not None and s.docks["mine"][0] is None
    assert _region(img, free) != _region(img, blocked)


def test_colonies_show_on_their_territory() -> None:
    layout = layout_for(4)
    lem = layout.territories["lem"].colonies
    with_colonies = render_board_image(_mid_game())
    assert _colour_share(with_colonies, lem, PLAYER_RGB[1]) > 0.02
    without = render_board_image(scenario(undocked="2 5"))
    assert _colour_share(without, lem, PLAYER_RGB[1]) < 0.005


def test_the_current_players_roll_is_shown_in_their_panel() -> None:
    layout = layout_for(4)
    roll = layout.panels[0].roll
    rolled = render_board_image(scenario(undocked="2 5 6"))
    nothing = render_board_image(scenario(undocked=""))
    assert _colour_share(rolled, roll, PLAYER_RGB[0]) > _colour_share(nothing, roll, PLAYER_RGB[0])


def test_the_banner_appears_when_the_game_is_over() -> None:
    layout = layout_for(4)
    s = _mid_game()
    before = render_board_image(s)
    s.over = True
    after = render_board_image(s)
    assert _region(before, layout.banner) != _region(after, layout.banner)


def _glyph_missing(face: ImageFont.FreeTypeFont, ch: str, notdef: bytes) -> bool:
    return bytes(face.getmask(ch)) == notdef


@pytest.mark.parametrize("file", sorted(FONT_FILES.values()))
def test_fonts_cover_russian_and_polish(file: str) -> None:
    face = ImageFont.truetype(str(FONT_DIR / file), 24)
    notdef = bytes(face.getmask("\U000e0fff"))  # a code point no font has: the .notdef box
    labels = [
        "Солнечный преобразователь, Лунная шахта, Пустыня Берроуза — ёЁ",
        "Konwerter słoneczny, Kopalnia księżycowa, Pustynia Burroughsa: ąćęłńóśźż ĄĆĘŁŃÓŚŹŻ",
        "Alien Frontiers · Round 3",
    ]
    missing = {
        ch for text in labels for ch in text if ch != " " and _glyph_missing(face, ch, notdef)
    }
    assert not missing, f"{file} lacks {sorted(missing)}"
    assert _glyph_missing(face, "\U000e0ffe", notdef)  # the check can fail


def test_font_licence_is_bundled() -> None:
    assert (FONT_DIR / "LICENSE-DejaVu.txt").read_text().strip()
