"""What a panicking man does on the map when the result leaves him no choice (ruling C-14):
the forced unaimed fire's target, and the run-away route. The engine decides these because
the rules do, not the player; ties are broken by our ruling C-80 so a game replays exactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight
from killhouse.core.paths import path_cost
from killhouse.rulesets.commando.blasts import OFFSETS
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.movement import StepModel


def gap(a: Cell, b: Cell) -> int:
    """C-1 range between two cells."""
    return distance(a.x - b.x, a.y - b.y, a.level - b.level)


def sees(board: Board, a: Cell, b: Cell) -> bool:
    """Line of sight on one level (different levels: none, until the core joins them)."""
    return a.level == b.level and line_of_sight(board.opaque(a.level), (a.x, a.y), (b.x, b.y))


def forced_fire_target(
    board: Board, at: Cell, observed: Mapping[str, Cell]
) -> str | None:
    """Panic "fire": the nearest observed enemy in his LOS, ties by id; ``None`` fires into the
    air (still a fire task with its TP and Mag Chk, C-14)."""
    visible = [(gap(at, cell), ident) for ident, cell in observed.items() if sees(board, at, cell)]
    return min(visible)[1] if visible else None


def run_away(
    board: Board,
    at: Cell,
    known_enemies: Sequence[Cell],
    tp: int,
    model: StepModel,
    occupied: frozenset[Cell] = frozenset(),
) -> list[Cell]:
    """Panic "run": steps while his TP last, each one increasing his range to the nearest known
    enemy. Ruling C-80: among such steps prefer one that leaves every known enemy out of LOS,
    then the longer resulting range, then the cheaper step, then the compass order N, NE, E …
    """
    route: list[Cell] = []
    if not known_enemies:
        return route
    here, left = at, tp
    while True:
        now = min(gap(here, e) for e in known_enemies)
        best: tuple[tuple[int, int, int, int], Cell, int] | None = None
        for order, (dx, dy) in enumerate(OFFSETS.values()):
            nxt = Cell(here.level, here.x + dx, here.y + dy)
            if not board.in_bounds(nxt) or nxt in occupied:
                continue
            cost = path_cost(board, [here, nxt], model.enter, model.rules, costs=model.costs)
            if cost is None or cost > left:
                continue
            far = min(gap(nxt, e) for e in known_enemies)
            if far <= now:
                continue
            hidden = not any(sees(board, nxt, e) for e in known_enemies)
            key = (0 if hidden else 1, -far, cost, order)
            if best is None or key < best[0]:
                best = (key, nxt, cost)
        if best is None:
            return route
        _, here, cost = best
        left -= cost
        route.append(here)
