"""Movement (5.2, rulings E-2 … E-5, E-34) and hostages following the team (5.3, ruling E-30).

A move names one destination reachable this turn; it is walked along a cheapest path. Each
step costs the enter cost of its square: 2 MP for a stair square (including a stair link),
1 MP otherwise (E-3). Diagonals may not squeeze past walls, closed doors or off-map squares
(E-2). A figure passes through friends and hostages but never an active enemy, and ends on a
square no other active figure holds (E-4). Entering a closed door opens it (E-5).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from killhouse.core.bounded import bounded_field, padded_squeeze
from killhouse.core.bounded import route as walked_back
from killhouse.core.cells import Cell, cell_json
from killhouse.core.events import EventLog
from killhouse.core.geometry import chebyshev
from killhouse.core.paths import UNREACHABLE, DistanceField, distance_field, field_on
from killhouse.core.steps import Steps
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.execute.facts import STAIR_COST, STEP_RULES, step_costs
from killhouse.rulesets.execute.state import AGENT, EXTRACTED, HOSTAGE, ExecuteState, Figure
from killhouse.rulesets.execute.vision import MEMO_LIMIT, terrain_key, witnesses


def blocking_side(state: ExecuteState, figure: Figure) -> str:
    """The side whose active figures bar ``figure``'s way (hostages use the FBI's rules, E-30)."""
    if figure.kind == HOSTAGE:
        return state.terrorists
    assert figure.side is not None
    return state.other(figure.side)


def enter_costs(state: ExecuteState, blocked_by: str) -> list[NDArray[np.int32]]:
    """Per level, the MP to enter each square, for a figure barred by ``blocked_by``'s figures."""
    key = ("enter", blocked_by)
    cached = state.cache.get(key)
    if cached is not None:
        out: list[NDArray[np.int32]] = cached
        return out
    barring = tuple([f.pos for f in state.figures.values()
                     if f.side == blocked_by and f.active and f.pos is not None])
    # kept in ``state.memo`` under the terrain and the squares of the figures that bar the
    # way: a move of the other side, or a planning step, leaves them as they were
    lasting = ("enter", terrain_now(state), barring)
    found: list[NDArray[np.int32]] | None = state.memo.get(lasting)
    if found is None:
        found = step_costs(state.board, windows(state))  # ruling E-66: windows for 1 MP
        for pos in barring:
            found[pos.level][pos.y, pos.x] = 0  # ruling E-4: never through an active enemy
        for level_costs in found:
            level_costs.setflags(write=False)  # shared by every state that reads them
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[lasting] = found
    state.cache[key] = found
    return found


def windows(state: ExecuteState) -> frozenset[Cell]:
    """Windows that are entry squares (ruling E-66): figures climb through them, both ways,
    for 1 MP, but nobody stops in a window. Kept in ``state.memo`` under the terrain (and
    in ``state.cache`` for the state as it is): only a change of terrain can change it."""
    key = "windows"
    cached = state.cache.get(key)
    if cached is None:
        lasting = ("windows", state.entry, *terrain_now(state))
        cached = state.memo.get(lasting)
        if cached is None:
            cells, by_level = _entry_order(state.entry)
            cached = frozenset(
                cells[i]
                for level, at, rows_cols in by_level
                for i in at[
                    state.board.levels[level].terrain[rows_cols[0], rows_cols[1]]
                    == Terrain.WINDOW
                ].tolist()
            )
            if len(state.memo) >= MEMO_LIMIT:
                state.memo.clear()
            state.memo[lasting] = cached
        state.cache[key] = cached
    result: frozenset[Cell] = cached
    return result


def terrain_now(state: ExecuteState) -> tuple[bytes, ...]:
    """Every level's terrain as bytes, read now (a memo key part). Not ``terrain_key``'s
    copy for the state: asked in the middle of a walk, that one would be put in
    ``state.cache`` before a door on the way opens."""
    return tuple(lv.terrain.tobytes() for lv in state.board.levels)


def squeeze(state: ExecuteState) -> list[NDArray[np.bool_]]:
    """Squares a diagonal step may not pass between (E-2): walls, closed doors, off-map."""
    return [state.board.solid(i) for i in range(len(state.board.levels))]


