"""Targeted checks that each region of the board image shows what the state holds.

States come from the scenario fixture; regions from ``layout_for``; pixels are sampled
from the RGB image before PNG encoding (the PNG palette shifts colours a little).
"""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.render import BOARD_SIZE, layout_for, render_board, render_board_image
from bot.render.__main__ import main as demo_main
from bot.render.geometry import Rect
from bot.render.live.tokens import ship
from bot.render.theme import FIELD_COLOURS, GOLD, HIGHLIGHT, PLAYER_RGB, SLOT, WHITE
from bot.text.strings import BOARD_EN
from engine.serialize import dumps
from engine.tables import FIELDS, FieldId
from tests.engine.scenario import scenario

RED, BLUE, GREEN, YELLOW = PLAYER_RGB


def share(image: Image.Image, rect: Rect, rgb: tuple[int, int, int], tol: int = 30) -> float:
    """Share of the pixels of ``rect`` within ``tol`` of ``rgb`` on every channel."""
    region = image.crop((rect.x, rect.y, rect.right, rect.bottom)).convert("RGB")
    mask = Image.new("L", region.size, 255)
    for band, c in zip(region.split(), rgb, strict=True):
        inside = band.point(lambda v, c=c: 255 if abs(v - c) <= tol else 0)
        mask = ImageChops.multiply(mask, inside)
    return mask.histogram()[255] / (region.width * region.height)


def far_from(image: Image.Image, rgb: tuple[int, int, int], tol: int = 90) -> bytes:
    """A mask of the pixels that differ from ``rgb`` by more than ``tol`` on some channel."""
    mask = Image.new("L", image.size, 0)
    for band, c in zip(image.convert("RGB").split(), rgb, strict=True):
        mask = ImageChops.lighter(mask, band.point(lambda v, c=c: 255 if abs(v - c) > tol else 0))
    return mask.tobytes()


def pixels(image: Image.Image, rect: Rect) -> bytes:
    return image.crop((rect.x, rect.y, rect.right, rect.bottom)).tobytes()


def test_a_red_four_on_the_lunar_mine_shows_red_and_its_value() -> None:
    layout = layout_for(4)
    dock = layout.docks["mine"][0]
    img = render_board_image(scenario(docks={"mine": "p1:4"}))
    assert share(img, dock, RED) > 0.25
    assert share(img, dock, WHITE, 40) > 0.03  # the white 4
    empty = render_board_image(scenario())
    assert share(empty, dock, RED) < 0.01
    # Another value is written on the same red.
    six = render_board_image(scenario(docks={"mine": "p1:6"}))
    assert pixels(six, dock) != pixels(img, dock)
    assert share(six, dock, RED) > 0.25


def test_ships_of_each_player_are_in_their_colour() -> None:
    layout = layout_for(4)
    img = render_board_image(scenario(docks={"solar": "p1:2 p2:3 p3:4 p4:5"}))
    for seat, rgb in enumerate(PLAYER_RGB):
        dock = layout.docks["solar"][seat]
        assert share(img, dock, rgb) > 0.15, seat  # a triangle or a diamond fills less
        others = [c for c in PLAYER_RGB if c != rgb]
        assert all(share(img, dock, c, 20) < 0.05 for c in others), seat


def test_the_relic_ship_looks_different_from_a_plain_ship() -> None:
    layout = layout_for(4)
    dock = layout.docks["solar"][0]
    relic = render_board_image(scenario(docks={"solar": "p1:3r"}))
    plain = render_board_image(scenario(docks={"solar": "p1:3"}))
    assert share(relic, dock, GOLD) > 0.15
    assert share(plain, dock, GOLD) < 0.02
    assert share(relic, dock, RED) < share(plain, dock, RED)


def test_the_relic_ship_sits_on_burroughs_until_bought() -> None:
    layout = layout_for(4)
    spot = layout.territories["burroughs"].relic
    on_desert = render_board_image(scenario())
    bought = render_board_image(scenario(docks={"solar": "p1:3r"}))
    assert share(on_desert, spot, GOLD) > 0.2
    assert share(bought, spot, GOLD) < 0.02


