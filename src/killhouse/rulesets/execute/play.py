"""The checks and resolutions of Execute's moves (declared in ``flow.py``): a check raises
``IllegalActionError`` with the reason before anything changes; a resolution changes the
state, asks ``chance`` for every die and emits the events."""

from __future__ import annotations

from collections.abc import Callable

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import chebyshev
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute import combat, movement, tasks, turns, victory
from killhouse.rulesets.execute.actions import (
    MAX_NOTES,
    MAX_TEXT,
    legal,
    loadout_listed,
    move_listed,
)
from killhouse.rulesets.execute.build import (
    MAX_NAME,
    custom_agent,
    custom_card_problem,
    pool_key,
    recruit_figure,
)
from killhouse.rulesets.execute.combat import can_see
from killhouse.rulesets.execute.news import tell
from killhouse.rulesets.execute.state import (
    AGENT,
    FIRING,
    GRENADES,
    MOVEMENT,
    RELEASED,
    SETUP,
    ExecuteState,
    weapon_id,
)
from killhouse.rulesets.execute.tables import STATS, tables
from killhouse.rulesets.execute.vision import refresh

#: a check refuses an action with a reason; a resolution carries it out (see ``flow.py``)
Check = Callable[[ExecuteState, Action], None]
Resolve = Callable[[ExecuteState, Action, Chance, EventLog], None]

# -- validation -----------------------------------------------------------------------------


def with_defaults(state: ExecuteState, action: Action) -> Action:
    """``action`` with its optional arguments filled in: a loadout that leaves out the
    grenades keeps the agent's count (E-67)."""
    if action.kind == "loadout" and action.get("grenades") is None:
        agent = state.figures.get(str(action.get("figure")))
        if agent is not None:
            return Action.make(action.side, action.kind, grenades=agent.grenades,
                               **{k: v for k, v in action.args})
    return action


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
    if action.kind == "fire" and state.phase == FIRING:
        return f"{fid!r} has no line of sight to a target {action.get('target')!r} (E-12)"
    if action.kind not in kinds:
        return (
            f"{action.kind!r} is not possible in the {state.phase} step; "
            f"possible: {', '.join(kinds)}"
        )
    if action.kind == "move":
        to = action.get("to")
        if isinstance(to, tuple) and len(to) == 3 and Cell(*to) in movement.windows(state):
            return f"{list(to)} is a window: figures climb through it but do not stop in it (E-66)"
        return f"{to} is not a free square {fid!r} can reach this turn (E-2 … E-5)"
    return f"{action} is not a legal choice now"


def check_text(state: ExecuteState, action: Action) -> None:
    text = action.get("text", "")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise IllegalActionError(f"text must be a string of at most {MAX_TEXT} characters")
    if not any(a.kind == action.kind for a in legal(state, action.side)):
        if action.kind == "note":
            raise IllegalActionError(f"plan notes are written in planning (at most {MAX_NOTES})")
        raise IllegalActionError(
            f"talk is possible only in negotiation, up to {state.options.max_messages} messages"
        )


def check_loadout(state: ExecuteState, action: Action) -> None:
    """A loadout must be one of those listed (its grenades filled in when left out)."""
    if action.side != state.fbi or not loadout_listed(state, with_defaults(state, action).args):
        raise IllegalActionError(why_not(state, action))


def check_move(state: ExecuteState, action: Action) -> None:
    """A move to a listed destination, or along a route of waypoints (5.2, E-63)."""
    if action.get("via"):
        check_route(state, action)
    elif not move_listed(state, action.side, action.args):
        raise IllegalActionError(why_not(state, action))


def stats_of(action: Action) -> list[object]:
    """A custom card's six stats, in card order, as the action gives them."""
    return [action.get(s) for s in STATS]


def check_custom(state: ExecuteState, action: Action) -> None:
    """A custom agent (E-36, E-67): planning, room on the roster, a card built to E-33."""
    if not any(a.kind == "recruit_custom" for a in legal(state, action.side)):
        raise IllegalActionError(
            f"custom agents are built in planning while the roster holds fewer than "
            f"{state.options.fbi_count} agents (E-36)"
        )
    name = action.get("name")
    if name is not None and (not isinstance(name, str) or not 0 < len(name) <= MAX_NAME):
        raise IllegalActionError(f"name must be a string of 1 to {MAX_NAME} characters")
    problem = custom_card_problem(stats_of(action))
    if problem:
        raise IllegalActionError(problem)


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


def check_route(state: ExecuteState, action: Action) -> None:
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


def check_throw(state: ExecuteState, action: Action) -> None:
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