def step_cost(state: ExecuteState, cell: Cell) -> int:
    """The MP to enter ``cell`` by any step: 2 for stairs, else 1 (E-3, E-34)."""
    terrain = Terrain(int(state.board.levels[cell.level].terrain[cell.y, cell.x]))
    return STAIR_COST if terrain in (Terrain.STAIRS_UP, Terrain.STAIRS_DOWN) else 1


#: a cost no move reaches, marking squares out of reach in ``destinations``
_NO_COST = np.iinfo(np.int64).max


def _cost_on(fld: DistanceField, cell: Cell) -> int | None:
    """``fld.cost(cell)`` read off the raw grid: one look-up does not repay ``cost``'s copy of
    the whole field into lists."""
    level, x, y = cell
    if not 0 <= level < len(fld.raw):
        return None
    raw = fld.raw[level]
    if not (0 <= y < raw.shape[0] and 0 <= x < raw.shape[1]):
        return None
    value = int(raw[y, x])
    return None if value == UNREACHABLE else value // fld.rules.divisor


@dataclass(frozen=True)
class Reach:
    """Where a figure can get this turn: cost to each square, and how to walk there."""

    fields: tuple[tuple[DistanceField, int, tuple[Cell, ...]], ...]  # (field, entry cost, starts)
    #: the step model the fields were searched on, with its padded squeeze grids
    #: (``core.bounded.route`` walks a single start's field back from its end alone)
    steps: Steps | None = None
    padded: tuple[NDArray[np.bool_], ...] = ()

    def cost(self, cell: Cell) -> int | None:
        best: int | None = None
        for fld, extra, _ in self.fields:
            c = _cost_on(fld, cell)
            if c is not None and (best is None or c + extra < best):
                best = c + extra
        return best

    def path(self, state: ExecuteState, cell: Cell) -> list[Cell]:
        """The squares entered on a cheapest walk to ``cell``, in order (an entry square first)."""
        best = self.cost(cell)
        for fld, extra, starts in self.fields:
            c = _cost_on(fld, cell)
            if c is None or c + extra != best:
                continue
            if len(starts) == 1 and self.steps is not None:
                tail = walked_back(fld, self.steps, self.padded, cell)  # path_to's path
            else:
                tail = fld.path_to(cell)
            if not extra:
                return tail
            if not tail:
                return [cell]
            first = tail[0]
            for s in starts:  # the entry square the cheapest walk came in by
                # the field's own step model: the costs and walls it was searched on
                step = fld.step_cost(s, first)
                if step is not None and step == fld.cost(first):
                    return [s, *tail]
        raise ValueError(f"{cell} cannot be reached")


#: per set of entry squares: the squares sorted, and per level the positions in that order
#: with their rows and columns (``_entry_order``)
_EntryOrder = tuple[list[Cell], list[tuple[int, NDArray[np.intp], NDArray[np.intp]]]]
_ENTRY_ORDER: dict[frozenset[Cell], _EntryOrder] = {}


def _entry_order(entry: frozenset[Cell]) -> _EntryOrder:
    """The entry squares sorted, and per level that has any their positions in that order
    and their rows and columns (a level array read at all of them in one step); made once
    per set of entry squares."""
    found = _ENTRY_ORDER.get(entry)
    if found is None:
        cells = sorted(entry)
        by_level: list[tuple[int, NDArray[np.intp], NDArray[np.intp]]] = []
        for level in sorted({c.level for c in cells}):
            at = [i for i, c in enumerate(cells) if c.level == level]
            rows_cols = np.array([[cells[i].y for i in at], [cells[i].x for i in at]],
                                 dtype=np.intp)
            by_level.append((level, np.array(at, dtype=np.intp), rows_cols))
        if len(_ENTRY_ORDER) >= 64:
            _ENTRY_ORDER.clear()
        found = _ENTRY_ORDER[entry] = (cells, by_level)
    return found


def free_entries(state: ExecuteState) -> list[Cell]:
    """Entry squares an off-map agent may step onto now: enterable and free (E-34, E-60)."""
    costs = enter_costs(state, state.terrorists)
    held = {f.pos for f in state.figures.values() if f.active and f.pos is not None}
    cells, by_level = _entry_order(state.entry)
    open_ = np.zeros(len(cells), dtype=bool)
    for level, at, rows_cols in by_level:
        open_[at] = costs[level][rows_cols[0], rows_cols[1]] > 0
    return [c for c, ok in zip(cells, open_.tolist(), strict=True) if ok and c not in held]


