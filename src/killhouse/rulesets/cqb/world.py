"""The map as CQB reads it: rooms, sight, movement costs, the line of fire and sounds.

Ruling Q-29 and K-1: sight is the core's exact segment line of sight, all round (no facing);
smoke from a burning room veils it. Movement is costed in half inches (orthogonal 2, diagonal
3), a closed door adds 1", a stair cell costs 2".
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell, sector_of
from killhouse.core.geometry import cells_on_extended_segment, line_of_sight, los_pairs
from killhouse.core.paths import StepRules
from killhouse.core.terrain import Terrain, passable_mask
from killhouse.rulesets.cqb.state import WINDOW_STATES, CqbState, Figure
from killhouse.rulesets.cqb.tables import tables

#: half inches: orthogonal 1", diagonal 1.5" (ruling Q-29)
STEPS = StepRules(cardinal=2, diagonal=3, divisor=1, squeeze="solid")
_BOUNDARY = {Terrain.WALL, Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN, Terrain.DOOR_LOCKED,
             Terrain.WINDOW, Terrain.OUTSIDE}
_OPENINGS = {Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN, Terrain.DOOR_LOCKED, Terrain.WINDOW}
ORTHO = ((0, -1), (1, 0), (0, 1), (-1, 0))


def inches(a: Cell, b: Cell) -> float:
    """Range: the Euclidean distance between cell centres, in inches (ruling Q-29)."""
    return math.hypot(a.x - b.x, a.y - b.y)


# -- rooms (ruling Q-23) ------------------------------------------------------------------


def find_rooms(board: Board) -> tuple[dict[Cell, int], frozenset[int]]:
    """Rooms are the connected floor areas between walls, doors and windows; a room touching
    the map's edge or undrawn outside is an area open to the outside (ruling Q-24)."""
    rooms: dict[Cell, int] = {}
    open_rooms: set[int] = set()
    next_id = 0
    for start in board.cells():
        if start in rooms or board.terrain(start) in _BOUNDARY:
            continue
        queue = deque([start])
        rooms[start] = next_id
        while queue:
            cell = queue.popleft()
            for dx, dy in ORTHO:
                n = cell.step(dx, dy)
                if not board.in_bounds(n):
                    open_rooms.add(next_id)
                    continue
                t = board.terrain(n)
                if t == Terrain.OUTSIDE:
                    open_rooms.add(next_id)
                if n in rooms or t in _BOUNDARY:
                    continue
                rooms[n] = next_id
                queue.append(n)
        next_id += 1
    return rooms, frozenset(open_rooms)


def window_state(state: CqbState, cell: Cell) -> str:
    """A window's state (ruling Q-65): closed, open or broken."""
    return WINDOW_STATES[int(state.board.levels[cell.level].layer("window")[cell.y, cell.x])]


def set_window(state: CqbState, cell: Cell, value: str) -> None:
    state.board.levels[cell.level].layer("window")[cell.y, cell.x] = WINDOW_STATES.index(value)


def rooms_of(state: CqbState, cell: Cell) -> set[int]:
    """The room of a cell; a doorway or window cell counts in every room it opens onto
    (ruling Q-45, ours: the digest's "the room the door opens into" has no swing to read)."""
    room = state.rooms.get(cell)
    if room is not None:
        return {room}
    if state.board.terrain(cell) not in _OPENINGS:
        return set()
    out = set()
    for dx, dy in ORTHO:
        n = cell.step(dx, dy)
        if n in state.rooms:
            out.add(state.rooms[n])
    return out


def room_cells(state: CqbState, room: int) -> list[Cell]:
    return [c for c, r in state.rooms.items() if r == room]


# -- sight --------------------------------------------------------------------------------


def smoke(state: CqbState, level: int) -> NDArray[np.bool_]:
    return state.board.smoke(level)


