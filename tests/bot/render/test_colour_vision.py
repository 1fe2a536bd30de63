"""Colour vision and contrast: the four players stay apart for the common colour-vision
deficiencies, and the board's colours meet WCAG 2.x contrast.

Simulation: Machado, Oliveira and Fernandes (2009) at severity 1.0, from colour-science
(``colour.matrix_cvd_Machado2009``), applied to linear sRGB: protanopia and deuteranopia
(full loss of the L or M cones); for tritanopia the library's closest, Machado's
tritanomaly at severity 1.0, which the library notes is an approximation (a shift of the
S cones rather than their loss).

Distance: CIEDE2000 (ΔE00, D65) between the simulated colours. ΔE00 about 1 is a
just-noticeable difference between two large patches side by side and about 5 a clear
one; a player's pieces are small (a ship is 35 pixels on the 1100-pixel board, about 17
once Discord shows it 550 wide) and are compared across the board rather than side by
side, where discrimination is two to three times worse, so two colours that must never
be mistaken are asked to differ by ``MIN_DELTA_E`` = 10: clearly distinguishable.

Contrast: the WCAG 2.x contrast ratio of relative luminances, (L1 + 0.05) / (L2 + 0.05):
3:1 for graphical objects (a player's pieces against what they sit on, SC 1.4.11) and
4.5:1 for text (SC 1.4.3). Players are also told apart by shape (``theme.PLAYER_SHAPES``),
so colour is never the only cue; these tests make the colour cue hold on its own too.
"""

from __future__ import annotations

import functools
import io
import itertools
import warnings
from collections import Counter
from typing import Final

import numpy as np
import pytest
from PIL import Image

from bot.render import theme
from bot.render.live.draw import BONUS, ROW
from bot.render.theme import RGB
from engine.tables import PLAYER_COLOURS
from tests.engine.scenario import scenario

with warnings.catch_warnings():
    # colour-science says at import that SciPy and Matplotlib (unused here) are absent.
    warnings.simplefilter("ignore")
    import colour

MIN_DELTA_E: Final = 10.0  # CIEDE2000: clearly distinguishable (see the module docstring)
GRAPHICS: Final = 3.0  # WCAG 2.x SC 1.4.11, non-text contrast
BODY_TEXT: Final = 4.5  # WCAG 2.x SC 1.4.3, text smaller than "large scale"

# Machado (2009) deficiency at severity 1.0, by the name a test reports.
VISIONS: Final[dict[str, str | None]] = {
    "normal": None,
    "protanopia": "Protanomaly",
    "deuteranopia": "Deuteranomaly",
    "tritanopia": "Tritanomaly",  # the library's closest: tritanomaly at full severity
}
_D65 = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]

PLAYERS: Final[dict[str, RGB]] = dict(zip(PLAYER_COLOURS, theme.PLAYER_RGB, strict=True))
INKS: Final[dict[str, RGB]] = dict(zip(PLAYER_COLOURS, theme.PLAYER_INK, strict=True))


def own_tint(player: RGB, t: float) -> RGB:
    """A box tinted in a player's colour (their panel header)."""
    return theme.mix(theme.BOX, player, t)


def own_row(player: RGB) -> RGB:
    """A player's hub row or bay cell (``theme.row_tint``) on the live board; the full
    board's tint is lighter of the player's colour, so darker."""
    return theme.row_tint(player, HUB_AND_BAY_TINT)


# What a player's pieces (ships, colonies, badges, hub spaces, the frame of a territory
# they control) sit on, in the live board (bot/render/live/draw.py) and the full board.
# PLATE is not among them: it only surrounds docks, and a ship sits inside its dock's SLOT.
PIECE_BACKGROUNDS: Final[dict[str, RGB]] = {
    "SLOT": theme.SLOT,  # docked ships, hub docks, the hub track's empty spaces
    "HEADER": theme.HEADER,  # ships still to dock, the current player's badge
    "BOX": theme.BOX,  # the colony marker in a player's panel
    "ROW": ROW,  # colonies on a territory, the controller's frame (inside)
    "BACKGROUND": theme.BACKGROUND,  # the controller's frame (outside)
}
HUB_AND_BAY_TINT: Final = 0.14  # live board (draw.py); the full board's 0.12 is darker
PANEL_HEADER_TINT: Final = 0.4  # a panel's header band, which holds the player's badge


def linear(rgb: RGB) -> np.ndarray:
    return np.asarray(colour.models.eotf_sRGB(np.asarray(rgb, dtype=float) / 255))


