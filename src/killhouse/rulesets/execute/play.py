"""Applying one action: validate first (``IllegalActionError``, nothing changed), then resolve."""

from __future__ import annotations

from collections.abc import Callable

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import chebyshev
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute import combat, flow, movement, tasks, victory
from killhouse.rulesets.execute.actions import MAX_NOTES, MAX_TEXT, legal
from killhouse.rulesets.execute.build import pool_key, recruit_figure
from killhouse.rulesets.execute.combat import can_see
from killhouse.rulesets.execute.news import tell
from killhouse.rulesets.execute.state import (
    AGENT,
    GRENADES,
    MOVEMENT,
    RELEASED,
    SETUP,
    ExecuteState,
)
from killhouse.rulesets.execute.tables import tables
from killhouse.rulesets.execute.vision import refresh

Handler = Callable[[ExecuteState, Action, Chance, EventLog], None]


def apply(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    """Validate ``action`` against the rules, then resolve it and refresh what each side sees."""
    if state.result is not None:
        raise IllegalActionError("the game is over")
    waiting = [d.side for d in flow.pending(state)]
    if action.side not in waiting:
        raise IllegalActionError(
            f"side {action.side!r} is not to decide now; waiting for {', '.join(waiting)}"
        )
    handler = HANDLERS.get(action.kind)
    if handler is None:
        raise IllegalActionError(f"no action {action.kind!r} in Execute")
    if action.kind == "throw":
        _check_throw(state, action)
    elif action.kind == "move" and action.get("via"):
        _check_route(state, action)
    elif action.kind in ("talk", "note"):
        _check_text(state, action)
    elif action not in legal(state, action.side):
        raise IllegalActionError(why_not(state, action))
    handler(state, action, chance, log)
    refresh(state, log)


# -- validation -----------------------------------------------------------------------------


def why_not(state: ExecuteState, action: Action) -> str:
    """A reason an action is not legal now, as specific as the state allows."""
    kinds = sorted({a.kind for a in legal(state, action.side)})
    fid = action.get("figure")
    if fid is not None:
        figure = state.figures.get(str(fid))
        if figure is None or figure.side != action.side:
            return f"{action.side!r} has no figure {fid!r}"
        if not figure.active:
            return f"{fid!r} is {figure.status} and takes no actions (ruling E-15)"
        if fid in state.acted:
            return f"{fid!r} has already acted in this phase (ruling E-10)"
    if action.kind not in kinds:
        return (
            f"{action.kind!r} is not possible in the {state.phase} step; "
            f"possible: {', '.join(kinds)}"
        )
    if action.kind == "move":
        return f"{action.get('to')} is not a free square {fid!r} can reach this turn (E-2 … E-5)"
    if action.kind == "fire":
        return f"{fid!r} has no line of sight to a target {action.get('target')!r} (E-12)"
    return f"{action} is not a legal choice now"


def _check_text(state: ExecuteState, action: Action) -> None:
    text = action.get("text", "")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise IllegalActionError(f"text must be a string of at most {MAX_TEXT} characters")
    if not any(a.kind == action.kind for a in legal(state, action.side)):
        if action.kind == "note":
            raise IllegalActionError(f"plan notes are written in planning (at most {MAX_NOTES})")
        raise IllegalActionError(
            f"talk is possible only in negotiation, up to {state.options.max_messages} messages"
        )


def _cell(value: object) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise IllegalActionError(f"expected a square [level, x, y], found {value!r}")
    return Cell(int(value[0]), int(value[1]), int(value[2]))


def _waypoints(value: object) -> list[Cell]:
    if not isinstance(value, list | tuple):
        raise IllegalActionError(f"via must be a list of squares [level, x, y], found {value!r}")
    return [_cell(v) for v in value]


def _check_route(state: ExecuteState, action: Action) -> None:
    """A move with waypoints (5.2): the figure may move now, and the route is legal."""
    fid = str(action.get("figure"))
    figure = state.figures.get(fid)
    if state.phase != MOVEMENT:
        raise IllegalActionError(f"figures move in the movement phase, not {state.phase}")
    if figure is None or figure.side != action.side:
        raise IllegalActionError(f"{action.side!r} has no figure {fid!r}")
    if not figure.active:
        raise IllegalActionError(f"{fid!r} is {figure.status} and cannot move (ruling E-15)")
    if fid in state.acted:
        raise IllegalActionError(f"{fid!r} has already acted in this phase (ruling E-10)")
    movement.route(state, figure, _cell(action.get("to")), _waypoints(action.get("via")))


def _check_throw(state: ExecuteState, action: Action) -> None:
    """Ruling E-25: an active figure with a grenade, any square on its level, 1-15, in LOS."""
    if state.phase != GRENADES:
        raise IllegalActionError(f"grenades are thrown in the grenade phase, not {state.phase}")
    fid = str(action.get("figure"))
    figure = state.figures.get(fid)
    if figure is None or figure.side != action.side:
        raise IllegalActionError(f"{action.side!r} has no figure {fid!r}")
    if not figure.active or figure.pos is None:
        raise IllegalActionError(f"{fid!r} cannot throw: it is {figure.status} or off-map")
    if fid in state.acted:
        raise IllegalActionError(f"{fid!r} has already thrown this turn (ruling E-10)")
    if figure.grenades <= 0:
        raise IllegalActionError(f"{fid!r} has no grenades left (ruling E-28)")
    cell = _cell(action.get("at"))
    if not state.board.in_bounds(cell) or cell.level != figure.pos.level:
        raise IllegalActionError(f"{cell_json(cell)} is not a square on {fid!r}'s level (E-25)")
    lv = state.board.levels[cell.level]
    if state.board.opaque(cell.level)[cell.y, cell.x] or lv.terrain[cell.y, cell.x] == 0:
        raise IllegalActionError(f"{cell_json(cell)} is a wall, a closed door or off the map")
    g = tables().grenade
    d = chebyshev(figure.pos, cell)
    if not g["min_distance"] <= d <= g["max_distance"]:
        raise IllegalActionError(
            f"a throw goes {g['min_distance']} to {g['max_distance']} squares; this is {d} (E-25)"
        )
    if not can_see(state, figure.pos, cell):
        raise IllegalActionError(f"{fid!r} has no line of sight to {cell_json(cell)} (E-25)")


# -- pre-game -------------------------------------------------------------------------------


def _bomb_timer(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    bomb = state.bombs[str(action.get("bomb"))]
    bomb.mode, bomb.explode_turn, bomb.holder = "timer", int(action.get("turn")), None
    log.emit(
        "bomb_set",
        {"bomb": bomb.id, "mode": "timer", "turn": bomb.explode_turn},
        frozenset({state.terrorists}),
    )


def _bomb_remote(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    bomb = state.bombs[str(action.get("bomb"))]
    bomb.mode, bomb.explode_turn, bomb.holder = "remote", None, str(action.get("holder"))
    log.emit(
        "bomb_set",
        {"bomb": bomb.id, "mode": "remote", "holder": bomb.holder},
        frozenset({state.terrorists}),
    )


def _ready(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    if state.phase == SETUP:
        log.emit("setup_done", {"side": state.terrorists}, None)
        flow.finish_setup(state, chance, log)
        return
    roster = [
        {
            "id": a.id,
            "card": a.card.id,
            "weapon": a.weapon,
            "armour": a.armour,
            "grenades": a.grenades,
        }
        for a in sorted(state.agents(), key=lambda f: f.id)
    ]
    log.emit("planned", {"roster": roster, "notes": list(state.notes)}, frozenset({state.fbi}))
    flow.begin_combat(state, log)


def _talk(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    state.messages[action.side] = state.messages.get(action.side, 0) + 1
    log.emit("message", {"side": action.side, "text": str(action.get("text", ""))}, None)


def _release(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling E-35: a released hostage leaves the map and counts as rescued."""
    hostage = state.figures[str(action.get("hostage"))]
    at = cell_json(hostage.pos)
    hostage.status, hostage.pos, hostage.leader = RELEASED, None, None
    state.released.append(hostage.id)
    state.known[state.fbi].add(hostage.id)
    state.touch()
    log.emit("released", {"hostage": hostage.id, "name": hostage.name, "from": at}, None)


def _meet_demands(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    state.conceded = True
    log.emit("conceded", {"side": state.fbi, "turn": state.turn}, None)
    victory.check(state, end_of_turn=False)
    flow.finish(state, log)


def _end_negotiation(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    state.negotiation_ended.add(action.side)
    log.emit("negotiation_ended", {"side": action.side}, None)
    if len(state.negotiation_ended) == 2:
        flow.finish_negotiation(state, log)


def _recruit(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    key = str(action.get("card"))
    state.pool.remove(key)
    agent = state.benched.pop(key, None)
    if agent is None:
        agent = recruit_figure(state, key)
    state.figures[agent.id] = agent
    state.known[state.fbi].add(agent.id)
    log.emit("recruited", {"figure": agent.id, "card": agent.card.id}, frozenset({state.fbi}))


def _dismiss(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    agent = state.figures.pop(str(action.get("figure")))
    key = pool_key(agent)
    if agent.custom:
        state.benched[key] = agent
    state.pool.append(key)
    log.emit("dismissed", {"figure": agent.id}, frozenset({state.fbi}))


def _loadout(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    agent = state.figures[str(action.get("figure"))]
    agent.weapon, agent.armour = str(action.get("weapon")), int(action.get("armour"))
    log.emit(
        "loadout",
        {"figure": agent.id, "weapon": agent.weapon, "armour": agent.armour},
        frozenset({state.fbi}),
    )


def _note(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    state.notes.append(str(action.get("text", "")))
    log.emit("note", {"text": state.notes[-1]}, frozenset({state.fbi}))


# -- combat ---------------------------------------------------------------------------------


def _continue(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    flow.begin_phases(state, chance, log)


def _throw(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    figure = state.figures[str(action.get("figure"))]
    state.acted.add(figure.id)
    state.threw_this_slot = True
    combat.throw(state, figure, _cell(action.get("at")), chance, log)


def _detonate(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling E-23: the active holder sets off a remote bomb in the terrorists' grenade slot."""
    bomb = state.bombs[str(action.get("bomb"))]
    if bomb.state != "armed":
        bomb.terrorists_think_armed = False  # ruling E-55: a dud, it was disarmed unseen
        log.emit("dud", {"bomb": bomb.id}, frozenset({state.terrorists}))
        return
    combat.explode(state, bomb.id, log)
    refresh(state, log)
    flow.after_explosion(state, log)


def _task(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    agent = state.figures[str(action.get("figure"))]
    state.acted.add(agent.id)
    tasks.attempt_device(state, agent, state.devices[str(action.get("device"))], chance, log)


def _disarm(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    agent = state.figures[str(action.get("figure"))]
    state.acted.add(agent.id)
    if not tasks.attempt_disarm(state, agent, state.bombs[str(action.get("bomb"))], chance, log):
        refresh(state, log)
        flow.after_explosion(state, log)


def _move(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    figure = state.figures[str(action.get("figure"))]
    state.acted.add(figure.id)
    state.last_mover = figure.id if figure.kind == AGENT else None
    dest = _cell(action.get("to"))
    if action.get("via"):
        path, cost = movement.route(state, figure, dest, _waypoints(action.get("via")))
        movement.move(state, figure, dest, log, path, cost)
        return
    movement.move(state, figure, dest, log)


def _claim(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    movement.claim(
        state,
        state.figures[str(action.get("figure"))],
        state.figures[str(action.get("hostage"))],
        log,
    )


def _fire(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    figure = state.figures[str(action.get("figure"))]
    state.acted.add(figure.id)
    combat.fire(state, figure, state.figures[str(action.get("target"))], chance, log)


def _done(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    tell(
        state,
        log,
        "slot_done",
        {"side": action.side, "phase": state.phase, "turn": state.turn},
        state.side_ids(),
    )
    flow.end_slot(state, chance, log)


def _concede(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    _meet_demands(state, action, chance, log)


HANDLERS: dict[str, Handler] = {
    "bomb_timer": _bomb_timer,
    "bomb_remote": _bomb_remote,
    "ready": _ready,
    "talk": _talk,
    "release": _release,
    "meet_demands": _meet_demands,
    "end_negotiation": _end_negotiation,
    "recruit": _recruit,
    "dismiss": _dismiss,
    "loadout": _loadout,
    "note": _note,
    "continue": _continue,
    "concede": _concede,
    "throw": _throw,
    "detonate": _detonate,
    "task": _task,
    "disarm": _disarm,
    "move": _move,
    "claim": _claim,
    "fire": _fire,
    "done": _done,
}
