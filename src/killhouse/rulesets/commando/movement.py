"""Task-point cost of one step (digest 5.4, ruling C-6, C-7, C-9) and of chart tasks (5.2).

``kind_costs`` gives the per-kind triple the core's ``StepCosts`` layers take, so the engine's
pathing and this pure function read the same chart.
"""

from __future__ import annotations

from dataclasses import dataclass

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
