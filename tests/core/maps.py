"""Small hand-drawn boards for the core tests, built straight from ASCII.

The default legend of the scenario format applies (``core.terrain.DEFAULT_LEGEND``). Two
test-only extras: ``*`` is floor under smoke, and a lowercase letter is floor that names a
cell, so tests can say ``marks["a"]`` instead of counting columns.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np

from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.terrain import (
    COVER_NAMES,
    DEFAULT_LEGEND,
    DOOR_STATES,
    TERRAIN_NAMES,
    Terrain,
)

SMOKE = "*"
_MARKS = "abcdefghijklmnopqrstuvwxyz"


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Byte-indexed lookup tables: terrain, cover, clutter, smoke, known."""
    terrain = np.zeros(256, dtype=np.uint8)
    cover = np.zeros(256, dtype=np.uint8)
    clutter = np.zeros(256, dtype=np.uint8)
    smoke = np.zeros(256, dtype=bool)
    known = np.zeros(256, dtype=bool)
    for char, entry in DEFAULT_LEGEND.items():
        code = ord(char)
        kind = TERRAIN_NAMES[str(entry["terrain"])]
        if "state" in entry:
            kind = DOOR_STATES[str(entry["state"])]
        terrain[code] = kind
        cover[code] = COVER_NAMES[str(entry.get("cover", "none"))]
        clutter_value = entry.get("clutter", 0)
        assert isinstance(clutter_value, int)
        clutter[code] = clutter_value
        known[code] = True
    for char in _MARKS + SMOKE:
        terrain[ord(char)] = Terrain.FLOOR
        known[ord(char)] = True
    smoke[ord(SMOKE)] = True
    return terrain, cover, clutter, smoke, known


_TERRAIN, _COVER, _CLUTTER, _SMOKE, _KNOWN = _tables()


@dataclass
class Drawn:
    """A board drawn from ASCII, with the cells named by lowercase letters."""

    board: Board
    marks: dict[str, Cell]

    def __getitem__(self, mark: str) -> Cell:
        return self.marks[mark]


def _rows(picture: str) -> list[str]:
    lines = textwrap.dedent(picture).split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def draw(*levels: str) -> Drawn:
    """Build a board with one level per picture; short rows are padded with outside."""
    board = Board(levels=[])
    marks: dict[str, Cell] = {}
    for index, picture in enumerate(levels):
        rows = _rows(picture)
        width = max(len(r) for r in rows)
        codes = np.array(
            [np.frombuffer(r.ljust(width).encode("latin-1"), dtype=np.uint8) for r in rows]
        )
        if not _KNOWN[codes].all():
            bad = sorted({chr(c) for c in codes[~_KNOWN[codes]].tolist()})
            raise ValueError(f"unknown map symbols {bad}")
        level = Level.blank(f"level{index}", width, len(rows))
        level.terrain[...] = _TERRAIN[codes]
        level.cover[...] = _COVER[codes]
        level.clutter[...] = _CLUTTER[codes]
        level.smoke[...] = _SMOKE[codes]
        board.levels.append(level)
        for char in _MARKS:
            ys, xs = np.nonzero(codes == ord(char))
            if xs.size > 1:
                raise ValueError(f"mark {char!r} used twice")
            if xs.size == 1:
                if char in marks:
                    raise ValueError(f"mark {char!r} used on two levels")
                marks[char] = Cell(index, int(xs[0]), int(ys[0]))
    return Drawn(board, marks)


def link(board: Board, a: Cell, b: Cell) -> None:
    """Join two stair cells in both directions, as the scenario loader does."""
    board.stairs[a] = b
    board.stairs[b] = a


def open_floor(width: int, height: int, levels: int = 1) -> Board:
    """A board of plain floor, for property tests."""
    return Board([Level.blank(f"level{i}", width, height) for i in range(levels)])