def start_groups(state: ExecuteState, figure: Figure) -> list[tuple[int, tuple[Cell, ...]]]:
    """Where ``figure``'s walk starts: its square, or off the map the free entry squares
    grouped by the MP their first step costs (E-34), the same for every agent off the map
    (cached until the state changes)."""
    if figure.pos is not None:
        return [(0, (figure.pos,))]
    found: list[tuple[int, tuple[Cell, ...]]] | None = state.cache.get("entry-groups")
    if found is None:
        steps = entry_steps(state)
        by_cost: dict[int, list[Cell]] = {}
        for c in free_entries(state):
            by_cost.setdefault(steps[c], []).append(c)
        found = state.cache["entry-groups"] = [
            (extra, tuple(cells)) for extra, cells in sorted(by_cost.items())
        ]
    return found


def entry_steps(state: ExecuteState) -> dict[Cell, int]:
    """The MP of the first step onto each entry square (``step_cost``), kept in
    ``state.memo`` under the terrain: each off-map agent's reach asks for it three times."""
    key = ("entry-steps", state.entry, *terrain_now(state))
    found: dict[Cell, int] | None = state.memo.get(key)
    if found is None:
        found = {c: step_cost(state, c) for c in state.entry}
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return found


def step_model(
    state: ExecuteState, costs: list[NDArray[np.int32]]
) -> tuple[Steps, tuple[NDArray[np.bool_], ...]]:
    """The step model over ``costs`` (``enter_costs``'s arrays, kept in ``state.memo`` under
    the terrain and the barring figures) and the terrain's squeeze masks (E-2), with its
    padded squeeze grids (``core.bounded``), made once beside those arrays: every field a
    figure's reach asks of the same ground shares them."""
    key = ("steps", id(costs))
    found: tuple[list[NDArray[np.int32]], Steps, tuple[NDArray[np.bool_], ...]] | None = (
        state.memo.get(key)
    )
    if found is None or found[0] is not costs:
        steps = Steps(state.board, costs, STEP_RULES, squeeze(state))
        found = (costs, steps, padded_squeeze(steps))
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return found[1], found[2]


def _field(
    state: ExecuteState,
    steps: Steps,
    padded: tuple[NDArray[np.bool_], ...],
    cells: tuple[Cell, ...],
    bound: int | None,
) -> DistanceField:
    """``field_on(board, steps, cells, bound)``: from one start with a bound, by one compiled
    search (``core.bounded``, the same field)."""
    if bound is not None and len(cells) == 1:
        return bounded_field(state.board, steps, padded, cells[0], bound)
    return field_on(state.board, steps, list(cells), max_cost=bound)


def reach(state: ExecuteState, figure: Figure, bound: int | None = None) -> Reach:
    """Cheapest costs for ``figure`` from where it stands, or from off-map via entry squares.

    With ``bound`` (an allowance in MP) the fields stop there: costs up to it are those of
    the unbounded fields, squares beyond are out of reach, and so are the paths to squares
    within it (each step of such a path costs at most its end). The search then touches only
    the squares a walk of that allowance can meet (``core.paths`` with ``max_cost``).
    Kept in ``state.memo`` under everything a field is computed from (its starts, the enter
    costs, the squeeze masks and the bound), so a figure whose ground has not changed since
    the last action (nobody moved into its way, no door opened) reuses its field.
    """
    key = ("reach", figure.id, bound)
    cached = state.cache.get(key)
    if cached is not None:
        result: Reach = cached
        return result
    costs = enter_costs(state, blocking_side(state, figure))
    steps, padded = step_model(state, costs)
    groups = start_groups(state, figure)
    memo_key = ("reach", tuple(groups), id(steps), bound)
    memo: tuple[Steps, Reach] | None = state.memo.get(memo_key)
    if memo is not None and memo[0] is steps:
        result = memo[1]
    else:
        result = Reach(
            tuple(
                (
                    _field(state, steps, padded, cells, None if bound is None else bound - extra),
                    extra,
                    cells,
                )
                for extra, cells in groups
            ),
            steps,
            padded,
        )
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[memo_key] = (steps, result)
    state.cache[key] = result
    return result


def stops(state: ExecuteState) -> frozenset[Cell]:
    """Squares no move may end on (E-4, E-66): those of active figures, and windows (cached
    until the state changes)."""
    found: frozenset[Cell] | None = state.cache.get("stops")
    if found is None:
        held = {f.pos for f in state.figures.values() if f.active and f.pos is not None}
        found = state.cache["stops"] = frozenset(held | windows(state))
    return found


