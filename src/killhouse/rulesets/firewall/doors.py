"""Doors in play (digest §6.7, §12, §16.2 Strength and Intrusion; rulings F-230 … F-234,
F-242).

A closed door is an opaque, passable square of the map (``core.terrain``): a move whose route
reaches it opens it and it stays open (F-230). ``door(figure, at, to)`` opens or closes a door
beside the figure without passing through it, breaks down a locked one (F-231, F-232) or
picks its lock with Intrusion (F-242).
Each side knows every door as it last saw it (F-233): the map's states at the start, then
what its figures see; the views carry that knowledge and the events of a door's change go
to the sides that see the door (F-234).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import los_from
from killhouse.core.terrain import Terrain, door_mask
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.moving import ON_TABLE, route_squares
from killhouse.rulesets.firewall.objectives import NEAR_CM
from killhouse.rulesets.firewall.skillroll import skill_level, skill_use, task_modifier, task_roll
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _aware,
    mine,
    side_known,
    team_figures,
)
from killhouse.rulesets.firewall.teams import Figure

#: a door's state by its terrain, as views and events name it
STATES: dict[int, str] = {int(Terrain.DOOR_CLOSED): "closed", int(Terrain.DOOR_OPEN): "open",
                          int(Terrain.DOOR_LOCKED): "locked"}
#: what ``door(…, to)`` may ask for
TARGETS = ("open", "closed")
#: how a locked door is opened (F-232, F-242): broken down, or its lock picked with Intrusion
WAYS = ("force", "pick")

Spot = tuple[int, int, int]


def door_cells(state: FirewallState) -> list[Cell]:
    """Every door square of the map, in any state (their places never change)."""
    out: list[Cell] = []
    for li, lv in enumerate(state.board.levels):
        ys, xs = np.nonzero(door_mask(lv.terrain))
        out.extend(Cell(li, int(x), int(y)) for y, x in zip(ys, xs, strict=True))
    return out


def _terrain(state: FirewallState, c: Cell) -> int:
    return int(state.board.levels[c.level].terrain[c.y, c.x])


def doors_seen(state: FirewallState, side: str) -> list[Cell]:
    """The door squares ``side`` sees now (ruling F-233): those an active figure of it has
    line of sight to on its level (F-24: a door square itself never hides itself); a game
    master sees the whole table (F-196)."""
    cells = door_cells(state)
    if side not in state.players:
        return cells
    seen: set[Cell] = set()
    for li in {c.level for c in cells}:
        lookers = [f for f in state.figures.values()
                   if f.side == side and f.active and f.level == li and f.aboard is None]
        if not lookers:
            continue
        mask = door_mask(state.board.levels[li].terrain)
        opaque = state.board.opaque(li)
        for f in lookers:
            grid = los_from(opaque, f.cell, mask, mode="supercover")
            seen.update(Cell(li, int(x), int(y)) for y, x in zip(*np.nonzero(grid), strict=True))
    return sorted(seen)


def remember_doors(state: FirewallState) -> None:
    """After every action: each side notes the doors it sees as they are now (F-233)."""
    cells = door_cells(state)
    if not cells:
        return
    for side in state.sides:
        notes = state.doors.get(side)
        if notes is None:
            # the map is public: at the start each side knows the doors as drawn
            notes = state.doors[side] = {(c.level, c.x, c.y): _terrain(state, c) for c in cells}
        for c in doors_seen(state, side):
            notes[(c.level, c.x, c.y)] = _terrain(state, c)


def doors_view(state: FirewallState, side: str) -> list[dict[str, object]]:
    """The side's doors for its view: every door of the map in the state it last saw it in
    (before any action, as the map draws it)."""
    notes = state.doors.get(side)
    cells = door_cells(state)
    out: list[dict[str, object]] = []
    for c in cells:
        spot = (c.level, c.x, c.y)
        known = notes.get(spot, _terrain(state, c)) if notes is not None else _terrain(state, c)
        out.append({"at": list(spot), "state": STATES[known]})
    return out


def _door_watchers(state: FirewallState, c: Cell) -> frozenset[str]:
    return frozenset(s for s in state.sides if c in doors_seen(state, s))


def _announce(state: FirewallState, f: Figure, c: Cell, new: str, log: EventLog,
              extra: dict[str, object] | None = None) -> None:
    """Ruling F-234: a door's change goes to the actor's side and every side that sees the
    door square now; a side that may not name the actor hears it unnamed, and only the
    actor's side hears its dice."""
    audience = _door_watchers(state, c) | {f.side}
    known = side_known(state)
    data: dict[str, object] = {"figure": f.id, "at": [c.level, c.x, c.y], "state": new,
                               **(extra or {})}
    views: dict[str, dict[str, object]] = {}
    for s in audience:
        if s == f.side:
            continue
        copy = {k: v for k, v in data.items() if k not in ("dice", "result")}
        if f.id not in known.get(s, set()):
            copy["figure"] = None
        views[s] = copy
    log.emit("door", data, audience, views)


