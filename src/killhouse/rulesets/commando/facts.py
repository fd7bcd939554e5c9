"""What commando bots may import: which public squares are buildings and how much a square's
terrain spoils fire at a man in it (Terrain Effects Chart, C-22, C-120); the public tables a
bot weighs a weapon by (Fire Combat Table, 8.1) and where a searchlight's beam falls (C-13)."""

from __future__ import annotations

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.rulesets.commando import fire, ground
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.tables import tables

__all__ = ["base_chance", "cover", "firepower", "in_building", "lit_by", "range_between"]

#: the band a bot weighs weapons at (9-20 squares: where most fights of the scenarios are)
TYPICAL_RANGE = 12


def in_building(board: Board, cell: Cell) -> bool:
    """The square is inside a building or a large building (the map's `building` layer)."""
    return bool(ground.building(board, cell))


def cover(board: Board, cell: Cell) -> int:
    """How much the square's terrain spoils fire at a man in it (woods 8, trench 9 …): 0-12."""
    row = tables().field.get(ground.cell_kind(board, cell))
    return -(row.fire or 0) if row is not None else 0


def range_between(a: Cell, b: Cell) -> int:
    """C-1's range between two squares."""
    return distance(b.x - a.x, b.y - a.y, b.level - a.level)


def base_chance(weapon: str, rng: int) -> int | None:
    """The Fire Combat Table's base % of one fire at that range (``None``: it may not fire)."""
    return fire.base_chance(weapon, rng) if weapon in tables().firearms else None


def firepower(weapon: str, penalty: int = 0) -> float:
    """Expected hits of one fire task at a typical range (fires × base %, less ``penalty``
    per fire, e.g. an enemy weapon's −15): 0 for what is no firearm or cannot reach."""
    base = base_chance(weapon, TYPICAL_RANGE)
    return 0.0 if base is None else fire.fires(weapon) * max(0, base - penalty) / 100


def lit_by(aim: Cell, cell: Cell) -> bool:
    """The square is in the 5×5 block a searchlight aimed at ``aim`` lights (C-13)."""
    half = tables().searchlight_half
    return aim.level == cell.level and abs(aim.x - cell.x) <= half and \
        abs(aim.y - cell.y) <= half
