"""The map as Commando's rules read it: terrain kinds, elevation and buildings from the core's
cell layers (K-7, K-9), replacing ruling C-83's all-``clear`` placeholder.

A cell's kind is its core terrain where that is line terrain the core draws (wall, door,
window, water), else the ``ground`` layer's name (field terrain, or line terrain drawn as a
cell: fence, wire, slit …, C-1), else ``clear``. ``elevation`` is the hill level (C-10);
``building`` marks the inside of a building (``large`` for a hangar: digest 6.3, 9.6).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.geometry import cells_on_segment, line_of_sight
from killhouse.core.layers import LayerSpec
from killhouse.core.levels import sees_across_levels
from killhouse.core.terrain import Terrain
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.movement import step_cost
from killhouse.rulesets.commando.tables import tables

#: ground kinds a legend may name: every field row, and the line rows drawn as cells (C-1);
#: walls, doors, windows and water come from the core's own terrain
LINE_CELLS: tuple[str, ...] = (
    "fence", "barbed_wire", "concertina", "slit", "bridge", "drilled_hole", "railroad",
    "runway", "hangar_door",
)
GROUND_NAMES: tuple[str, ...] = (
    "clear", "rough", "crater", "trench", "woods", "forest", "dune", "rubble", "oil_tank",
    "road", "trail", *LINE_CELLS,
)
BUILDING_NAMES: tuple[str, ...] = ("building", "large")
#: the highest hill level a map may draw
MAX_ELEVATION = 9

LAYERS: Mapping[str, LayerSpec] = {
    "ground": LayerSpec(
        "ground", "name", names=GROUND_NAMES,
        help="a Terrain Effects Chart kind, e.g. woods, road, trench, fence (commando 5.3)",
    ),
    "elevation": LayerSpec(
        "elevation", "number", 0, MAX_ELEVATION,
        help="hill level 0-9: +6 TP a level up, +4 down, sight over lower cells (C-6, C-10)",
    ),
    "building": LayerSpec(
        "building", "name", names=BUILDING_NAMES,
        help="inside a building (large: a hangar, observed at -5 and blasts in the open)",
    ),
    "tree": LayerSpec(
        "tree", "number", 0, 1,
        help="1: a tree a man may climb (50 TP; 20 down) to see one level higher (C-188)",
    ),
}
#: ground kinds whose squares are full of trees a man may climb (ruling C-188)
WOODED: frozenset[str] = frozenset({"woods", "forest"})

#: core terrain read as a Terrain Effects Chart kind
CORE_KIND: dict[Terrain, str] = {
    Terrain.WALL: "wall", Terrain.DOOR_CLOSED: "door", Terrain.DOOR_OPEN: "door",
    Terrain.DOOR_LOCKED: "door", Terrain.WINDOW: "window", Terrain.WATER: "water",
}


def _layer(board: Board, level: int, key: str) -> NDArray[np.int16] | None:
    return board.levels[level].layers.get(key)


def cell_kind(board: Board, cell: Cell) -> str:
    """The Terrain Effects Chart row of one cell (ruling C-120)."""
    core = CORE_KIND.get(board.terrain(cell))
    if core is not None:
        return core
    ground = _layer(board, cell.level, "ground")
    if ground is None:
        return "clear"
    stored = int(ground[cell.y, cell.x])
    return "clear" if stored == 0 else GROUND_NAMES[stored - 1]


def height(board: Board, cell: Cell) -> int:
    """The cell's hill level (0 where the map draws none)."""
    layer = _layer(board, cell.level, "elevation")
    return 0 if layer is None else int(layer[cell.y, cell.x])


def building(board: Board, cell: Cell) -> str | None:
    """``building``, ``large`` or None (outdoors)."""
    layer = _layer(board, cell.level, "building")
    if layer is None:
        return None
    stored = int(layer[cell.y, cell.x])
    return None if stored == 0 else BUILDING_NAMES[stored - 1]


def _names_mask(board: Board, level: int, names: frozenset[str]) -> NDArray[np.bool_]:
    ground = _layer(board, level, "ground")
    shape = board.levels[level].terrain.shape
    if ground is None:
        return np.zeros(shape, dtype=bool)
    codes = [GROUND_NAMES.index(n) + 1 for n in names if n in GROUND_NAMES]
    return np.isin(ground, codes)


def vision_blockers() -> frozenset[str]:
    """Ground kinds whose chart row blocks vision outright ("yes": woods, forest, oil tank)."""
    t = tables()
    return frozenset(k for k in GROUND_NAMES
                     if (t.field.get(k) or t.line[k]).blocks_vision == "yes")


