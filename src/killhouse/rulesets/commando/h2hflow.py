"""Phase 4, hand-to-hand combat, on the flow kit (digest 10, rulings C-37 … C-44, C-126 …).

After the plot and the initiative roll, if any square holds engaged men, both sides decide at
the same time, secretly: first which engaged men try to leave (``leave``, then ``ready``);
the attempts are resolved square by square on the Disengagement Table. Then five rounds
(C-38): each side declares one choice per engaged man (``strike``, ``grapple``, ``evade``,
``draw``) and says ``ready``; the declarations are revealed and the round resolved
(``h2h.melee_round``). Play then goes on to phase 5 with the initiative side.

A declaration is seen by its own side only until both sides are ready (C-63).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import h2h, melee, withdrawal
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables

H2H = "h2h"
LEAVE, ROUND = "leave", "round"


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def squares(state: CommandoState) -> dict[Cell, list[ManState]]:
    """Every square holding engaged men in action, with everyone in action there."""
    out: dict[Cell, list[ManState]] = {}
    for ident, man in sorted(state.men.items()):
        if man.engaged and man.active():
            out.setdefault(state.pos[ident], [])
    for cell in out:
        out[cell] = [m for i, m in sorted(state.men.items())
                     if state.pos[i] == cell and m.active()]
    return out


def engaged_men(state: CommandoState, side: str) -> list[ManState]:
    return [m for m in state.up(side) if m.engaged]


def after_plot(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """Phase 3 then 4: initiative (C-16), then hand-to-hand if any square is engaged."""
    f = _flow()
    f.begin_activations(state, chance, log)
    settle_engagements(state)
    if squares(state):
        state.h2h = {"step": LEAVE, "round": 0, "orders": {}, "ready": [],
                     "resume": state.active_side}
        state.phase = H2H
        state.active_side = None


def settle_engagements(state: CommandoState) -> None:
    """Ruling C-37: an engagement ends when only one side has men in action in the square."""
    for ident, man in state.men.items():
        partner = state.men.get(man.grappled_with) if man.grappled_with else None
        if partner is not None and (not partner.engaged or not partner.active()
                                    or state.pos[partner.id] != state.pos[ident]):
            # ruling C-126: a grapple ends when either man gets away or falls
            man.grappled_with = None
        if not man.engaged:
            continue
        here = state.pos[ident]
        crowd = {m.side for i, m in state.men.items() if state.pos[i] == here and m.active()}
        if len(crowd) < 2 or not man.active():
            man.engaged = False
            man.grappled_with = None


def deciders(state: CommandoState) -> list[str]:
    if state.phase != H2H:
        return []
    ready = set(state.h2h.get("ready", []))
    return [s for s in state.sides if s not in ready and engaged_men(state, s)]


def done(state: CommandoState) -> bool:
    return state.phase == H2H and not deciders(state)


def _orders(state: CommandoState, side: str) -> dict[str, Any]:
    orders: dict[str, dict[str, Any]] = state.h2h.setdefault("orders", {})
    return orders.setdefault(side, {})


def _opponents(state: CommandoState, man: ManState) -> list[ManState]:
    here = state.pos[man.id]
    return [m for i, m in sorted(state.men.items())
            if state.pos[i] == here and m.side != man.side and m.active()]


# -- the moves ------------------------------------------------------------------------------


def leave_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Step 1: name a man who tries to disengage (20 TP whatever happens, C-42)."""
    if state.phase != H2H or state.h2h.get("step") != LEAVE:
        return
    orders = _orders(state, side)
    for man in engaged_men(state, side):
        if man.id not in orders and man.tp >= tables().cost["disengage"]:
            yield Action.make(side, "leave", figure=man.id)


