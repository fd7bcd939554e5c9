"""Routes over heights and outside walls for the firewall role AI (§6.6; rulings F-180 …
F-183, F-250 … F-252).

On a map with a ``height`` layer or walls between storeys an ordinary move keeps to one
surface, so the bot's distance field is built here from the steps a figure really has: walks
on one surface, stairs, climbs (one Movement action per Crawl, about one Walk's worth of
squares each), gap jumps, and leaps that cost no fall attack. A climb or jump is then worth
taking exactly when it lies on the shortest route to the goal. Everything read is the public
map and the scenario's storey height.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.paths import UNREACHABLE, DistanceField
from killhouse.core.steps import StepRules, Steps
from killhouse.rulesets.firewall.facts import LOW_OBSTACLE_CM, board_face, surface, within

#: what one Movement action is worth in squares: a Walk of 18 cm is about 7 squares
ACTION_SQUARES = 7
#: a climb's or a jump's roll may fail where a walk in the open is sure enough
RISK = 1
#: one climbing action on an S without Acrobatics: Crawl, 6 cm (F-17)
CRAWL_CM = 6
#: a fall under 4 cm costs no attack (§6.6); the bot never leaps farther
SAFE_FALL_CM = 4
_KING = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))

Edges = dict[Cell, list[tuple[Cell, int]]]


def climb_cost(height: int) -> int:
    """The route cost of climbing a face of ``height`` cm: its actions and their risk."""
    return ACTION_SQUARES * math.ceil(abs(height) / CRAWL_CM) + RISK


def leap_cost(drop: int) -> int | None:
    """A leap down ``drop`` cm: one action when it costs no fall attack, else never."""
    return ACTION_SQUARES if 0 < drop < SAFE_FALL_CM else None


def uses_heights(board: Board, storey_cm: int) -> bool:
    """Whether the map has anything to climb: a height layer or a wall between storeys."""
    if any("height" in lv.layers for lv in board.levels):
        return True
    return any(board_face(board, storey_cm, c, Cell(c.level + 1, c.x + dx * n, c.y + dy * n))
               for c in board.cells() if c.level + 1 < len(board.levels)
               for dx, dy in _KING for n in (1, 2))


def _add(edges: Edges, a: Cell, b: Cell, cost: int | None) -> None:
    if cost is None:
        return
    out = edges.setdefault(a, [])
    for i, (c, old) in enumerate(out):
        if c == b:
            out[i] = (b, min(old, cost))
            return
    out.append((b, cost))


def _jump_ok(board: Board, a: Cell, b: Cell, between: list[Cell]) -> bool:
    """A gap or low-obstacle jump of F-182 (as far as a Crawl reaches without Acrobatics)."""
    here = surface(board, a.level, (a.x, a.y))
    if surface(board, b.level, (b.x, b.y)) != here or not within(
            (a.x, a.y), (b.x, b.y), CRAWL_CM):
        return False
    opaque = board.opaque(a.level)
    if any(opaque[c.y, c.x] or surface(board, c.level, (c.x, c.y)) - here >= LOW_OBSTACLE_CM
           for c in between):
        return False
    return not all(surface(board, c.level, (c.x, c.y)) == here and board.passable(c)
                   for c in between)


@dataclass(frozen=True)
class HeightRoutes:
    """The steps of one map (forward edges with their costs) and what a field needs."""

    board: Board
    storey_cm: int
    enter_cost: Sequence[NDArray[np.int32]]
    squeeze: Sequence[NDArray[np.bool_]]
    edges: Edges
    #: the same steps by their end square, for the backward search from the targets
    back: Edges

    @classmethod
    def of(cls, board: Board, storey_cm: int, enter_cost: Sequence[NDArray[np.int32]],
           squeeze: Sequence[NDArray[np.bool_]]) -> HeightRoutes:
        edges: Edges = {}
        for c in board.cells():
            if int(enter_cost[c.level][c.y, c.x]) <= 0:
                continue
            here = surface(board, c.level, (c.x, c.y))
            for dx, dy in _KING:
                n = Cell(c.level, c.x + dx, c.y + dy)
                if not board.in_bounds(n) or int(enter_cost[n.level][n.y, n.x]) <= 0:
                    continue
                if dx and dy and (squeeze[c.level][c.y, n.x] or squeeze[c.level][n.y, c.x]):
                    continue
                there = surface(board, n.level, (n.x, n.y))
                if there == here:
                    _add(edges, c, n, int(enter_cost[n.level][n.y, n.x]))
                else:
                    _add(edges, c, n, climb_cost(there - here))
                    _add(edges, c, n, leap_cost(here - there))
                for k in (2, 3):
                    b = Cell(c.level, c.x + dx * k, c.y + dy * k)
                    between = [Cell(c.level, c.x + dx * i, c.y + dy * i) for i in range(1, k)]
                    if board.in_bounds(b) and int(enter_cost[b.level][b.y, b.x]) > 0 \
                            and _jump_ok(board, c, b, between):
                        _add(edges, c, b, ACTION_SQUARES + RISK)
            for k in (1, 2):
                for dx, dy in _KING:
                    top = Cell(c.level + 1, c.x + dx * k, c.y + dy * k)
                    wall = board_face(board, storey_cm, c, top)
                    if wall is not None:
                        _add(edges, c, top, climb_cost(wall.height))
                        _add(edges, top, c, climb_cost(wall.height))
                        _add(edges, top, c, leap_cost(wall.height))
        for a, b in board.stairs.items():
            _add(edges, a, b, 1)
            _add(edges, b, a, 1)
        back: Edges = {}
        for a, out in edges.items():
            for b, cost in out:
                back.setdefault(b, []).append((a, cost))
        return cls(board, storey_cm, enter_cost, squeeze, edges, back)

    def step_cost(self, a: Cell, b: Cell) -> int | None:
        """The cost of the one step from ``a`` to ``b`` (a climb, jump or leap), if any."""
        return next((cost for c, cost in self.edges.get(a, ()) if c == b), None)

    def field(self, targets: Iterable[Cell]) -> DistanceField:
        """Cheapest route costs from every square to the nearest target (Dijkstra backward)."""
        raw: list[NDArray[np.int64]] = [np.full(lv.terrain.shape, UNREACHABLE, dtype=np.int64)
               for lv in self.board.levels]
        heap: list[tuple[int, Cell]] = []
        for t in targets:
            if self.board.in_bounds(t):
                raw[t.level][t.y, t.x] = 0
                heap.append((0, t))
        heapq.heapify(heap)
        while heap:
            d, c = heapq.heappop(heap)
            if d > raw[c.level][c.y, c.x]:
                continue
            for a, cost in self.back.get(c, ()):
                nd = d + cost
                if nd < raw[a.level][a.y, a.x]:
                    raw[a.level][a.y, a.x] = nd
                    heapq.heappush(heap, (nd, a))
        rules = StepRules()
        steps = Steps(self.board, self.enter_cost, rules, self.squeeze)
        return DistanceField(tuple(raw), rules, steps)