def barred_arrays(state: ExecuteState) -> dict[int, tuple[NDArray[np.intp], NDArray[np.intp]]]:
    """``stops`` per level as arrays of columns and rows (``Squares.positions``), cached
    until the state changes: every figure's listing asks."""
    found: dict[int, tuple[NDArray[np.intp], NDArray[np.intp]]] | None = state.cache.get(
        "stops-arrays"
    )
    if found is None:
        by_level: dict[int, list[Cell]] = {}
        for c in stops(state):
            by_level.setdefault(c.level, []).append(c)
        found = state.cache["stops-arrays"] = {
            level: (np.array([c.x for c in cells], dtype=np.intp),
                    np.array([c.y for c in cells], dtype=np.intp))
            for level, cells in by_level.items()
        }
    return found


def walk_discs(state: ExecuteState, figure: Figure, mp: int) -> list[tuple[Cell, int]]:
    """Squares and radii whose discs (Chebyshev distance on the square's level) hold every
    square a walk of at most ``mp`` MP can enter: each step, a stair link's included, costs at
    least 1 MP and moves at most one square (E-3), so a walk stays within its remaining MP of
    where it started, or of the far end of a stair link it took."""
    return _discs(state, start_groups(state, figure), mp)


def _discs(
    state: ExecuteState, groups: Sequence[tuple[int, tuple[Cell, ...]]], mp: int
) -> list[tuple[Cell, int]]:
    """``walk_discs`` of a walk from the start ``groups`` (``start_groups``)."""
    best: dict[Cell, int] = {}
    todo = [(c, mp - extra) for extra, cells in groups for c in cells]
    links = [(a, b) for a, b in state.board.stairs.items() if a != b]
    links += [(b, a) for a, b in links]
    while todo:
        here, left = todo.pop()
        if left < 0 or best.get(here, -1) >= left:
            continue
        best[here] = left
        for a, b in links:
            if a.level == here.level and chebyshev(a, here) <= left - 1:
                todo.append((b, left - 1 - chebyshev(a, here)))
    return sorted(best.items())


def walk_area(
    state: ExecuteState, groups: tuple[tuple[int, tuple[Cell, ...]], ...], mp: int
) -> list[list[list[bool]] | None]:
    """Per level, the squares inside ``walk_discs`` of a walk of ``mp`` MP from ``groups``
    (nested lists indexed ``[y][x]``; None for a level no disc touches), kept in
    ``state.memo`` under the starts and the allowance (the stair links never change): a
    figure's enemies are each looked up in it instead of measured against every disc."""
    key = ("walk-area", groups, mp)
    found: list[list[list[bool]] | None] | None = state.memo.get(key)
    if found is None:
        masks: list[NDArray[np.bool_] | None] = [None] * len(state.board.levels)
        for c, r in _discs(state, list(groups), mp):
            mask = masks[c.level]
            if mask is None:
                mask = masks[c.level] = np.zeros(
                    state.board.levels[c.level].terrain.shape, dtype=bool
                )
            mask[max(0, c.y - r) : c.y + r + 1, max(0, c.x - r) : c.x + r + 1] = True
        found = [None if m is None else m.tolist() for m in masks]
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return found


#: one level of ``Squares``: the level, its squares' x-major indexes and costs in order, and
#: the grid a square's cost is read from with its bound, divisor and added cost (a square
#: whose grid value passes the bound is out of reach)
_SquaresPart = tuple[int, NDArray[np.intp], NDArray[np.int64], NDArray[np.int64], int, int, int]