def seen(rgb: RGB, vision: str) -> np.ndarray:
    """CIE Lab (D65) of ``rgb`` as seen with ``vision``."""
    rgb_linear = linear(rgb)
    deficiency = VISIONS[vision]
    if deficiency is not None:
        with warnings.catch_warnings():  # the tritanomaly approximation's notice
            warnings.simplefilter("ignore", colour.utilities.ColourUsageWarning)
            matrix = colour.matrix_cvd_Machado2009(deficiency, 1.0)
        rgb_linear = np.clip(matrix @ rgb_linear, 0.0, 1.0)
    xyz = colour.RGB_to_XYZ(rgb_linear, "sRGB")
    return np.asarray(colour.XYZ_to_Lab(xyz, _D65))


def delta_e(a: RGB, b: RGB, vision: str = "normal") -> float:
    """CIEDE2000 between ``a`` and ``b`` as seen with ``vision``."""
    return float(colour.delta_E(seen(a, vision), seen(b, vision), method="CIE 2000"))


def luminance(rgb: RGB) -> float:
    """WCAG 2.x relative luminance."""
    channels = [c / 255 for c in rgb]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2.x contrast ratio, 1 to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def below(figures: dict[str, float], floor: float) -> list[str]:
    return sorted(k for k, v in figures.items() if v < floor)


def report(figures: dict[str, float], floor: float) -> str:
    """The failing pairs, then every figure, lowest first."""
    shown = ", ".join(f"{k} {v:.2f}" for k, v in sorted(figures.items(), key=lambda kv: kv[1]))
    return f"below {floor}: {below(figures, floor)}; all (lowest first): {shown}"


# ---- the instruments themselves -----------------------------------------------------


def test_contrast_ratio_matches_wcag_reference_values() -> None:
    assert contrast(theme.WHITE, (0, 0, 0)) == pytest.approx(21.0)
    assert contrast((119, 119, 119), theme.WHITE) == pytest.approx(4.48, abs=0.01)
    assert contrast(theme.GOLD, theme.GOLD) == pytest.approx(1.0)


def test_simulation_merges_a_known_red_green_confusion() -> None:
    """The board's first red and green, told apart by normal vision but by almost
    nothing with deuteranopia: the checks below can fail."""
    red, green = (222, 52, 52), (40, 168, 78)
    assert delta_e(red, green) > 50
    assert delta_e(red, green, "deuteranopia") < MIN_DELTA_E
    assert delta_e(red, green, "protanopia") < delta_e(red, green)


# ---- players against each other and against the board --------------------------------


@pytest.mark.parametrize("vision", list(VISIONS))
def test_player_colours_differ_from_each_other_for_each_colour_vision(vision: str) -> None:
    figures = {
        f"{a}/{b}": delta_e(PLAYERS[a], PLAYERS[b], vision)
        for a, b in itertools.combinations(PLAYERS, 2)
    }
    assert not below(figures, MIN_DELTA_E), f"{vision} ΔE00 {report(figures, MIN_DELTA_E)}"


@pytest.mark.parametrize("vision", list(VISIONS))
def test_player_colours_differ_from_the_backgrounds_under_their_pieces(vision: str) -> None:
    figures: dict[str, float] = {}
    for name, rgb in PLAYERS.items():
        for where, bg in PIECE_BACKGROUNDS.items():
            figures[f"{name} on {where}"] = delta_e(rgb, bg, vision)
        figures[f"{name} on its hub/bay tint"] = delta_e(rgb, own_row(rgb), vision)
    assert not below(figures, MIN_DELTA_E), f"{vision} ΔE00 {report(figures, MIN_DELTA_E)}"


def test_player_pieces_contrast_3_to_1_with_the_backgrounds_they_sit_on() -> None:
    figures: dict[str, float] = {}
    for name, rgb in PLAYERS.items():
        for where, bg in PIECE_BACKGROUNDS.items():
            figures[f"{name} on {where}"] = contrast(rgb, bg)
        # Ships in the Maintenance Bay and badges on hub rows sit on their own tint.
        figures[f"{name} on its hub/bay tint"] = contrast(rgb, own_row(rgb))
    assert not below(figures, GRAPHICS), f"contrast {report(figures, GRAPHICS)}"


