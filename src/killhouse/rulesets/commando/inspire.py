"""Inspire Men in Battle (digest 12.2, rulings C-46, C-185): twice a mission a Commando cancels
one panic or preservation result of a man under his command within 10 squares.

The side decides, never the engine. A panic rolled at a man's activation waits, when a
Commando could cancel it, for the side's answer: ``inspire`` cancels it (the man goes on with
his activation, his TP and plot intact) and ``panic`` lets it stand (it is played out as
C-14 says). A Preserving man's status is cancelled by ``inspire`` whenever his side is to
decide in the plot or the activation phase. The answer costs no TP and rolls no die; the
waiting happens inside the acting side's own decision, so the other side sees nothing it
would not see anyway (K-15).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import tasks
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.state import ACTIVATE, PLOT, CommandoState

ABILITY = "inspire_men"
#: "a man under his command within 10 squares" (digest 12.2), C-1 range
REACH = 10


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def inspirers(state: CommandoState, man: ManState) -> list[ManState]:
    """Commandos in action who lead ``man``, stand within 10 squares and have a use left."""
    f = _flow()
    leader = state.men.get(man.leader) if man.leader else None
    if leader is None or not leader.active() or leader.uses.get(ABILITY, 0) <= 0:
        return []
    if f.rng_between(state.pos[leader.id], state.pos[man.id]) > REACH:
        return []
    return [leader]


def pending_panic(state: CommandoState) -> dict[str, str] | None:
    held = state.forced.get("panic")
    return held if isinstance(held, dict) else None


def hold_panic(state: CommandoState, man: ManState, result: str) -> bool:
    """Ruling C-185: a panic at his activation waits for the side's answer when a Commando
    could cancel it; True if it waits."""
    if not inspirers(state, man):
        return False
    man.panic_checked = True
    state.forced["panic"] = {"figure": man.id, "result": result}
    return True


def inspire_options(state: CommandoState, side: str) -> Iterable[Action]:
    held = pending_panic(state)
    if held is not None:
        man = state.men[held["figure"]]
        if man.side == side:
            for leader in inspirers(state, man):
                yield Action.make(side, "inspire", figure=leader.id, man=man.id)
        return
    if state.phase == PLOT and side in state.committed:
        return
    if state.phase not in (PLOT, ACTIVATE) or state.windows:
        return
    for man in state.up(side):
        if man.preserving:
            for leader in inspirers(state, man):
                yield Action.make(side, "inspire", figure=leader.id, man=man.id)


def do_inspire(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    leader = state.men[action.get("figure")]
    man = state.men[action.get("man")]
    leader.use(ABILITY)
    held = pending_panic(state)
    if held is not None:
        # the panic is cancelled: no prone, no lost plot, his activation goes on (C-185)
        del state.forced["panic"]
        data = {"figure": leader.id, "man": man.id, "cancels": "panic",
                "left": leader.uses.get(ABILITY, 0)}
        audience = f.audience_of(state, man.id)
        enemy = state.enemy(man.side)
        # ruling C-197: an enemy that sees the panic cancelled learns who inspired him (and
        # the uses left) only while it observes the leader
        views = None if audience is not None or leader.id in state.observed[enemy] else {
            enemy: {**data, "figure": None, "left": None}}
        log.emit("inspired", data, audience, views)
        f.after_activation_check(state, man, log)
        return
    man.preserving = False
    withdrawing = state.forced.get("withdraw")
    if isinstance(withdrawing, dict) and withdrawing.get("figure") == man.id:
        del state.forced["withdraw"]
    log.emit("inspired", {"figure": leader.id, "man": man.id, "cancels": "preserving",
                          "left": leader.uses.get(ABILITY, 0)}, frozenset({man.side}))


def panic_options(state: CommandoState, side: str) -> Iterable[Action]:
    held = pending_panic(state)
    if held is not None and state.men[held["figure"]].side == side:
        yield Action.make(side, "panic", figure=held["figure"])


def do_panic(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    """The side lets the panic stand: C-14's result is played out and his activation ends."""
    from killhouse.rulesets.commando import morale

    f = _flow()
    held = pending_panic(state)
    assert held is not None
    del state.forced["panic"]
    man = state.men[held["figure"]]
    tasks.apply_panic(man, held["result"])
    morale.play_out(state, man, held["result"], chance, log)
    if state.result is None:
        f.end_activation(state, log)
