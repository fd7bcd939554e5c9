"""What a bot may ask the rules of "Go! Go! Go!": the one module ``ai/`` imports from here.

Movement allowances, the side's distance fields on its own map of the doors (G-44),
the lock-step rehearsal of a side's own moves (G-4), compass sectors (G-33), the
mission's briefing (teams, zones, bomb sites) and the numbers a plan needs. Each is a
fact of the rules, not a preference: bots put their own values on them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from killhouse.core.board import Board
from killhouse.core.bounded import bounded_field, padded_squeeze, route
from killhouse.core.cells import Cell
from killhouse.core.paths import DistanceField, field_on
from killhouse.core.steps import Steps
from killhouse.rulesets.gogogo import dice
from killhouse.rulesets.gogogo.geom import sector
from killhouse.rulesets.gogogo.movement import (
    RULES,
    LockStep,
    enter_costs,
    enterable,
    field_from,
    lockstep,
    squeeze_masks,
)
from killhouse.rulesets.gogogo.orders import BoolArray, longest_move
from killhouse.rulesets.gogogo.scenario import plan_scenario
from killhouse.rulesets.gogogo.state import (
    AIM,
    ASSASSINATION,
    CT,
    DESTRUCTION,
    HIDE,
    HOLD,
    HOSTAGE_MISSION,
    MOVE,
    STEALTH,
    T,
    Zones,
    id_key,
)
from killhouse.rulesets.gogogo.tables import allowance, follow_allowance, tables
from killhouse.scenario.model import Scenario

__all__ = [
    "AIM",
    "ASSASSINATION",
    "CT",
    "DESTRUCTION",
    "HIDE",
    "HOLD",
    "HOSTAGE_MISSION",
    "MOVE",
    "STEALTH",
    "Briefing",
    "DistanceField",
    "LockStep",
    "MapModel",
    "Numbers",
    "T",
    "Zones",
    "allowance",
    "briefing",
    "distance_from",
    "distance_to",
    "enterable",
    "follow_allowance",
    "id_key",
    "map_model",
    "numbers",
    "ooa_given_hit",
    "path_on",
    "reach_from",
    "rehearse",
    "sector",
]


@dataclass(frozen=True)
class Briefing:
    """What both teams are told before play (5.1): teams, mission, zones, the bomb sites."""

    team_of: Mapping[str, str]
    mission: str
    zones: Zones
    sites: tuple[frozenset[Cell], ...]


def briefing(scenario: Scenario) -> Briefing:
    """The briefing of a scenario; the bomb sites one by one, as named zones."""
    plan = plan_scenario(scenario)
    raw = scenario.objectives.get("bomb_sites")
    if isinstance(raw, str):
        names = [raw]
    elif isinstance(raw, list):
        names = [str(n) for n in raw]
    else:
        names = sorted(z for z in scenario.board.zones if z.lower().startswith("bomb"))
    sites = tuple(scenario.board.zones[n] for n in names if n in scenario.board.zones)
    return Briefing(dict(plan.team_of), plan.mission, plan.zones, sites)


@dataclass(frozen=True)
class Numbers:
    """The table numbers a plan needs (table 3.4, 3.5)."""

    move: int
    stealth: int
    max_throw_sq: int
    radius_sq: int


def numbers() -> Numbers:
    t = tables()
    return Numbers(t.move, t.stealth, t.max_throw_sq, t.radius_sq)


def ooa_given_hit() -> float:
    """P(out of action | an automatic weapon's hit), from table 3.3."""
    return sum(1 for r in tables().hit_effect if r == dice.OOA) / 6.0


#: a side's map as a step model (enter costs and its squeeze masks) with the padded squeeze
#: grids of ``bounded.bounded_field``: ``map_model`` builds it, the fields below read it
MapModel = tuple[Steps, tuple[BoolArray, ...]]


def map_model(board: Board, open_doors: frozenset[Cell] | set[Cell]) -> MapModel:
    """The step model of a side's map, which ``distance_to`` and ``distance_from`` would
    otherwise build for every field: a bot keeps it while its map stands still."""
    steps = Steps(board, enter_costs(board), RULES, squeeze_masks(board, open_doors))
    return steps, padded_squeeze(steps)


def distance_to(
    board: Board,
    goals: Iterable[Cell],
    open_doors: frozenset[Cell] | set[Cell],
    model: MapModel | None = None,
) -> DistanceField | None:
    """Movement costs (G-3) to the nearest of ``goals`` on a side's map; None if none stand.

    ``model`` is ``map_model(board, open_doors)`` when the caller keeps it."""
    inside = sorted(c for c in goals if board.in_bounds(c) and enterable(board, c.level)[c.y, c.x])
    if not inside:
        return None
    if model is None:
        model = map_model(board, open_doors)
    return field_on(board, model[0], inside)


def distance_from(
    board: Board, start: Cell, open_doors: frozenset[Cell] | set[Cell]
) -> DistanceField:
    """Movement costs from ``start`` on a side's map (the field orders are checked on)."""
    return field_from(board, start, open_doors)


def reach_from(board: Board, start: Cell, model: MapModel) -> DistanceField:
    """``distance_from`` up to the longest movement allowance (table 3.5): every square an
    order can reach has the same cost and the same path (each step of a cheapest path costs
    less than its end), and the squares beyond read unreachable. One compiled search over
    those few squares instead of the whole map (``bounded.bounded_field``)."""
    steps, padded = model
    return bounded_field(board, steps, padded, start, longest_move())


def path_on(field: DistanceField, model: MapModel, cell: Cell) -> list[Cell]:
    """``field.path_to(cell)`` of a field ``reach_from`` made on ``model``: walked back from
    ``cell`` alone (``bounded.route``) instead of every square's predecessor worked out."""
    steps, padded = model
    return route(field, steps, padded, cell)


def rehearse(positions: Mapping[str, Cell], paths: Mapping[str, Sequence[Cell]]) -> LockStep:
    """The lock-step of ruling G-4 for the given moves: who is blocked, where all end."""
    return lockstep(positions, paths)
