"""The live board: legible where Discord shows it (no text under 10 pixels once the picture
is 550 pixels wide), the same layout in every language, and true to the state."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.render import (
    LIVE_SIZE,
    clear_caches,
    fonts,
    render_board,
    render_board_image,
    render_live_board_image,
)
from bot.render.encode import encode_png, palette_of
from bot.render.fonts import DrawnText, FitRecord
from bot.render.geometry import Rect
from bot.render.live import live_layout
from bot.render.live.layout import MIN_TEXT, PREVIEW_TEXT, PREVIEW_WIDTH, WIDTH
from bot.render.live.palette import live_palette
from bot.render.sample_states import finished, mid_game
from bot.render.theme import GOLD, PINNED, PLAYER_RGB
from engine import GameState
from engine.tables import CARDS, CardId
from tests.bot.render.test_regions import share
from tests.engine.scenario import scenario

RED, BLUE, GREEN, YELLOW = PLAYER_RGB
LONG_NAMES = (
    "Aleksandra Wiśniewska-Kowalczyk1",
    "Владимир Александрович Петров-Ив",
    "Bartholomew Featherstonehaugh Jr",
    "Żaneta Łukaszewicz-Grzegorczykóś",
)


def showcase(players: int) -> Iterator[GameState]:
    """States that put everything on the board: every card in hands (used and not) and on
    display, every field (two on one territory), the relic ship waiting and owned, a ship
    used up on the Terraforming Station, the finite supply, a market rate, each pending
    decision, a finished game."""
    cards = list(CARDS)
    per = len(cards) // players + 1
    yield scenario(
        players,
        undocked="2 5r",
        docks={"terraform": "p1:6", "market": "p1:3 p1:3", "mine": "p2:4"},
        cards={p: cards[p * per : (p + 1) * per] for p in range(players)},
        display=("gravity", "decoy", "teleporter"),
        fields={"isolation": "burroughs", "positron": "lem", "repulsor": "lem"},
        colonies={"burroughs": [2, 1] + [0] * (players - 2), "lem": [1, 1] + [0] * (players - 2)},
        fuel=[9, 6, 5, 4][:players],
        ore=[8, 4, 3, 2][:players],
        hub={0: 6, 1: 3},
        bay={1: "2 5"},
        mind_control_helm=True,
        finite_supply=True,
    )
    yield mid_game(players, 1)
    yield mid_game(players, 3)
    yield finished(players, 2)


@pytest.fixture
def drawn() -> Iterator[tuple[list[DrawnText], list[FitRecord]]]:
    """Every text drawn and every label measured while rendering (caches cleared first)."""
    clear_caches()
    fonts.TEXT_LOG, fonts.FIT_LOG = [], []
    try:
        yield fonts.TEXT_LOG, fonts.FIT_LOG
    finally:
        fonts.TEXT_LOG = fonts.FIT_LOG = None
        clear_caches()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_text_is_smaller_than_10_pixels_at_550_wide(
    players: int, drawn: tuple[list[DrawnText], list[FitRecord]]
) -> None:
    texts, fits = drawn
    for locale in ("en", "ru", "pl"):
        for state in showcase(players):
            image = render_live_board_image(state, LONG_NAMES[:players], locale)
            assert image.size == LIVE_SIZE  # the same layout in every language
    assert MIN_TEXT * PREVIEW_WIDTH / WIDTH >= PREVIEW_TEXT
    assert len(texts) > 100
    small = {(t.text, t.size) for t in texts if t.size * PREVIEW_WIDTH / WIDTH < PREVIEW_TEXT}
    assert not small, sorted(small)[:10]
    # Labels shrink no lower than that and are never cut; only members' names may be.
    for r in fits:
        if r.fitted is None:
            assert any(r.text.startswith(n[:4]) for n in LONG_NAMES), r.text
            continue
        assert r.fitted.fits, (r.text, r.width, r.fitted)
        assert r.fitted.size >= MIN_TEXT, r
    assert {t.text for t in texts} >= {"1", "2", "3", "4", "5", "6"}  # ship values


def dock(players: int, facility: str, index: int = 0) -> Rect:
    return live_layout(players).docks[facility][index]  # type: ignore[index]


def test_a_ship_shows_its_owners_colour_shape_and_value() -> None:
    s = scenario(docks={"mine": "p1:4 p2:5", "solar": "p3:2 p4:6"})
    image = render_live_board_image(s)
    assert share(image, dock(4, "mine", 0), RED) > 0.3
    assert share(image, dock(4, "mine", 1), BLUE) > 0.3
    assert share(image, dock(4, "solar", 0), GREEN) > 0.15  # a triangle fills less
    assert share(image, dock(4, "solar", 1), YELLOW) > 0.15
    # The shapes differ: a circle, a square, a triangle and a diamond fill their docks less
    # and less; the value is written inside (its own pixels).
    filled = [
        share(image, dock(4, "mine", 0), RED),
        share(image, dock(4, "mine", 1), BLUE),
        share(image, dock(4, "solar", 0), GREEN),
    ]
    assert filled[1] > filled[0] > filled[2]
    four = render_live_board_image(scenario(docks={"mine": "p1:4"}))
    five = render_live_board_image(scenario(docks={"mine": "p1:5"}))
    r = dock(4, "mine", 0)
    crop = (r.x, r.y, r.right, r.bottom)
    assert four.crop(crop).tobytes() != five.crop(crop).tobytes()
    empty = render_live_board_image(scenario())
    assert share(empty, dock(4, "mine", 0), RED) < 0.01


def test_ships_in_the_maintenance_bay_show_no_value() -> None:
    layout = live_layout(2)
    cell = layout.bay_cells[1]
    ones = render_live_board_image(scenario(2, bay={1: "1 1"}))
    sixes = render_live_board_image(scenario(2, bay={1: "6 6"}))
    box = (cell.x, cell.y, cell.right, cell.bottom)
    assert ones.crop(box).tobytes() == sixes.crop(box).tobytes()  # the value does not show
    docked = render_live_board_image(scenario(2, docks={"solar": "- p2:1 p2:2 p2:3"}))
    assert share(ones, cell, BLUE) > share(docked, cell, BLUE) + 0.05  # the ships show


def test_colonies_control_and_fields_show_on_their_territory() -> None:
    layout = live_layout(4)
    row = layout.territories["lem"]
    plain = render_live_board_image(scenario())
    held = render_live_board_image(scenario(colonies={"lem": [2, 0, 1, 0]}))
    assert share(held, row, RED) > share(plain, row, RED) + 0.02  # two colonies and the frame
    assert share(held, row, GREEN) > share(plain, row, GREEN)  # one colony
    fielded = render_live_board_image(scenario(fields={"repulsor": "lem"}))
    assert fielded.crop((row.x, row.y, row.right, row.bottom)).tobytes() != (
        plain.crop((row.x, row.y, row.right, row.bottom)).tobytes()
    )


def test_the_header_shows_whose_turn_and_their_dice() -> None:
    header = live_layout(4).header
    first = render_live_board_image(scenario(undocked="2 5", current=0))
    second = render_live_board_image(scenario(undocked="2 5", current=1))
    assert share(first, header, RED) > 0.01 and share(second, header, BLUE) > 0.01
    assert share(first, header, BLUE) < 0.005


def test_the_png_is_small() -> None:
    for players in (2, 3, 4):
        for state in showcase(players):
            png = render_board(state, LONG_NAMES[:players])
            assert len(png) <= 500 * 1024
            with Image.open(io.BytesIO(png)) as image:
                assert image.size == LIVE_SIZE


@pytest.mark.parametrize("players", [2, 4])
def test_the_png_holds_the_pixels_pillow_would_write(players: int) -> None:
    """The palette PNG is written by ``bot.render.encode`` (ISA-L's deflate): decoded, it is
    the image Pillow's own PNG writer gives, index for index and colour for colour."""
    palette = live_palette(players)
    for state in showcase(players):
        image = render_live_board_image(state, LONG_NAMES[:players])
        ours = Image.open(io.BytesIO(encode_png(image, palette)))
        quantized = image.quantize(palette=palette, dither=Image.Dither.NONE)
        written = io.BytesIO()
        quantized.save(written, "PNG")
        pillows = Image.open(io.BytesIO(written.getvalue()))
        assert ours.mode == pillows.mode == "P"
        assert ours.tobytes() == pillows.tobytes()
        assert ours.convert("RGB").tobytes() == pillows.convert("RGB").tobytes()
    full = render_board_image(mid_game(players, 1))
    ours = Image.open(io.BytesIO(encode_png(full, keep=PINNED)))
    quantized = full.quantize(palette=palette_of(full, PINNED), dither=Image.Dither.NONE)
    assert ours.convert("RGB").tobytes() == quantized.convert("RGB").tobytes()


def test_a_card_worth_vp_has_a_mark_besides_its_colour() -> None:
    """A VP card's chip (in a hand and on display) carries a gold star after its name: its
    chip's colour is not the only cue (the PNG as sent is measured)."""
    layout = live_layout(4)
    hand, display = layout.panels[0].cards, layout.display

    def gold(cards: list[CardId], shown: tuple[CardId, ...], where: Rect) -> float:
        png = render_board(scenario(cards={0: cards}, display=shown))
        with Image.open(io.BytesIO(png)) as image:
            return share(image.convert("RGB"), where, GOLD, 8)

    assert gold(["city", "booster"], ("decoy",), hand) > 0.002
    assert gold(["stasis", "booster"], ("decoy",), hand) == 0
    assert gold([], ("monument", "decoy", "teleporter"), display) > 0.002
    assert gold([], ("gravity", "decoy", "teleporter"), display) == 0


# ---- a player's marks, large enough at the size Discord shows the board ------------------

MARK_AT_PREVIEW = 12  # pixels, once the board is 550 wide: a mark that reads at a glance


def marks_after_preview(png: bytes) -> tuple[Image.Image, float]:
    """The encoded board as decoded, scaled to Discord's preview width (bilinear)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    k = PREVIEW_WIDTH / image.width
    return image.resize((PREVIEW_WIDTH, round(image.height * k)), Image.Resampling.BILINEAR), k


def mark_extent(image: Image.Image, area: Rect, k: float, colour: tuple[int, int, int]) -> int:
    """The smaller side of a player's mark found in ``area`` (full-size pixels) of the scaled
    ``image``: the pixels of their colour, grown through every pixel that stands out from
    the area's background (a ring, an edge), as one connected shape."""
    x0, y0 = max(0, int(area.x * k) - 2), max(0, int(area.y * k) - 2)
    x1, y1 = int(area.right * k) + 3, int(area.bottom * k) + 3
    crop = image.crop((x0, y0, x1, y1))
    w, h = crop.size
    data = crop.tobytes()

    def px(x: int, y: int) -> tuple[int, int, int]:
        i = 3 * (y * w + x)
        return data[i], data[i + 1], data[i + 2]

    border = [px(x, y) for x in range(w) for y in (0, h - 1)] + [
        px(x, y) for y in range(h) for x in (0, w - 1)
    ]
    background = max(set(border), key=border.count)

    def far(a: tuple[int, ...], b: tuple[int, ...], d: int) -> bool:
        return max(abs(p - q) for p, q in zip(a, b, strict=False)) > d

    seeds = [(x, y) for x in range(w) for y in range(h) if not far(px(x, y), colour, 40)]
    assert seeds, (area, colour)
    seen = set(seeds)
    todo = list(seeds)
    while todo:
        x, y = todo.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            inside = 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen
            if inside and far(px(nx, ny), background, 60):
                seen.add((nx, ny))
                todo.append((nx, ny))
    xs = [x for x, _ in seen]
    ys = [y for _, y in seen]
    return min(max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def test_a_players_marks_are_12_pixels_at_the_preview_size() -> None:
    """The expert measured the marks on the hub and bay rows and beside "N left" at 3.5 to
    8 pixels once Discord scaled the board to 550: each is 12 or more, on the PNG sent."""
    s = scenario(4, bay={seat: "1 2" for seat in range(4)}, hub={0: 3, 1: 1, 2: 5, 3: 2})
    image, k = marks_after_preview(render_board(s))
    layout = live_layout(4)
    figures = {}
    for seat, colour in enumerate(PLAYER_RGB):
        cell = layout.bay_cells[seat]
        figures[f"seat {seat}: hub row"] = mark_extent(
            image, layout.hub_rows[seat].badge, k, colour
        )
        figures[f"seat {seat}: bay cell"] = mark_extent(
            image, Rect(cell.x, cell.y, cell.h, cell.h), k, colour
        )
        ship = Rect(cell.x + cell.h + 6, cell.y, cell.h, cell.h)  # their first ship there
        figures[f"seat {seat}: ship in the bay"] = mark_extent(image, ship, k, colour)
        panel = layout.panels[seat]
        figures[f"seat {seat}: panel"] = mark_extent(image, panel.badge, k, colour)
        stats = panel.stats  # fuel, ore, then the mark beside "N left"
        beside = Rect(stats.x + stats.w // 3, stats.y, stats.w * 2 // 3, stats.h)
        figures[f"seat {seat}: beside N left"] = mark_extent(image, beside, k, colour)
    small = {where: size for where, size in figures.items() if size < MARK_AT_PREVIEW}
    assert not small, f"marks under {MARK_AT_PREVIEW} px at 550 wide: {small}; all: {figures}"
