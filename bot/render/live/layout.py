"""Where everything sits on the live board: one ``LiveLayout`` per player count.

The live board is the picture posted with every turn message. Discord shows it about
550 pixels wide on a desktop (390 on a phone), so it is drawn at twice that, 1100
pixels, and every text and ship value is at least ``MIN_TEXT`` pixels: 10 pixels once
Discord has scaled it to 550. Coordinates are pixels, origin top left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import ceil
from typing import Final

from bot.render.geometry import HubRow, Rect
from engine import FACILITIES, HUB_TRACK_LENGTH, TERRITORIES, FacilityId, TerritoryId

WIDTH: Final = 1100
HEIGHT: Final = 688
PREVIEW_WIDTH: Final = 550  # how wide Discord shows the picture in a channel (desktop)
PREVIEW_TEXT: Final = 10  # the smallest text worth drawing at that width
MIN_TEXT: Final = ceil(PREVIEW_TEXT * WIDTH / PREVIEW_WIDTH)  # 20 pixels here

MARGIN: Final = 6
GAP: Final = 6
HEADER_H: Final = 52
TOKEN: Final = 35  # a ship on a dock
SLOT: Final = 37
DOCK_GAP: Final = 3
GROUP_GAP: Final = 12
TITLE_H: Final = 30  # a box's title line
BOX_H: Final = 80  # a facility: title and a row of docks
ROW_H: Final = 54  # a territory
HUB_ROW_H: Final = 38
# A player's mark (their shape in their colour) on a hub row, a bay cell, a panel, beside
# "5 left": at least 12 pixels once Discord has scaled the board to 550 (issue 42).
MARKER: Final = 30
BAY_CELL_H: Final = 31
STRIP_Y: Final = 544  # the players' panels
LEFT_FACILITIES: Final[tuple[FacilityId, ...]] = ("solar", "mine", "market", "yard", "constructor")


@dataclass(frozen=True, slots=True)
class Panel:
    """A player's panel: header band (badge, name, VP), resources line, cards."""

    panel: Rect
    header: Rect
    badge: Rect
    stats: Rect
    cards: Rect


@dataclass(frozen=True, slots=True)
class LiveLayout:
    players: int
    size: tuple[int, int]
    header: Rect
    facilities: dict[FacilityId, Rect]
    docks: dict[FacilityId, tuple[Rect, ...]]
    plates: dict[FacilityId, tuple[Rect, ...]]  # behind docks filled together
    display: Rect  # the alien tech display, beside the Alien Artifact's docks
    hub: Rect
    hub_rows: tuple[HubRow, ...]
    bay: Rect
    bay_cells: tuple[Rect, ...]  # per seat
    territories_title: Rect
    territories: dict[TerritoryId, Rect]
    panels: tuple[Panel, ...]


def _docks(box: Rect, facility: FacilityId) -> tuple[tuple[Rect, ...], tuple[Rect, ...]]:
    """Dock slots in a row under the box's title, groups on plates."""
    info = FACILITIES[facility]
    x, y = box.x + 10, box.y + TITLE_H + (box.h - TITLE_H - SLOT) // 2 - 1
    docks: list[Rect] = []
    plates: list[Rect] = []
    for _ in range(info.groups):
        start = x
        for _ in range(info.group_size):
            docks.append(Rect(x, y, SLOT, SLOT))
            x += SLOT + DOCK_GAP
        x -= DOCK_GAP
        if info.group_size > 1:
            plates.append(Rect(start - 4, y - 4, x - start + 8, SLOT + 8))
            x += GROUP_GAP
        else:
            x += DOCK_GAP
    return tuple(docks), tuple(plates)