def resolve_bomb_timer(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    bomb = state.bombs[str(action.get("bomb"))]
    bomb.mode, bomb.explode_turn, bomb.holder = "timer", int(action.get("turn")), None
    log.emit(
        "bomb_set",
        {"bomb": bomb.id, "mode": "timer", "turn": bomb.explode_turn},
        frozenset({state.terrorists}),
    )


def resolve_bomb_remote(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    bomb = state.bombs[str(action.get("bomb"))]
    bomb.mode, bomb.explode_turn, bomb.holder = "remote", None, str(action.get("holder"))
    log.emit(
        "bomb_set",
        {"bomb": bomb.id, "mode": "remote", "holder": bomb.holder},
        frozenset({state.terrorists}),
    )


def resolve_ready(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    if state.phase == SETUP:
        log.emit("setup_done", {"side": state.terrorists}, None)
        turns.finish_setup(state, chance, log)
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
    turns.begin_combat(state, log)


def resolve_talk(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    state.messages[action.side] = state.messages.get(action.side, 0) + 1
    log.emit("message", {"side": action.side, "text": str(action.get("text", ""))}, None)


def resolve_release(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling E-35: a released hostage leaves the map and counts as rescued."""
    hostage = state.figures[str(action.get("hostage"))]
    at = cell_json(hostage.pos)
    hostage.status, hostage.pos, hostage.leader = RELEASED, None, None
    state.released.append(hostage.id)
    state.known[state.fbi].add(hostage.id)
    state.touch()
    log.emit("released", {"hostage": hostage.id, "name": hostage.name, "from": at}, None)


def resolve_meet_demands(
    state: ExecuteState, action: Action, chance: Chance, log: EventLog
) -> None:
    state.conceded = True
    log.emit("conceded", {"side": state.fbi, "turn": state.turn}, None)
    victory.check(state, end_of_turn=False)
    turns.finish(state, log)


def resolve_end_negotiation(
    state: ExecuteState, action: Action, chance: Chance, log: EventLog
) -> None:
    state.negotiation_ended.add(action.side)
    log.emit("negotiation_ended", {"side": action.side}, None)
    if len(state.negotiation_ended) == 2:
        turns.finish_negotiation(state, log)


def resolve_recruit(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    key = str(action.get("card"))
    state.pool.remove(key)
    agent = state.benched.pop(key, None)
    if agent is None:
        agent = recruit_figure(state, key)
    state.figures[agent.id] = agent
    state.known[state.fbi].add(agent.id)
    log.emit("recruited", {"figure": agent.id, "card": agent.card.id}, frozenset({state.fbi}))


def resolve_dismiss(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    agent = state.figures.pop(str(action.get("figure")))
    key = pool_key(agent)
    if agent.custom:
        state.benched[key] = agent
    state.pool.append(key)
    log.emit("dismissed", {"figure": agent.id}, frozenset({state.fbi}))


def resolve_loadout(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    agent = state.figures[str(action.get("figure"))]
    agent.weapon, agent.armour = weapon_id(action.get("weapon")), int(action.get("armour"))
    agent.grenades = int(action.get("grenades", agent.grenades))
    log.emit(
        "loadout",
        {"figure": agent.id, "weapon": agent.weapon, "armour": agent.armour,
         "grenades": agent.grenades},
        frozenset({state.fbi}),
    )


def resolve_recruit_custom(
    state: ExecuteState, action: Action, chance: Chance, log: EventLog
) -> None:
    agent = custom_agent(state, [int(str(v)) for v in stats_of(action)], action.get("name"))
    state.figures[agent.id] = agent
    state.known[state.fbi].add(agent.id)
    log.emit("recruited", {"figure": agent.id, "card": "custom", "stats": agent.card.to_json()},
             frozenset({state.fbi}))


def resolve_note(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    state.notes.append(str(action.get("text", "")))
    log.emit("note", {"text": state.notes[-1]}, frozenset({state.fbi}))


# -- combat ---------------------------------------------------------------------------------


def resolve_continue(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    turns.begin_phases(state, chance, log)


def resolve_throw(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    figure = state.figures[str(action.get("figure"))]
    state.acted.add(figure.id)
    state.threw_this_slot = True
    combat.throw(state, figure, _cell(action.get("at")), chance, log)


def resolve_detonate(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling E-23: the active holder sets off a remote bomb in the terrorists' grenade slot."""
    bomb = state.bombs[str(action.get("bomb"))]
    if bomb.state != "armed":
        bomb.terrorists_think_armed = False  # ruling E-55: a dud, it was disarmed unseen
        log.emit("dud", {"bomb": bomb.id}, frozenset({state.terrorists}))
        return
    combat.explode(state, bomb.id, log)
    refresh(state, log)
    turns.after_explosion(state, log)


def resolve_task(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    agent = state.figures[str(action.get("figure"))]
    state.acted.add(agent.id)
    tasks.attempt_device(state, agent, state.devices[str(action.get("device"))], chance, log)


def resolve_disarm(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    agent = state.figures[str(action.get("figure"))]
    state.acted.add(agent.id)
    if not tasks.attempt_disarm(state, agent, state.bombs[str(action.get("bomb"))], chance, log):
        refresh(state, log)
        turns.after_explosion(state, log)


def resolve_move(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    figure = state.figures[str(action.get("figure"))]
    state.acted.add(figure.id)
    state.last_mover = figure.id if figure.kind == AGENT else None
    dest = _cell(action.get("to"))
    if action.get("via"):
        path, cost = movement.route(state, figure, dest, _waypoints(action.get("via")))
        movement.move(state, figure, dest, log, path, cost)
        return
    movement.move(state, figure, dest, log)


def resolve_claim(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    movement.claim(
        state,
        state.figures[str(action.get("figure"))],
        state.figures[str(action.get("hostage"))],
        log,
    )


def resolve_fire(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    figure = state.figures[str(action.get("figure"))]
    state.acted.add(figure.id)
    combat.fire(state, figure, state.figures[str(action.get("target"))], chance, log)


def resolve_done(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    tell(
        state,
        log,
        "slot_done",
        {"side": action.side, "phase": state.phase, "turn": state.turn},
        state.side_ids(),
    )
    turns.end_slot(state, chance, log)


def resolve_concede(state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
    """X1 at the start of a turn: the FBI meets the demands."""
    resolve_meet_demands(state, action, chance, log)
