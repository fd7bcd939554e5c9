"""The map as a throw or an explosion sees it (rulings C-35, C-89 … C-91): squares in between,
walls, rooms and their environment, illumination, and which sides witness what."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from killhouse.core.cells import Cell
from killhouse.core.events import Audience
from killhouse.core.terrain import Terrain
from killhouse.rulesets.commando import clouds
from killhouse.rulesets.commando.observation import in_range

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState


#: ruling C-89: scenario zones whose names start so are rooms; "large" ones count as Open
ROOM, LARGE = "room", "large"



def between(a: Cell, b: Cell) -> list[Cell]:
    """The squares strictly between two squares on one level, stepped along the longer axis
    and rounded to the nearest square (ruling C-90)."""
    dx, dy = b.x - a.x, b.y - a.y
    n = max(abs(dx), abs(dy))
    out = []
    for i in range(1, n):
        x = a.x + (dx * i * 2 + n) // (2 * n)
        y = a.y + (dy * i * 2 + n) // (2 * n)
        out.append(Cell(a.level, x, y))
    return out



def by_wall(state: CommandoState, at: Cell) -> bool:
    """Ruling C-90: a square orthogonally next to a wall cell is "adjacent to a wall"."""
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        c = Cell(at.level, at.x + dx, at.y + dy)
        if state.board.in_bounds(c) and state.board.terrain(c) is Terrain.WALL:
            return True
    return False



def room_of(state: CommandoState, at: Cell) -> str | None:
    """The scenario zone that makes ``at`` indoors (ruling C-89), if any."""
    for name in sorted(state.board.zones):
        if name.startswith((ROOM, LARGE)) and state.board.in_zone(at, name):
            return name
    return None



def environment(state: CommandoState, at: Cell) -> str:
    """Ruling C-28 on the map (our C-89): Open outdoors or in a "large" zone; inside a room
    zone, Vented if a door cell next to the room stands open, else Closed (windows are read as
    closed, C-79). Where no zone is drawn, the room is read off the map's walls (C-187)."""
    room = room_of(state, at)
    if room is None:
        from killhouse.rulesets.commando import rooms

        return rooms.environment(state.board, at)
    if room.startswith(LARGE):
        return "open"
    cells = state.board.zone_cells(room)
    for c in cells:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                n = Cell(c.level, c.x + dx, c.y + dy)
                if state.board.in_bounds(n) and state.board.terrain(n) is Terrain.DOOR_OPEN:
                    return "vented"
    return "closed"



def sees_cell(state: CommandoState, side: str, at: Cell) -> bool:
    """Whether a man of ``side`` in action has the square in LOS within observation range."""
    from killhouse.rulesets.commando import flow

    for m in state.up(side):
        p = state.pos[m.id]
        if in_range(flow.rng_between(p, at), state.weather, light_at(state, at)) and \
                flow.has_los(state, p, at):
            return True
    return False



def light_at(state: CommandoState, at: Cell) -> str:
    """Ruling C-35: within 5 squares of an illumination burst targets are seen at Day range."""
    if clouds.illuminated(at, state.ordnance.clouds, state.turn):
        return "day"
    return state.light



def seen_by(state: CommandoState, side: str, men: Iterable[str]) -> bool:
    return all(state.men[m].side == side or m in state.observed[side] for m in men)



def audience_for(state: CommandoState, men: Iterable[str]) -> Audience:
    """The sides that may see the rolls about ``men``: those that see every one of them
    (ruling C-91; ``None`` when both do)."""
    group = list(men)
    sides = frozenset(s for s in state.sides if seen_by(state, s, group))
    return None if len(sides) == len(state.sides) else sides



def witnesses(state: CommandoState, side: str, at: Cell, men: Iterable[str]) -> Audience:
    """Ruling C-91: an explosion is seen by its own side, and by the other when one of its men
    has the square in view or is caught in it."""
    enemy = state.enemy(side)
    caught = any(state.men[m].side == enemy for m in men)
    return None if caught or sees_cell(state, enemy, at) else frozenset({side})
