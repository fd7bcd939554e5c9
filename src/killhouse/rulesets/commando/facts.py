"""What commando bots may import: which public squares are buildings and how much a square's
terrain spoils fire at a man in it (Terrain Effects Chart, C-22, C-120)."""

from __future__ import annotations

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.rulesets.commando import ground
from killhouse.rulesets.commando.tables import tables

__all__ = ["cover", "in_building"]


def in_building(board: Board, cell: Cell) -> bool:
    """The square is inside a building or a large building (the map's `building` layer)."""
    return bool(ground.building(board, cell))


def cover(board: Board, cell: Cell) -> int:
    """How much the square's terrain spoils fire at a man in it (woods 8, trench 9 …): 0-12."""
    row = tables().field.get(ground.cell_kind(board, cell))
    return -(row.fire or 0) if row is not None else 0
