"""Movement: costs and paths (ruling G-3), lock-step resolution (G-4), hostages following (G-25).

Orders are checked on the ordering side's own map (the doors it knows to be open,
ruling G-44); resolution uses the true board. A door believed closed is still
passable at no extra cost, so the two differ only in which diagonals squeeze past it,
and a path legal on a side's map is always legal on the true one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.bounded import cost_at, level_route, level_totals, padded_squeeze
from killhouse.core.cells import Cell
from killhouse.core.geometry import chebyshev, euclidean_sq
from killhouse.core.paths import UNREACHABLE, DistanceField, StepRules, distance_field, path_cost
from killhouse.core.steps import Steps
from killhouse.core.terrain import Terrain

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int32]

#: ruling G-3: orthogonal 2, diagonal 3, halved and floored: o + d + floor(d/2)
RULES = StepRules(cardinal=2, diagonal=3, divisor=2, squeeze="solid+window")

#: terrain a diagonal step may not squeeze past (ruling G-3); doors are added per side
_SQUEEZE = np.zeros(16, dtype=bool)
_SQUEEZE[
    [Terrain.WALL, Terrain.DOOR_CLOSED, Terrain.DOOR_LOCKED, Terrain.WINDOW, Terrain.OUTSIDE]
] = True
_DOOR = np.zeros(16, dtype=bool)
_DOOR[[Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN]] = True


def enterable(board: Board, level: int) -> BoolArray:
    """Cells a figure may stand on or walk through on ``level`` (ruling G-45: a locked door is
    a wall in this game, as the core's passable mask already says)."""
    return board.passable_mask(level)


def enter_costs(board: Board, blocked: Iterable[Cell] = ()) -> list[IntArray]:
    """Per level, 1 where a figure may step and 0 where it may not (``blocked`` cells too)."""
    costs = [enterable(board, i).astype(np.int32) for i in range(len(board.levels))]
    for cell in blocked:
        costs[cell.level][cell.y, cell.x] = 0
    return costs


def squeeze_masks(board: Board, open_doors: frozenset[Cell] | set[Cell] | None) -> list[BoolArray]:
    """Per level, cells a diagonal may not squeeze past on a side's map.

    ``open_doors`` is the set of doors the side knows to be open (None: the true board).
    """
    masks: list[BoolArray] = []
    for i, lv in enumerate(board.levels):
        mask: BoolArray = _SQUEEZE[lv.terrain].copy()
        if open_doors is not None:
            believed_closed = _DOOR[lv.terrain].copy()
            for cell in open_doors:
                if cell.level == i:
                    believed_closed[cell.y, cell.x] = False
            mask |= believed_closed
        masks.append(mask)
    return masks


def field_from(
    board: Board,
    start: Cell,
    open_doors: frozenset[Cell] | set[Cell] | None = None,
    blocked: Iterable[Cell] = (),
    max_cost: int | None = None,
) -> DistanceField:
    """Cheapest G-3 costs from ``start`` on a side's map (or the true one).

    With ``max_cost``, squares costing more read as unreachable (a smaller search)."""
    return distance_field(
        board,
        [start],
        enter_costs(board, blocked),
        RULES,
        squeeze_masks(board, open_doors),
        max_cost=max_cost,
    )


def cost_of(
    board: Board, start: Cell, path: Sequence[Cell], open_doors: frozenset[Cell] | set[Cell] | None
) -> int | None:
    """The G-3 cost of walking ``path`` (start excluded) from ``start``, None if illegal."""
    return path_cost(
        board, [start, *path], enter_costs(board), RULES, squeeze_masks(board, open_doors)
    )


def longest_prefix(start: Cell, path: Sequence[Cell], allowance: int) -> list[Cell]:
    """The longest prefix of a legal ``path`` whose G-3 cost fits ``allowance``.

    Used for stun cuts (ruling G-22) and hostage allowances (G-25); a stair link counts as
    an orthogonal step.
    """
    raw = 0
    out: list[Cell] = []
    here = start
    for cell in path:
        diagonal = cell.level == here.level and cell.x != here.x and cell.y != here.y
        raw += RULES.diagonal if diagonal else RULES.cardinal
        if raw // RULES.divisor > allowance:
            break
        out.append(cell)
        here = cell
    return out


# -- lock-step (ruling G-4) --------------------------------------------------------------


@dataclass
class LockStep:
    """The outcome of one movement step: where everyone ends and what each mover passed."""

    final: dict[str, Cell]
    trail: dict[str, list[Cell]] = field(default_factory=dict)  # cells entered, in order
    blocked_at: dict[str, int] = field(default_factory=dict)  # mover -> step it was stopped


def lockstep(positions: Mapping[str, Cell], paths: Mapping[str, Sequence[Cell]]) -> LockStep:
    """Run all paths in lock-step (ruling G-4).

    ``positions`` holds every figure on the map; ``paths`` the cells each mover tries to
    enter, in order. In step s each still-moving figure tries to enter its s-th cell; a
    figure is blocked by a cell held by a non-mover or a blocked mover, by a contest for
    the same cell, by a swap, or by being in a cycle of three or more. Blocked figures stop
    for the rest of the turn; a file behind a mover follows it.
    """
    pos = dict(positions)
    trail: dict[str, list[Cell]] = {f: [] for f in paths}
    blocked_at: dict[str, int] = {}
    moving = {f for f, p in paths.items() if p}
    step = 0
    while moving:
        step += 1
        want = {f: paths[f][step - 1] for f in moving if len(paths[f]) >= step}
        moving = set(want)
        if not want:
            break
        holder = {cell: f for f, cell in pos.items()}
        if len(set(want.values())) == len(want) and not any(c in holder for c in want.values()):
            # every mover enters a square of its own that nobody holds: no rule blocks anyone
            for f, cell in want.items():
                pos[f] = cell
                trail[f].append(cell)
            continue
        blocked: set[str] = set()
        count: dict[Cell, int] = {}
        for cell in want.values():
            count[cell] = count.get(cell, 0) + 1
        for f, cell in want.items():
            if count[cell] > 1:
                blocked.add(f)  # rule 2: contest
            other = holder.get(cell)
            if other is not None and other in want and want[other] == pos[f]:
                blocked.add(f)  # rule 3: swap
        changed = True
        while changed:
            changed = False
            for f, cell in want.items():
                if f in blocked:
                    continue
                other = holder.get(cell)
                if other is not None and (other not in want or other in blocked):
                    blocked.add(f)  # rules 1 and 4
                    changed = True
            if changed:
                continue
            for f in sorted(want):
                if f in blocked:
                    continue
                chain = [f]
                current = f
                while True:
                    nxt = holder.get(want[current])
                    if nxt is None or nxt not in want or nxt in blocked:
                        break
                    if nxt == f:
                        blocked.update(chain)  # rule 5: a cycle of three or more
                        changed = True
                        break
                    if nxt in chain:
                        break
                    chain.append(nxt)
                    current = nxt
                if changed:
                    break
        for f in want:
            if f in blocked:
                blocked_at[f] = step
                moving.discard(f)
        for f, cell in want.items():
            if f not in blocked:
                pos[f] = cell
                trail[f].append(cell)
    return LockStep(pos, trail, blocked_at)


# -- hostages following (ruling G-25) ----------------------------------------------------


def follow_path(
    board: Board,
    hostage_at: Cell,
    leader_at: Cell,
    occupied: Iterable[Cell],
    allowance: int,
) -> list[Cell]:
    """The cells a following hostage walks this turn (start excluded).

    It heads by a cheapest path for a free cell next to its leader (tie-breaks: cost, then
    squared distance to the leader, then (y, x)), going as far as ``allowance`` lets it.
    Other figures' cells cannot be entered.
    """
    others = {c for c in occupied if c != hostage_at}
    goals = []
    walk = enterable(board, leader_at.level)  # the squares around lie on the leader's level
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx == 0 and dy == 0:
                continue
            cell = leader_at.step(dx, dy)
            if not board.in_bounds(cell) or cell in others:
                continue
            if not walk[cell.y, cell.x]:
                continue
            goals.append(cell)
    if not goals:
        return []
    if hostage_at in goals:
        return []
    # first a search bounded near the leader: when it reaches a goal, the goals beyond the
    # bound cost more and cannot win, and every square of the winner's cheapest path costs
    # less than it, so the choice and the path are the whole field's; otherwise the whole
    # field decides (a bound on the work only)
    bound = 2 * (chebyshev(hostage_at, leader_at) + 1)
    model = _true_steps(board)
    if model is None:  # stair links: the core's search
        for max_cost in (bound, None):
            dist = field_from(board, hostage_at, None, blocked=others, max_cost=max_cost)
            goal = _follow_goal(partial(cost_at, dist), goals, leader_at)
            if goal is not None:
                return longest_prefix(hostage_at, dist.path_to(goal), allowance)
        return []
    # field_from(board, hostage_at, None, blocked=others) on one level by the compiled
    # search: the same totals (a cheapest total is one number), the same path walked back
    steps, padded = model
    level = hostage_at.level
    enter = steps.enter[level].copy()
    for cell in others:
        if cell.level == level:
            enter[cell.y, cell.x] = 0  # other figures' squares cannot be entered
    divisor = RULES.divisor
    for limit in ((bound + 1) * divisor - 1, UNREACHABLE - 1):
        raw = level_totals(enter, padded[level], hostage_at, limit, RULES)

        def cost(cell: Cell, raw: NDArray[np.int64] = raw) -> int | None:
            total = int(raw[cell.y, cell.x]) if cell.level == level else UNREACHABLE
            return None if total == UNREACHABLE else total // divisor

        goal = _follow_goal(cost, goals, leader_at)
        if goal is not None:
            route = level_route(raw, enter, padded[level], level, goal, RULES)
            return longest_prefix(hostage_at, route, allowance)
    return []


#: the true board's step model (every door as it stands) with its padded squeeze grids, by
#: terrain: a following hostage's path is searched on it with the figures' squares priced out
_TRUE_STEPS: dict[tuple[object, ...], tuple[Steps, tuple[BoolArray, ...]]] = {}


def _true_steps(board: Board) -> tuple[Steps, tuple[BoolArray, ...]] | None:
    """``field_from``'s step model of the true board (no figure blocked) and its padded
    squeeze grids, kept process-wide under the terrain; None on a map with stair links."""
    if board.stairs:
        return None
    key = tuple((lv.terrain.shape, lv.terrain.tobytes()) for lv in board.levels)
    found = _TRUE_STEPS.get(key)
    if found is None:
        if len(_TRUE_STEPS) >= 256:
            _TRUE_STEPS.clear()  # a bound on memory only
        steps = Steps(board, enter_costs(board), RULES, squeeze_masks(board, None))
        found = _TRUE_STEPS[key] = (steps, padded_squeeze(steps))
    return found


def _follow_goal(
    cost: Callable[[Cell], int | None], goals: list[Cell], leader_at: Cell
) -> Cell | None:
    """The goal ``follow_path`` heads for by ``cost``: the cheapest, then the nearest to the
    leader, then by (y, x); None if none is reached."""
    best: tuple[int, int, int, int] | None = None
    goal: Cell | None = None
    for cell in goals:
        found = cost(cell)
        if found is None:
            continue
        key = (found, euclidean_sq(cell, leader_at), cell.y, cell.x)
        if best is None or key < best:
            best, goal = key, cell
    return goal
