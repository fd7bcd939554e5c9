"""The flow of a game of "Go! Go! Go!" declared on the flow kit (section 5.2).

Three phases, each simultaneous and secret: setup (5.1), orders (step 1) and fire
declaration (step 5). Every pending side's actions wait unseen in its own draft; its
``commit`` ends its part. A phase is done when every side has committed; its ``advance``
then resolves the step (the setup, steps 2-4, or steps 6-7) and opens the next phase.
The moves below declare their typed arguments, list their options (the side's legal
actions), check a choice (orders carry routes too many to list) and write it to the draft.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from killhouse.core.cells import COMPASS_ORDER
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo import deploy, fire, orders
from killhouse.rulesets.gogogo.news import place, public, tell
from killhouse.rulesets.gogogo.state import (
    FIRE,
    HOSTAGE,
    ORDERS,
    POSTURES,
    SETUP,
    GoState,
    Order,
)
from killhouse.rulesets.gogogo.turn import finish_setup, resolve_fire_phase, resolve_orders
from killhouse.rulesets.kit import Arg, Flow, Group, Move, Phase

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
FIGURE = Arg("figure", "figure", help="one of the side's figures (or, at setup, a hostage)")
FACINGS = COMPASS_ORDER
GRENADES = ("he", "smoke", "stun")


# -- options: the side's legal actions, built once per draft and split by kind --------------


def _all_options(state: GoState, side: str) -> dict[str, list[Action]]:
    """The side's legal actions of this decision by kind, built once and kept until the side's
    draft changes: every move of the side drops them (``_move``), a new step makes new drafts
    and clears the cache. Joined from the kept parts when first asked (``legal_actions``)."""
    kept = _kept_options(state, side)
    joined = kept.joined
    if joined is None:
        joined = kept.joined = {
            kind: [action for part in parts for action in part]
            for kind, parts in kept.parts.items()
        }
    return joined


def _all_groups(state: GoState, side: str) -> dict[str, tuple[Group, ...]]:
    """The side's options as counted groups by kind, one group per part, made with them and
    kept as long (the kit asks every kind of the phase for its groups at each listing)."""
    return _kept_options(state, side).groups


class Kept:
    """What ``_kept_options`` keeps for one side: its key, the options by kind in parts (see
    ``orders.order_parts``), a counted group per part and, once asked, the parts joined."""

    __slots__ = ("groups", "joined", "key", "parts")

    def __init__(
        self,
        key: tuple[object, ...],
        parts: dict[str, list[Sequence[Action]]],
        groups: dict[str, tuple[Group, ...]],
    ) -> None:
        self.key = key
        self.parts = parts
        self.groups = groups
        self.joined: dict[str, list[Action]] | None = None


def _kept_options(state: GoState, side: str) -> Kept:
    """The side's options as ``Kept``, under ``("options", side)``."""
    draft = state.drafts[side]
    key = ("options", side, state.phase, state.turn, id(draft))
    cached: Kept | None = state.cache.get(("options", side))
    if cached is not None and cached.key == key:
        return cached
    parts: dict[str, list[Sequence[Action]]] = {}
    groups: dict[str, tuple[Group, ...]] = {}
    if state.phase == ORDERS and draft.pending is None and not draft.committed:
        parts, groups = _orders_listing(state, side)
    elif state.phase == ORDERS:
        parts = orders.order_parts(state, side)  # a figure's throw targets or facings
        groups = {k: tuple(_group(p) for p in v) for k, v in parts.items()}
    else:
        by_kind: dict[str, list[Action]] = {}
        if state.phase == SETUP:
            by_kind = deploy.setup_actions(state, side)  # by kind already
        else:
            for action in fire.fire_actions(state, side):
                by_kind.setdefault(action.kind, []).append(action)
        parts = {k: [v] for k, v in by_kind.items()}
        groups = {k: (_group(v),) for k, v in by_kind.items()}
    kept = Kept(key, parts, groups)
    state.cache[("options", side)] = kept
    return kept


