"""Demolition charges (digest 12.1; rulings C-33, C-45, C-96, C-100): the plant move, paid over
activations, with its timer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.characters import skill_chance
from killhouse.rulesets.commando.devices import TIMER_MAX, Live, active_man, count_of, free, use_one
from killhouse.rulesets.commando.dice import percent_check
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.notes import note_skill

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState


def demolition_cost(man: ManState) -> int:
    """Demolitions: 150 − rating TP, spread over activations (C-45, C-5)."""
    return 150 - man.ratings.skills["demolitions"].rating



def plant_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Set a demolition charge he carries in his square, timer 0–5 turns (C-33); a man with
    the Demolitions skill only (C-45)."""
    man = active_man(state)
    if man is None or not free(man) or "demolitions" not in man.ratings.skills:
        return
    if count_of(man, "demolition") == 0 or man.tp <= 0:
        return
    if man.task is not None and man.task.startswith("demolition") and state.tasks_done:
        return  # ruling C-5: a task carried over must be continued first thing
    for timer in range(TIMER_MAX + 1):
        yield Action.make(side, "plant", figure=man.id, timer=timer)



def do_plant(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    timer = int(action.get("timer"))
    at = state.pos[man.id]
    task = f"demolition@{at.level},{at.x},{at.y}"
    cost = demolition_cost(man)
    if man.task == task and state.ordnance.work.get(man.id) != state.turn - 1:
        # ruling C-100 (C-5): work not continued first thing in his next activation is lost
        man.task, man.task_paid = None, 0
    state.ordnance.work[man.id] = state.turn
    done = man.work_on(task, cost)
    audience = flow.audience_of(state, man.id)
    if not done:
        log.emit("plant", {"figure": man.id, "paid": man.task_paid, "cost": cost,
                           "done": False}, frozenset({man.side}))
        flow.after_task(state, log)
        return
    skill = man.ratings.skills["demolitions"]
    pct = skill_chance("demolitions", skill.rating, man.ratings.hero_skill())  # min 35 (C-45)
    ok = percent_check(chance, pct, "skill demolitions", frozenset({man.side}))
    note_skill(man.id, "demolitions", ok)  # for the campaign (digest 14 step 3)
    o = state.ordnance
    if ok:  # ruling C-96: a failed roll wastes the TP, not the charge
        use_one(man, "demolition")
        o.live.append(Live(o.next_id("c"), "demolition", at, man.side, man.id, o.seq, timer))
    log.emit("plant", {"figure": man.id, "paid": cost, "cost": cost, "done": True,
                       "set": ok, "timer": timer, "chance": pct}, frozenset({man.side}))
    if audience is None:
        log.emit("works", {"figure": man.id}, frozenset({state.enemy(man.side)}))
    flow.after_task(state, log)
