"""Where everything sits on the board image: one ``Layout`` per player count.

All drawing code and the tests read positions from here, so a region (a dock, a
territory, a panel) is defined once. Coordinates are pixels, origin top left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from engine import FACILITIES, HUB_TRACK_LENGTH, TERRITORIES, FacilityId, TerritoryId

WIDTH: Final = 1600
HEIGHT: Final = 1000
MARGIN: Final = 12
GAP: Final = 8

HEADER_H: Final = 46
BOX_TITLE_H: Final = 30  # title strip of every box
DOCK_SLOT: Final = 46  # a dock on a facility (die drawn inside)
DOCK_DIE: Final = 40
DOCK_GAP: Final = 6
GROUP_GAP: Final = 16
FACILITY_H: Final = 86
HUB_ROW_H: Final = 42
HUB_SLOT: Final = 38
HUB_DIE: Final = 34
HUB_SPACE: Final = 27
SMALL_DIE: Final = 28  # Maintenance Bay, panels, log
TILE_W: Final = 192
TILE_H: Final = 122
PANEL_Y: Final = 702

# Facility boxes of the left column (top to bottom) and their order in the right column.
LEFT_FACILITIES: Final[tuple[FacilityId, ...]] = ("solar", "mine", "market", "yard", "constructor")

# Territory tiles around the planet centre (dx, dy of the tile centre), clockwise from top left.
_TILE_OFFSETS: Final[tuple[tuple[int, int], ...]] = (
    (-100, -212),
    (100, -212),
    (230, -72),
    (230, 72),
    (100, 212),
    (-100, 212),
    (-230, 72),
    (-230, -72),
)


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle; ``box`` is Pillow's inclusive (x0, y0, x1, y1)."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        return (self.x + self.w // 2, self.y + self.h // 2)

    @property
    def box(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.x + self.w - 1, self.y + self.h - 1)

    @property
    def xy(self) -> tuple[int, int]:
        return (self.x, self.y)

    def inset(self, dx: int, dy: int | None = None) -> Rect:
        dy = dx if dy is None else dy
        return Rect(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x < self.right and self.y <= y < self.bottom


@dataclass(frozen=True, slots=True)
class TileParts:
    """The parts of a territory tile: name line, bonus line, colony row, control token,
    fields, relic."""

    tile: Rect
    name: Rect
    bonus: Rect
    colonies: Rect
    token: Rect
    fields: Rect
    relic: Rect


@dataclass(frozen=True, slots=True)
class HubRow:
    """One player's Colony Hub track: badge, seven spaces, three docks."""

    row: Rect
    badge: Rect
    spaces: tuple[Rect, ...]
    docks: tuple[Rect, ...]


@dataclass(frozen=True, slots=True)
class PanelParts:
    """A player panel: header band (badge, name, VP), stat lines, cards area, roll row."""

    panel: Rect
    header: Rect
    badge: Rect
    vp: Rect
    stats: Rect
    cards: Rect
    roll: Rect


@dataclass(frozen=True, slots=True)
class Layout:
    """Every region of the board image for one player count."""

    players: int
    size: tuple[int, int]
    header: Rect
    facilities: dict[FacilityId, Rect]  # box of each shared facility
    docks: dict[FacilityId, tuple[Rect, ...]]  # dock slots, in the engine's dock order
    groups: dict[FacilityId, tuple[Rect, ...]]  # plates behind docks filled together
    planet_center: tuple[int, int]
    planet_radius: int
    status: Rect  # turn status in the middle of the planet
    territories: dict[TerritoryId, TileParts]
    hub: Rect
    hub_rows: tuple[HubRow, ...]
    bay: Rect
    bay_groups: tuple[Rect, ...]  # per seat
    tech: Rect
    tech_cards: tuple[Rect, ...]
    deck: Rect
    discard: Rect
    log: Rect
    panels: tuple[PanelParts, ...]
    banner: Rect
    legend: Rect  # what a territory's frame means, under the planet


