"""Movement on a multi-level board: cheapest costs by a compiled Dijkstra (python-tcod's for
the ``StepCosts`` model), and path checks.

A ruleset describes movement with arrays, never with callbacks: per level, the cost to
ENTER each cell (0 = cannot enter) and a mask of the cells a diagonal step may not squeeze
past, plus ``StepRules`` multipliers. A king step costs ``enter_cost[destination]`` times
``cardinal`` or ``diagonal``; a step along a stair link is a cardinal step into the linked
cell. A path's ruleset-visible cost is its summed step cost ``// divisor``, which lets
integer multipliers express fractional rules exactly (G-3: cardinal 2, diagonal 3,
divisor 2 gives ``o + d + floor(d/2)`` on open ground).

Richer rules add a ``StepCosts`` model (ruling K-9): per entered cell an additive cost the
diagonal does not scale, an additive that applies only when the cell moved from is of the
same kind (road to road), costs per level of elevation climbed or descended, a surcharge per
step, a fixed cost for stair links and a minimum step cost. Rounding: ``cost()`` floors the
raw total by the divisor (G-3 asks for it); ``exact_cost()`` and ``within_allowance()`` never
round (cqb's 6" allowance is ``within_allowance(6)``, a 6.5" route is outside). The step
model itself lives in ``core.steps``; its public names are importable from here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import pairwise

import numpy as np
import tcod.path
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.pathjit import plain_parents, solve_plain
from killhouse.core.steps import (
    CARDINAL,
    DIAGONAL,
    SQUEEZE_MODES,
    BoolArray,
    EdgeRule,
    IntArray,
    StepCosts,
    StepRules,
    Steps,
    crosses,
    squeeze_mask,
)

__all__ = [
    "SQUEEZE_MODES",
    "UNREACHABLE",
    "DistanceField",
    "EdgeRule",
    "StepCosts",
    "StepRules",
    "distance_field",
    "field_on",
    "path_cost",
    "path_cost_exact",
    "squeeze_mask",
]

#: The raw distance of a cell no start can reach (tcod's "maximum" distance).
UNREACHABLE: int = int(np.iinfo(np.int32).max)


@dataclass(frozen=True, eq=False)
class DistanceField:
    """Cheapest movement costs from a set of start cells to every cell of every level."""

    #: Per level, the raw (undivided) cheapest total; ``UNREACHABLE`` where none exists.
    raw: tuple[IntArray, ...]
    rules: StepRules
    _steps: Steps = field(repr=False)

    def __post_init__(self) -> None:
        for array in self.raw:
            array.setflags(write=False)  # ``_rows`` mirrors it: a field never changes

    @cached_property
    def _rows(self) -> tuple[list[list[int]], ...]:
        """``raw`` as nested Python lists: a list lookup beats a numpy scalar read many-fold."""
        return tuple(r.tolist() for r in self.raw)

    @cached_property
    def visible_rows(self) -> tuple[list[list[int]], ...]:
        """Per level, ``cost`` of every square as nested lists ``[y][x]``, -1 where
        unreachable: for a caller that reads thousands of squares of one field, a list lookup
        in place of a call per square."""
        return tuple(
            np.where(r == UNREACHABLE, -1, r // self.rules.divisor).tolist() for r in self.raw
        )

    def cost(self, cell: Cell) -> int | None:
        """The ruleset-visible cheapest cost (raw // divisor), or None if unreachable."""
        level, x, y = cell
        rows = self._rows
        if not 0 <= level < len(rows):
            return None
        grid = rows[level]
        if not (0 <= y < len(grid) and 0 <= x < len(grid[0])):
            return None
        value = grid[y][x]
        return None if value == UNREACHABLE else value // self.rules.divisor

    def step_cost(self, a: Cell, b: Cell) -> int | None:
        """The visible cost (raw // divisor) of one step from ``a`` to ``b`` under the step
        model this field was searched on, or None if the step is illegal: ``path_cost`` of
        ``[a, b]`` with the same inputs, without building the model again."""
        raw = self._steps.step(a, b)
        return None if raw is None else raw // self.rules.divisor

    def exact_cost(self, cell: Cell) -> Fraction | None:
        """The cheapest cost without rounding (raw / divisor), or None if unreachable."""
        if not self._steps.in_bounds(cell):
            return None
        value = int(self.raw[cell.level][cell.y, cell.x])
        return None if value == UNREACHABLE else Fraction(value, self.rules.divisor)

    def within_allowance(self, allowance: int | Fraction | str) -> list[BoolArray]:
        """Per level, the cells whose exact cost (raw / divisor) is at most ``allowance``.

        No rounding: with cqb's 2/3 steps and divisor 2, ``within_allowance(6)`` takes a 6"
        route and refuses a 6.5" one; a fractional allowance such as ``"7.5"`` is exact too.
        """
        limit = Fraction(allowance) * self.rules.divisor
        bound = limit.numerator // limit.denominator  # raw is an integer: raw <= limit
        return [(r <= bound) & (r != UNREACHABLE) for r in self.raw]

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
        # one path from a field (a route checked once) walks back; from the second on, the
        # pointers of every cell are worked out once and each path is a pointer chase
        asked = self.__dict__.get("_asked", 0)
        self.__dict__["_asked"] = asked + 1
        if self._steps.costs is None and (asked or "_parents" in self.__dict__):
            parents, height, width = self._parents
            flat = (cell.level * height + cell.y) * width + cell.x
            path = [cell]
            area = height * width
            while (flat := int(parents[flat])) >= 0:
                level, rest = divmod(flat, area)
                y, x = divmod(rest, width)
                path.append(Cell(level, x, y))
            path.pop()  # the start
            path.reverse()
            return path
        return self._walk(cell)

    def path_tuples(self, cells: Iterable[Cell]) -> dict[Cell, tuple[tuple[int, int, int], ...]]:
        """``path_to`` of each of ``cells`` as tuples of (level, x, y) (an action's frozen
        form), sharing the work: the path to a cell is the path to its predecessor and one
        step more. Raises ``ValueError`` if a cell cannot be reached."""
        out: dict[Cell, tuple[tuple[int, int, int], ...]] = {}
        if self._steps.costs is not None:
            for cell in cells:
                out[cell] = tuple((c.level, c.x, c.y) for c in self.path_to(cell))
            return out
        parents, height, width = self._parents
        area = height * width
        known: dict[int, tuple[tuple[int, int, int], ...]] = {}
        for cell in cells:
            if self.cost(cell) is None:
                raise ValueError(f"{cell} cannot be reached")
            flat = (cell.level * height + cell.y) * width + cell.x
            chain: list[int] = []
            while flat not in known:
                before = int(parents[flat])
                if before < 0:
                    known[flat] = ()  # a start
                    break
                chain.append(flat)
                flat = before
            path = known[flat]
            for node in reversed(chain):
                level, rest = divmod(node, area)
                y, x = divmod(rest, width)
                path = (*path, (level, x, y))
                known[node] = path
            out[cell] = known[(cell.level * height + cell.y) * width + cell.x]
        return out

    @cached_property
    def _parents(self) -> tuple[NDArray[np.int64], int, int]:
        """Each reached cell's predecessor on ``path_to``'s walk (plain fields), computed once
        for all cells by the compiled kernel of ``core.pathjit``: a path is then a pointer chase."""
        steps = self._steps
        into = [
            ((a.level, a.y, a.x), (b.level, b.y, b.x))
            for b, sources in steps.into.items()
            for a in sources
        ]
        return plain_parents(
            self.raw, steps.enter, steps.squeeze, into, self.rules.cardinal, self.rules.diagonal
        )

    def _walk(self, cell: Cell) -> list[Cell]:
        """``path_to`` by walking back step by step (fields with a ``StepCosts`` model)."""
        rows = self._rows
        path = [cell]
        current = cell
        while rows[current.level][current.y][current.x] != 0:
            here = rows[current.level][current.y][current.x]
            for before in self._predecessors(current):
                if not self._steps.in_bounds(before):
                    continue
                there = rows[before.level][before.y][before.x]
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
        same_level = [cell.step(-dx, -dy) for dx, dy in CARDINAL + DIAGONAL]
        return same_level + self._steps.into.get(cell, [])


def distance_field(
    board: Board,
    starts: Iterable[Cell],
    enter_cost: Sequence[NDArray[np.integer]],
    rules: StepRules | None = None,
    squeeze_blocked: Sequence[BoolArray] | None = None,
    costs: StepCosts | None = None,
    max_cost: int | None = None,
) -> DistanceField:
    """Cheapest raw movement totals from ``starts`` (cost 0) over all levels and stair links.

    ``enter_cost[level]`` is the cost to enter each cell (0 = cannot enter);
    ``squeeze_blocked[level]`` marks cells a diagonal may not pass between (default: the mask
    ``rules.squeeze`` names); ``costs`` adds the ``StepCosts`` terms (K-9). Runs one
    Dijkstra over a (level, y, x) graph. With ``max_cost``, cells whose visible cost exceeds
    it are reported unreachable (the same field otherwise), and without stair links the
    search runs on the window of cells such a route can reach.
    """
    rules = rules or StepRules()
    steps = Steps(board, enter_cost, rules, squeeze_blocked, costs)
    return field_on(board, steps, starts, max_cost)


def field_on(
    board: Board, steps: Steps, starts: Iterable[Cell], max_cost: int | None = None
) -> DistanceField:
    """``distance_field`` on a step model already built: a caller that asks many fields of the
    same map (one per figure) builds its ``Steps`` once and passes it here."""
    rules = steps.rules
    # a bound in raw units: the visible cost raw // divisor is at most max_cost
    limit = None if max_cost is None else (max_cost + 1) * rules.divisor - 1
    if steps.costs is not None:
        return _bounded(_modelled_field(board, starts, steps), limit)
    roots: list[tuple[int, int, int]] = []
    for start in starts:
        if not steps.in_bounds(start):
            raise ValueError(f"start {start} is off the board")
        roots.append((start.level, start.y, start.x))
    window = _window(steps, roots, limit)
    if window is not None:
        level, y0, y1, x0, x1 = window
        cost = steps.enter[level][None, y0:y1, x0:x1].astype(np.int32)
        blocked = np.ones((1, y1 - y0 + 2, x1 - x0 + 2), dtype=bool)
        blocked[0, 1:-1, 1:-1] = steps.squeeze[level][y0:y1, x0:x1]
        local = [(0, y - y0, x - x0) for _, y, x in roots]
        inside = _solve(cost, blocked, frozenset(), rules, local)
        raw = [np.full(shape, UNREACHABLE, dtype=np.int64) for shape in steps.shapes]
        raw[level][y0:y1, x0:x1] = inside[0]
        return _bounded(DistanceField(tuple(raw), rules, steps), limit)
    n = len(steps.shapes)
    height = max((s[0] for s in steps.shapes), default=0)
    width = max((s[1] for s in steps.shapes), default=0)
    cost = np.zeros((n, height, width), dtype=np.int32)
    blocked = np.ones((n, height + 2, width + 2), dtype=bool)  # off-level cells are blocked
    for index, (h, w) in enumerate(steps.shapes):
        cost[index, :h, :w] = steps.enter[index]
        blocked[index, 1 : h + 1, 1 : w + 1] = steps.squeeze[index]
    distance = _solve(cost, blocked, steps.links, rules, roots)
    raw_all = tuple(distance[i, :h, :w].astype(np.int64) for i, (h, w) in enumerate(steps.shapes))
    return _bounded(DistanceField(raw_all, rules, steps), limit)


def _window(
    steps: Steps, roots: list[tuple[int, int, int]], limit: int | None
) -> tuple[int, int, int, int, int] | None:
    """The (level, y0, y1, x0, x1) window a bounded search may run on alone, or None.

    Every step costs at least ``min(cardinal, diagonal)`` raw (enter costs are positive
    integers), so a path within ``limit`` never leaves the starts' bounding box grown by
    ``limit // that`` cells; and a diagonal step's squeeze cells share a row or a column with
    its ends, so they lie in the window too. Stair links could leave it: then no window.
    """
    if limit is None or limit < 0 or steps.links or not roots:
        return None
    levels = {level for level, _, _ in roots}
    if len(levels) != 1:
        return None
    level = roots[0][0]
    reach = limit // min(steps.rules.cardinal, steps.rules.diagonal)
    height, width = steps.shapes[level]
    y0 = max(0, min(y for _, y, _ in roots) - reach)
    y1 = min(height, max(y for _, y, _ in roots) + reach + 1)
    x0 = max(0, min(x for _, _, x in roots) - reach)
    x1 = min(width, max(x for _, _, x in roots) + reach + 1)
    if (y1 - y0) * (x1 - x0) >= height * width:
        return None  # the window is the whole level: the shared full graph serves
    return level, y0, y1, x0, x1


def _bounded(field: DistanceField, limit: int | None) -> DistanceField:
    """``field`` with every raw total beyond ``limit`` reported unreachable."""
    if limit is None:
        return field
    raw = tuple(np.where(r <= limit, r, UNREACHABLE) for r in field.raw)
    return DistanceField(raw, field.rules, field._steps)


def _solve(
    cost: NDArray[np.int32],
    blocked: BoolArray,
    links: frozenset[tuple[Cell, Cell]],
    rules: StepRules,
    roots: list[tuple[int, int, int]],
) -> NDArray[np.int32]:
    """The resolved distances from ``roots`` over the plain graph (king steps, the squeeze rule
    on diagonals, stair links as cardinal steps), by the compiled search of ``core.pathjit``."""
    return solve_plain(
        cost,
        blocked,
        frozenset(((a.level, a.y, a.x), (b.level, b.y, b.x)) for a, b in links),
        rules.cardinal,
        rules.diagonal,
        roots,
    )


def _modelled_field(board: Board, starts: Iterable[Cell], steps: Steps) -> DistanceField:
    """``distance_field`` with a ``StepCosts`` model: one destination cost array per direction.

    tcod multiplies an edge's cost by a per-destination array; the source of every edge of one
    direction is the destination less that direction, so each direction's array can hold the
    whole step cost, source-dependent terms included.
    """
    costs = steps.costs
    assert costs is not None
    rules = steps.rules
    n = len(steps.shapes)
    height = max((s[0] for s in steps.shapes), default=0)
    width = max((s[1] for s in steps.shapes), default=0)
    big = np.int64(UNREACHABLE // 4)

    def padded(layer: str, fill: int) -> IntArray:
        out = np.full((n, height + 2, width + 2), fill, dtype=np.int64)
        for index, (h, w) in enumerate(steps.shapes):
            out[index, 1 : h + 1, 1 : w + 1] = (
                steps.enter[index] if layer == "enter" else steps.layers[layer][index]
            )
        return out

    enter, add = padded("enter", 0), padded("add", 0)
    kind, same = padded("kind", 0), padded("same_kind_add", 0)
    elevation = padded("elevation", 0)
    squeeze = np.ones((n, height + 2, width + 2), dtype=bool)
    for index, (h, w) in enumerate(steps.shapes):
        squeeze[index, 1 : h + 1, 1 : w + 1] = steps.squeeze[index]
    inner = (slice(None), slice(1, height + 1), slice(1, width + 1))

    def source(array: IntArray, dx: int, dy: int) -> IntArray:
        # the value at the source cell (y - dy, x - dx) of a step into each destination
        return array[:, 1 - dy : 1 - dy + height, 1 - dx : 1 - dx + width]

    graph = tcod.path.CustomGraph((n, height, width))
    for dx, dy in CARDINAL + DIAGONAL:
        base = rules.diagonal if dx and dy else rules.cardinal
        into = enter[inner]
        total = base * into + add[inner] + costs.per_step
        k = kind[inner]
        total += np.where((k != 0) & (source(kind, dx, dy) == k), same[inner], 0)
        rise = elevation[inner] - source(elevation, dx, dy)
        total += costs.up * np.maximum(rise, 0) + costs.down * np.maximum(-rise, 0)
        allowed = into > 0
        for number, rule in enumerate(costs.edges):
            flags = padded(f"edges{number}", 0)

            def at(ox: int, oy: int, flags: IntArray = flags) -> IntArray:
                return flags[:, 1 + oy : 1 + oy + height, 1 + ox : 1 + ox + width]

            crossed = crosses(at, dx, dy)
            if rule.cost is None:
                allowed &= ~crossed
            else:
                total += np.where(crossed, rule.cost, 0)
        total = np.maximum(total, costs.minimum)
        if dx and dy:
            # rulings E-2, G-3, from the destination: the source's row and column neighbours
            allowed &= ~squeeze[:, 1 : 1 + height, 1 - dx : 1 - dx + width]
            allowed &= ~squeeze[:, 1 - dy : 1 - dy + height, 1 : 1 + width]
        cost = np.where(allowed, np.minimum(total, big), 0).astype(np.int32)
        graph.add_edge((0, dy, dx), 1, cost=cost)
    link_costs: dict[tuple[int, int, int], NDArray[np.int32]] = {}
    for a, b in sorted(steps.links):
        offset = (b.level - a.level, b.y - a.y, b.x - a.x)
        if offset not in link_costs:
            link_costs[offset] = np.zeros((n, height, width), dtype=np.int32)
        if steps.enter[b.level][b.y, b.x] > 0:
            link_costs[offset][b.level, b.y, b.x] = steps.link_cost(b)
    for offset, cost in link_costs.items():
        graph.add_edge(
            offset, 1, cost=cost, condition=_link_sources(steps, offset, (n, height, width))
        )

    finder = tcod.path.Pathfinder(graph)
    for start in starts:
        if not steps.in_bounds(start):
            raise ValueError(f"start {start} is off the board")
        finder.add_root((start.level, start.y, start.x))
    finder.resolve()
    distance = np.asarray(finder.distance)
    raw = tuple(distance[i, :h, :w].astype(np.int64) for i, (h, w) in enumerate(steps.shapes))
    return DistanceField(raw, rules, steps)


def _link_sources(
    steps: Steps, offset: tuple[int, int, int], shape: tuple[int, int, int]
) -> BoolArray:
    """The source cells of the stair links with one offset."""
    condition = np.zeros(shape, dtype=bool)
    for a, b in steps.links:
        if (b.level - a.level, b.y - a.y, b.x - a.x) == offset:
            condition[a.level, a.y, a.x] = True
    return condition


def path_cost(
    board: Board,
    path: Sequence[Cell],
    enter_cost: Sequence[NDArray[np.integer]],
    rules: StepRules | None = None,
    squeeze_blocked: Sequence[BoolArray] | None = None,
    costs: StepCosts | None = None,
) -> int | None:
    """The visible cost (total // divisor) of an explicit path, or None if any step is illegal.

    ``path[0]`` is where the figure stands and costs nothing; every following cell must be a
    king neighbour on the same level (no squeeze past a blocked orthogonal) or the other end
    of a stair link, with a positive enter cost. The total is floored by the divisor; use
    ``path_cost_exact`` for the unrounded cost.
    """
    exact = path_cost_exact(board, path, enter_cost, rules, squeeze_blocked, costs)
    return None if exact is None else exact.numerator // exact.denominator


def path_cost_exact(
    board: Board,
    path: Sequence[Cell],
    enter_cost: Sequence[NDArray[np.integer]],
    rules: StepRules | None = None,
    squeeze_blocked: Sequence[BoolArray] | None = None,
    costs: StepCosts | None = None,
) -> Fraction | None:
    """The exact cost (total / divisor, unrounded) of an explicit path, or None if illegal."""
    rules = rules or StepRules()
    steps = Steps(board, enter_cost, rules, squeeze_blocked, costs)
    if not path or not steps.in_bounds(path[0]):
        return None
    total = 0
    for a, b in pairwise(path):
        step = steps.step(a, b)
        if step is None:
            return None
        total += step
    return Fraction(total, rules.divisor)
