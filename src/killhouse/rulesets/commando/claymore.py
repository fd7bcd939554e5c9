"""The Claymore (ruling C-36): once set off, it attacks every man in a 90° cone out to 10
squares in its facing, each once, on the Shotgun row by range band plus the target's terrain
and prone modifiers only (no Mk, Hero or WP), with the Kill % rule and 2d6 damage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.core.geometry import arc_test, line_of_sight
from killhouse.rulesets.commando import fire
from killhouse.rulesets.commando.blasts import OFFSETS
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.tables import tables

REACH = 10
HALF_ANGLE = 45.0  # a 90° cone


@dataclass(frozen=True)
class Exposure:
    """A man the mine may hit: where he is, his square's fire modifier (C-22), his posture."""

    at: Cell
    terrain: int = 0
    prone: bool = False


def in_cone(board: Board, mine: Cell, facing: str, target: Cell) -> bool:
    """Within 10 squares (C-1 range), inside the 90° cone, and in the mine's line of sight
    (ruling C-82: a wall between shields him)."""
    if target.level != mine.level or target == mine:
        return False
    dx, dy = target.x - mine.x, target.y - mine.y
    if distance(dx, dy) > REACH:
        return False
    if not bool(arc_test(OFFSETS[facing], dx, dy, HALF_ANGLE)):
        return False
    return line_of_sight(board.opaque(mine.level), (mine.x, mine.y), (target.x, target.y))


def claymore_chance(rng: int, terrain: int = 0, prone: bool = False) -> int:
    """Shotgun base by band + terrain + prone (−12); nothing else applies (C-36)."""
    base = fire.base_chance("shotgun", rng)
    assert base is not None, "a Claymore reaches only 10 squares, inside the shotgun's bands"
    return base + terrain + (tables().fire_mod["target_prone"] if prone else 0)


def claymore(
    chance: Chance, board: Board, mine: Cell, facing: str, men: Mapping[str, Exposure],
    audience: Audience = None,
) -> dict[str, fire.Shot]:
    """One attack on each man in the cone, in id order (ruling C-82)."""
    out: dict[str, fire.Shot] = {}
    damage = fire.firearm("shotgun").damage
    for ident in sorted(men):
        e = men[ident]
        if not in_cone(board, mine, facing, e.at):
            continue
        rng = distance(e.at.x - mine.x, e.at.y - mine.y)
        out[ident] = fire.one_fire(chance, claymore_chance(rng, e.terrain, e.prone), damage,
                                   audience)
    return out
