"""Mobile Overwatch in play (digest 12.1, rulings C-128, C-129): when a man declares a fire
task at an enemy, the target's side is asked first whether he answers. He needs the skill, LOS
to the firer (who gives himself away by firing, C-86), not to be engaged, a loaded firearm and
fire cost + 9 TP; then the skill roll (a failure costs nothing). On success both fire tasks
are resolved simultaneously: each is rolled as if the other had not yet hit.

The question is asked at every fire task at a man in action, skill or not (ruling C-128, as
C-85 does for op fire), so its asking tells the firing side nothing: plain, aimed,
semi-automatic, spray and sniper's fire, and every launch (rulings C-150, C-151).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import JSON, Action
from killhouse.rulesets.commando import fire, morale
from killhouse.rulesets.commando.characters import skill_check
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.kit import Window

REACTION = "overwatch"


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def can_answer(state: CommandoState, target: str, firer: str) -> bool:
    """Whether the man fired at may try Mobile Overwatch against the firer (12.1)."""
    f = _flow()
    man = state.men[target]
    weapon = man.in_hand or "pistol"
    if "mobile_overwatch" not in man.ratings.skills or not man.active() or man.engaged:
        return False
    if weapon in man.empty or weapon not in tables().firearms:
        return False
    if man.tp < fire.fire_cost(weapon) + tables().extra["mobile_overwatch"]:
        return False
    a, b = state.pos[target], state.pos[firer]
    return bool(f.has_los(state, a, b)) and fire.base_chance(
        weapon, int(f.rng_between(a, b))) is not None and morale.fire_allowed(state, man, firer)


def declare_fire(state: CommandoState, firer: str, target: str, log: EventLog) -> None:
    """The active man declares a plain fire task: ask the target's side first (C-128)."""
    declare(state, firer, "fire", {"target": target}, [target])


def declare(state: CommandoState, firer: str, kind: str, args: dict[str, JSON],
            targets: Sequence[str]) -> None:
    """The active man declares a fire task or launch of ``kind``: the other side is asked
    before it resolves (rulings C-128, C-150, C-151); ``targets`` are the men it is at, who
    may answer. ``args`` are the task's arguments, kept to resolve it when answered."""
    f = _flow()
    side = state.enemy(state.men[firer].side)
    f.FLOW.open(state, REACTION, [side], {
        "firer": firer, "kind": kind, "args": args,
        "targets": sorted(dict.fromkeys(targets))})


def options(state: CommandoState, side: str) -> Iterable[Action]:
    window = state.windows[-1] if state.windows else None
    if window is None or window.reaction != REACTION:
        return
    firer = str(window.context["firer"])
    targets = window.context["targets"]
    assert isinstance(targets, list)
    for target in targets:
        if state.men[str(target)].side == side and can_answer(state, str(target), firer):
            yield Action.make(side, "overwatch", figure=str(target), target=firer)


def resume(state: CommandoState, window: Window, chance: Chance, log: EventLog) -> None:
    """Resolve the declared task, and the answer with it if the skill roll succeeds."""
    f = _flow()
    firer = state.men[str(window.context["firer"])]
    kind = str(window.context["kind"])
    args = window.context["args"]
    assert isinstance(args, dict)
    answer = window.answers[window.asked[0]]
    answering = None
    if answer.kind == "overwatch" and can_answer(state, str(answer.get("figure")), firer.id):
        man = state.men[str(answer.get("figure"))]
        own = frozenset({man.side})
        steady = morale.check_panic(state, man, chance, log) == "steady"  # C-125
        skill = man.ratings.skills["mobile_overwatch"]
        if steady and skill_check(chance, "mobile_overwatch", skill.rating,
                                  man.ratings.hero_skill(), audience=own, who=man.id):
            answering = man
    if answering is None:
        f.run_declared(state, firer, kind, args, chance, log)
    else:
        # ruling C-129: simultaneous: the answer is rolled as if the first fire had not hit
        before = (answering.damage, answering.killed, answering.tp)
        f.run_declared(state, firer, kind, args, chance, log)
        hit = (answering.damage, answering.killed)
        answering.damage, answering.killed, answering.tp = before
        if firer.id in state.observed[answering.side]:
            answering.spend(tables().extra["mobile_overwatch"])
            log.emit("overwatch", {"figure": answering.id, "target": firer.id})
            f.shoot(state, answering, firer.id, chance, log)
        else:
            # ruling C-150: a sniper whose Sniping roll succeeded stays unobserved, and 12.1
            # answers only an observed firer: the answer lapses and costs nothing
            log.emit("overwatch-lapses", {"figure": answering.id}, frozenset({answering.side}))
        if hit[1]:
            answering.kill()
        else:
            answering.take_damage(hit[0] - before[0])
    if state.active_man is not None:
        f.after_task(state, log)