def _dock_row(
    box: Rect, facility: FacilityId, slot: int = DOCK_SLOT
) -> tuple[tuple[Rect, ...], tuple[Rect, ...]]:
    """Dock slots centred in a facility box under its title, and their group plates."""
    info = FACILITIES[facility]
    group_w = info.group_size * slot + (info.group_size - 1) * DOCK_GAP
    gap = GROUP_GAP if info.group_size > 1 else DOCK_GAP
    total = info.groups * group_w + (info.groups - 1) * gap
    x = box.x + (box.w - total) // 2
    y = box.y + BOX_TITLE_H + (box.h - BOX_TITLE_H - slot) // 2
    docks: list[Rect] = []
    plates: list[Rect] = []
    for _g in range(info.groups):
        if info.group_size > 1:
            plates.append(Rect(x - 4, y - 4, group_w + 8, slot + 8))
        for k in range(info.group_size):
            docks.append(Rect(x + k * (slot + DOCK_GAP), y, slot, slot))
        x += group_w + gap
    return tuple(docks), tuple(plates)


def _tile_parts(cx: int, cy: int) -> TileParts:
    tile = Rect(cx - TILE_W // 2, cy - TILE_H // 2, TILE_W, TILE_H)
    x, y = tile.x, tile.y
    return TileParts(
        tile=tile,
        name=Rect(x + 6, y + 3, TILE_W - 12, 22),
        bonus=Rect(x + 8, y + 25, TILE_W - 16, 16),
        colonies=Rect(x + 8, y + 42, TILE_W - 56, 36),
        token=Rect(x + TILE_W - 44, y + 43, 34, 34),
        fields=Rect(x + 8, y + 80, TILE_W - 56, 38),
        relic=Rect(x + TILE_W - 44, y + 82, 34, 34),
    )


def _hub_rows(box: Rect, players: int) -> tuple[HubRow, ...]:
    rows = []
    for seat in range(players):
        row = Rect(box.x + 8, box.y + BOX_TITLE_H + 4 + seat * HUB_ROW_H, box.w - 16, HUB_ROW_H - 4)
        cy = row.y + row.h // 2
        badge = Rect(row.x + 6, cy - 13, 26, 26)
        sx = badge.right + 12
        spaces = tuple(
            Rect(sx + i * (HUB_SPACE + 4), cy - HUB_SPACE // 2, HUB_SPACE, HUB_SPACE)
            for i in range(HUB_TRACK_LENGTH)
        )
        dx = row.right - 3 * HUB_SLOT - 2 * 5 - 4
        docks = tuple(
            Rect(dx + i * (HUB_SLOT + 5), cy - HUB_SLOT // 2, HUB_SLOT, HUB_SLOT)
            for i in range(FACILITIES["hub"].group_size)
        )
        rows.append(HubRow(row, badge, spaces, docks))
    return tuple(rows)


def _panel_parts(panel: Rect) -> PanelParts:
    """Stats above cards in a narrow panel; side by side when the panel is wide (2 players)."""
    header = Rect(panel.x, panel.y, panel.w, 44)
    roll = Rect(panel.x + 12, panel.bottom - 46, panel.w - 24, 38)
    if panel.w >= 600:
        half = (panel.w - 36) // 2
        stats = Rect(panel.x + 12, header.bottom + 6, half, 86)
        cards = Rect(stats.right + 12, header.bottom + 8, half, roll.y - header.bottom - 12)
    else:
        stats = Rect(panel.x + 12, header.bottom + 6, panel.w - 24, 86)
        cards = Rect(panel.x + 12, header.bottom + 96, panel.w - 24, 96)
    return PanelParts(
        panel=panel,
        header=header,
        badge=Rect(panel.x + 10, panel.y + 9, 26, 26),
        vp=Rect(panel.right - 96, panel.y + 4, 88, 36),
        stats=stats,
        cards=cards,
        roll=roll,
    )


@lru_cache(maxsize=8)
def layout_for(players: int) -> Layout:
    """The layout of the board image for a game of ``players`` seats (2 to 4)."""
    col_w = 456
    left_x = MARGIN
    right_x = WIDTH - MARGIN - col_w
    top = HEADER_H + 10

    facilities: dict[FacilityId, Rect] = {}
    docks: dict[FacilityId, tuple[Rect, ...]] = {}
    groups: dict[FacilityId, tuple[Rect, ...]] = {}

    def place(f: FacilityId, box: Rect) -> None:
        facilities[f] = box
        docks[f], groups[f] = _dock_row(box, f)

    y = top
    for f in LEFT_FACILITIES:
        place(f, Rect(left_x, y, col_w, FACILITY_H))
        y += FACILITY_H + GAP
    log = Rect(left_x, y, col_w, PANEL_Y - GAP - y)

    # Right column: Terraforming + Raiders, Artifact, alien tech, Colony Hub, Maintenance Bay.
    y = top
    place("terraform", Rect(right_x, y, 214, FACILITY_H))
    place("raiders", Rect(right_x + 214 + GAP, y, col_w - 214 - GAP, FACILITY_H))
    y += FACILITY_H + GAP
    place("artifact", Rect(right_x, y, col_w, FACILITY_H))
    y += FACILITY_H + GAP
    tech = Rect(right_x, y, col_w, 112)
    card_w, card_h = 106, 70
    tech_cards = tuple(
        Rect(tech.x + 10 + i * (card_w + 8), tech.y + BOX_TITLE_H + 5, card_w, card_h)
        for i in range(3)
    )
    side_x = tech_cards[-1].right + 10
    deck = Rect(side_x, tech_cards[0].y, tech.right - 10 - side_x, 33)
    discard = Rect(side_x, deck.bottom + 4, deck.w, 33)
    y = tech.bottom + GAP
    hub = Rect(right_x, y, col_w, BOX_TITLE_H + 8 + players * HUB_ROW_H)
    hub_rows = _hub_rows(hub, players)
    bay = Rect(right_x, hub.bottom + GAP, col_w, PANEL_Y - GAP - hub.bottom - GAP)
    cols = 2 if players == 4 else 1
    cell_w = (bay.w - 16 - (cols - 1) * GAP) // cols
    bay_groups = tuple(
        Rect(
            bay.x + 8 + (s % cols) * (cell_w + GAP),
            bay.y + BOX_TITLE_H + 2 + (s // cols) * 40,
            cell_w,
            36,
        )
        for s in range(players)
    )

    # The planet between the columns, tiles around its middle.
    pcx = WIDTH // 2
    pcy = top + (PANEL_Y - GAP - top) // 2
    territories = {
        t: _tile_parts(pcx + dx, pcy + dy)
        for t, (dx, dy) in zip(TERRITORIES, _TILE_OFFSETS, strict=True)
    }
    status = Rect(pcx - 124, pcy - 142, 248, 284)

    pw = (WIDTH - 2 * MARGIN - (players - 1) * GAP) // players
    panels = tuple(
        _panel_parts(Rect(MARGIN + i * (pw + GAP), PANEL_Y, pw, HEIGHT - MARGIN - PANEL_Y))
        for i in range(players)
    )
    banner = Rect(pcx - 131, pcy - 146, 262, 292)
    legend = Rect(pcx - 230, PANEL_Y - GAP - 30, 460, 24)
    return Layout(
        players=players,
        size=(WIDTH, HEIGHT),
        header=Rect(0, 0, WIDTH, HEADER_H),
        facilities=facilities,
        docks=docks,
        groups=groups,
        planet_center=(pcx, pcy),
        planet_radius=330,
        status=status,
        territories=territories,
        hub=hub,
        hub_rows=hub_rows,
        bay=bay,
        bay_groups=bay_groups,
        tech=tech,
        tech_cards=tech_cards,
        deck=deck,
        discard=discard,
        log=log,
        panels=panels,
        banner=banner,
        legend=legend,
    )
