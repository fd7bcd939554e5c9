"""One side's mirror of the map, shared by the role bots: doors and smoke as the side's view
shows them, cached distance fields over it, and sight lines worked out in batches.

A bot keeps its own copy of the public floor plan (it must never read the true board, which
knows doors and smoke the side may not). It changes the copy only through ``set_terrain`` and
``set_smoke``; a real change bumps a version, and every cache is kept under the version it
was computed for: distance fields under the terrain's (smoke does not slow a walk), sight
lines under the terrain's and the smoke's. So nothing is worked out twice while the side's
map stands still, and nothing stale survives a change.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.geometry import los_pairs
from killhouse.core.paths import DistanceField

BoolArray = NDArray[np.bool_]

#: distance fields kept at most (a bot asks a few dozen per decision; the map rarely changes)
FIELD_LIMIT = 256
#: sight lines kept at most before the cache starts afresh
SIGHT_LIMIT = 200_000


class SideMirror:
    """The side's copy of the map and the caches a bot decides from.

    ``veil``: whether smoke on the copy stops sight (gogogo, G-8); a ruleset whose bots
    ignore smoke passes False.
    """

    def __init__(self, board: Board, veil: bool = True) -> None:
        self.board = board.copy()
        self.veil = veil
        #: bumped when a terrain code of the copy changes (doors)
        self.terrain_version = 0
        #: bumped when the terrain or the smoke of the copy changes
        self.sight_version = 0
        self._smoke: frozenset[Cell] = frozenset(
            Cell(level, int(x), int(y))
            for level, lv in enumerate(self.board.levels)
            for y, x in zip(*np.nonzero(lv.smoke), strict=True)
        )
        self._fields: dict[Hashable, DistanceField | None] = {}
        self._sight: dict[tuple[Cell, Cell], bool] = {}
        self._masks: dict[tuple[str, int], BoolArray] = {}

    # -- changing the copy -------------------------------------------------------------------
    def set_terrain(self, changes: Iterable[tuple[Cell, int]]) -> bool:
        """Write terrain codes (a door's state as the side knows it); True if any changed."""
        changed = False
        for cell, code in changes:
            row = self.board.levels[cell.level].terrain
            if int(row[cell.y, cell.x]) != int(code):
                row[cell.y, cell.x] = code
                changed = True
        if changed:
            self.terrain_version += 1
            self.sight_version += 1
            self._fields.clear()
            self._sight.clear()
            self._masks.clear()
        return changed

    def forget_fields(self) -> None:
        """Drop the distance fields and masks: something they depend on beyond the copy's
        terrain has changed (a side's belief about which doors stand open, say)."""
        self.terrain_version += 1
        self._fields.clear()
        self._masks.clear()

    def set_smoke(self, cells: Iterable[Cell]) -> bool:
        """Make the copy's smoke exactly ``cells``; True if it changed."""
        smoke = frozenset(cells)
        if smoke == self._smoke:
            return False
        for level in self.board.levels:
            level.smoke[:] = False
        for c in smoke:
            self.board.levels[c.level].smoke[c.y, c.x] = True
        self._smoke = smoke
        self.sight_version += 1
        if self.veil:
            self._sight.clear()
        return True

    # -- what the copy says ------------------------------------------------------------------
    def mask(self, name: str, level: int, build: Callable[[Board, int], BoolArray]) -> BoolArray:
        """A per-level mask of the copy (``build(board, level)``), kept until the terrain
        changes: bots ask one cell at a time, and a whole-level mask per question is slow."""
        key = (name, level)
        found = self._masks.get(key)
        if found is None:
            found = self._masks[key] = build(self.board, level)
        return found

    def field(
        self, key: Hashable, build: Callable[[Board], DistanceField | None]
    ) -> DistanceField | None:
        """The distance field named ``key``, built by ``build(board)`` once per terrain version
        (the key must name everything else the field depends on)."""
        if key in self._fields:
            return self._fields[key]
        if len(self._fields) >= FIELD_LIMIT:
            self._fields.clear()
        found = self._fields[key] = build(self.board)
        return found

    # -- sight -----------------------------------------------------------------------------
    def sees(self, a: Cell, b: Cell) -> bool:
        """Whether the segment from ``a`` to ``b`` is clear on the copy (same level only)."""
        if a.level != b.level:
            return False
        known = self._sight.get((a, b))
        if known is None:
            self.prime([(a, b)])
            known = self._sight[(a, b)]
        return known

    def prime(self, pairs: Iterable[tuple[Cell, Cell]]) -> None:
        """Work out sight for many pairs at once (one ``los_pairs`` call per level)."""
        by_level: dict[int, dict[tuple[Cell, Cell], None]] = {}
        sight = self._sight
        for pair in pairs:
            a, b = pair
            if a.level == b.level and pair not in sight:
                by_level.setdefault(a.level, {})[pair] = None
        if not by_level:
            return
        if len(sight) + sum(len(t) for t in by_level.values()) > SIGHT_LIMIT:
            sight.clear()
        for level, todo in by_level.items():
            listed = list(todo)
            seen = los_pairs(
                self.board.opaque(level),
                [(a.x, a.y) for a, _ in listed],
                [(b.x, b.y) for _, b in listed],
                self.board.smoke(level) if self.veil else None,
            )
            sight.update(zip(listed, seen.tolist(), strict=True))

    def count_in_sight(self, cell: Cell, others: Sequence[Cell]) -> int:
        """How many of ``others`` are in sight of ``cell`` (segments from ``cell`` to each)."""
        self.prime((cell, o) for o in others)
        return sum(1 for o in others if o.level == cell.level and self._sight[(cell, o)])

    def counts_in_sight(self, cells: Iterable[Cell], others: Sequence[Cell]) -> dict[Cell, int]:
        """``count_in_sight`` for many cells at once."""
        todo = list(dict.fromkeys(cells))
        self.prime((c, o) for c in todo for o in others)
        sight = self._sight
        return {
            c: sum(1 for o in others if o.level == c.level and sight[(c, o)]) for c in todo
        }
