"""Movement on a multi-level board: cheapest costs by python-tcod Dijkstra, and path checks.

A ruleset describes movement with arrays, never with callbacks: per level, the cost to
ENTER each cell (0 = cannot enter) and a mask of the cells a diagonal step may not squeeze
past, plus ``StepRules`` multipliers. A king step costs ``enter_cost[destination]`` times
``cardinal`` or ``diagonal``; a step along a stair link is a cardinal step into the linked
cell. A path's ruleset-visible cost is its summed step cost ``// divisor``, which lets
integer multipliers express fractional rules exactly (G-3: cardinal 2, diagonal 3,
divisor 2 gives ``o + d + floor(d/2)`` on open ground).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
import tcod.path
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

#: The raw distance of a cell no start can reach (tcod's "maximum" distance).
UNREACHABLE: int = int(np.iinfo(np.int32).max)

#: Board masks a ``StepRules.squeeze`` may name when no explicit mask is given.
SQUEEZE_MODES: tuple[str, ...] = ("solid", "solid+window", "none")

# Step directions (dx, dy) in tie-break order: the last step of a path prefers these first.
_CARDINAL: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
_DIAGONAL: tuple[tuple[int, int], ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class StepRules:
    """Step multipliers and the divisor applied to a path's total.

    ``squeeze`` names the board mask used when a caller passes no ``squeeze_blocked``:
    ``"solid"`` (walls, closed and locked doors, outside: ruling E-2), ``"solid+window"``
    (windows too: ruling G-3) or ``"none"`` (corners may be cut).
    """

    cardinal: int = 1
    diagonal: int = 1
    divisor: int = 1
    squeeze: str = "solid"

    def __post_init__(self) -> None:
        for name in ("cardinal", "diagonal", "divisor"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"StepRules.{name} must be a positive integer, got {value!r}")
        if self.squeeze not in SQUEEZE_MODES:
            raise ValueError(
                f"StepRules.squeeze must be one of {', '.join(SQUEEZE_MODES)}, got {self.squeeze!r}"
            )


def squeeze_mask(board: Board, level: int, mode: str = "solid") -> BoolArray:
    """Cells a diagonal step may not pass between, on one level, for a ``SQUEEZE_MODES`` name."""
    if mode == "solid":
        return board.solid(level).copy()
    if mode == "solid+window":
        mask: BoolArray = board.solid(level) | (board.levels[level].terrain == Terrain.WINDOW)
        return mask
    if mode == "none":
        return np.zeros(board.levels[level].terrain.shape, dtype=bool)
    raise ValueError(f"unknown squeeze mode {mode!r}; expected one of {', '.join(SQUEEZE_MODES)}")


class _Steps:
    """The step rules of one movement query: enter costs, squeeze masks and stair links."""

    def __init__(
        self,
        board: Board,
        enter_cost: Sequence[NDArray[np.integer]],
        rules: StepRules,
        squeeze_blocked: Sequence[BoolArray] | None,
    ) -> None:
        if len(enter_cost) != len(board.levels):
            raise ValueError(
                f"enter_cost has {len(enter_cost)} arrays for {len(board.levels)} levels"
            )
        if squeeze_blocked is not None and len(squeeze_blocked) != len(board.levels):
            raise ValueError(
                f"squeeze_blocked has {len(squeeze_blocked)} arrays for {len(board.levels)} levels"
            )
        self.rules = rules
        self.shapes = [lv.terrain.shape for lv in board.levels]
        self.enter: list[IntArray] = []
        self.squeeze: list[BoolArray] = []
        for index, shape in enumerate(self.shapes):
            cost = np.asarray(enter_cost[index])
            if cost.shape != shape or not np.issubdtype(cost.dtype, np.integer):
                raise ValueError(
                    f"enter_cost[{index}] must be an integer array of shape {shape}, "
                    f"got {cost.dtype} {cost.shape}"
                )
            if (cost < 0).any():
                raise ValueError(f"enter_cost[{index}] has negative costs")
            self.enter.append(cost.astype(np.int64))
            if squeeze_blocked is None:
                self.squeeze.append(squeeze_mask(board, index, rules.squeeze))
            else:
                mask = np.asarray(squeeze_blocked[index], dtype=bool)
                if mask.shape != shape:
                    raise ValueError(f"squeeze_blocked[{index}] must have shape {shape}")
                self.squeeze.append(mask)
        # board.stairs holds both directions; a one-way entry is read as a two-way link
        links = {(a, b) for a, b in board.stairs.items() if a != b}
        self.links: frozenset[tuple[Cell, Cell]] = frozenset(links | {(b, a) for a, b in links})
        self.into: dict[Cell, list[Cell]] = {}
        for a, b in sorted(self.links):
            self.into.setdefault(b, []).append(a)

    def in_bounds(self, cell: Cell) -> bool:
        if not 0 <= cell.level < len(self.shapes):
            return False
        height, width = self.shapes[cell.level]
        return bool(0 <= cell.x < width and 0 <= cell.y < height)

    def step(self, a: Cell, b: Cell) -> int | None:
        """The raw cost of one step from ``a`` to ``b``, or None if the step is illegal."""
        if not (self.in_bounds(a) and self.in_bounds(b)):
            return None
        enter = int(self.enter[b.level][b.y, b.x])
        if enter <= 0:
            return None
        if (a, b) in self.links:
            return enter * self.rules.cardinal  # ruling E-3: a stair link is a cardinal step
        dx, dy = b.x - a.x, b.y - a.y
        if a.level != b.level or max(abs(dx), abs(dy)) != 1:
            return None
        if dx and dy:
            # rulings E-2, G-3: no squeezing past either orthogonal cell of a diagonal
            squeeze = self.squeeze[a.level]
            if squeeze[a.y, b.x] or squeeze[b.y, a.x]:
                return None
            return enter * self.rules.diagonal
        return enter * self.rules.cardinal


@dataclass(frozen=True, eq=False)
class DistanceField:
    """Cheapest movement costs from a set of start cells to every cell of every level."""

    #: Per level, the raw (undivided) cheapest total; ``UNREACHABLE`` where none exists.
    raw: tuple[IntArray, ...]
    rules: StepRules
    _steps: _Steps = field(repr=False)

    def cost(self, cell: Cell) -> int | None:
        """The ruleset-visible cheapest cost (raw // divisor), or None if unreachable."""
        if not self._steps.in_bounds(cell):
            return None
        value = int(self.raw[cell.level][cell.y, cell.x])
        return None if value == UNREACHABLE else value // self.rules.divisor

    def within(self, max_cost: int) -> list[BoolArray]:
        """Per level, the cells whose visible cost is at most ``max_cost`` (starts included)."""
        limit = (max_cost + 1) * self.rules.divisor - 1  # raw // divisor <= max_cost
        return [(r <= limit) & (r != UNREACHABLE) for r in self.raw]

    def reachable(self, max_cost: int) -> list[Cell]:
        """Cells whose visible cost is at most ``max_cost``, sorted by (level, y, x)."""
        out: list[Cell] = []
        if max_cost < 0:
            return out
        for level, mask in enumerate(self.within(max_cost)):
            ys, xs = np.nonzero(mask)
            out.extend(Cell(level, x, y) for y, x in zip(ys.tolist(), xs.tolist(), strict=True))
        return out

    def path_to(self, cell: Cell) -> list[Cell]:
        """A cheapest path from the nearest start to ``cell``: start excluded, ``cell`` included.

        Walking back from ``cell``, each step picks the first predecessor that keeps the path
        cheapest, trying the last step as N, E, S, W, then NE, SE, SW, NW, then stair links
        (by source cell): the same inputs always give the same path, whatever tcod's order.
        Raises ``ValueError`` if ``cell`` cannot be reached.
        """
        if self.cost(cell) is None:
            raise ValueError(f"{cell} cannot be reached")
        path = [cell]
        current = cell
        while self.raw[current.level][current.y, current.x] != 0:
            here = int(self.raw[current.level][current.y, current.x])
            for before in self._predecessors(current):
                if not self._steps.in_bounds(before):
                    continue
                there = int(self.raw[before.level][before.y, before.x])
                if there == UNREACHABLE:
                    continue
                step = self._steps.step(before, current)
                if step is not None and there + step == here:
                    current = before
                    break
            else:  # pragma: no cover - a resolved field always has a cheapest predecessor
                raise AssertionError(f"no cheapest predecessor of {current}")
            path.append(current)
        path.pop()  # the start
        path.reverse()
        return path

    def _predecessors(self, cell: Cell) -> list[Cell]:
        same_level = [cell.step(-dx, -dy) for dx, dy in _CARDINAL + _DIAGONAL]
        return same_level + self._steps.into.get(cell, [])


def distance_field(
    board: Board,
    starts: Iterable[Cell],
    enter_cost: Sequence[NDArray[np.integer]],
    rules: StepRules | None = None,
    squeeze_blocked: Sequence[BoolArray] | None = None,
) -> DistanceField:
    """Cheapest raw movement totals from ``starts`` (cost 0) over all levels and stair links.

    ``enter_cost[level]`` is the cost to enter each cell (0 = cannot enter);
    ``squeeze_blocked[level]`` marks cells a diagonal may not pass between (default: the mask
    ``rules.squeeze`` names). Runs one tcod Dijkstra over a (level, y, x) graph.
    """
    rules = rules or StepRules()
    steps = _Steps(board, enter_cost, rules, squeeze_blocked)
    n = len(steps.shapes)
    height = max((s[0] for s in steps.shapes), default=0)
    width = max((s[1] for s in steps.shapes), default=0)
    cost = np.zeros((n, height, width), dtype=np.int32)
    blocked = np.ones((n, height + 2, width + 2), dtype=bool)  # off-level cells are blocked
    for index, (h, w) in enumerate(steps.shapes):
        cost[index, :h, :w] = steps.enter[index]
        blocked[index, 1 : h + 1, 1 : w + 1] = steps.squeeze[index]

    graph = tcod.path.CustomGraph((n, height, width))
    for dx, dy in _CARDINAL:
        graph.add_edge((0, dy, dx), rules.cardinal, cost=cost)
    for dx, dy in _DIAGONAL:
        # rulings E-2, G-3: the step from (y, x) is allowed only if neither (y+dy, x) nor
        # (y, x+dx) is blocked
        allowed = (
            ~blocked[:, 1 + dy : 1 + dy + height, 1 : 1 + width]
            & ~blocked[:, 1 : 1 + height, 1 + dx : 1 + dx + width]
        )
        graph.add_edge((0, dy, dx), rules.diagonal, cost=cost, condition=allowed)
    # stair links, one edge per distinct offset, true only at the link sources (ruling E-3)
    sources: dict[tuple[int, int, int], BoolArray] = {}
    for a, b in sorted(steps.links):
        offset = (b.level - a.level, b.y - a.y, b.x - a.x)
        if offset not in sources:
            sources[offset] = np.zeros((n, height, width), dtype=bool)
        sources[offset][a.level, a.y, a.x] = True
    for offset, condition in sources.items():
        graph.add_edge(offset, rules.cardinal, cost=cost, condition=condition)

    finder = tcod.path.Pathfinder(graph)
    for start in starts:
        if not steps.in_bounds(start):
            raise ValueError(f"start {start} is off the board")
        finder.add_root((start.level, start.y, start.x))
    finder.resolve()
    distance = np.asarray(finder.distance)
    raw = tuple(distance[i, :h, :w].astype(np.int64) for i, (h, w) in enumerate(steps.shapes))
    return DistanceField(raw, rules, steps)


def path_cost(
    board: Board,
    path: Sequence[Cell],
    enter_cost: Sequence[NDArray[np.integer]],
    rules: StepRules | None = None,
    squeeze_blocked: Sequence[BoolArray] | None = None,
) -> int | None:
    """The visible cost (total // divisor) of an explicit path, or None if any step is illegal.

    ``path[0]`` is where the figure stands and costs nothing; every following cell must be a
    king neighbour on the same level (no squeeze past a blocked orthogonal) or the other end
    of a stair link, with a positive enter cost.
    """
    rules = rules or StepRules()
    steps = _Steps(board, enter_cost, rules, squeeze_blocked)
    if not path or not steps.in_bounds(path[0]):
        return None
    total = 0
    for a, b in pairwise(path):
        step = steps.step(a, b)
        if step is None:
            return None
        total += step
    return total // rules.divisor
