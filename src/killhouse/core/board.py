"""The board: a stack of levels of grid cells, with stairs linking levels and named zones.

A ``Board`` is built once from a scenario and then copied into each game, because
doors open and smoke spreads during play. The arrays are indexed ``[y, x]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain, opaque_mask, passable_mask, solid_mask


@dataclass
class Level:
    """One floor of the map: terrain, clutter (0–5), cover (0–3), lock levels and smoke."""

    name: str
    terrain: NDArray[np.uint8]
    clutter: NDArray[np.uint8]
    cover: NDArray[np.uint8]
    lock: NDArray[np.int16]
    smoke: NDArray[np.bool_]
    #: per-cell layers a ruleset declares (``core.layers``), by legend key
    layers: dict[str, NDArray[np.int16]] = field(default_factory=dict)

    @classmethod
    def blank(cls, name: str, width: int, height: int) -> Level:
        """A level of plain floor, for building maps in code and tests."""
        shape = (height, width)
        return cls(
            name=name,
            terrain=np.full(shape, Terrain.FLOOR, dtype=np.uint8),
            clutter=np.zeros(shape, dtype=np.uint8),
            cover=np.zeros(shape, dtype=np.uint8),
            lock=np.zeros(shape, dtype=np.int16),
            smoke=np.zeros(shape, dtype=bool),
        )

    @property
    def width(self) -> int:
        return int(self.terrain.shape[1])

    @property
    def height(self) -> int:
        return int(self.terrain.shape[0])

    def copy(self) -> Level:
        return Level(
            self.name,
            self.terrain.copy(),
            self.clutter.copy(),
            self.cover.copy(),
            self.lock.copy(),
            self.smoke.copy(),
            {k: v.copy() for k, v in self.layers.items()},
        )

    def layer(self, key: str) -> NDArray[np.int16]:
        """A declared layer of this level (zeros if the map set none of it)."""
        found = self.layers.get(key)
        if found is None:
            found = self.layers[key] = np.zeros(self.terrain.shape, dtype=np.int16)
        return found


@dataclass
class Board:
    """All levels of a map, the stair links between them, and named zones."""

    levels: list[Level]
    stairs: dict[Cell, Cell] = field(default_factory=dict)
    zones: dict[str, frozenset[Cell]] = field(default_factory=dict)

    def copy(self) -> Board:
        return Board([lv.copy() for lv in self.levels], dict(self.stairs), dict(self.zones))

    # -- lookup -------------------------------------------------------------------
    def level_index(self, name: str) -> int:
        for i, lv in enumerate(self.levels):
            if lv.name == name:
                return i
        raise KeyError(name)

    def in_bounds(self, cell: Cell) -> bool:
        if not 0 <= cell.level < len(self.levels):
            return False
        lv = self.levels[cell.level]
        return 0 <= cell.x < lv.width and 0 <= cell.y < lv.height

    def terrain(self, cell: Cell) -> Terrain:
        return Terrain(int(self.levels[cell.level].terrain[cell.y, cell.x]))

    def set_terrain(self, cell: Cell, terrain: Terrain) -> None:
        self.levels[cell.level].terrain[cell.y, cell.x] = terrain

    def clutter(self, cell: Cell) -> int:
        return int(self.levels[cell.level].clutter[cell.y, cell.x])

    def cover(self, cell: Cell) -> int:
        return int(self.levels[cell.level].cover[cell.y, cell.x])

    def lock_level(self, cell: Cell) -> int:
        return int(self.levels[cell.level].lock[cell.y, cell.x])

    def smoky(self, cell: Cell) -> bool:
        return bool(self.levels[cell.level].smoke[cell.y, cell.x])

    def passable(self, cell: Cell) -> bool:
        """True if a figure may enter the cell (locked doors, walls and windows say no)."""
        if not self.in_bounds(cell):
            return False
        # the one cell alone: a whole-level mask per question was a hot spot in bot play
        here = self.levels[cell.level].terrain[cell.y : cell.y + 1, cell.x : cell.x + 1]
        return bool(passable_mask(here)[0, 0])

    def in_zone(self, cell: Cell, zone: str) -> bool:
        return cell in self.zones.get(zone, frozenset())

    def zone_cells(self, zone: str) -> frozenset[Cell]:
        return self.zones.get(zone, frozenset())

    def cells(self, level: int | None = None) -> Iterator[Cell]:
        """Every in-bounds cell, level by level, row by row."""
        indices: Iterable[int] = range(len(self.levels)) if level is None else (level,)
        for li in indices:
            lv = self.levels[li]
            for y in range(lv.height):
                for x in range(lv.width):
                    yield Cell(li, x, y)

    # -- masks --------------------------------------------------------------------
    def opaque(self, level: int) -> NDArray[np.bool_]:
        """Cells that stop sight on a level: walls and closed or locked doors."""
        return opaque_mask(self.levels[level].terrain)

    def passable_mask(self, level: int) -> NDArray[np.bool_]:
        """Cells a figure may enter on a level."""
        return passable_mask(self.levels[level].terrain)

    def solid(self, level: int) -> NDArray[np.bool_]:
        """Cells that stop blasts and corner-cutting on a level (walls, closed doors, outside)."""
        return solid_mask(self.levels[level].terrain)

    def smoke(self, level: int) -> NDArray[np.bool_]:
        return self.levels[level].smoke

    def fingerprint(self) -> list[object]:
        """A JSON-friendly record of everything that can change in play, for state hashes."""
        out: list[object] = []
        for lv in self.levels:
            record: list[object] = [lv.terrain.tobytes().hex(), np.flatnonzero(lv.smoke).tolist()]
            # layers join the record only when a map has them, so older hashes stay as they were
            layers = {k: v for k, v in sorted(lv.layers.items()) if v.any()}
            if layers:
                record.append({k: v.astype("<i2").tobytes().hex() for k, v in layers.items()})
            out.append(record)
        return out
