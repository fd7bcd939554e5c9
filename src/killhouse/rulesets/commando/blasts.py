"""Where a missed round lands and which cells a blast reaches, on the core's board (digest 9.5,
9.6; rulings C-28, C-29, and ours C-78, C-79).

A wall, closed (or locked) door or window stops both scatter and blast (C-28, C-29; the core's
plain map has no open window, so every window cell is read as closed: ruling C-79).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from killhouse.core.areas import flood_area
from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.rulesets.commando.grenades import blast_radius

#: compass offsets of the 1d8 scatter direction, y growing southwards (C-29)
OFFSETS = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}
_STOPS = (Terrain.WALL, Terrain.DOOR_CLOSED, Terrain.DOOR_LOCKED, Terrain.WINDOW, Terrain.OUTSIDE)
_OPENINGS = (Terrain.DOOR_OPEN,)


def stops(board: Board, level: int, room_bound: bool = False) -> NDArray[np.bool_]:
    """Cells a blast or a scattering round cannot enter; ``room_bound`` adds the open doors, so
    a Vented or Closed blast never leaves its room (C-28, ruling C-78)."""
    terrain = board.levels[level].terrain
    kinds = _STOPS + (_OPENINGS if room_bound else ())
    return np.isin(terrain, [int(k) for k in kinds])


def scatter_landing(board: Board, target: Cell, direction: str, distance: int) -> Cell:
    """The square a missed round lands in: ``distance`` squares from the target square in the
    compass ``direction``, stopped in the last open square before a wall, closed door or window
    or the map's edge (ruling C-29)."""
    dx, dy = OFFSETS[direction]
    blocked = stops(board, target.level)
    at = target
    for _ in range(distance):
        nxt = Cell(target.level, at.x + dx, at.y + dy)
        if not board.in_bounds(nxt) or blocked[nxt.y, nxt.x]:
            break
        at = nxt
    return at


def blast_cells(board: Board, center: Cell, device: str, environment: str) -> NDArray[np.bool_]:
    """The blast area: a flood fill of the device's radius in king steps from the landing square,
    stopped by walls, closed doors and windows, and inside a room unless the environment is Open
    (ruling C-28, C-78)."""
    blocked = stops(board, center.level, room_bound=environment != "open")
    blocked = blocked.copy()
    blocked[center.y, center.x] = False
    return flood_area(board, center, blast_radius(device), blocked)
