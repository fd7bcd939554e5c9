"""Chart tasks that read the map: stairs and ladders (25 TP a level, digest 5.2), forcing a
locked door (25 TP, d100 ≤ 40 + CharMod(St)) and picking its lock (Safe-Cracking × 2 over 50 TP
that may span turns, C-5, C-62).

Options and resolutions for the flow in ``flow.py``; the turn's helpers are looked up there
when a task runs (``flow`` imports this module to declare the moves).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.terrain import Terrain
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import doors
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def stair_ends(state: CommandoState, at: Cell) -> list[Cell]:
    """The other ends of the stair or ladder links at his cell (one level each)."""
    out = {b for a, b in state.board.stairs.items() if a == at}
    out |= {a for a, b in state.board.stairs.items() if b == at}
    return sorted(out)


def climb_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Climb or go down a stairway or ladder: 25 TP, to a cell no enemy holds (digest 5.2)."""
    f = _flow()
    if state.active_man is None:
        return
    man = f.current(state)
    if man.tp < tables().cost["ladder_or_stairs"]:
        return
    for end in stair_ends(state, state.pos[man.id]):
        if f.standable(state, end, man.id):
            yield Action.make(side, "climb", figure=man.id, to=cell_json(end))


def do_climb(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    man.spend(tables().cost["ladder_or_stairs"])
    state.pos[man.id] = Cell(*action.get("to"))
    man.moved_this_turn = True
    f.note_sightings(state)
    log.emit("climb", {"figure": man.id, "to": cell_json(state.pos[man.id])},
             f.audience_of(state, man.id))
    f.after_task(state, log)


def locked_doors_next_to(state: CommandoState, at: Cell) -> list[Cell]:
    out = []
    for dx, dy in ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)):
        door = Cell(at.level, at.x + dx, at.y + dy)
        if state.board.in_bounds(door) and state.board.terrain(door) is Terrain.DOOR_LOCKED:
            out.append(door)
    return out


def force_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Force a locked door next to him: 25 TP, success or not (C-62, C-81)."""
    f = _flow()
    if state.active_man is None:
        return
    man = f.current(state)
    if man.tp < tables().cost["force_door"]:
        return
    for door in locked_doors_next_to(state, state.pos[man.id]):
        yield Action.make(side, "force", figure=man.id, at=cell_json(door))


def do_force(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    door = Cell(*action.get("at"))
    seen = f.audience_of(state, man.id)
    ok = doors.force_door(chance, state.board, man, state.pos[man.id], door, seen)
    f.note_sightings(state)
    log.emit("force-door", {"figure": man.id, "at": cell_json(door), "opened": ok}, seen)
    f.after_task(state, log)


def pick_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Pick a locked door's lock next to him: Safe-Cracking at multiple 2, 50 TP that may span
    activations (C-5, C-62); only a man with the skill (C-45)."""
    f = _flow()
    if state.active_man is None:
        return
    man = f.current(state)
    if "safe_cracking" not in man.ratings.skills or man.tp <= 0:
        return
    for door in locked_doors_next_to(state, state.pos[man.id]):
        yield Action.make(side, "pick", figure=man.id, at=cell_json(door))


def pick_key(door: Cell) -> str:
    return f"pick-lock {door.level},{door.x},{door.y}"


def do_pick(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    door = Cell(*action.get("at"))
    if state.tasks_done > 0:
        # ruling C-5: a multi-turn task continues first thing in an activation, or starts over
        man.task, man.task_paid = None, 0
    seen = f.audience_of(state, man.id)
    ok = doors.pick_lock(chance, state.board, man, state.pos[man.id], door, seen)
    log.emit("pick-lock", {"figure": man.id, "at": cell_json(door),
                      "paid": man.task_paid if ok is None else tables().cost_safe_cracking,
                      "opened": ok}, seen)
    f.after_task(state, log)