def passed_squares(start: tuple[int, int], waypoints: tuple[tuple[int, int], ...],
                   end: tuple[int, int]) -> list[tuple[int, int]]:
    """The route squares a figure crossed to reach ``end`` (its last visit on the route); none
    when it did not leave its square."""
    squares = [c for c, _ in route_squares(start, waypoints)]
    if end == start or end not in squares:
        return []
    last = len(squares) - 1 - squares[::-1].index(end)
    return squares[: last + 1]


def open_on_route(state: FirewallState, f: Figure, start: tuple[int, int],
                  waypoints: tuple[tuple[int, int], ...], log: EventLog) -> None:
    """Ruling F-230: every closed door a move crossed on its way to where it stopped opens as
    the figure goes through, and stays open; a door the figure never reached stays shut."""
    for xy in passed_squares(start, waypoints, f.cell):
        c = Cell(f.level, *xy)
        if state.board.terrain(c) is Terrain.DOOR_CLOSED:
            state.board.set_terrain(c, Terrain.DOOR_OPEN)
            _announce(state, f, c, "open", log, {"by": "move"})


# -- the door action (F-231, F-232) ----------------------------------------------------------

def _held(state: FirewallState, c: Cell) -> bool:
    return any(g.level == c.level and g.cell == (c.x, c.y) and g.status in ON_TABLE
               for g in state.figures.values())


def door_problem(state: FirewallState, f: Figure, c: Cell, to: str,
                 by: str | None = None) -> str | None:
    """Why ``f`` may not open, close, force or pick the door at ``c`` now, or ``None``."""
    if f.move_used or f.failed_this_turn:
        return f"{f.id} has no Movement action left this Turn"
    if to not in TARGETS:
        return f"a door is set 'open' or 'closed', not {to!r}"
    if by is not None and by not in WAYS:
        return f"a locked door is opened by 'force' or 'pick', not {by!r}"
    board = state.board
    if not board.in_bounds(c) or board.terrain(c) not in (
            Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN, Terrain.DOOR_LOCKED):
        return f"there is no door at {c.level}:{c.x},{c.y}"
    if c.level != f.level or (c.x, c.y) == f.cell or not within(f.cell, (c.x, c.y), NEAR_CM):
        return f"{f.id} must stand beside the door (within 2 cm on its level, F-231)"
    if f.climb_to is not None or f.riding or f.carrying is not None:
        return f"{f.id} needs its hands and feet free to work a door (F-231)"
    kind = board.terrain(c)
    if by == "pick" and (to != "open" or kind is not Terrain.DOOR_LOCKED):
        return "only a locked door's lock is picked (F-242)"
    if by == "pick" and skill_level(f, "intrusion") < 1:
        return f"{f.id} has no Intrusion skill to pick a lock (F-242)"
    if to == "open":
        if kind is Terrain.DOOR_OPEN:
            return "that door is already open"
        if kind is Terrain.DOOR_LOCKED and not _aware(state, f):
            return "opening a locked door is a task: a team not yet aware only walks (F-16)"
        return None
    if kind is not Terrain.DOOR_OPEN:
        return "that door is not open"
    if _held(state, c):
        return "a figure stands in the doorway: the door cannot be closed (F-231)"
    return None