def compute_visible(state: CqbState) -> tuple[dict[str, frozenset[str]],
                                              dict[str, frozenset[str]]]:
    """Which figures each active figure sees now (all round, exact line of sight), and which
    it has a line of sight to; they differ only under darkness (ruling Q-67): a figure in an
    unlit cell is seen only within 6"."""
    figs = [f for f in state.figures.values() if not f.extracted]  # off the map
    out: dict[str, set[str]] = {f.id: set() for f in figs}
    dark = state.options.darkness
    los: dict[str, set[str]] = {f.id: set() for f in figs} if dark else out
    reach_sq = int(tables().tests["darkness"]["seen_within"]) ** 2
    by_level: dict[int, list[Figure]] = {}
    for f in figs:
        by_level.setdefault(f.at.level, []).append(f)
    for level, group in by_level.items():
        watchers = [f for f in group if f.active]
        pairs = [(a, b) for a in watchers for b in group if a.id != b.id]
        if not pairs:
            continue
        ok = los_pairs(state.board.opaque(level), [(a.at.x, a.at.y) for a, _ in pairs],
                       [(b.at.x, b.at.y) for _, b in pairs], smoke(state, level))
        lit = state.board.levels[level].layer("light") if dark else None
        for (a, b), seen in zip(pairs, ok.tolist(), strict=True):
            if not seen:
                continue
            los[a.id].add(b.id)
            if lit is not None and not lit[b.at.y, b.at.x] and (
                    (a.at.x - b.at.x) ** 2 + (a.at.y - b.at.y) ** 2 > reach_sq):
                continue  # in the dark, beyond 6"
            if dark:
                out[a.id].add(b.id)
    seen_now = {k: frozenset(v) for k, v in out.items()}
    return seen_now, ({k: frozenset(v) for k, v in los.items()} if dark else seen_now)


def sees(state: CqbState, a: Figure, b: Figure) -> bool:
    """Whether ``a`` sees ``b`` now (from the cache the turn keeps fresh)."""
    return b.id in state.visible.get(a.id, frozenset())


def sees_cell(state: CqbState, fig: Figure, cell: Cell) -> bool:
    """Whether ``fig`` has line of sight to ``cell`` on its own level (exact, K-1)."""
    if cell.level != fig.at.level or not state.board.in_bounds(cell):
        return False
    level = cell.level
    return line_of_sight(state.board.opaque(level), (fig.at.x, fig.at.y), (cell.x, cell.y),
                         smoke(state, level))


def openings(state: CqbState, level: int) -> list[Cell]:
    """The doorway and window cells of a level (aim points the actions offer, Q-15)."""
    terrain = state.board.levels[level].terrain
    key = (level, terrain.shape, terrain.tobytes())
    found = _OPENING_CELLS.get(key)
    if found is None:
        mask = np.zeros(terrain.shape, dtype=bool)
        for kind in _OPENINGS:
            mask |= terrain == kind
        ys, xs = np.nonzero(mask)
        found = tuple(Cell(level, x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True))
        if len(_OPENING_CELLS) >= 256:
            _OPENING_CELLS.clear()  # a bound on memory only
        _OPENING_CELLS[key] = found
    return list(found)


#: ``openings`` by level and terrain (doors opening or windows breaking make a new entry)
_OPENING_CELLS: dict[tuple[int, tuple[int, ...], bytes], tuple[Cell, ...]] = {}


def side_sees(state: CqbState, side: str, fig: Figure) -> bool:
    return fig.side == side or any(
        sees(state, f, fig) for f in state.side_figures(side) if f.active)


def observers(state: CqbState, fig: Figure) -> frozenset[str]:
    """The sides that know of what ``fig`` does in the open: its own, and those who see it."""
    return frozenset(s for s in state.sides if side_sees(state, s, fig))


def refresh(state: CqbState) -> None:
    """Recompute sight and each side's memory of where it last saw each figure."""
    key = (tuple((f.at, f.condition, f.extracted) for f in state.figures.values()),
           tuple(lv.terrain.tobytes() + lv.smoke.tobytes() for lv in state.board.levels))
    if key != state.sight_key:  # sight changes only when figures, doors or smoke do
        state.visible, state.in_los = compute_visible(state)
        state.sight_key = key
    for side in state.sides:
        memory = state.memory.setdefault(side, {})
        for fig in state.side_figures(side):
            for other in state.visible.get(fig.id, frozenset()) if fig.active else ():
                memory[other] = (state.figures[other].at, state.turn)


# -- movement -----------------------------------------------------------------------------


