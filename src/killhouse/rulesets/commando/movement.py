"""Task-point cost of one step (digest 5.4, ruling C-6, C-7, C-9) and of chart tasks (5.2).

``kind_costs`` gives the per-kind triple the core's ``StepCosts`` layers take, so the engine's
pathing and this pure function read the same chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from killhouse.core.paths import StepCosts, StepRules
from killhouse.rulesets.commando.tables import Terrain, tables


def terrain(kind: str) -> Terrain:
    """A field or line terrain row by name (a cell of the engine's map has one kind, C-1)."""
    t = tables()
    if kind in t.field:
        return t.field[kind]
    if kind in t.line:
        return t.line[kind]
    raise KeyError(f"unknown terrain kind {kind!r}")


@dataclass(frozen=True)
class KindCost:
    """Multiple, additive, and the additive earned only along same-kind squares (C-6)."""

    multiple: int | None
    additive: int
    along: int


def kind_costs(kind: str) -> KindCost:
    """Split a chart row into the core's ``enter`` / ``add`` / ``same_kind_add`` (ruling C-6)."""
    row = terrain(kind)
    if row.multiple is None or row.additive is None:
        return KindCost(None, 0, 0)
    if kind in tables().along_only:
        return KindCost(row.multiple, 0, row.additive)
    return KindCost(row.multiple, row.additive, 0)


def step_cost(
    dest: str,
    *,
    source: str = "clear",
    diagonal: bool = False,
    prone: bool = False,
    levels_up: int = 0,
    levels_down: int = 0,
    carrying_man: bool = False,
    carrying_flamethrower: bool = False,
) -> int | None:
    """TP for one step into a cell of kind ``dest``; ``None`` if it cannot be entered.

    Ruling C-6: base × M(dest) + A(dest) [+ road/trail/railroad/runway bonus only along the same
    kind] + 6 per level up + 4 per level down (C-7) + carry surcharges, at least 1.
    Straight barbed wire is crossed at +25 (C-9); concertina must be clipped first.
    """
    t = tables()
    cost = kind_costs(dest)
    if cost.multiple is None:
        return None
    key = ("move_diagonal" if diagonal else "move_orthogonal") + ("_prone" if prone else "")
    total = t.cost[key] * cost.multiple + cost.additive
    if source == dest:
        total += cost.along
    total += levels_up * t.line["up_level"].additive_or_zero()
    total += levels_down * t.line["down_level"].additive_or_zero()
    if carrying_man:
        total += t.extra["carry_incapacitated"]
    if carrying_flamethrower:
        total += t.extra["carry_flamethrower"]
    return max(t.min_step, total)


@dataclass(frozen=True)
class StepModel:
    """What the core's path functions take for one man's movement (ruling C-6 on K-9)."""

    enter: list[NDArray[np.int64]]
    rules: StepRules
    costs: StepCosts


def step_model(
    kinds: Sequence[Sequence[Sequence[str]]],
    elevation: Sequence[NDArray[np.integer]] | None = None,
    *,
    prone: bool = False,
    carrying_man: bool = False,
    carrying_flamethrower: bool = False,
) -> StepModel:
    """Per-level enter / add / same-kind layers from a grid of terrain kind names.

    ``kinds[level][y][x]`` names each cell's field or line terrain. Changing storeys by stair
    or ladder is its own task (25 TP, digest 5.4), so stair links cost ``ladder_or_stairs``.
    """
    t = tables()
    along = sorted(t.along_only)
    enter: list[NDArray[np.int64]] = []
    add: list[NDArray[np.int64]] = []
    kind: list[NDArray[np.int64]] = []
    same: list[NDArray[np.int64]] = []
    for grid in kinds:
        height, width = len(grid), len(grid[0]) if grid else 0
        e = np.zeros((height, width), dtype=np.int64)
        a = np.zeros_like(e)
        k = np.zeros_like(e)
        s = np.zeros_like(e)
        for y, row in enumerate(grid):
            for x, name in enumerate(row):
                cost = kind_costs(name)
                e[y, x] = cost.multiple or 0
                a[y, x] = cost.additive
                if name in along:
                    k[y, x] = along.index(name) + 1
                    s[y, x] = cost.along
        enter.append(e)
        add.append(a)
        kind.append(k)
        same.append(s)
    key = "_prone" if prone else ""
    rules = StepRules(
        cardinal=t.cost["move_orthogonal" + key], diagonal=t.cost["move_diagonal" + key],
        squeeze="none",
    )
    surcharge = (t.extra["carry_incapacitated"] if carrying_man else 0) + (
        t.extra["carry_flamethrower"] if carrying_flamethrower else 0
    )
    costs = StepCosts(
        add=add, kind=kind, same_kind_add=same, elevation=elevation,
        up=t.line["up_level"].additive_or_zero(), down=t.line["down_level"].additive_or_zero(),
        per_step=surcharge, link=t.cost["ladder_or_stairs"], minimum=t.min_step,
    )
    return StepModel(enter, rules, costs)