@lru_cache(maxsize=4)
def live_layout(players: int) -> LiveLayout:
    """The layout of the live board for ``players`` seats (2 to 4)."""
    top = HEADER_H + GAP
    left_x, col_w = MARGIN, 338
    right_x = WIDTH - MARGIN - col_w
    mid_x = left_x + col_w + GAP
    mid_w = right_x - GAP - mid_x

    facilities: dict[FacilityId, Rect] = {}
    y = top
    for f in LEFT_FACILITIES:
        facilities[f] = Rect(left_x, y, col_w, BOX_H)
        y += BOX_H + GAP
    facilities["terraform"] = Rect(right_x, top, 138, BOX_H)
    facilities["raiders"] = Rect(right_x + 138 + GAP, top, col_w - 138 - GAP, BOX_H)
    artifact = Rect(right_x, top + BOX_H + GAP, col_w, 104)
    facilities["artifact"] = artifact
    docks: dict[FacilityId, tuple[Rect, ...]] = {}
    plates: dict[FacilityId, tuple[Rect, ...]] = {}
    for f, box in facilities.items():
        docks[f], plates[f] = _docks(box, f)
    last = docks["artifact"][-1]
    display = Rect(
        last.right + 14, artifact.y + 6, artifact.right - last.right - 20, artifact.h - 12
    )

    hub = Rect(right_x, artifact.bottom + GAP, col_w, TITLE_H + 4 * HUB_ROW_H + 4)
    hub_rows = []
    for seat in range(players):
        row = Rect(hub.x + 6, hub.y + TITLE_H + seat * HUB_ROW_H, hub.w - 12, HUB_ROW_H - 2)
        cy = row.y + row.h // 2
        badge = Rect(row.x + 3, cy - MARKER // 2, MARKER, MARKER)
        spaces = tuple(
            Rect(badge.right + 8 + i * 22, cy - 9, 18, 18) for i in range(HUB_TRACK_LENGTH)
        )
        dx = row.right - 3 * SLOT - 2 * DOCK_GAP
        hub_docks = tuple(
            Rect(dx + i * (SLOT + DOCK_GAP), cy - SLOT // 2, SLOT, SLOT) for i in range(3)
        )
        hub_rows.append(HubRow(row, badge, spaces, hub_docks))
    bay = Rect(right_x, hub.bottom + GAP, col_w, STRIP_Y - GAP - hub.bottom - GAP)
    cols = 2
    cell_w = (bay.w - 12 - GAP) // cols
    bay_cells = tuple(
        Rect(
            bay.x + 6 + (s % cols) * (cell_w + GAP),
            bay.y + TITLE_H - 2 + (s // cols) * (BAY_CELL_H + 1),
            cell_w,
            BAY_CELL_H,
        )
        for s in range(players)
    )

    territories_title = Rect(mid_x, top, mid_w, 26)
    territories = {
        t: Rect(mid_x, top + 28 + i * (ROW_H + 3), mid_w, ROW_H) for i, t in enumerate(TERRITORIES)
    }

    pw = (WIDTH - 2 * MARGIN - (players - 1) * GAP) // players
    panels = []
    for i in range(players):
        r = Rect(MARGIN + i * (pw + GAP), STRIP_Y, pw, HEIGHT - MARGIN - STRIP_Y)
        header = Rect(r.x, r.y, r.w, 38)
        panels.append(
            Panel(
                panel=r,
                header=header,
                badge=Rect(r.x + 6, r.y + 4, MARKER, MARKER),
                stats=Rect(r.x + 10, header.bottom + 4, r.w - 20, 30),
                cards=Rect(r.x + 8, header.bottom + 36, r.w - 16, r.bottom - header.bottom - 39),
            )
        )
    return LiveLayout(
        players=players,
        size=(WIDTH, HEIGHT),
        header=Rect(0, 0, WIDTH, HEADER_H),
        facilities=facilities,
        docks=docks,
        plates=plates,
        display=display,
        hub=hub,
        hub_rows=tuple(hub_rows),
        bay=bay,
        bay_cells=bay_cells,
        territories_title=territories_title,
        territories=territories,
        panels=tuple(panels),
    )
