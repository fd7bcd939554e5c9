"""What a player of Execute may work out for itself: the public numbers and calculations of
the rules, for bots and faces. ``ai/`` imports this module, never the ruleset's internals.

Everything here is computed from what a side knows (its view and the public floor plan):
target numbers and odds (E-13, E-14, E-24), a figure's movement allowance (5.2), the cost to
enter each square of the side's plan (E-2, E-3, E-66) and distance fields over it, and the
rehearsal of a move (the path and cost the engine would walk on that plan, E-59).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.paths import DistanceField, StepRules, distance_field
from killhouse.core.terrain import Terrain, passable_mask, stairs_mask
from killhouse.rulesets.execute.rolls import (
    device_tn,
    effective,
    grenade_tn,
    shot_tn,
    success_chance,
)
from killhouse.rulesets.execute.tables import tables

__all__ = [
    "BLAST_RADIUS",
    "BOMB_DIE",
    "DEVICE_DIE",
    "GRENADE_DIE",
    "MAX_THROW",
    "STAIR_COST",
    "STEP_RULES",
    "device_tn",
    "distances",
    "effective",
    "grenade_tn",
    "movement_allowance",
    "rehearse",
    "shot_tn",
    "step_costs",
    "success_chance",
]

STAIR_COST = 2  # ruling E-3: entering a stair square, a link included
STEP_RULES = StepRules(cardinal=1, diagonal=1, divisor=1, squeeze="solid")  # ruling E-2
#: a grenade's blast radius (E-27), its die (5.9) and the longest throw (E-25)
BLAST_RADIUS: int = tables().grenade["blast_radius"]
GRENADE_DIE: int = tables().grenade["die"]
MAX_THROW: int = tables().grenade["max_distance"]
#: the dice of device tasks and bomb disarms (5.7, 5.8)
DEVICE_DIE: int = tables().device["die"]
BOMB_DIE: int = tables().bomb["die"]


def movement_allowance(figure: Mapping[str, Any]) -> int:
    """A figure's MP per turn from its view entry: its card's Movement (wounds do not lower
    it, E-14; incapacitated and dead figures have none, 5.2)."""
    if figure.get("status", "active") != "active":
        return 0
    return int(figure.get("card", {}).get("movement", 0))


def step_costs(plan: Board, entry: Iterable[Cell] = ()) -> list[NDArray[np.int32]]:
    """Per level of ``plan`` (the floor plan as the side knows it), the MP to enter each
    square: 2 for stairs (E-3), 1 for other enterable squares and entry windows (E-66), 0 for
    squares nobody enters."""
    out: list[NDArray[np.int32]] = []
    for lv in plan.levels:
        cost = passable_mask(lv.terrain).astype(np.int32)
        cost[stairs_mask(lv.terrain) & (cost > 0)] = STAIR_COST
        out.append(cost)
    for c in entry:
        if plan.terrain(c) == Terrain.WINDOW:
            out[c.level][c.y, c.x] = 1
    return out


def distances(plan: Board, goals: Iterable[Cell],
              costs: Sequence[NDArray[np.integer]]) -> DistanceField:
    """Walking distance on ``plan`` from the nearest of ``goals`` under ``costs``, with the
    rules' steps: eight neighbours at 1, no corner-cutting past solid squares (E-2)."""
    walls = [plan.solid(i) for i in range(len(plan.levels))]
    return distance_field(plan, list(goals), costs, STEP_RULES, walls)


def rehearse(plan: Board, costs: Sequence[NDArray[np.integer]], start: Cell,
             dest: Cell) -> tuple[list[Cell], int] | None:
    """The path (squares entered) and MP cost a move from ``start`` to ``dest`` would take on
    ``plan``: the engine's cheapest path and tie-break (E-59), or ``None`` if there is none."""
    fld = distances(plan, [start], costs)
    cost = fld.cost(dest)
    if cost is None:
        return None
    return fld.path_to(dest), cost
