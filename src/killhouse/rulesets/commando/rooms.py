"""Rooms read off the map's walls for blasts (digest 9.6, rulings C-28, C-89, C-187).

A square is inside a room when the map's ``building`` layer marks it ``building`` (C-120);
outdoors and ``large`` buildings are Open. The room is the flood fill from the blast square
over the building's open cells (walls, doors, windows, slits and the map's edge bound it),
on the core's arrays. Its openings are the cells next to it (orthogonally): an open door, a
slit, a gap onto ground outside the building, or a stairwell inside it vents the room; closed
and locked doors and windows (read as closed, C-79) do not. Zones named ``room…`` /
``large…`` still decide where a scenario draws them (C-89).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from killhouse.core.areas import flood_area
from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.rulesets.commando import ground

BoolArray = NDArray[np.bool_]

#: cells that bound a room: the blast's own stops (C-28) and every door and window
_BOUNDS = (Terrain.OUTSIDE, Terrain.WALL, Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN,
           Terrain.DOOR_LOCKED, Terrain.WINDOW)
_STAIRS = (Terrain.STAIRS_UP, Terrain.STAIRS_DOWN)


@dataclass(frozen=True)
class Room:
    """One room on the map and what its walls hold."""

    cells: BoolArray
    open_doors: int
    closed_doors: int
    windows: int
    slits: int
    gaps: int
    stairwells: int

    @property
    def environment(self) -> str:
        """Ruling C-187: Vented with any opening that stands open, else Closed."""
        vents = self.open_doors + self.slits + self.gaps + self.stairwells
        return "vented" if vents else "closed"


def _layer_is(board: Board, level: int, key: str, names: tuple[str, ...],
              value: str) -> BoolArray:
    layer = board.levels[level].layers.get(key)
    shape = board.levels[level].terrain.shape
    if layer is None:
        return np.zeros(shape, dtype=bool)
    return np.asarray(layer == names.index(value) + 1, dtype=bool)


def _orthogonal_ring(cells: BoolArray) -> BoolArray:
    """Cells orthogonally next to ``cells`` and not in them."""
    ring = np.zeros_like(cells)
    ring[1:, :] |= cells[:-1, :]
    ring[:-1, :] |= cells[1:, :]
    ring[:, 1:] |= cells[:, :-1]
    ring[:, :-1] |= cells[:, 1:]
    return ring & ~cells


def room_at(board: Board, at: Cell) -> Room | None:
    """The room the square lies in, or None outdoors or in a ``large`` building."""
    if ground.building(board, at) != "building" or board.terrain(at) in _BOUNDS:
        return None
    level = board.levels[at.level]
    terrain = level.terrain
    inside = _layer_is(board, at.level, "building", ground.BUILDING_NAMES, "building")
    slit = _layer_is(board, at.level, "ground", ground.GROUND_NAMES, "slit")
    bounds = np.isin(terrain, [int(t) for t in _BOUNDS]) | slit
    blocked = ~inside | bounds
    blocked[at.y, at.x] = False
    height, width = terrain.shape
    cells = flood_area(board, at, height * width, blocked)
    ring = _orthogonal_ring(cells)

    def count(mask: BoolArray) -> int:
        return int(np.count_nonzero(ring & mask))

    passable = ~bounds & ~np.isin(terrain, [int(Terrain.OUTSIDE)])
    return Room(
        cells=cells,
        open_doors=count(terrain == int(Terrain.DOOR_OPEN)),
        closed_doors=count(np.isin(terrain, [int(Terrain.DOOR_CLOSED),
                                             int(Terrain.DOOR_LOCKED)])),
        windows=count(terrain == int(Terrain.WINDOW)),
        slits=count(slit),
        gaps=count(passable & ~inside),
        stairwells=int(np.count_nonzero(cells & np.isin(terrain, [int(t) for t in _STAIRS]))),
    )


def environment(board: Board, at: Cell) -> str:
    """Open, Vented or Closed for a blast in ``at``, read off the map (C-187)."""
    room = room_at(board, at)
    if room is not None:
        return room.environment
    if ground.building(board, at) == "building" and board.terrain(at) == Terrain.DOOR_OPEN:
        return "vented"  # ruling C-187: a blast in an open doorway vents through it
    return "open"
