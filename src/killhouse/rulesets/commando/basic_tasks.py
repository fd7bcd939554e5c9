"""The plain tasks of an activation (digest 5, 8.7; rulings C-6, C-27, C-37, C-62, C-121): a
step, going prone or standing up, plain fire, opening or closing a door and reloading, each
with its options and its resolution. The turn's helpers live in ``flow``, imported when a
task runs (``flow`` declares these moves)."""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.terrain import Terrain
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import doors, ground, h2h, morale, overwatch, tasks
from killhouse.rulesets.commando.men import ManState, Posture
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables


def landing(state: CommandoState, man: ManState, dx: int, dy: int) -> Cell:
    """Where a step lands: the next square, or, through a window, the square beyond it
    (ruling C-121: a man climbs through a window and never stops in it)."""
    at = state.pos[man.id]
    to = Cell(at.level, at.x + dx, at.y + dy)
    if state.board.in_bounds(to) and state.board.terrain(to) is Terrain.WINDOW:
        return Cell(at.level, to.x + dx, to.y + dy)
    return to


def carries_flamethrower(man: ManState) -> bool:
    """Ruling C-157: a flamethrower among his equipment costs +5 TP per square he moves
    (Task Point Cost Chart), whether or not it is the weapon in his hands."""
    return "flamethrower" in man.carried


def step_price(state: CommandoState, man: ManState, dx: int, dy: int) -> int:
    """C-6 on the map: terrain multiple and additive, roads along roads, elevation (C-120);
    through a window both steps, the window's +23 included (C-121); +5 a square with a
    flamethrower (C-157)."""
    at = state.pos[man.id]
    prone = man.posture is Posture.PRONE
    flamer = carries_flamethrower(man)
    to = Cell(at.level, at.x + dx, at.y + dy)
    cost = ground.step_tp(state.board, at, to, prone=prone, carrying_flamethrower=flamer)
    assert cost is not None
    beyond = landing(state, man, dx, dy)
    if beyond != to:
        more = ground.step_tp(state.board, to, beyond, prone=prone,
                              carrying_flamethrower=flamer)
        assert more is not None
        cost += more
    return cost


def can_land(state: CommandoState, man: ManState, dx: int, dy: int) -> bool:
    """The step's squares can be entered: through a window, the square beyond must be open
    ground, not another window (C-121)."""
    at = state.pos[man.id]
    to = Cell(at.level, at.x + dx, at.y + dy)
    if not ground.enterable(state.board, to):
        return False
    beyond = landing(state, man, dx, dy)
    return beyond == to or (ground.enterable(state.board, beyond)
                            and state.board.terrain(beyond) is not Terrain.WINDOW)