class Squares:
    """The squares a figure can get to this turn, in ``Cell`` order, with their MP costs.

    Kept as arrays per level (``_SquaresPart``): a listing counts them and reads one by
    position (a random draw) without a pair made for each; read whole (``items``, or
    iterated as ``(cell, cost)`` pairs, as a bot does), the pairs are made once."""

    __slots__ = ("_items", "_parts", "_rows", "_starts", "count")

    def __init__(self, parts: list[_SquaresPart]) -> None:
        self._parts = parts
        #: each part's grid as nested lists, made at the first ``cost`` (a list look-up beats
        #: a numpy scalar read, and a listing asks about every barred square)
        self._rows: list[list[list[int]]] | None = None
        self._starts: list[int] = []
        total = 0
        for part in parts:
            self._starts.append(total)
            total += len(part[1])
        self.count = total
        self._items: list[tuple[Cell, int]] | None = None

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[tuple[Cell, int]]:
        return iter(self.items())

    def items(self) -> list[tuple[Cell, int]]:
        """Every (square, cost), in order, made once."""
        if self._items is None:
            out: list[tuple[Cell, int]] = []
            for level, at, costs, grid, *_ in self._parts:
                cells = level_cells(level, *grid.shape)
                out += zip(map(cells.__getitem__, at.tolist()), costs.tolist(), strict=True)
            self._items = out
        return self._items

    def item(self, index: int) -> tuple[Cell, int]:
        """The (square, cost) at ``index`` in order."""
        if self._items is not None:
            return self._items[index]
        part = bisect_right(self._starts, index) - 1
        level, at, costs, grid, *_ = self._parts[part]
        local = index - self._starts[part]
        height = grid.shape[0]
        flat = int(at[local])
        return Cell(level, flat // height, flat % height), int(costs[local])

    def cost(self, cell: tuple[int, int, int]) -> int | None:
        """The MP ``cell`` costs to get to, or None if it is not within reach."""
        level, x, y = cell
        rows = self._rows
        if rows is None:
            rows = self._rows = [part[3].tolist() for part in self._parts]
        for (lv, _, _, grid, limit, divisor, extra), grid_rows in zip(self._parts, rows,
                                                                       strict=True):
            if lv == level:
                if 0 <= y < grid.shape[0] and 0 <= x < grid.shape[1]:
                    value: int = grid_rows[y][x]
                    return None if value > limit else value // divisor + extra
                return None
        return None

    def positions(self, cells: Mapping[int, tuple[NDArray[np.intp], NDArray[np.intp]]]
                  ) -> list[int]:
        """The positions in order, ascending, of the squares within reach among ``cells``
        (per level, the columns and rows of distinct squares on the map; ``level_arrays``),
        looked up level by level in one step: a listing asks for every barred square."""
        out: list[int] = []
        for start, (level, at, _, grid, limit, _, _) in zip(self._starts, self._parts,
                                                            strict=True):
            found = cells.get(level)
            if found is None:
                continue
            xs, ys = found
            inside = grid[ys, xs] <= limit
            flat = xs[inside] * grid.shape[0] + ys[inside]  # x-major, as ``at``
            out += (start + np.searchsorted(at, flat)).tolist()
        return sorted(out)

    def index(self, cell: Cell) -> int:
        """The position in order of a square within reach."""
        for part, (level, at, _, grid, *_) in enumerate(self._parts):
            if level == cell.level:
                return self._starts[part] + int(np.searchsorted(at, cell.x * grid.shape[0]
                                                                + cell.y))
        raise ValueError(f"{cell} is not within reach")


#: a figure's last ``within_reach``: its square, allowance, terrain, the stamps read, the list
_LastWithin = tuple[Cell | None, int, tuple[bytes, ...], tuple[int, ...], Squares]


def within_reach(state: ExecuteState, figure: Figure) -> Squares:
    """Every square ``figure`` can get to this turn, in ``Cell`` order, with its MP cost, before
    any square is barred for being held.

    Kept in ``state.memo`` under the figure's starts, its allowance, the terrain, and only
    the enemies that stand where a walk within its allowance could go (``walk_discs``): an
    enemy anywhere else changes none of it (E-4), so an enemy's move across the map leaves
    the list standing.

    Before any of that, the list last worked out for the figure stands while its square, its
    allowance, the terrain and the write stamps (``Figure.stamp``) of every figure that could
    bar it are as they were then: of the enemies for a figure on the map, of everyone for one
    off it (the free entry squares are read from every figure). Moves of its own side, one
    after another in a slot, leave it standing without a look at where anyone is.
    """
    mp = figure.card.movement
    barring = blocking_side(state, figure)
    terrain = tuple(terrain_key(state, level) for level in range(len(state.board.levels)))
    on_map = figure.pos is not None
    stamps = tuple([f.stamp for f in state.figures.values() if f.side == barring or not on_map])
    last_key = ("within-last", figure.id)
    last: _LastWithin | None = state.memo.get(last_key)
    if (
        last is not None
        and last[0] == figure.pos
        and last[1] == mp
        and last[3] == stamps
        and last[2] == terrain
    ):
        return last[4]
    found = _within(state, figure, mp, barring, terrain)
    if len(state.memo) >= MEMO_LIMIT:
        state.memo.clear()
    state.memo[last_key] = (figure.pos, mp, terrain, stamps, found)
    return found


def _within(
    state: ExecuteState, figure: Figure, mp: int, barring: str, terrain: tuple[bytes, ...]
) -> Squares:
    """``within_reach`` worked out from the starts, the allowance, the terrain and the
    enemies near (kept in ``state.memo`` under those)."""
    groups = tuple(start_groups(state, figure))
    area = walk_area(state, groups, mp)
    near = []
    for f in state.figures.values():
        pos = f.pos
        if f.side == barring and f.active and pos is not None:
            grid = area[pos.level]
            if grid is not None and grid[pos.y][pos.x]:
                near.append(pos)
    key = ("within", groups, mp, terrain, tuple(sorted(near)))
    found: Squares | None = state.memo.get(key)
    if found is not None:
        return found
    r = reach(state, figure, mp)  # only costs up to the allowance are read below
    parts: list[_SquaresPart] = []
    if len(r.fields) == 1:
        # one field (a figure on the map, or one group of entry squares): its raw totals are
        # the grid, read up to the allowance
        fld, extra, _ = r.fields[0]
        divisor = fld.rules.divisor
        limit = (mp - extra + 1) * divisor - 1  # raw // divisor <= mp - extra
        for level, raw in enumerate(fld.raw):
            by_x = raw.T.ravel()  # x-major: the order of Cell(level, x, y)
            at = np.flatnonzero(by_x <= limit)  # unreached squares hold the int32 maximum
            if mp - extra >= 0 and at.size:
                parts.append((level, at, by_x[at] // divisor + extra, raw, limit, divisor,
                              extra))
    else:
        best: list[NDArray[np.int64] | None] = [None] * len(state.board.levels)
        for fld, extra, _ in r.fields:
            if mp - extra < 0:
                continue
            for level, (mask, raw) in enumerate(
                zip(fld.within(mp - extra), fld.raw, strict=True)
            ):
                cost = np.where(mask, raw.astype(np.int64) // fld.rules.divisor + extra,
                                _NO_COST)
                prev = best[level]
                best[level] = cost if prev is None else np.minimum(prev, cost)
        for level, level_cost in enumerate(best):
            if level_cost is None:
                continue
            by_x = level_cost.T.ravel()
            at = np.flatnonzero(by_x < _NO_COST)
            if at.size:
                parts.append((level, at, by_x[at], level_cost, int(_NO_COST) - 1, 1, 0))
    found = Squares(parts)
    if len(state.memo) >= MEMO_LIMIT:
        state.memo.clear()
    state.memo[key] = found
    return found


_LEVEL_CELLS: dict[tuple[int, int, int], list[Cell]] = {}


def level_cells(level: int, height: int, width: int) -> list[Cell]:
    """Every square of a ``height`` x ``width`` level in ``Cell`` order (x-major: square
    ``(x, y)`` at ``x * height + y``), made once: a reach lists thousands of squares, and
    indexing a list beats making each ``Cell`` afresh."""
    key = (level, height, width)
    found = _LEVEL_CELLS.get(key)
    if found is None:
        if len(_LEVEL_CELLS) > 64:
            _LEVEL_CELLS.clear()
        found = _LEVEL_CELLS[key] = [
            Cell(level, x, y) for x in range(width) for y in range(height)
        ]
    return found


def destinations(state: ExecuteState, figure: Figure) -> dict[Cell, int]:
    """Every square ``figure`` may end a move on this turn, with its MP cost (E-4: free squares).

    Computed on the fields' arrays; the squares come out in sorted order.
    """
    barred = stops(state)
    return {c: cost for c, cost in within_reach(state, figure).items()
            if c not in barred and c != figure.pos}


#: the most waypoints one move may carry (a route longer than any Movement needs no more)
MAX_WAYPOINTS = 12


def route(
    state: ExecuteState, figure: Figure, dest: Cell, via: Sequence[Cell]
) -> tuple[list[Cell], int]:
    """The walk through ``via`` in order, then to ``dest``: the cheapest legal path of each leg
    (5.2, ruling E-59), with its total cost. Raises ``IllegalActionError`` with the reason
    (a waypoint that is a wall, out of the map, held by an enemy or unreachable; a route over
    the Movement allowance) before anything changes."""
    if len(via) > MAX_WAYPOINTS:
        raise IllegalActionError(f"a move carries at most {MAX_WAYPOINTS} waypoints")
    costs = enter_costs(state, blocking_side(state, figure))
    walls = squeeze(state)
    stops = [*via, dest]
    for i, cell in enumerate(stops):
        what = f"waypoint {i + 1} {cell_json(cell)}" if i < len(via) else str(cell_json(cell))
        if not state.board.in_bounds(cell):
            raise IllegalActionError(f"{what} is not on the map")
        if costs[cell.level][cell.y, cell.x] <= 0:
            enemy = state.active_at(cell)
            if enemy is not None and enemy.side == blocking_side(state, figure):
                raise IllegalActionError(f"{what} holds an active enemy: no route passes "
                                         "through it (E-4)")
            raise IllegalActionError(f"{what} is a wall, a locked door or outside the "
                                     "building: no route goes through it (E-2, E-5)")
    path: list[Cell] = []
    total = 0
    here = figure.pos
    for i, stop in enumerate(stops):
        what = f"waypoint {i + 1} {cell_json(stop)}" if i < len(via) else str(cell_json(stop))
        if here is None:  # off the map: the first leg comes in by an entry square (E-34)
            r = reach(state, figure)
            leg_cost = r.cost(stop)
            leg = r.path(state, stop) if leg_cost is not None else []
        else:
            fld = distance_field(state.board, [here], costs, STEP_RULES, walls)
            leg_cost = fld.cost(stop)
            leg = fld.path_to(stop) if leg_cost is not None and stop != here else []
        if leg_cost is None:
            start = "off the map" if here is None else cell_json(here)
            raise IllegalActionError(f"{what} cannot be reached from {start} (E-2 … E-5)")
        total += leg_cost
        path += leg
        here = stop
    if total > figure.card.movement:
        raise IllegalActionError(
            f"the route costs {total} MP; {figure.id!r} has {figure.card.movement} (5.2, E-3)"
        )
    if dest == figure.pos or state.active_at(dest) is not None:
        raise IllegalActionError(f"{cell_json(dest)} is not a free square to end on (E-4)")
    if dest in windows(state):
        raise IllegalActionError(f"{cell_json(dest)} is a window: figures climb through it but "
                                 "do not stop in it (ruling E-66)")
    return path, total


# -- resolving a move ----------------------------------------------------------------------


def walk(state: ExecuteState, figure: Figure, path: Sequence[Cell], log: EventLog) -> None:
    """Put ``figure`` on each square of ``path`` in turn: doors open, alarms sound (E-5, E-19).

    An alarm reports every covered square an agent enters; one walk gives one alert per
    alarm, listing its squares in order (the first is ``at``).
    """
    own = frozenset({figure.side or state.fbi})
    tripped: dict[str, list[list[int] | None]] = {}
    for cell in path:
        terrain = Terrain(int(state.board.levels[cell.level].terrain[cell.y, cell.x]))
        if terrain == Terrain.DOOR_CLOSED:
            state.board.set_terrain(cell, Terrain.DOOR_OPEN)  # ruling E-5
            # what the state's cache read of the terrain (its key, sight) is stale now: a
            # side's sight read later in this walk (who sees a hostage extracted) sees
            # through the open door
            state.touch()
            log.emit("door_opened", {"figure": figure.id, "at": cell_json(cell)}, own)
        figure.pos = cell
        if figure.kind == AGENT:
            for device in state.devices.values():
                if device.type == "alarm" and device.working and cell in device.covers:
                    tripped.setdefault(device.id, []).append(cell_json(cell))
        if figure.kind == HOSTAGE and cell in state.extraction:  # ruling E-56: at once
            extract(state, figure, log)
            break
    for alarm, squares in tripped.items():
        alert = {"alarm": alarm, "at": squares[0], "squares": squares, "turn": state.turn}
        log.emit("alert", alert, frozenset({state.terrorists}))
        state.alerts.append(dict(alert))


def extract(state: ExecuteState, hostage: Figure, log: EventLog) -> None:
    """A hostage on an extraction square is removed and counts as rescued (ruling E-31)."""
    audience = frozenset(witnesses(state, hostage) | {state.fbi})
    at = cell_json(hostage.pos)
    hostage.status = EXTRACTED
    hostage.leader = None
    hostage.pos = None
    state.touch()
    log.emit("extracted", {"hostage": hostage.id, "at": at}, audience)


def claimable(state: ExecuteState, agent: Figure, hostage: Figure) -> bool:
    """Whether ``agent`` may claim ``hostage`` (E-30): an active agent on the map, a hostage
    not incapacitated nor extracted, adjacent on the same level. Adjacency, not sight: a
    hostage round a corner can be taken by the hand (ruling E-46)."""
    if hostage.kind != HOSTAGE or not hostage.active or hostage.pos is None:
        return False
    if not agent.active or agent.pos is None or agent.kind != AGENT:
        return False
    return hostage.pos.level == agent.pos.level and chebyshev(hostage.pos, agent.pos) <= 1


def claim(state: ExecuteState, agent: Figure, hostage: Figure, log: EventLog) -> None:
    """The hostage's leader becomes ``agent`` (ruling E-30); the claim is free."""
    state.claim_counter += 1
    hostage.leader = agent.id
    hostage.claim_seq = state.claim_counter
    state.touch()
    log.emit("claimed", {"agent": agent.id, "hostage": hostage.id}, frozenset({state.fbi}))


def move(state: ExecuteState, figure: Figure, dest: Cell, log: EventLog,
         path: Sequence[Cell] | None = None, cost: int | None = None) -> None:
    """Resolve a move to ``dest`` (already checked legal), then hostages follow (E-30).

    Without ``path`` the walk takes the cheapest path with the path finder's fixed
    tie-break, chosen on the map as it is when the move starts (ruling E-59); a route the
    player chose (waypoints, 5.2) comes in as ``path`` with its ``cost``. Claims are the
    player's choice, before or after the move (ruling E-46), never automatic.
    """
    if path is None:
        # a listed move ends within the figure's allowance: its fields need go no further
        r = reach(state, figure, figure.card.movement)
        path = r.path(state, dest)
        cost = r.cost(dest)
    start = figure.pos
    walk(state, figure, path, log)
    state.touch()
    log.emit(
        "moved",
        {
            "figure": figure.id,
            "from": cell_json(start),
            "to": cell_json(dest),
            "cost": cost,
            "path": [cell_json(c) for c in path],
        },
        frozenset({figure.side or state.fbi}),
    )
    if figure.kind == AGENT:
        led = sorted(
            (h for h in state.hostages() if h.leader == figure.id and h.active),
            key=lambda h: h.claim_seq,
        )
        for h in led:
            follow(state, h, figure, log)


def follow(state: ExecuteState, hostage: Figure, leader: Figure, log: EventLog) -> None:
    """Move a led hostage toward a free square next to its leader, with its own MP (E-30)."""
    assert leader.pos is not None and hostage.pos is not None
    if hostage.pos.level == leader.pos.level and chebyshev(hostage.pos, leader.pos) <= 1:
        return
    state.touch()
    r = reach(state, hostage)
    occupied = {f.pos for f in state.figures.values() if f.active and f.pos is not None}
    best: tuple[int, int, int, int, int] | None = None
    target: Cell | None = None
    lp = leader.pos
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            cell = Cell(lp.level, lp.x + dx, lp.y + dy)
            if (dx == 0 and dy == 0) or not state.board.in_bounds(cell) or cell in occupied:
                continue
            if cell in windows(state):
                continue
            cost = r.cost(cell)
            if cost is None:
                continue
            key = (cost, chebyshev(cell, lp), cell.level, cell.y, cell.x)
            if best is None or key < best:
                best, target = key, cell
    if target is None:
        return
    path = r.path(state, target)
    mp = hostage.card.movement
    spent = 0
    steps: list[Cell] = []
    for cell in path:
        spent += step_cost(state, cell)
        if spent > mp:
            break
        steps.append(cell)
    # E-4: it may pass friends but not end on them; nobody stops in a window (E-66)
    while steps and (steps[-1] in occupied or steps[-1] in windows(state)):
        steps.pop()
    for i, cell in enumerate(steps):
        if cell in state.extraction:
            steps = steps[: i + 1]
            break
    if not steps:
        return
    start = hostage.pos
    walk(state, hostage, steps, log)
    state.touch()
    log.emit(
        "followed",
        {
            "hostage": hostage.id,
            "leader": leader.id,
            "from": cell_json(start),
            "to": cell_json(steps[-1]),
            "extracted": hostage.status == EXTRACTED,
        },
        frozenset({state.fbi}),
    )
