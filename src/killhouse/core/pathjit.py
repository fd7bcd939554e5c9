"""Dijkstra over the plain movement graph of ``paths.distance_field``, compiled with numba.

The graph is the one ``paths._plain_graph`` gives tcod: king steps on each level, a step into
a cell costing its enter cost times the cardinal or diagonal multiplier (enter cost 0: never
entered), a diagonal step from (y, x) allowed only if neither (y+dy, x) nor (y, x+dx) is
blocked (rulings E-2, G-3), and stair links as cardinal steps from their source cell. The
cheapest totals from a set of roots are unique, so this search answers exactly what tcod's
does (a test compares them on random graphs), without building a graph or clearing tcod's
per-cell arrays on every call.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit
from numpy.typing import NDArray

from killhouse.core.kernels import register

#: the raw distance of a cell no root reaches (tcod's: the int32 maximum)
UNREACHED = np.iinfo(np.int32).max
#: the search's limit when none is asked: no total comes near it
NO_LIMIT = int(np.iinfo(np.int64).max)


@njit(cache=True, nogil=True)
def _search(
    cost: NDArray[np.int32],
    blocked: NDArray[np.bool_],
    link_from: NDArray[np.int64],
    link_to: NDArray[np.int64],
    cardinal: int,
    diagonal: int,
    roots: NDArray[np.int64],
    limit: int,
) -> NDArray[np.int32]:
    n, height, width = cost.shape
    bound = np.int64(limit)  # no total past it is pushed: those cells stay unreached
    size = n * height * width
    far = np.int64(UNREACHED)
    dist = np.full(size, far, dtype=np.int64)
    heap = [(np.int64(0), np.int64(0))]
    heap.pop()
    for r in range(roots.shape[0]):
        flat = (roots[r, 0] * height + roots[r, 1]) * width + roots[r, 2]
        if dist[flat] != 0:
            dist[flat] = 0
            heapq.heappush(heap, (np.int64(0), flat))
    steps_y = (-1, 0, 1, 0, -1, 1, 1, -1)
    steps_x = (0, 1, 0, -1, 1, 1, -1, -1)
    while heap:
        d, flat = heapq.heappop(heap)
        if d != dist[flat]:
            continue
        level = flat // (height * width)
        rest = flat - level * height * width
        y = rest // width
        x = rest - y * width
        for k in range(8):
            dy = steps_y[k]
            dx = steps_x[k]
            ty = y + dy
            tx = x + dx
            if ty < 0 or ty >= height or tx < 0 or tx >= width:
                continue
            enter = cost[level, ty, tx]
            if enter <= 0:
                continue
            if k >= 4:
                # blocked is padded by one cell on every side
                if blocked[level, 1 + y + dy, 1 + x] or blocked[level, 1 + y, 1 + x + dx]:
                    continue
                step = diagonal * np.int64(enter)
            else:
                step = cardinal * np.int64(enter)
            target = (level * height + ty) * width + tx
            total = d + step
            if total < dist[target] and total <= bound:
                dist[target] = total
                heapq.heappush(heap, (total, target))
        first = np.searchsorted(link_from, flat)
        for i in range(first, link_from.shape[0]):
            if link_from[i] != flat:
                break
            target = link_to[i]
            tl = target // (height * width)
            tr = target - tl * height * width
            enter = cost[tl, tr // width, tr - (tr // width) * width]
            if enter <= 0:
                continue
            total = d + cardinal * np.int64(enter)
            if total < dist[target] and total <= bound:
                dist[target] = total
                heapq.heappush(heap, (total, target))
    out = np.empty(size, dtype=np.int32)
    for i in range(size):
        out[i] = dist[i] if dist[i] < far else far
    return out.reshape(n, height, width)


def solve_plain(
    cost: NDArray[np.int32],
    blocked: NDArray[np.bool_],
    links: frozenset[tuple[tuple[int, int, int], tuple[int, int, int]]],
    cardinal: int,
    diagonal: int,
    roots: list[tuple[int, int, int]],
    limit: int | None = None,
) -> NDArray[np.int32]:
    """Cheapest raw totals from ``roots`` ((level, y, x), cost 0) over the plain graph:
    ``cost`` (n, h, w) enter costs, ``blocked`` (n, h+2, w+2) squeeze cells padded by one,
    ``links`` stair steps as ((level, y, x), (level, y, x)); unreached cells hold the int32
    maximum, as tcod's distance array does. With ``limit`` the search stops there: a cell
    whose total is at most ``limit`` has it, every other is unreached."""
    _, height, width = cost.shape

    def flat(node: tuple[int, int, int]) -> int:
        return int((node[0] * height + node[1]) * width + node[2])

    pairs = sorted((flat(a), flat(b)) for a, b in links)
    link_from = np.array([a for a, _ in pairs], dtype=np.int64)
    link_to = np.array([b for _, b in pairs], dtype=np.int64)
    starts = np.array(roots, dtype=np.int64).reshape(-1, 3)
    result: NDArray[np.int32] = _search(
        np.ascontiguousarray(cost, dtype=np.int32),
        np.ascontiguousarray(blocked, dtype=np.bool_),
        link_from,
        link_to,
        int(cardinal),
        int(diagonal),
        starts,
        NO_LIMIT if limit is None else int(limit),
    )
    return result


@njit(cache=True, nogil=True)
def _parents(
    raw: NDArray[np.int64],
    enter: NDArray[np.int64],
    squeeze: NDArray[np.bool_],
    shapes: NDArray[np.int64],
    into_to: NDArray[np.int64],
    into_from: NDArray[np.int64],
    cardinal: int,
    diagonal: int,
) -> NDArray[np.int64]:
    n, height, width = raw.shape
    far = np.int64(UNREACHED)
    parent = np.full(n * height * width, -1, dtype=np.int64)
    back_x = (0, -1, 0, 1, -1, -1, 1, 1)
    back_y = (1, 0, -1, 0, 1, -1, -1, 1)
    for level in range(n):
        h = shapes[level, 0]
        w = shapes[level, 1]
        for y in range(h):
            for x in range(w):
                here = raw[level, y, x]
                if here == 0 or here >= far:
                    continue
                flat = (level * height + y) * width + x
                enter_here = enter[level, y, x]
                first = np.searchsorted(into_to, flat)
                found = -1
                for k in range(8):
                    bx = x + back_x[k]
                    by = y + back_y[k]
                    if bx < 0 or bx >= w or by < 0 or by >= h:
                        continue
                    there = raw[level, by, bx]
                    if there >= far or enter_here <= 0:
                        continue
                    before = (level * height + by) * width + bx
                    linked = False
                    for i in range(first, into_to.shape[0]):
                        if into_to[i] != flat:
                            break
                        if into_from[i] == before:
                            linked = True
                            break
                    if linked:
                        step = cardinal * enter_here
                    elif k >= 4:
                        # rulings E-2, G-3: no squeezing past either orthogonal cell
                        if squeeze[level, by, x] or squeeze[level, y, bx]:
                            continue
                        step = diagonal * enter_here
                    else:
                        step = cardinal * enter_here
                    if there + step == here:
                        found = before
                        break
                if found < 0:
                    for i in range(first, into_to.shape[0]):
                        if into_to[i] != flat:
                            break
                        before = into_from[i]
                        bl = before // (height * width)
                        rest = before - bl * height * width
                        there = raw[bl, rest // width, rest - (rest // width) * width]
                        if there >= far or enter_here <= 0:
                            continue
                        if there + cardinal * enter_here == here:
                            found = before
                            break
                parent[flat] = found
    return parent


def plain_parents(
    raw: tuple[NDArray[np.int64], ...],
    enter: list[NDArray[np.int64]],
    squeeze: list[NDArray[np.bool_]],
    into: list[tuple[tuple[int, int, int], tuple[int, int, int]]],
    cardinal: int,
    diagonal: int,
) -> tuple[NDArray[np.int64], int, int]:
    """For every reached cell of a resolved plain field, the flat index (level, y, x) of the
    predecessor ``DistanceField.path_to`` steps back to (-1 for a start or an unreached cell).

    ``raw``, ``enter`` and ``squeeze`` are per level; ``into`` lists the stair links as
    ((level, y, x) source, (level, y, x) target) in the order the walk tries them. Returns the
    parents with the height and width the flat indexes use."""
    n = len(raw)
    height = max((r.shape[0] for r in raw), default=0)
    width = max((r.shape[1] for r in raw), default=0)
    raw_all = np.full((n, height, width), UNREACHED, dtype=np.int64)
    enter_all = np.zeros((n, height, width), dtype=np.int64)
    squeeze_all = np.zeros((n, height, width), dtype=np.bool_)
    shapes = np.zeros((n, 2), dtype=np.int64)
    for index, r in enumerate(raw):
        h, w = r.shape
        shapes[index] = (h, w)
        raw_all[index, :h, :w] = r
        enter_all[index, :h, :w] = enter[index]
        squeeze_all[index, :h, :w] = squeeze[index]

    def flat(node: tuple[int, int, int]) -> int:
        return int((node[0] * height + node[1]) * width + node[2])

    order = sorted(range(len(into)), key=lambda i: (flat(into[i][1]), i))
    into_to = np.array([flat(into[i][1]) for i in order], dtype=np.int64)
    into_from = np.array([flat(into[i][0]) for i in order], dtype=np.int64)
    parents: NDArray[np.int64] = _parents(
        raw_all, enter_all, squeeze_all, shapes, into_to, into_from, int(cardinal), int(diagonal)
    )
    return parents, height, width


@register
def warm() -> None:
    """Run both kernels once on a 3x3 level (``core.kernels``)."""
    cost = np.ones((1, 3, 3), dtype=np.int32)
    blocked = np.zeros((1, 5, 5), dtype=np.bool_)
    raw = solve_plain(cost, blocked, frozenset(), 2, 3, [(0, 1, 1)], 4)
    plain_parents(
        (raw[0].astype(np.int64),), [cost[0].astype(np.int64)], [blocked[0, 1:-1, 1:-1]], [], 2, 3
    )