def _group(part: Sequence[Action]) -> Group:
    """One counted group over a kept part (no copy is made)."""
    return Group(len(part), lambda: part)


def _orders_listing(
    state: GoState, side: str
) -> tuple[dict[str, list[Sequence[Action]]], dict[str, tuple[Group, ...]]]:
    """``orders.order_parts`` with a group per part, when no figure awaits its target or
    facing: each figure's orders and their group are made once per step and kept, so a
    listing only leaves out the figures the draft has ordered."""
    kept: tuple[tuple[str, Sequence[Action], Group], ...] | None = state.cache.get(
        ("figure-groups", side)
    )
    if kept is None:
        kept = state.cache[("figure-groups", side)] = tuple(
            (ident, part, _group(part)) for ident, part in orders.figure_parts(state, side)
        )
    ordered = state.drafts[side].orders
    live = [entry for entry in kept if entry[0] not in ordered]
    parts: dict[str, list[Sequence[Action]]] = {}
    groups: dict[str, tuple[Group, ...]] = {}
    if live:
        parts["order"] = [part for _, part, _ in live]
        groups["order"] = tuple(group for _, _, group in live)
    for kind, listed in orders.other_parts(state, side).items():
        parts[kind] = [listed]
        groups[kind] = (_group(listed),)
    return parts, groups


def _options(kind: str) -> Callable[[GoState, str], list[Action]]:
    def options(state: GoState, side: str) -> list[Action]:
        if state.over or state.drafts[side].committed:
            return []
        return list(_all_options(state, side).get(kind, ()))

    return options


def _groups(kind: str) -> Callable[[GoState, str], tuple[Group, ...]]:
    """``_options(kind)`` as one counted group over the cached list (no copy is made)."""

    def groups(state: GoState, side: str) -> tuple[Group, ...]:
        if state.over or state.drafts[side].committed:
            return ()
        return _all_groups(state, side).get(kind, ())

    return groups


def _listing(state: GoState, side: str) -> dict[str, tuple[Group, ...]]:
    """Every kind's groups for ``side`` at once (the kit's ``listing``): one look-up of the
    kept options per listing instead of one per kind."""
    if state.over or state.drafts[side].committed:
        return {}
    return _all_groups(state, side)


def _committed(state: GoState, action: Action) -> None:
    draft = state.drafts[action.side]
    if draft.committed:
        waiting = ", ".join(s for s, d in state.drafts.items() if not d.committed)
        raise IllegalActionError(
            f"{action.side} has nothing more to decide in the {state.phase} step; "
            f"waiting for {waiting}"
        )


# -- setup (5.1) -------------------------------------------------------------------------------