def sight_mask(board: Board, level: int, ends: tuple[Cell, Cell]) -> NDArray[np.bool_]:
    """Cells that stop sight on a level: the core's opaque cells (walls, closed doors, smoke),
    woods, forest and oil tanks, and slits except where one end stands next to the slit
    (ruling C-10)."""
    mask = board.opaque(level) | board.smoke(level) | _names_mask(board, level,
                                                                   vision_blockers())
    slits = _names_mask(board, level, frozenset({"slit"}))
    if slits.any():
        slits = slits.copy()
        for end in ends:
            if end.level != level:
                continue
            ys = slice(max(0, end.y - 1), end.y + 2)
            xs = slice(max(0, end.x - 1), end.x + 2)
            slits[ys, xs] = False
        mask = mask | slits
    return mask


def has_tree(board: Board, cell: Cell) -> bool:
    """Whether a man may climb a tree in the square: one drawn with ``tree: 1``, or any woods
    or forest square (ruling C-188)."""
    layer = _layer(board, cell.level, "tree")
    if layer is not None and int(layer[cell.y, cell.x]):
        return True
    return cell_kind(board, cell) in WOODED


def sees(board: Board, a: Cell, b: Cell, lifted: frozenset[Cell] = frozenset()) -> bool:
    """Line of sight by C-10 on the core: blocking cells count where they are at least as high
    as the lower end, a cell higher than both ends blocks (K-7's elevation rule); between
    storeys only along stair links (K-7). Vision reaches into the first blocking cell: the
    ends themselves never block. An end in ``lifted`` (a man up a tree) counts one elevation
    level higher (C-10, C-53)."""

    def on_level(p: Cell, q: Cell) -> bool:
        heights = _layer(board, p.level, "elevation")
        if heights is not None and not heights.any():
            heights = None
        raise_ = [c for c in (p, q) if c in lifted and c.level == p.level]
        if raise_:
            shape = board.levels[p.level].terrain.shape
            heights = (np.zeros(shape, dtype=np.int16) if heights is None
                       else heights.astype(np.int16, copy=True))
            for c in raise_:
                heights[c.y, c.x] += 1
        return line_of_sight(sight_mask(board, p.level, (p, q)), (p.x, p.y), (q.x, q.y),
                             elevation=heights)

    return sees_across_levels(board, a, b, on_level)


def fire_lines(board: Board, firer: Cell, target: Cell) -> list[str]:
    """Line terrain on the line of fire within 1 square of the target, the target's own cell
    and the firer's cell excepted (C-22, C-75): doors, windows, slits, fences, wire, hangar
    doors."""
    if firer.level != target.level:
        return []
    line = tables().line
    out = []
    for x, y in cells_on_segment((firer.x, firer.y), (target.x, target.y)):
        cell = Cell(target.level, x, y)
        if cell in (firer, target) or distance(x - target.x, y - target.y) > 1:
            continue
        kind = cell_kind(board, cell)
        if kind in line and kind != "wall":
            out.append(kind)
    return out


def enterable(board: Board, cell: Cell) -> bool:
    """Whether a man may step into the cell at all (C-1: doors, windows, fences are cells that
    can be entered; walls, slits, oil tanks, drilled holes and uncut concertina cannot)."""
    if not board.in_bounds(cell):
        return False
    terrain = board.terrain(cell)
    if terrain in (Terrain.OUTSIDE, Terrain.WALL, Terrain.DOOR_CLOSED, Terrain.DOOR_LOCKED):
        return False
    return step_cost(cell_kind(board, cell)) is not None


def step_tp(board: Board, a: Cell, b: Cell, *, prone: bool, carrying_man: bool = False,
            carrying_flamethrower: bool = False) -> int | None:
    """C-6's cost of one step on this map, or None when the cell cannot be entered."""
    if not enterable(board, b):
        return None
    rise = height(board, b) - height(board, a)
    return step_cost(
        cell_kind(board, b), source=cell_kind(board, a),
        diagonal=a.x != b.x and a.y != b.y, prone=prone,
        levels_up=max(0, rise), levels_down=max(0, -rise),
        carrying_man=carrying_man, carrying_flamethrower=carrying_flamethrower,
    )


def higher(board: Board, a: Cell, b: Cell) -> bool:
    """Whether ``b`` stands higher than ``a`` (a higher storey or hill level)."""
    return (b.level, height(board, b)) > (a.level, height(board, a))
