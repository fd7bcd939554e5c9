"""A figure's bounded move field in one compiled call (numba): where a walk of some allowance
gets to, for the moves a ruleset lists.

``bounded_field`` answers what ``core.paths.field_on(board, steps, [start], max_cost)`` does
on a map without stair links: the cheapest raw totals from ``start`` over king steps (a step
costs its enter cost times the cardinal or diagonal multiplier; a diagonal may not squeeze
past a blocked row or column neighbour, G-3), every total beyond the bound read as
unreachable. The search never pushes a total beyond the bound, so it visits only the few
squares an order can reach, and every square within the bound still gets its exact cheapest
total (each step of a cheapest path is cheaper still). ``field_on`` cuts a window and
bounds a copy of the whole level afterwards; one call here does it all, with the padded
squeeze grid kept per step model. A map with stair links goes to ``field_on``.

``route`` reads an order's path off such a field by walking back from its end alone, with
``DistanceField.path_to``'s choice of predecessor (N, E, S, W, then NE, SE, SW, NW as the last
step), instead of working out every square's predecessor and a copy of the field as lists.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.kernels import register
from killhouse.core.paths import UNREACHABLE, DistanceField, StepRules, field_on
from killhouse.core.steps import Steps

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]


@njit(cache=True, nogil=True)
def _bounded(
    enter: IntArray,
    blocked: BoolArray,
    y0: int,
    x0: int,
    limit: int,
    cardinal: int,
    diagonal: int,
) -> IntArray:  # pragma: no cover - compiled; tests compare it with field_on
    height, width = enter.shape
    far = np.int64(UNREACHABLE)
    dist = np.full((height, width), far, dtype=np.int64)
    dist[y0, x0] = 0
    heap = [(np.int64(0), np.int64(y0 * width + x0))]
    steps_y = (-1, 0, 1, 0, -1, 1, 1, -1)
    steps_x = (0, 1, 0, -1, 1, 1, -1, -1)
    while heap:
        d, flat = heapq.heappop(heap)
        y = flat // width
        x = flat - y * width
        if d != dist[y, x]:
            continue
        for k in range(8):
            dy = steps_y[k]
            dx = steps_x[k]
            ty = y + dy
            tx = x + dx
            if ty < 0 or ty >= height or tx < 0 or tx >= width:
                continue
            cost = enter[ty, tx]
            if cost <= 0:
                continue
            if k >= 4:
                # ``blocked`` is padded by one square on every side (off the map: blocked)
                if blocked[1 + y + dy, 1 + x] or blocked[1 + y, 1 + x + dx]:
                    continue
                total = d + diagonal * cost
            else:
                total = d + cardinal * cost
            if total <= limit and total < dist[ty, tx]:
                dist[ty, tx] = total
                heapq.heappush(heap, (total, np.int64(ty * width + tx)))
    return dist


def padded_squeeze(steps: Steps) -> tuple[BoolArray, ...]:
    """Per level, the step model's squeeze mask padded by one blocked square all round (the
    kernel's bounds for a diagonal's neighbours): built once per step model by its keeper."""
    out = []
    for mask in steps.squeeze:
        grid = np.ones((mask.shape[0] + 2, mask.shape[1] + 2), dtype=np.bool_)
        grid[1:-1, 1:-1] = mask
        out.append(grid)
    return tuple(out)


def bounded_field(
    board: Board, steps: Steps, padded: tuple[BoolArray, ...], start: Cell, max_cost: int
) -> DistanceField:
    """``field_on(board, steps, [start], max_cost)``: the same field, by one compiled search
    where the map has no stair links (``padded`` is ``padded_squeeze(steps)``)."""
    if steps.links or steps.costs is not None or max_cost < 0:
        return field_on(board, steps, [start], max_cost=max_cost)
    if not steps.in_bounds(start):
        raise ValueError(f"start {start} is off the board")
    rules = steps.rules
    limit = (max_cost + 1) * rules.divisor - 1  # raw // divisor <= max_cost
    raw = [np.full(shape, UNREACHABLE, dtype=np.int64) for shape in steps.shapes]
    raw[start.level] = _bounded(
        steps.enter[start.level],
        padded[start.level],
        start.y,
        start.x,
        limit,
        rules.cardinal,
        rules.diagonal,
    )
    return DistanceField(tuple(raw), rules, steps)


#: the step back from a square to the predecessor tried k-th: the last step taken as N, E, S,
#: W, NE, SE, SW, NW (``DistanceField.path_to``'s order, ``core.pathjit._parents``'s offsets)
_BACK_X = (0, -1, 0, 1, -1, -1, 1, 1)
_BACK_Y = (1, 0, -1, 0, 1, -1, -1, 1)


@njit(cache=True, nogil=True)
def _walk_back(
    raw: IntArray,
    enter: IntArray,
    blocked: BoolArray,
    y: int,
    x: int,
    cardinal: int,
    diagonal: int,
) -> IntArray:  # pragma: no cover - compiled; tests compare it with path_tuples
    """The squares (y, x) from the end back to the start's neighbour, end first."""
    height, width = raw.shape
    far = np.int64(UNREACHABLE)
    shortest = min(cardinal, diagonal)
    out = np.empty((raw[y, x] // shortest + 1, 2), dtype=np.int64)
    count = 0
    here = raw[y, x]
    while here != 0:
        cost = enter[y, x]
        found = -1
        for k in range(8):
            bx = x + _BACK_X[k]
            by = y + _BACK_Y[k]
            if bx < 0 or bx >= width or by < 0 or by >= height:
                continue
            there = raw[by, bx]
            if there >= far or cost <= 0:
                continue
            if k >= 4:
                # rulings E-2, G-3: no squeezing past either orthogonal square (padded grid)
                if blocked[1 + by, 1 + x] or blocked[1 + y, 1 + bx]:
                    continue
                step = diagonal * cost
            else:
                step = cardinal * cost
            if there + step == here:
                found = k
                break
        if found < 0:
            raise AssertionError("a reached square with no cheapest predecessor")
        out[count, 0] = y
        out[count, 1] = x
        count += 1
        y += _BACK_Y[found]
        x += _BACK_X[found]
        here = raw[y, x]
    return out[:count]


def cost_at(field: DistanceField, cell: Cell) -> int | None:
    """``field.cost(cell)`` for a square on the map, read off the raw grid (``cost`` first
    copies the whole field into lists, which one look-up does not repay)."""
    value = int(field.raw[cell.level][cell.y, cell.x])
    return None if value == UNREACHABLE else value // field.rules.divisor


def route(
    field: DistanceField, steps: Steps, padded: tuple[BoolArray, ...], cell: Cell
) -> list[Cell]:
    """``field.path_to(cell)`` (start excluded, ``cell`` included) of a field ``bounded_field``
    made on ``steps`` (``padded`` its squeeze grids); on a map with stair links, walked back
    in Python (``walk_back``)."""
    if steps.costs is not None:
        return field.path_to(cell)
    if steps.links:
        return walk_back(field, steps, cell)
    if cost_at(field, cell) is None:
        raise ValueError(f"{cell} cannot be reached")
    rules = field.rules
    back = _walk_back(
        field.raw[cell.level],
        steps.enter[cell.level],
        padded[cell.level],
        cell.y,
        cell.x,
        rules.cardinal,
        rules.diagonal,
    )
    level = cell.level
    return [Cell(level, x, y) for y, x in reversed(back.tolist())]


def walk_back(fld: DistanceField, steps: Steps, cell: Cell) -> list[Cell]:
    """``fld.path_to(cell)`` on a plain field searched on ``steps``, stair links included,
    walked back from ``cell`` alone in Python (``route``'s walk for a map with links): each
    step to the first predecessor that keeps the path cheapest in ``path_to``'s order (the
    eight neighbours, a neighbour along a stair link stepping as a cardinal step, then the
    links into the square, in the model's order). ``path_to`` works out every square's
    predecessor and copies the field to lists, which one path does not repay."""
    raw = fld.raw
    cardinal, diagonal = fld.rules.cardinal, fld.rules.diagonal
    level, x, y = cell
    here = raw[level].item(y, x)
    if here >= UNREACHABLE:
        raise ValueError(f"{cell} cannot be reached")
    path = [cell]
    while here != 0:
        grid = raw[level]
        height, width = grid.shape
        enter = steps.enter[level].item(y, x)
        squeeze = steps.squeeze[level]
        sources = steps.into.get(Cell(level, x, y), ())
        found: Cell | None = None
        if enter > 0:
            for k in range(8):
                dx, dy = _BACK_X[k], _BACK_Y[k]
                bx, by = x + dx, y + dy
                if not (0 <= bx < width and 0 <= by < height):
                    continue
                there = grid.item(by, bx)
                if there >= UNREACHABLE:
                    continue
                before = Cell(level, bx, by)
                if before in sources:
                    step = cardinal * enter
                elif k >= 4:
                    # rulings E-2, G-3: no squeezing past either orthogonal square
                    if squeeze.item(by, x) or squeeze.item(y, bx):
                        continue
                    step = diagonal * enter
                else:
                    step = cardinal * enter
                if there + step == here:
                    found = before
                    break
            if found is None:
                for before in sources:
                    there = raw[before.level].item(before.y, before.x)
                    if there < UNREACHABLE and there + cardinal * enter == here:
                        found = before
                        break
        if found is None:  # no predecessor: read as a start, as the pointers read it
            break
        path.append(found)
        level, x, y = found
        here = raw[level].item(y, x)
    path.pop()  # the start
    path.reverse()
    return path


def level_totals(
    enter: IntArray, padded: BoolArray, start: Cell, limit: int, rules: StepRules
) -> IntArray:
    """The raw totals from ``start`` over one level of its own enter costs (0: cannot be
    entered) and padded squeeze grid, none pushed past ``limit`` raw: the kernel of
    ``bounded_field`` for a caller that prices squares itself (other figures' squares out)."""
    return _bounded(enter, padded, start.y, start.x, limit, rules.cardinal, rules.diagonal)


def level_route(
    raw: IntArray, enter: IntArray, padded: BoolArray, level: int, cell: Cell, rules: StepRules
) -> list[Cell]:
    """``route`` on ``level_totals``'s totals (the same enter costs and grid): the path to a
    reached ``cell``, start excluded, with ``DistanceField.path_to``'s choice of predecessor."""
    back = _walk_back(raw, enter, padded, cell.y, cell.x, rules.cardinal, rules.diagonal)
    return [Cell(level, x, y) for y, x in reversed(back.tolist())]


@register
def warm() -> None:
    """Run both kernels once on a 3x3 level (``core.kernels``)."""
    enter = np.ones((3, 3), dtype=np.int64)
    padded = np.ones((5, 5), dtype=np.bool_)
    padded[1:-1, 1:-1] = False
    raw = _bounded(enter, padded, 1, 1, 100, 2, 3)
    _walk_back(raw, enter, padded, 0, 0, 2, 3)
    raw.flags.writeable = False  # a field's totals are kept read-only: numba's other signature
    _walk_back(raw, enter, padded, 0, 0, 2, 3)
