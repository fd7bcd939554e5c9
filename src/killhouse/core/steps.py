"""The step-cost model of movement: step multipliers, the ``StepCosts`` terms and edge rules.

A ruleset describes movement with arrays, never with callbacks: per level, the cost to
ENTER each cell (0 = cannot enter) and a mask of the cells a diagonal step may not squeeze
past, plus ``StepRules`` multipliers; richer rules add a ``StepCosts`` model (ruling K-9).
``Steps`` checks one query's arrays and prices single steps; ``core.paths`` searches with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

#: Board masks a ``StepRules.squeeze`` may name when no explicit mask is given.
SQUEEZE_MODES: tuple[str, ...] = ("solid", "solid+window", "none")

# Step directions (dx, dy) in tie-break order: the last step of a path prefers these first.
CARDINAL: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL: tuple[tuple[int, int], ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))


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


#: Bits of the sides of a cell in an edge-flag layer (``core.layers.EDGE_BITS``), by step.
_SIDE_BIT: dict[tuple[int, int], int] = {(0, -1): 1, (1, 0): 2, (0, 1): 4, (-1, 0): 8}


def crosses(at: Callable[[int, int], Any], dx: int, dy: int) -> Any:
    """Whether a step ``(dx, dy)`` into a cell crosses a flagged edge; ``at(ox, oy)`` gives the
    flags of the cell at offset ``(ox, oy)`` from that destination (ints or arrays alike).

    A cardinal step crosses the edge between its cells if either cell flags it on its side. A
    diagonal step passes a corner: it crosses when both of its L-shaped routes cross a flagged
    edge (a fence line stops it; a fence ending at the corner does not).
    """

    def cardinal(sx: int, sy: int, ox: int, oy: int) -> Any:
        into, source = at(ox, oy), at(ox - sx, oy - sy)
        return ((source & _SIDE_BIT[(sx, sy)]) != 0) | ((into & _SIDE_BIT[(-sx, -sy)]) != 0)

    if dx == 0 or dy == 0:
        return cardinal(dx, dy, 0, 0)
    first = cardinal(dx, 0, 0, -dy) | cardinal(0, dy, 0, 0)
    second = cardinal(0, dy, -dx, 0) | cardinal(dx, 0, 0, 0)
    return first & second


@dataclass(frozen=True, eq=False)
class EdgeRule:
    """Line terrain on cell edges (a fence, wire, a slit): flags per level and a crossing cost.

    ``flags[level]`` holds edge bits per cell (n 1, e 2, s 4, w 8: an ``edges`` layer); a step
    that crosses a flagged edge adds ``cost``, or cannot be made when ``cost`` is None.
    """

    flags: Sequence[NDArray[np.integer]]
    cost: int | None


@dataclass(frozen=True, eq=False)
class StepCosts:
    """Step costs beyond one multiplier (ruling K-9); every array is per level, ``[y, x]``.

    A legal step from ``a`` to ``b`` costs::

        base * enter[b] + add[b] + (same_kind_add[b] if kind[a] == kind[b] != 0)
        + up * max(0, elevation[b] - elevation[a]) + down * max(0, elevation[a] - elevation[b])
        + per_step + the cost of each ``EdgeRule`` whose flagged edge the step crosses

    with ``base`` the ``StepRules`` cardinal or diagonal multiplier, raised to ``minimum`` if
    lower. ``enter[b] <= 0`` still means the cell cannot be entered. A stair link costs
    ``link`` when given, else ``cardinal * enter[b] + add[b] + per_step`` (E-3).
    Commando's C-6: ``enter`` = M, ``add`` = A, roads as kinds with ``same_kind_add`` -2,
    ``up`` 6, ``down`` 4, ``minimum`` 1.
    """

    add: Sequence[NDArray[np.integer]] | None = None
    kind: Sequence[NDArray[np.integer]] | None = None
    same_kind_add: Sequence[NDArray[np.integer]] | None = None
    elevation: Sequence[NDArray[np.integer]] | None = None
    up: int = 0
    down: int = 0
    per_step: int = 0
    link: int | None = None
    minimum: int = 1
    edges: tuple[EdgeRule, ...] = ()

    def __post_init__(self) -> None:
        if (self.kind is None) != (self.same_kind_add is None):
            raise ValueError("StepCosts.kind and StepCosts.same_kind_add come together")
        if self.minimum < 1:
            raise ValueError(f"StepCosts.minimum must be at least 1, got {self.minimum}")
        if self.link is not None and self.link < 1:
            raise ValueError(f"StepCosts.link must be positive, got {self.link}")

    def arrays(self, shapes: Sequence[tuple[int, ...]]) -> dict[str, list[IntArray]]:
        """The given layers as checked int64 arrays, zeros where a layer is absent."""
        out: dict[str, list[IntArray]] = {}
        for name in ("add", "kind", "same_kind_add", "elevation"):
            layer = getattr(self, name)
            if layer is None:
                out[name] = [np.zeros(shape, dtype=np.int64) for shape in shapes]
                continue
            if len(layer) != len(shapes):
                raise ValueError(
                    f"StepCosts.{name} has {len(layer)} arrays for {len(shapes)} levels"
                )
            arrays = []
            for index, shape in enumerate(shapes):
                value = np.asarray(layer[index])
                if value.shape != shape or not np.issubdtype(value.dtype, np.integer):
                    raise ValueError(
                        f"StepCosts.{name}[{index}] must be an integer array of shape {shape}, "
                        f"got {value.dtype} {value.shape}"
                    )
                arrays.append(value.astype(np.int64))
            out[name] = arrays
        for number, rule in enumerate(self.edges):
            if len(rule.flags) != len(shapes):
                raise ValueError(f"StepCosts.edges[{number}] has {len(rule.flags)} levels")
            flags = []
            for index, shape in enumerate(shapes):
                value = np.asarray(rule.flags[index])
                if value.shape != shape or not np.issubdtype(value.dtype, np.integer):
                    raise ValueError(
                        f"StepCosts.edges[{number}].flags[{index}] must be an integer array "
                        f"of shape {shape}"
                    )
                flags.append(value.astype(np.int64))
            out[f"edges{number}"] = flags
        return out


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


class Steps:
    """The step rules of one movement query: enter costs, squeeze masks and stair links."""

    def __init__(
        self,
        board: Board,
        enter_cost: Sequence[NDArray[np.integer]],
        rules: StepRules,
        squeeze_blocked: Sequence[BoolArray] | None,
        costs: StepCosts | None = None,
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
        self.costs = costs
        self.layers = costs.arrays(self.shapes) if costs is not None else {}

    def extra(self, a: Cell, b: Cell, base: int) -> int | None:
        """The raw cost of a same-level step with the ``StepCosts`` terms (K-9)."""
        costs = self.costs
        assert costs is not None
        layers = self.layers
        total = base * int(self.enter[b.level][b.y, b.x]) + int(layers["add"][b.level][b.y, b.x])
        kind = layers["kind"][b.level]
        if kind[b.y, b.x] != 0 and kind[a.y, a.x] == kind[b.y, b.x]:
            total += int(layers["same_kind_add"][b.level][b.y, b.x])
        rise = int(layers["elevation"][b.level][b.y, b.x] - layers["elevation"][a.level][a.y, a.x])
        total += costs.up * max(0, rise) + costs.down * max(0, -rise) + costs.per_step
        for number, rule in enumerate(costs.edges):
            flags = layers[f"edges{number}"][b.level]

            def at(ox: int, oy: int, flags: IntArray = flags) -> int:
                x, y = b.x + ox, b.y + oy
                inside = 0 <= x < flags.shape[1] and 0 <= y < flags.shape[0]
                return int(flags[y, x]) if inside else 0

            if crosses(at, b.x - a.x, b.y - a.y):
                if rule.cost is None:
                    return None
                total += rule.cost
        return max(total, costs.minimum)

    def link_cost(self, b: Cell) -> int:
        """The raw cost of a step along a stair link into ``b``."""
        costs = self.costs
        enter = int(self.enter[b.level][b.y, b.x])
        if costs is None:
            return enter * self.rules.cardinal  # ruling E-3: a stair link is a cardinal step
        if costs.link is not None:
            return costs.link
        total = enter * self.rules.cardinal + int(self.layers["add"][b.level][b.y, b.x])
        return max(total + costs.per_step, costs.minimum)

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
            return self.link_cost(b)
        dx, dy = b.x - a.x, b.y - a.y
        if a.level != b.level or max(abs(dx), abs(dy)) != 1:
            return None
        base = self.rules.cardinal
        if dx and dy:
            # rulings E-2, G-3: no squeezing past either orthogonal cell of a diagonal
            squeeze = self.squeeze[a.level]
            if squeeze[a.y, b.x] or squeeze[b.y, a.x]:
                return None
            base = self.rules.diagonal
        if self.costs is not None:
            return self.extra(a, b, base)
        return enter * base