def _place(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    fig, cell = deploy.check_place(state, action.side, action)
    draft = state.drafts[action.side]
    draft.places[fig.id] = cell
    draft.pending = None if fig.kind == HOSTAGE else fig.id  # hostages have no facing


def _face(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    draft = state.drafts[action.side]
    if state.phase == SETUP:
        fig, facing = deploy.check_face(state, action.side, action)
        draft.facings[fig.id] = facing
    else:
        fig, facing = orders.check_face(state, action.side, action)
        draft.orders[fig.id].facing = facing
    draft.pending = None


def _check_face(state: GoState, action: Action) -> None:
    _committed(state, action)
    if state.phase == SETUP:
        deploy.check_face(state, action.side, action)
    else:
        orders.check_face(state, action.side, action)


def _loadout(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    fig, kind, choice = deploy.check_loadout(state, action.side, action)
    draft = state.drafts[action.side]
    if kind == "weapon":
        draft.weapons[fig.id] = choice
    else:
        draft.loadouts[fig.id] = choice


def _carrier(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    fig = deploy.check_carrier(state, action.side, action)
    state.drafts[action.side].carrier = fig.id


# -- orders (step 1) ---------------------------------------------------------------------------


def _check_order(state: GoState, action: Action) -> None:
    """``order``'s check; the order it parses is kept for the resolution that follows."""
    _committed(state, action)
    order = orders.check_order(state, action.side, action)
    state.cache[("checked", action.side)] = (action, order)


def _order(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    # the kit resolves an action straight after checking it on the same state: the order the
    # check parsed (its route walked back) is this action's, taken once; a resolution without
    # that check parses it again
    checked = state.cache.pop(("checked", action.side), None)
    if checked is not None and checked[0] is action:
        order: Order = checked[1]
    else:
        order = orders.check_order(state, action.side, action)
    draft = state.drafts[action.side]
    ident = str(action.get("figure"))
    draft.orders[ident] = order
    draft.pending = ident


def _target(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    fig, cell = orders.check_target(state, action.side, action)
    state.drafts[action.side].orders[fig.id].target = cell


def _follow(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    fig, hostage = orders.check_follow(state, action.side, action)
    state.drafts[action.side].follows.setdefault(fig.id, []).append(hostage.id)


def _speak(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    fig = orders.check_speak(state, action.side, action)
    state.drafts[action.side].speak.append(fig.id)


# -- fire declaration (step 5) -----------------------------------------------------------------


def _fire(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    fig, target = fire.check_fire(state, action.side, action)
    state.drafts[action.side].fire[fig.id] = target.id


def _hold(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    fig = fire.check_hold(state, action.side, action)
    state.drafts[action.side].fire[fig.id] = None


# -- commit: the side's part is done; the phase ends when every side's is ----------------------


def _check_commit(state: GoState, action: Action) -> None:
    _committed(state, action)
    if state.phase == SETUP and not deploy.complete(state, action.side):
        raise IllegalActionError("setup is not complete: place, face and equip everyone first")
    if state.phase == ORDERS:
        orders.check_commit(state, action.side)


def _commit(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
    side = action.side
    draft = state.drafts[side]
    draft.committed = True
    if state.phase == SETUP:
        data = {
            "placed": {k: place(state, v) for k, v in sorted(draft.places.items())},
            "loadouts": dict(sorted(draft.loadouts.items())),
            "weapons": dict(sorted(draft.weapons.items())),
            "carrier": draft.carrier,
        }
        tell(state, log, "deployed", data, [side])
        public(state, log, "setup-committed", {"side": side})
    elif state.phase == ORDERS:
        public(state, log, "orders-committed", {"side": side})
    else:
        public(state, log, "fire-committed", {"side": side})


def _everyone_committed(state: GoState) -> bool:
    """A step ends when every side has committed its part (5.2)."""
    return all(d.committed for d in state.drafts.values())


def _resolve_setup(state: GoState, chance: Chance, log: EventLog) -> None:
    """Every side's setup is in: it takes effect, then setup spotting and turn 1 (5.1)."""
    deploy.apply_setup(state)
    finish_setup(state, chance, log)


ADVANCE: dict[str, Callable[[GoState, Chance, EventLog], None]] = {
    SETUP: _resolve_setup,
    ORDERS: resolve_orders,  # steps 2, 3 and 4, then the fire declaration
    FIRE: resolve_fire_phase,  # steps 6 and 7, then the next turn's orders
}


def _guard(rule: Callable[[GoState, str, Action], object]) -> Callable[[GoState, Action], None]:
    """A move's check: the side still has something to decide, then the rule's own check."""

    def check(state: GoState, action: Action) -> None:
        _committed(state, action)
        rule(state, action.side, action)

    return check


def _move(
    kind: str,
    args: tuple[Arg, ...],
    resolve: Callable[[GoState, Action, Chance, EventLog], None],
    help: str,
    check: Callable[[GoState, Action], None],
) -> Move[GoState]:
    def resolve_and_forget(state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
        resolve(state, action, chance, log)
        state.cache.pop(("options", action.side), None)  # the draft changed: list anew

    return Move(
        kind=kind,
        args=args,
        options=_options(kind),
        groups=_groups(kind),
        resolve=resolve_and_forget,
        check=check,
        help=help,
    )


MOVES: tuple[Move[GoState], ...] = (
    _move(
        "place",
        (FIGURE, Arg("at", "cell", help="a free square of the figure's deployment zone")),
        _place,
        "setup: place a figure (then face it, unless a hostage)",
        _guard(deploy.check_place),
    ),
    _move(
        "face",
        (FIGURE, Arg("facing", "enum", choices=FACINGS)),
        _face,
        "the facing of the figure just placed or ordered",
        _check_face,
    ),
    _move(
        "loadout",
        (
            FIGURE,
            Arg("grenade", "enum", required=False, choices=GRENADES, help="T: its one grenade"),
            Arg("weapon", "enum", required=False, choices=("auto", "sniper"), help="CT (G-72)"),
        ),
        _loadout,
        "setup: a terrorist's grenade or a counter-terrorist's weapon",
        _guard(deploy.check_loadout),
    ),
    _move(
        "carrier",
        (FIGURE,),
        _carrier,
        "setup: the terrorist who carries the bomb",
        _guard(deploy.check_carrier),
    ),
    _move(
        "order",
        (
            FIGURE,
            Arg("posture", "enum", choices=POSTURES),
            Arg("to", "cell", required=False, help="a moving order's destination"),
            Arg("path", "cells", required=False, help="or its squares, start excluded"),
            Arg("task", "enum", required=False, choices=("throw", "plant", "defuse")),
            Arg("grenade", "enum", required=False, choices=GRENADES),
        ),
        _order,
        "a figure's order for the turn (4.1); then target (throw) and face",
        _check_order,
    ),
    _move(
        "target",
        (FIGURE, Arg("at", "cell", help="a square 1-10 away with a clear throw line")),
        _target,
        "the square a THROW order aims at",
        _guard(orders.check_target),
    ),
    _move(
        "follow",
        (FIGURE, Arg("hostage", "id")),
        _follow,
        "FOLLOW_ME to an adjacent hostage the side knows of (G-25)",
        _guard(orders.check_follow),
    ),
    _move(
        "speak",
        (FIGURE,),
        _speak,
        "per-player mode: the figure's player spoke (G-34)",
        _guard(orders.check_speak),
    ),
    _move(
        "fire",
        (FIGURE, Arg("target", "id"), Arg("confirm", "bool", required=False)),
        _fire,
        "a shot at a figure the firer sees (a hostage needs confirm: true)",
        _guard(fire.check_fire),
    ),
    _move("hold", (FIGURE,), _hold, "the figure holds its fire", _guard(fire.check_hold)),
    _move("commit", (), _commit, "the side's part of this step is done", _check_commit),
)


#: each step's prompt by (phase, turn): ``pending`` asks for it at every decision
_PROMPTS: dict[tuple[str, int], str] = {}


def _prompt(state: GoState) -> str:
    """The prompt of the step the state is in (made once per phase and turn)."""
    key = (state.phase, state.turn)
    found = _PROMPTS.get(key)
    if found is None:
        if len(_PROMPTS) >= 1000:
            _PROMPTS.clear()
        found = _PROMPTS[key] = PROMPTS[state.phase].format(turn=state.turn)
    return found


def _phase(name: str) -> Phase[GoState]:
    return Phase(
        name=name,
        shape="simultaneous",
        deciders=lambda s: [side for side in s.sides if not s.drafts[side].committed],
        moves=KINDS[name],
        prompt=_prompt,
        done=_everyone_committed,
        advance=ADVANCE[name],
    )


FLOW: Flow[GoState] = Flow(
    phases=[_phase(SETUP), _phase(ORDERS), _phase(FIRE)],
    moves=MOVES,
    phase_of=lambda s: s.phase,
    over=lambda s: s.over,
    listing=_listing,
)