def test_blocked_docks_are_hatched_and_free_docks_are_not() -> None:
    s = scenario(players=2)
    layout = layout_for(2)
    img = render_board_image(s)
    for f in ("solar", "mine", "market", "yard", "constructor"):
        for r, slot in zip(layout.docks[f], s.docks[f], strict=True):
            grey = share(img, r, (70, 72, 82), 14) + share(img, r, (120, 122, 134), 14)
            if slot is None:
                assert grey < 0.05, (f, r)
            else:
                assert grey > 0.4, (f, r)


def test_a_ship_on_the_terraforming_station_is_marked_used_up() -> None:
    layout = layout_for(4)
    dock = layout.docks["terraform"][0]
    img = render_board_image(scenario(docks={"terraform": "p1:6"}))
    label = Rect(
        dock.right + 2, dock.y, layout.facilities["terraform"].right - dock.right - 4, dock.h
    )
    assert share(img, label, GOLD, 40) > 0.02  # the "used up" label
    plain = render_board_image(scenario(docks={"solar": "p1:6"}))
    # The crossed, dimmed die is less red than a plain one.
    assert share(img, dock, RED) < share(plain, layout.docks["solar"][0], RED) / 2


def test_colonies_show_their_owner_on_the_territory() -> None:
    layout = layout_for(4)
    row = layout.territories["lem"].colonies
    img = render_board_image(scenario(colonies={"lem": [0, 0, 2, 0]}))
    assert share(img, row, GREEN) > 0.05
    assert share(render_board_image(scenario()), row, GREEN) < 0.005


def test_control_is_shown_by_the_frame_and_the_token() -> None:
    layout = layout_for(4)
    parts = layout.territories["herbert"]
    edge = Rect(parts.tile.x, parts.tile.y + 40, 4, 40)
    img = render_board_image(scenario(colonies={"herbert": [0, 2, 1, 0]}))  # blue leads
    assert share(img, edge, BLUE) > 0.5
    assert share(img, parts.token, BLUE) > 0.2
    tied = render_board_image(scenario(colonies={"herbert": [0, 1, 1, 0]}))
    assert share(tied, edge, BLUE) < 0.1
    assert share(tied, parts.token, BLUE) < 0.05


@pytest.mark.parametrize("field", FIELDS)
def test_a_field_generator_shows_on_its_territory(field: FieldId) -> None:
    layout = layout_for(3)
    area = layout.territories["pohl"].fields
    img = render_board_image(scenario(players=3, fields={field: "pohl"}))
    assert share(img, area, FIELD_COLOURS[field], 12) > 0.1
    other = layout.territories["asimov"].fields
    assert share(img, other, FIELD_COLOURS[field], 12) < 0.01


def test_all_three_fields_fit_on_one_territory() -> None:
    layout = layout_for(4)
    area = layout.territories["burroughs"].fields
    img = render_board_image(scenario(fields=dict.fromkeys(FIELDS, "burroughs")))
    for colour in FIELD_COLOURS.values():
        assert share(img, area, colour, 12) > 0.03


def test_the_colony_hub_shows_track_positions_and_docked_ships() -> None:
    layout = layout_for(4)
    row = layout.hub_rows[2]
    img = render_board_image(scenario(hub={2: 5}, docks={"hub": "p3:2 p3:4"}))
    assert share(img, row.spaces[4], GREEN) > 0.15
    assert share(img, row.spaces[3], GREEN) < 0.05
    assert share(img, row.docks[0], GREEN) > 0.15  # a triangle
    assert share(img, row.docks[1], GREEN) > 0.15
    assert share(img, row.docks[2], GREEN) < 0.05