def do_leave(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    man = action.get("figure")
    _orders(state, action.side)[man] = {"leave": True}
    log.emit("h2h-declared", {"figure": man, "choice": "leave"}, frozenset({action.side}))


def declare_options(state: CommandoState, side: str) -> Iterable[Action]:
    """A round's choice for each engaged man not yet declared (digest 10.2)."""
    if state.phase != H2H or state.h2h.get("step") != ROUND:
        return
    orders = _orders(state, side)
    for man in engaged_men(state, side):
        if man.id in orders:
            continue
        for opp in _opponents(state, man):
            yield Action.make(side, "strike", figure=man.id, target=opp.id)
            if man.grappled_with != opp.id:
                yield Action.make(side, "grapple", figure=man.id, target=opp.id)
        yield Action.make(side, "evade", figure=man.id)
        for item in sorted(set(man.carried) | {"knife"}):
            if item != man.in_hand and _drawable(item):
                yield Action.make(side, "draw", figure=man.id, weapon=item)


def _drawable(item: str) -> bool:
    return item in tables().melee or item in tables().firearms


def do_declare(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    man = action.get("figure")
    order: dict[str, Any] = {"choice": action.kind}
    if action.kind in ("strike", "grapple"):
        order["target"] = action.get("target")
    if action.kind == "draw":
        order["weapon"] = action.get("weapon")
    _orders(state, action.side)[man] = order
    log.emit("h2h-declared", {"figure": man, **order}, frozenset({action.side}))


def ready_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Done declaring: in a round every engaged man must have a choice first."""
    if state.phase != H2H or side in state.h2h.get("ready", []):
        return
    if state.h2h.get("step") == ROUND:
        orders = _orders(state, side)
        if any(m.id not in orders for m in engaged_men(state, side)):
            return
    elif withdrawal.must_leave_ready(state, side, set(_orders(state, side))):
        return  # ruling C-186: a Preserving man must try to disengage
    yield Action.make(side, "ready")


def why_not_ready(state: CommandoState, action: Action) -> str:
    """Why ``ready`` is refused: a choice missing, or a Preserving man not yet named to leave
    (ruling C-186)."""
    if state.phase == H2H and state.h2h.get("step") == LEAVE:
        held = withdrawal.must_leave_ready(state, action.side, set(_orders(state, action.side)))
        if held:
            return (f"{', '.join(held)} is Preserving and must try to disengage: name him "
                    "with leave first (C-186)")
    if state.phase == H2H and state.h2h.get("step") == ROUND:
        return "every engaged man needs his choice for this round first"
    return f"{action} is not a legal choice now"


def do_ready(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    state.h2h.setdefault("ready", []).append(action.side)
    log.emit("h2h-ready", {"side": action.side})


# -- resolution -----------------------------------------------------------------------------


def advance(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """Both sides are ready: reveal and resolve the step, then the next step or phase 5."""
    if state.h2h["step"] == LEAVE:
        resolve_leaving(state, chance, log)
        state.h2h.update(step=ROUND, round=1, orders={}, ready=[])
    else:
        resolve_round(state, chance, log)
        state.h2h.update(round=state.h2h["round"] + 1, orders={}, ready=[])
    settle_engagements(state)
    f = _flow()
    if f.check_victory(state, log):
        return
    if not squares(state) or state.h2h["round"] > tables().melee_rounds:
        finish(state, log)


def resolve_leaving(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """Step 1 per square, each side's withdrawers in side order (C-42, ruling C-127)."""
    for cell, crowd in squares(state).items():
        for side in state.sides:
            here = {m.id for m in crowd}
            leaving = [i for i, o in _orders(state, side).items() if i in here and o.get("leave")]
            if not leaving:
                continue
            result = h2h.disengagement(chance, crowd, leaving)
            freed = [i for i in leaving if not state.men[i].engaged]
            if result == melee.ONE and len(leaving) > 1:
                # ruling C-42 leaves the choice to the side; ruling C-127: the man it named
                # first goes
                chosen = leaving[0]
                h2h.release(state.men[chosen])
                freed = [chosen]
            log.emit("disengage", {"square": cell_json(cell), "side": side,
                                   "leaving": leaving, "result": result, "freed": freed})


def resolve_round(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """One round per square from both sides' now revealed declarations (C-38, C-70)."""
    settle_engagements(state)
    for cell, crowd in squares(state).items():
        decls: dict[str, h2h.Declaration] = {}
        for man in crowd:
            order = _orders(state, man.side).get(man.id)
            if order is None:
                continue
            decls[man.id] = h2h.Declaration(man.id, order["choice"], order.get("target"),
                                            order.get("weapon"))
            log.emit("h2h-revealed", {"figure": man.id, **order})
        men = {m.id: m for m in crowd}
        result = h2h.melee_round(chance, men, decls)
        log.emit("h2h-round", {
            "square": cell_json(cell), "round": state.h2h["round"],
            "blows": [[s, t, b.result, b.damage] for s, t, b in result.blows],
            "grapples": [[a, b, ok] for a, b, ok in result.grapples],
            "status": {m.id: m.wound().value for m in crowd},
        })


def finish(state: CommandoState, log: EventLog) -> None:
    """Phase 4 is over: phase 5 starts with the initiative side (or the other, §15)."""
    f = _flow()
    state.phase = f.ACTIVATE
    side = state.h2h.get("resume")
    state.h2h = {}
    state.active_side = side
    if side is None or not f.eligible(state, side):
        f.pass_on(state, side or state.sides[0], log)