def step_options(state: CommandoState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.commando import flow

    if state.active_man is None:
        return
    man = flow.current(state)
    for name, (dx, dy) in flow.COMPASS.items():
        if not can_land(state, man, dx, dy):
            continue
        to = landing(state, man, dx, dy)
        if (flow.standable(state, to, man.id) or may_engage(state, man, to)) and \
                morale.step_allowed(state, man, to) and \
                man.tp + man.move_tp >= step_price(state, man, dx, dy):
            yield Action.make(side, "step", figure=man.id, dir=name, hint={"to": cell_json(to)})


def do_step(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = flow.current(state)
    dx, dy = flow.COMPASS[action.get("dir")]
    man.spend(step_price(state, man, dx, dy), movement=True)
    state.pos[man.id] = landing(state, man, dx, dy)
    man.moved_this_turn = True
    man.must_leave = False
    flow.note_sightings(state)
    log.emit("step", {"figure": man.id, "to": cell_json(state.pos[man.id])},
             flow.audience_of(state, man.id))
    crowd = [m for i, m in sorted(state.men.items())
             if state.pos[i] == state.pos[man.id] and m.active()]
    if any(m.side != man.side for m in crowd):
        # ruling C-37: entering an enemy's square engages everyone there and ends his
        # activation
        h2h.engage(crowd)
        man.tp = man.move_tp = 0
        log.emit("engaged", {"square": cell_json(state.pos[man.id]),
                             "men": [m.id for m in crowd]})
    flow.after_task(state, log)


def may_engage(state: CommandoState, man: ManState, to: Cell) -> bool:
    """Ruling C-37: a man may step into an enemy's square if his side has fewer than 2 men in
    action there; not a Preserving man (7.2) nor one who must leave an engagement (C-42)."""
    if man.preserving or man.must_leave or not ground.enterable(state.board, to):
        return False
    crowd = [m for i, m in state.men.items() if state.pos[i] == to and m.active()]
    if any(m.aloft for m in crowd if m.side != man.side):
        return False  # ruling C-188: a man up a tree cannot be engaged
    return any(m.side != man.side for m in crowd) and h2h.may_enter(crowd, man.side)


def posture_options(state: CommandoState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.commando import flow

    if state.active_man is None:
        return
    man = flow.current(state)
    t = tables().cost
    if man.posture is Posture.STANDING and man.tp >= t["fall_prone"]:
        yield Action.make(side, "posture", figure=man.id, to="prone")
    if man.posture is Posture.PRONE and man.tp >= t["stand_erect"]:
        yield Action.make(side, "posture", figure=man.id, to="standing")


def do_posture(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = flow.current(state)
    to = Posture(action.get("to"))
    man.spend(tables().cost["fall_prone" if to is Posture.PRONE else "stand_erect"])
    man.posture = to
    log.emit("posture", {"figure": man.id, "to": to.value}, flow.audience_of(state, man.id))
    flow.after_task(state, log)


def fire_options(state: CommandoState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.commando import flow

    if state.active_man is None:
        return
    man = flow.current(state)
    if flow.can_fire(man):
        for t in flow.targets(state, man):
            yield Action.make(side, "fire", figure=man.id, target=t)


def do_fire(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = flow.current(state)
    # ruling C-128: the target's side is asked about Mobile Overwatch before the fire resolves
    overwatch.declare_fire(state, man.id, action.get("target"), log)


def door_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Open or close an unlocked door next to him (C-62, 5 TP); not a door a man stands in."""
    from killhouse.rulesets.commando import flow

    if state.active_man is None:
        return
    man = flow.current(state)
    if man.tp < tables().cost["open_close_door"]:
        return
    at = state.pos[man.id]
    occupied = set(state.pos.values())
    for dx, dy in flow.COMPASS.values():
        door = Cell(at.level, at.x + dx, at.y + dy)
        if not state.board.in_bounds(door) or door in occupied:
            continue
        if state.board.terrain(door) in (Terrain.DOOR_OPEN, Terrain.DOOR_CLOSED):
            yield Action.make(side, "door", figure=man.id, at=cell_json(door))


def do_door(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = flow.current(state)
    door = Cell(*action.get("at"))
    now = doors.toggle_door(state.board, man, state.pos[man.id], door)
    flow.note_sightings(state)
    log.emit("door", {"figure": man.id, "at": cell_json(door),
                      "open": now is Terrain.DOOR_OPEN}, flow.audience_of(state, man.id))
    flow.after_task(state, log)


def reload_options(state: CommandoState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.commando import flow

    if state.active_man is None:
        return
    man = flow.current(state)
    weapon = man.in_hand or "pistol"
    if weapon in man.empty and man.tp >= tables().cost["reload"]:
        yield Action.make(side, "reload", figure=man.id)


def do_reload(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = flow.current(state)
    tasks.reload(man, man.in_hand or "pistol")
    log.emit("reload", {"figure": man.id}, flow.audience_of(state, man.id))
    flow.after_task(state, log)


def exchange_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Exchange weapons (22 TP): another firearm among his equipment into his hands (ruling
    C-160); a man engaged in hand-to-hand draws instead (C-41)."""
    from killhouse.rulesets.commando import flow

    if state.active_man is None:
        return
    man = flow.current(state)
    if man.engaged or man.tp < tables().cost["exchange_weapons"]:
        return
    held = man.in_hand or "pistol"
    for weapon in dict.fromkeys(man.carried):
        if weapon != held and weapon in tables().firearms:
            yield Action.make(side, "exchange", figure=man.id, weapon=weapon)


def do_exchange(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = flow.current(state)
    man.spend(tables().cost["exchange_weapons"])
    man.in_hand = str(action.get("weapon"))
    log.emit("exchange", {"figure": man.id, "weapon": man.in_hand},
             flow.audience_of(state, man.id))
    flow.after_task(state, log)