def test_the_maintenance_bay_shows_whose_ships_are_there() -> None:
    layout = layout_for(4)
    img = render_board_image(scenario(bay={3: "2 5"}))
    cell = layout.bay_groups[3]
    ships = Rect(cell.x + cell.h, cell.y, cell.w - cell.h, cell.h)
    assert share(img, ships, YELLOW) > 0.05
    assert share(img, Rect(*layout.bay_groups[1].xy, cell.w, cell.h), YELLOW) < 0.01


def test_the_display_and_the_deck_count_change_the_picture() -> None:
    layout = layout_for(4)
    a = render_board_image(scenario(display=("city", "monument", "decoy")))
    b = render_board_image(scenario(display=("plasma", "warper", "cache")))
    assert pixels(a, layout.tech_cards[0]) != pixels(b, layout.tech_cards[0])
    assert share(a, layout.tech_cards[0], GOLD, 20) > share(b, layout.tech_cards[0], GOLD, 20)
    s = scenario()
    before = render_board_image(s)
    s.deck[0] -= 1
    assert pixels(before, layout.deck) != pixels(render_board_image(s), layout.deck)


def test_the_current_player_is_highlighted_with_their_roll() -> None:
    layout = layout_for(4)
    img = render_board_image(scenario(current=1, undocked="3 4"))
    for seat, parts in enumerate(layout.panels):
        edge = Rect(parts.panel.x, parts.panel.y + 60, 3, 100)
        assert (share(img, edge, HIGHLIGHT) > 0.5) == (seat == 1), seat
    assert share(img, layout.panels[1].roll, BLUE) > 0.05
    assert share(img, layout.panels[0].roll, RED) < 0.01


def test_cards_used_this_turn_are_marked() -> None:
    layout = layout_for(4)
    s = scenario(cards={0: ["polarity", "plasma"]})
    fresh = render_board_image(s)
    s.turn.used.append("polarity")
    used = render_board_image(s)
    cards = layout.panels[0].cards
    assert pixels(fresh, cards) != pixels(used, cards)
    # On the final board a card is the winner's, not "used": no card is struck through.
    s.over = True
    final_used = render_board_image(s)
    s.turn.used.clear()
    assert pixels(final_used, cards) == pixels(render_board_image(s), cards)


def test_the_banner_shows_at_game_end_only() -> None:
    layout = layout_for(4)
    s = scenario(colonies={"lem": [3, 0, 0, 0]})
    running = render_board_image(s)
    s.over = True
    over = render_board_image(s)
    edge = Rect(layout.banner.x, layout.banner.center[1] - 20, 4, 40)
    assert share(over, edge, GOLD) > 0.5
    assert share(running, edge, GOLD) < 0.1
    # The winner's panel gets the frame and tag even though it is not their turn.
    winner_edge = Rect(layout.panels[0].panel.x, layout.panels[0].panel.y + 60, 3, 100)
    assert share(over, winner_edge, HIGHLIGHT) > 0.5


def test_players_differ_by_shape_not_only_colour() -> None:
    """Without colour, each player's ship is still told apart by its shape (the same as
    on the live board: ``tokens.ship``)."""
    outlines = {ship(40, seat, 5).getchannel("A").tobytes() for seat in range(4)}
    assert len(outlines) == 4


def test_on_the_full_board_at_550_pixels_the_players_shapes_differ() -> None:
    """``/af board detail:true`` as Discord shows it (550 pixels wide, a third of its
    size): each player's ship has a silhouette of its own (a tenth of its pixels or more
    differ from any other's: a circle and a square differ by their corners), at least 8
    pixels across (the dice's pips in the players' shapes were 3 pixels there)."""
    png = render_board(scenario(docks={"solar": "p1:5 p2:5 p3:5 p4:5"}), detail=True)
    full = Image.open(io.BytesIO(png)).convert("RGB")
    scale = 550 / full.width
    small = full.resize((550, round(full.height * scale)), Image.Resampling.LANCZOS)
    silhouettes = []
    for seat in range(4):
        r = layout_for(4).docks["solar"][seat]
        x, y, side = round(r.x * scale), round(r.y * scale), round(r.w * scale)
        cell = small.crop((x, y, x + side, y + side))
        # A ship's pixels: far from the empty dock's colour (whatever the player's colour).
        data = cell.tobytes()
        pixels = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
        mask = [int(sum(abs(a - b) for a, b in zip(px, SLOT, strict=True)) > 90) for px in pixels]
        silhouettes.append(mask)
        width = max(
            sum(mask[row * cell.width : (row + 1) * cell.width]) for row in range(cell.height)
        )
        assert width >= 8, (seat, width)
    for a, b in itertools.combinations(silhouettes, 2):
        differ = sum(x != y for x, y in zip(a, b, strict=True))
        assert differ >= 0.1 * max(sum(a), sum(b)), (differ, sum(a), sum(b))