def test_badge_ring_contrasts_3_to_1_with_the_panel_header() -> None:
    """On a panel's header (40% of the player's colour) the badge's white ring, not its
    fill, draws the shape's edge (``sprites.badge``)."""
    figures = {
        f"ring on {name}'s header": contrast(theme.WHITE, own_tint(rgb, PANEL_HEADER_TINT))
        for name, rgb in PLAYERS.items()
    }
    assert not below(figures, GRAPHICS), f"contrast {report(figures, GRAPHICS)}"


def test_values_on_player_pieces_contrast_4_5_to_1() -> None:
    """A ship's value (live board), a colony marker's count and a die's pips (full board)
    are drawn in ``PLAYER_INK`` on the player's colour. The value is 22-pixel bold on the
    1100-pixel board, about 11 pixels once Discord shows it 550 wide: under WCAG's large
    text (14 pt bold, about 18.7 CSS pixels), so 4.5:1, not 3:1."""
    figures = {f"{name} ink on {name}": contrast(INKS[name], rgb) for name, rgb in PLAYERS.items()}
    assert not below(figures, BODY_TEXT), f"contrast {report(figures, BODY_TEXT)}"


# ---- text -------------------------------------------------------------------------


def _text_pairs() -> dict[str, tuple[RGB, RGB]]:
    """Every body text colour with each background it is drawn on."""
    pairs: dict[str, tuple[RGB, RGB]] = {}
    for where, bg in {
        "BACKGROUND": theme.BACKGROUND,
        "HEADER": theme.HEADER,
        "BOX": theme.BOX,
        "BOX_TITLE": theme.BOX_TITLE,
        "PLATE": theme.PLATE,
        "ROW": ROW,
    }.items():
        pairs[f"TEXT on {where}"] = (theme.TEXT, bg)  # titles, names, counts, territories
        pairs[f"MUTED on {where}"] = (theme.MUTED, bg)  # labels, supply, older log lines
        pairs[f"GOLD on {where}"] = (theme.GOLD, bg)  # round, status, market rate, relic
    for name, rgb in PLAYERS.items():  # names and VP on each panel's header band
        pairs[f"TEXT on {name}'s header"] = (theme.TEXT, own_tint(rgb, PANEL_HEADER_TINT))
        pairs[f"TEXT on {name}'s bay tint"] = (theme.TEXT, own_row(rgb))
    for card in ("CARD", "CARD_VP"):  # card names on chips and faces
        pairs[f"TEXT on {card}"] = (theme.TEXT, getattr(theme, card))
    pairs["GOLD on CARD_VP"] = (theme.GOLD, theme.CARD_VP)  # "+1 VP" on a card face
    pairs["BONUS on ROW"] = (BONUS, ROW)  # a territory's bonus (live board)
    pairs["DARK on GOLD"] = (theme.DARK, theme.GOLD)  # NOW / WINNER tags
    pairs["DARK on MUTED"] = (theme.DARK, theme.MUTED)  # the USED tag
    for field, rgb in theme.FIELD_COLOURS.items():  # a field's name or initial
        pairs[f"DARK on {field}"] = (theme.DARK, rgb)
    return pairs


def test_body_text_contrasts_4_5_to_1_with_its_background() -> None:
    figures = {k: contrast(fg, bg) for k, (fg, bg) in _text_pairs().items()}
    assert not below(figures, BODY_TEXT), f"contrast {report(figures, BODY_TEXT)}"


def test_faint_text_contrasts_4_5_to_1_where_it_is_not_disabled() -> None:
    """FAINT marks what is empty or switched off. Empty states ("no cards", "no events
    yet", an empty card place) and the full board's hub space numbers carry information,
    so they are held to 4.5:1. Exempt, as WCAG 1.4.3 exempts text of inactive interface
    components: the name of a card already used this turn (dimmed chip, struck through)
    and a territory bonus voided by the Isolation Field (struck through)."""
    figures = {
        "FAINT on BOX (no cards, empty log)": contrast(theme.FAINT, theme.BOX),
        "FAINT on SLOT (hub numbers, empty card place)": contrast(theme.FAINT, theme.SLOT),
    }
    assert not below(figures, BODY_TEXT), f"contrast {report(figures, BODY_TEXT)}"


# ---- on the PNG actually sent ---------------------------------------------------------
#
# The figures above hold for the theme's colours; a PNG of 256 colours moves a colour to
# its palette's nearest (white became 253,252,253 and red 221,52,52: 4.40:1 and 4.45:1).
# These measure what is in the encoded file: each ship's fill and its digit's ink, each
# player's colour and the current player's frame, decoded from the bytes posted.


def decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> Counter[RGB]:
    data = image.crop(box).convert("RGB").tobytes()
    return Counter((data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3))


def fill_and_ink(image: Image.Image, centre: tuple[int, int], size: int) -> tuple[RGB, RGB]:
    """A ship of ``size`` pixels whose value is drawn at ``centre``: its fill (the most
    common colour beside the value, left and right) and its ink (of the colours at least 3
    pixels around the value have, the one that contrasts most with the fill: the digit's
    core; its anti-aliased edge contrasts less)."""
    x, y = centre
    side = round(size * 0.2)
    beside = colours(image, (x - side - 1, y - 1, x - side + 2, y + 2))
    beside += colours(image, (x + side - 1, y - 1, x + side + 2, y + 2))
    fill = beside.most_common(1)[0][0]
    around = colours(image, (x - 8, y - 8, x + 8, y + 8))
    ink = max((c for c, n in around.items() if n >= 3), key=lambda c: contrast(c, fill))
    return fill, ink


@functools.cache
def live_png(players: int = 4) -> tuple[bytes, dict[int, tuple[int, int]], int]:
    """A live board with one ship of each player on the Lunar Mine (the player to act is
    seat 0), and where each ship's value is drawn."""
    from bot.render import render_board
    from bot.render.live import live_layout, tokens
    from bot.render.live.layout import TOKEN

    ships = " ".join(f"p{seat + 1}:{seat + 3}" for seat in range(players))
    png = render_board(scenario(players, docks={"mine": ships}, undocked="1"))
    layout = live_layout(players)
    centres = {}
    for seat in range(players):
        cx, cy = layout.docks["mine"][seat].center
        shape = theme.player_shape(seat)
        top = cy - TOKEN // 2
        centres[seat] = (cx, top + round(TOKEN * tokens._VALUE_Y[shape]))
    return png, centres, TOKEN


