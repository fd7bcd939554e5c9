"""The flow of a game of "Go! Go! Go!": its three simultaneous secret decisions (section 5.2).

Setup (5.1), orders (step 1) and fire declaration (step 5) each ask both sides at once;
each side's actions wait unseen in its own draft until every pending side commits, and
then the step resolves. Here are the action kinds of each step, the arguments each takes,
and the dispatch from an action to its check and its effect on the draft.
"""

from __future__ import annotations

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, Decision
from killhouse.rulesets.gogogo import declare, deploy, orders
from killhouse.rulesets.gogogo.news import place, public, tell
from killhouse.rulesets.gogogo.state import FIRE, HOSTAGE, ORDERS, SETUP, GoState
from killhouse.rulesets.gogogo.turn import finish_setup, resolve_fire_phase, resolve_orders

PROMPTS = {
    SETUP: "setup: secret loadouts and deployment",
    ORDERS: "orders for turn {turn}: posture, move, facing, throw, plant, defuse, follow",
    FIRE: "fire declarations for turn {turn}: one target or hold per figure",
}
KINDS = {
    SETUP: ("place", "face", "loadout", "carrier", "commit"),
    ORDERS: ("order", "target", "face", "follow", "speak", "commit"),
    FIRE: ("fire", "hold", "commit"),
}
#: the arguments each action kind takes (anything else is refused)
ARGS: dict[tuple[str, str], frozenset[str]] = {
    (SETUP, "place"): frozenset({"figure", "at"}),
    (SETUP, "face"): frozenset({"figure", "facing"}),
    (SETUP, "loadout"): frozenset({"figure", "grenade", "weapon"}),
    (SETUP, "carrier"): frozenset({"figure"}),
    (ORDERS, "order"): frozenset({"figure", "posture", "to", "path", "task", "grenade"}),
    (ORDERS, "target"): frozenset({"figure", "at"}),
    (ORDERS, "face"): frozenset({"figure", "facing"}),
    (ORDERS, "follow"): frozenset({"figure", "hostage"}),
    (ORDERS, "speak"): frozenset({"figure"}),
    (FIRE, "fire"): frozenset({"figure", "target", "confirm"}),
    (FIRE, "hold"): frozenset({"figure"}),
}


def pending(state: GoState) -> tuple[Decision, ...]:
    if state.over:
        return ()
    prompt = PROMPTS[state.phase].format(turn=state.turn)
    return tuple(
        Decision(side, state.phase, prompt)
        for side in state.sides
        if not state.drafts[side].committed
    )


def legal_actions(state: GoState, side: str) -> list[Action]:
    if state.over or side not in state.sides or state.drafts[side].committed:
        return []
    if state.phase == SETUP:
        return deploy.setup_actions(state, side)
    if state.phase == ORDERS:
        return orders.order_actions(state, side)
    if state.phase == FIRE:
        return declare.fire_actions(state, side)
    return []


def apply(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    side = action.side
    if state.over:
        raise IllegalActionError("the game is over")
    if side not in state.sides:
        raise IllegalActionError(f"no side {side!r} in this game")
    draft = state.drafts[side]
    if draft.committed:
        waiting = ", ".join(s for s, d in state.drafts.items() if not d.committed)
        raise IllegalActionError(
            f"{side} has nothing more to decide in the {state.phase} step; waiting for {waiting}"
        )
    kinds = KINDS.get(state.phase, ())
    if action.kind not in kinds:
        raise IllegalActionError(
            f"{action.kind!r} is not an action of the {state.phase} step "
            f"(expected one of: {', '.join(kinds)})"
        )
    allowed = ARGS.get((state.phase, action.kind), frozenset())
    extra = sorted(k for k, _ in action.args if k not in allowed)
    if extra:
        takes = ", ".join(sorted(allowed)) or "no arguments"
        raise IllegalActionError(
            f"{action.kind!r} does not take {', '.join(extra)} (it takes {takes})"
        )
    if state.phase == SETUP:
        _apply_setup(state, action, chance, log)
    elif state.phase == ORDERS:
        _apply_orders(state, action, chance, log)
    else:
        _apply_fire(state, action, chance, log)


def _apply_setup(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    side = action.side
    draft = state.drafts[side]
    if action.kind == "place":
        fig, cell = deploy.check_place(state, side, action)
        draft.places[fig.id] = cell
        draft.pending = None if fig.kind == HOSTAGE else fig.id  # hostages have no facing
    elif action.kind == "face":
        fig, facing = deploy.check_face(state, side, action)
        draft.facings[fig.id] = facing
        draft.pending = None
    elif action.kind == "loadout":
        fig, kind, choice = deploy.check_loadout(state, side, action)
        if kind == "weapon":
            draft.weapons[fig.id] = choice
        else:
            draft.loadouts[fig.id] = choice
    elif action.kind == "carrier":
        fig = deploy.check_carrier(state, side, action)
        draft.carrier = fig.id
    else:
        if not deploy.complete(state, side):
            raise IllegalActionError("setup is not complete: place, face and equip everyone first")
        draft.committed = True
        tell(
            state,
            log,
            "deployed",
            {
                "placed": {k: place(state, v) for k, v in sorted(draft.places.items())},
                "loadouts": dict(sorted(draft.loadouts.items())),
                "weapons": dict(sorted(draft.weapons.items())),
                "carrier": draft.carrier,
            },
            [side],
        )
        public(state, log, "setup-committed", {"side": side})
        if all(d.committed for d in state.drafts.values()):
            deploy.apply_setup(state)
            finish_setup(state, chance, log)


def _apply_orders(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    side = action.side
    draft = state.drafts[side]
    if action.kind == "order":
        order = orders.check_order(state, side, action)
        ident = str(action.get("figure"))
        draft.orders[ident] = order
        draft.pending = ident
    elif action.kind == "target":
        fig, cell = orders.check_target(state, side, action)
        draft.orders[fig.id].target = cell
    elif action.kind == "face":
        fig, facing = orders.check_face(state, side, action)
        draft.orders[fig.id].facing = facing
        draft.pending = None
    elif action.kind == "follow":
        fig, hostage = orders.check_follow(state, side, action)
        draft.follows.setdefault(fig.id, []).append(hostage.id)
    elif action.kind == "speak":
        fig = orders.check_speak(state, side, action)
        draft.speak.append(fig.id)
    else:
        orders.check_commit(state, side)
        draft.committed = True
        public(state, log, "orders-committed", {"side": side})
        if all(d.committed for d in state.drafts.values()):
            resolve_orders(state, chance, log)


def _apply_fire(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    side = action.side
    draft = state.drafts[side]
    if action.kind == "fire":
        fig, target = declare.check_fire(state, side, action)
        draft.fire[fig.id] = target.id
    elif action.kind == "hold":
        fig = declare.check_hold(state, side, action)
        draft.fire[fig.id] = None
    else:
        draft.committed = True
        public(state, log, "fire-committed", {"side": side})
        if all(d.committed for d in state.drafts.values()):
            resolve_fire_phase(state, chance, log)