def test_rendering_is_pure_and_deterministic() -> None:
    s = scenario(docks={"mine": "p1:4"}, colonies={"lem": [1, 0, 0, 0]}, undocked="2 5")
    before = dumps(s)
    a = render_board(s, ["Аня", "Łukasz", "Zoë", "Chidi"])
    b = render_board(s, ["Аня", "Łukasz", "Zoë", "Chidi"])
    assert a == b
    assert dumps(s) == before


def test_unknown_locale_falls_back_to_english_and_keeps_the_size() -> None:
    png = render_board(scenario(), locale="xx", detail=True)
    with Image.open(io.BytesIO(png)) as img:
        assert img.size == BOARD_SIZE


def test_every_board_label_used_by_the_renderer_exists() -> None:
    source = "\n".join(p.read_text() for p in Path("bot/render").glob("*.py"))
    keys = set(re.findall(r'label\(\s*"([a-z_.]+)"', source))
    keys |= set(re.findall(r'board_label\(\s*\w*,?\s*"([a-z_.]+)"', source))
    keys |= {f"status.{k}" for k in ("reveal", "first_player", "roll", "place", "raid")}
    keys |= {f"status.{k}" for k in ("plasma", "return", "dock", "idle")}
    keys |= {f"tiebreak.{k}" for k in ("none", "cards", "ore", "fuel", "shared")}
    keys |= {"deck", "discard", "fuel", "ore", "colonies", "ships", "cards", "display"}
    missing = sorted(k for k in keys if f"board.{k}" not in BOARD_EN)
    assert not missing
    assert len(keys) > 30


def test_the_demo_command_writes_four_boards_of_each_kind(tmp_path: Path) -> None:
    assert demo_main(["--demo", str(tmp_path)]) == 0
    files = sorted(p.name for p in tmp_path.glob("*.png"))
    boards = ["mid_2p.png", "mid_3p.png", "mid_4p.png", "over_4p.png"]
    assert files == [f"{kind}_{b}" for kind in ("full", "live") for b in boards]
    for p in tmp_path.glob("*.png"):
        assert p.stat().st_size <= 500 * 1024


def test_ships_in_the_maintenance_bay_have_no_pips() -> None:
    """A ship in the bay has no value until it is rolled: it is not drawn as a 1."""
    cell = layout_for(2).bay_groups[1]
    ones = render_board_image(scenario(2, bay={1: "1 1"}))
    sixes = render_board_image(scenario(2, bay={1: "6 6"}))
    assert pixels(ones, cell) == pixels(sixes, cell)
    assert share(ones, cell, BLUE) > 0.1


def test_a_member_named_in_lower_case_keeps_their_name_in_the_log() -> None:
    from bot.render.log import event_text
    from engine.state import Event

    docked = Event("docked", 0, {"facility": "mine", "values": "4"}, 1)
    assert event_text(docked, ["owner", "Bob"], "en").startswith("owner ")
    assert event_text(docked, ["Owner", "Bob"], "en").startswith("Owner ")
    started = Event("turn_started", 1, {"round": 2}, 1)
    assert event_text(started, ["owner", "bob"], "en").startswith("bob's turn")
    assert event_text(started, ["owner", "bob"], "ru").startswith("Ход игрока bob")