def enter_costs(state: CqbState, mover: Figure) -> list[NDArray[np.int32]]:
    """Per level, the cost multiplier to enter each cell: floor 1, closed door 2 (1" to open),
    stairs 2 (2" a cell); 0 where no one may go: walls, windows, locked doors, and cells held
    by opposing figures (friends may be passed through, section 1)."""
    out = []
    for index, lv in enumerate(state.board.levels):
        cost = _terrain_costs(lv.terrain).copy()
        for f in state.figures.values():
            if f.at.level == index and f.side != mover.side and f.id != mover.id:
                cost[f.at.y, f.at.x] = 0
        out.append(cost)
    return out


#: the terrain part of ``enter_costs`` by the level's terrain (its bytes and shape)
_TERRAIN_COSTS: dict[tuple[bytes, tuple[int, ...]], NDArray[np.int32]] = {}


def _terrain_costs(terrain: NDArray[np.uint8]) -> NDArray[np.int32]:
    """Floor 1, closed door and stairs 2, impassable 0: the same for every mover on the same
    terrain, so made once per terrain (doors opening make a new one)."""
    key = (terrain.tobytes(), terrain.shape)
    found = _TERRAIN_COSTS.get(key)
    if found is None:
        found = passable_mask(terrain).astype(np.int32)
        found[terrain == Terrain.DOOR_CLOSED] = 2
        found[(terrain == Terrain.STAIRS_UP) | (terrain == Terrain.STAIRS_DOWN)] = 2
        found.setflags(write=False)
        if len(_TERRAIN_COSTS) >= 256:
            _TERRAIN_COSTS.clear()  # a bound on memory only
        _TERRAIN_COSTS[key] = found
    return found


def occupied(state: CqbState, cell: Cell, but: str = "") -> bool:
    return any(f.at == cell and f.id != but and not f.extracted
               for f in state.figures.values())


# -- the line of fire (section 8.5, ruling Q-7) ---------------------------------------------


def line_cells(a: Cell, b: Cell, extend: float) -> list[Cell]:
    """Cells crossed by the segment from ``a``'s centre through ``b``'s centre and ``extend``
    inches beyond it, in order from ``a``: the core's exact routine (ruling Q-68: a cell the
    line only touches at a corner or along an edge is not crossed)."""
    if a.level != b.level or (a.x, a.y) == (b.x, b.y):
        return []
    return [Cell(a.level, x, y) for x, y in
            cells_on_extended_segment((a.x, a.y), (b.x, b.y), Fraction(extend))]


def in_line_of_fire(state: CqbState, firer: Figure, target: Figure,
                    candidates: Iterable[Figure]) -> list[Figure]:
    """Figures in the line of fire, nearest the firer first: on the line extended 6" past the
    target, or within 1" of the target and no farther than it plus 1" (section 8.5). Ruling
    Q-49 (ours): only figures in the firer's line of sight can be struck (walls stop stray
    rounds; darkness does not, Q-67)."""
    t = tables()
    line = set(line_cells(firer.at, target.at, t.line_extend))
    reach = inches(firer.at, target.at)
    out = []
    for f in candidates:
        if f.id in (firer.id, target.id) or f.at.level != firer.at.level:
            continue
        near = inches(f.at, target.at) <= t.line_near and inches(firer.at, f.at) <= reach + 1
        if (f.at in line or near) and f.id in state.in_los.get(firer.id, frozenset()):
            out.append(f)
    out.sort(key=lambda f: (inches(firer.at, f.at), f.id))
    return out


# -- sounds (section 14) --------------------------------------------------------------------


def hear(state: CqbState, source: Cell, kind: str, same_level: float, other_level: float,
         maker: Figure | None) -> None:
    """Sides with a figure in earshot note a sound's direction (never who made it); the
    maker's side hears nothing new (``None``: no maker, as for a device)."""
    for side in state.sides:
        if maker is not None and side == maker.side:
            continue
        for f in state.side_figures(side):
            if not f.active or f.at == source:
                continue
            limit = same_level if f.at.level == source.level else other_level
            if abs(f.at.level - source.level) > 1 or inches(f.at, source) > limit:
                continue
            dx, dy = source.x - f.at.x, source.y - f.at.y
            direction = sector_of(dx, dy) if (dx or dy) else "here"
            heard = state.sounds.setdefault(side, [])
            heard.append({"turn": state.turn, "kind": kind, "listener": f.id,
                          "direction": direction})
            del heard[:-12]
            break