@functools.cache
def full_png(players: int = 4) -> tuple[bytes, dict[int, tuple[int, int]], int]:
    """The full board (``/af board detail:true``) with one ship of each player on the Lunar
    Mine, and where each ship's value is drawn."""
    from bot.render import layout_for, render_board
    from bot.render.geometry import DOCK_DIE
    from bot.render.live import tokens

    ships = " ".join(f"p{seat + 1}:{seat + 3}" for seat in range(players))
    png = render_board(scenario(players, docks={"mine": ships}, undocked="1"), detail=True)
    centres = {}
    for seat in range(players):
        cx, cy = layout_for(players).docks["mine"][seat].center
        shape = theme.player_shape(seat)
        centres[seat] = (cx, cy - DOCK_DIE // 2 + round(DOCK_DIE * tokens._VALUE_Y[shape]))
    return png, centres, DOCK_DIE


@pytest.mark.parametrize("board", ["live", "full"])
def test_ship_values_contrast_4_5_to_1_in_the_png_sent(board: str) -> None:
    png, centres, size = live_png() if board == "live" else full_png()
    image = decoded(png)
    figures = {}
    fills = {}
    for seat, centre in centres.items():
        fill, ink = fill_and_ink(image, centre, size)
        name = PLAYER_COLOURS[seat]
        fills[name] = fill
        figures[f"{name}: ink {ink} on {fill}"] = contrast(ink, fill)
    assert not below(figures, BODY_TEXT), f"{board} PNG contrast {report(figures, BODY_TEXT)}"
    assert fills == PLAYERS  # each player's colour, as the theme has it


def frame_colour(image: Image.Image, box: tuple[int, int, int, int]) -> RGB:
    """The colour of a panel's frame: the most common colour of a strip of its left edge."""
    x0, y0, _, y1 = box
    return colours(image, (x0, y0 + 40, x0 + 2, y1 - 40)).most_common(1)[0][0]


@pytest.mark.parametrize("vision", list(VISIONS))
@pytest.mark.parametrize("board", ["live", "full"])
def test_the_players_and_the_current_players_frame_stay_apart_in_the_png(
    board: str, vision: str
) -> None:
    """Each player's colour (measured on their ship) and the frame of the player to act,
    pairwise ΔE00 ≥ 10 once simulated: the yellow player's frame was the gold highlight's
    twin (ΔE00 4.2, 2.4 with deuteranopia)."""
    from bot.render import layout_for
    from bot.render.live import live_layout

    png, centres, size = live_png() if board == "live" else full_png()
    image = decoded(png)
    measured = {
        PLAYER_COLOURS[seat]: fill_and_ink(image, centre, size)[0]
        for seat, centre in centres.items()
    }
    panel = live_layout(4).panels[0].panel if board == "live" else layout_for(4).panels[0].panel
    frame = frame_colour(image, panel.box)
    assert frame not in measured.values()
    figures = {
        f"{a}/{b}": delta_e(measured[a], measured[b], vision)
        for a, b in itertools.combinations(measured, 2)
    }
    figures |= {
        f"frame {frame}/{name}": delta_e(frame, rgb, vision) for name, rgb in measured.items()
    }
    assert not below(figures, MIN_DELTA_E), f"{board} {vision} ΔE00 {report(figures, MIN_DELTA_E)}"


@pytest.mark.parametrize("board", ["live", "full"])
def test_ship_values_contrast_4_5_to_1_after_discords_preview_downscale(board: str) -> None:
    """Discord shows the picture 550 pixels wide: scaled down (bilinear here), a white digit
    on red (222,52,52) fell to 4.39:1 and on blue (40,116,224) to 4.33:1. The digit's core
    (the pixel around its centre that contrasts most with the ship's fill) against the
    fill, in the PNG sent, scaled to 550."""
    png, centres, size = live_png() if board == "live" else full_png()
    image = decoded(png)
    k = 550 / image.width
    small = image.resize((550, round(image.height * k)), Image.Resampling.BILINEAR)
    figures = {}
    for seat, (x, y) in centres.items():
        fill, _ = fill_and_ink(image, (x, y), size)
        cx, cy = round(x * k), round(y * k)
        near = colours(small, (cx - 3, cy - 4, cx + 4, cy + 5))
        ink = max(near, key=lambda c: contrast(c, fill))
        figures[f"{PLAYER_COLOURS[seat]}: ink {ink} on {fill}"] = contrast(ink, fill)
    assert not below(figures, BODY_TEXT), f"{board} at 550 {report(figures, BODY_TEXT)}"


@functools.cache
def used_up_pngs(board: str) -> dict[int, tuple[bytes, tuple[int, int], int]]:
    """For each player, a board with their ship 6 on the Terraforming Station (used up at
    the end of their turn, drawn dimmed), and where its value is drawn."""
    from bot.render import layout_for, render_board
    from bot.render.geometry import DOCK_DIE
    from bot.render.live import live_layout, tokens
    from bot.render.live.layout import TOKEN

    size = TOKEN if board == "live" else DOCK_DIE
    dock = (live_layout(4) if board == "live" else layout_for(4)).docks["terraform"][0]
    found = {}
    for seat in range(4):
        state = scenario(4, docks={"terraform": f"p{seat + 1}:6"}, undocked="1")
        png = render_board(state, detail=board == "full")
        cx, cy = dock.center
        shape = theme.player_shape(seat)
        found[seat] = (png, (cx, cy - size // 2 + round(size * tokens._VALUE_Y[shape])), size)
    return found


@pytest.mark.parametrize("board", ["live", "full"])
def test_used_up_ship_values_contrast_4_5_to_1_in_the_png_sent_and_its_previews(
    board: str,
) -> None:
    """A ship on the Terraforming Station, used up at the end of the turn, is dimmed; its
    value was dimmed with it, 2.2:1 for a green 6 (1.8:1 at 390). Its digit's core against
    its (dimmed) fill, in the PNG sent and scaled to Discord's previews, 550 pixels wide on
    a desktop and 390 on a phone."""
    figures = {}
    for seat, (png, (x, y), size) in used_up_pngs(board).items():
        image = decoded(png)
        fill, ink = fill_and_ink(image, (x, y), size)
        name = PLAYER_COLOURS[seat]
        assert fill != PLAYERS[name]  # still drawn dimmed: the cue that it is used up
        figures[f"{name} at {image.width}: ink {ink} on {fill}"] = contrast(ink, fill)
        for width in (550, 390):
            k = width / image.width
            small = image.resize((width, round(image.height * k)), Image.Resampling.BILINEAR)
            cx, cy = round(x * k), round(y * k)
            near = colours(small, (cx - 3, cy - 4, cx + 4, cy + 5))
            ink = max(near, key=lambda c: contrast(c, fill))
            figures[f"{name} at {width}: ink {ink} on {fill}"] = contrast(ink, fill)
    assert not below(figures, BODY_TEXT), f"{board} used up {report(figures, BODY_TEXT)}"
