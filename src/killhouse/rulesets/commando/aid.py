"""Revive unconscious man (digest 11, 5.1; rulings C-5, C-52, C-100, C-158): 150 TP spent by
a man in the same or an adjacent square, over as many activations as it takes; when complete
the patient's E is 1 (seriously wounded) and he is back in action."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.wounds import Wound

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState


def task_key(patient: str) -> str:
    return f"revive {patient}"


def patients(state: CommandoState, man: str) -> list[str]:
    """Ruling C-158: incapacitated men of his own side in his square or next to it, on his
    level (the dead are beyond help)."""
    me, at = state.men[man], state.pos[man]
    out = []
    for ident, other in sorted(state.men.items()):
        there = state.pos[ident]
        if ident == man or other.side != me.side or other.wound() is not Wound.INCAPACITATED:
            continue
        if there.level == at.level and distance(there.x - at.x, there.y - at.y, 0) <= 1:
            out.append(ident)
    return out


def may_work(state: CommandoState, man: str, patient: str) -> bool:
    """Ruling C-100 (C-5): work carried over must be continued first thing in his activation
    of the next turn; otherwise it starts afresh (and only as his first task is it carried)."""
    m = state.men[man]
    return m.task == task_key(patient) and state.tasks_done == 0 and \
        state.ordnance.work.get(man) == state.turn - 1


def revive_options(state: CommandoState, side: str) -> Iterable[Action]:
    if state.active_man is None:
        return
    man = state.men[state.active_man]
    if man.tp <= 0 or man.engaged or man.must_leave:
        return
    for patient in patients(state, man.id):
        yield Action.make(side, "revive", figure=man.id, patient=patient)


def do_revive(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = flow.current(state)
    patient = str(action.get("patient"))
    if patient not in patients(state, man.id):  # checked by the options
        raise IllegalActionError(f"{patient} is not an unconscious friend next to {man.id}")
    key = task_key(patient)
    if man.task == key and not may_work(state, man.id, patient):
        man.task, man.task_paid = None, 0  # ruling C-100: the work done so far is lost
    cost = tables().cost["revive"]
    state.ordnance.work[man.id] = state.turn
    done = man.work_on(key, cost)
    if done:
        state.men[patient].revive()  # ruling C-52: E = 1, seriously wounded, in action
    log.emit("revive", {"figure": man.id, "patient": patient,
                        "paid": cost if done else man.task_paid, "cost": cost, "done": done,
                        "status": state.men[patient].wound().value},
             flow.audience_of(state, man.id))
    flow.after_task(state, log)