def _spot(action: Action) -> Cell:
    at = action.get("at")
    return Cell(int(at[0]), int(at[1]), int(at[2]))


def door_options(state: FirewallState, side: str) -> Iterable[Action]:
    cells = door_cells(state)
    out: list[Action] = []
    if not cells:
        return out
    for f in team_figures(state, side):
        for c in cells:
            if c.level != f.level or not within(f.cell, (c.x, c.y), NEAR_CM):
                continue
            for to in TARGETS:
                if door_problem(state, f, c, to) is None:
                    forcing = state.board.terrain(c) is Terrain.DOOR_LOCKED
                    out.append(Action.make(side, "door", figure=f.id, at=[c.level, c.x, c.y],
                                           to=to, hint={"role": "door", "force": forcing}))
            if door_problem(state, f, c, "open", "pick") is None:
                out.append(Action.make(side, "door", figure=f.id, at=[c.level, c.x, c.y],
                                       to="open", by="pick", hint={"role": "door"}))
    return out


def check_door(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    by = action.get("by")
    problem = door_problem(state, f, _spot(action), str(action.get("to")),
                           None if by is None else str(by))
    if problem is not None:
        raise IllegalActionError(problem)


def door(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Rulings F-231, F-232: opening or closing an unlocked door beside the figure is a
    Movement action without a roll; breaking down a locked one is a §6.7 task (one Gutz roll,
    the leader's bonus and movement drugs, no clutter; S or CS breaks it open, CS +1, F
    nothing, CF −1, F or CF ends the figure's Turn), no roll for a figure with Strength."""
    f = state.figures[str(action.get("figure"))]
    c = _spot(action)
    to = str(action.get("to"))
    f.move_used = True
    state.last = (f.id, "door", "")
    if to == "closed":
        state.board.set_terrain(c, Terrain.DOOR_CLOSED)
        _announce(state, f, c, "closed", log)
        return
    if state.board.terrain(c) is not Terrain.DOOR_LOCKED:
        state.board.set_terrain(c, Terrain.DOOR_OPEN)
        _announce(state, f, c, "open", log)
        return
    if action.get("by") == "pick":
        _pick(state, f, c, chance, log)
        return
    if int(f.skills.get("strength", 0)) >= 1:
        state.board.set_terrain(c, Terrain.DOOR_OPEN)  # §16.2: a mundane feat, no roll
        _announce(state, f, c, "open", log, {"forced": True, "result": "S", "dice": []})
        return
    roll = task_roll(state, f, chance, f"{f.id} breaks down a door", frozenset({f.side}))
    if roll.result in ("S", "CS") and f.active:
        state.board.set_terrain(c, Terrain.DOOR_OPEN)
    new = STATES[int(state.board.terrain(c))]
    _announce(state, f, c, new, log,
              {"forced": True, "result": roll.result, "dice": list(roll.dice)})



def _pick(state: FirewallState, f: Figure, c: Cell, chance: Chance, log: EventLog) -> None:
    """Ruling F-242: Intrusion picks the lock: the skill roll of §16.1 at the figure's level
    (in combat when its team is aware) with the leader's bonus and movement drugs, no clutter.
    S or CS leaves the door closed and unlocked (a quiet way in: it stays shut until opened),
    CS +1; F nothing; CF −1; F or CF ends the figure's Turn."""
    roll = skill_use(state, f, "intrusion", task_modifier(state, f), chance,
                     f"{f.id} picks a lock", frozenset({f.side}))
    if roll.result in ("S", "CS") and f.active:
        state.board.set_terrain(c, Terrain.DOOR_CLOSED)
    new = STATES[int(state.board.terrain(c))]
    _announce(state, f, c, new, log,
              {"picked": True, "result": roll.result, "dice": list(roll.dice)})
