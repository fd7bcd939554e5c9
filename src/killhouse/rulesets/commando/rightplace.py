"""Right Place at Right Time (digest 12.2, the Hero Abilities Chart's "Locate Hidden Objects
spell"; ruling C-193): once a mission a Commando with the ability declares it in his
activation, and his side learns where one hidden object the scenario names stands now.

The scenario names the objects in ``options.right_place`` (a hostage id or a list of them: the
only hidden objects a Commando game has). The declaration is free (no TP, no task); it reveals
the first listed hostage not rescued that his side does not see now (else the first not
rescued), told to his side alone and kept in its view as a last sighting.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from killhouse.core.cells import cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import hostages
from killhouse.rulesets.commando.state import CommandoState
from killhouse.scenario.model import Issue, Scenario

ABILITY = "right_place_right_time"
KEY = "right_place"


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def named(scenario: Scenario) -> tuple[str, ...]:
    """The hostage ids ``options.right_place`` names, in order (bad entries left out)."""
    raw = scenario.options.get(KEY)
    items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return tuple(str(i) for i in items if isinstance(i, str))


def check(scenario: Scenario) -> list[Issue]:
    """Ruling C-193: ``options.right_place`` is a hostage id or a non-empty list of them."""
    raw = scenario.options.get(KEY)
    if raw is None:
        return []
    held = sorted(f.id for f in scenario.figures if f.kind == "hostage")
    hint = f"a hostage id or a list of them: {', '.join(held) or 'the scenario has none'}"
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not items or \
            not all(isinstance(i, str) for i in items):
        return [Issue(f"options.{KEY}", "must name the hidden objects it reveals", hint)]
    bad = [i for i in items if i not in held]
    if bad:
        return [Issue(f"options.{KEY}", f"no hostage {bad[0]!r} among the figures", hint)]
    return []


def _pick(state: CommandoState, side: str) -> str | None:
    """The hostage it reveals: the first named one not rescued that the side does not see
    now, else the first named one not rescued (rescues are public, C-174)."""
    left = [h for h in named(state.scenario)
            if h in state.hostages and state.hostages[h].status != hostages.RESCUED]
    seen = {h.id for h in hostages.seen(state, side)}
    return next((h for h in left if h not in seen), left[0] if left else None)


def options(state: CommandoState, side: str) -> Iterable[Action]:
    """Offered to the active man with the ability and its use left, while a named hostage is
    not rescued (nothing here depends on what the side may not know)."""
    if state.active_man is None:
        return
    man = state.men[state.active_man]
    if man.side == side and man.active() and man.uses.get(ABILITY, 0) > 0 and \
            _pick(state, side) is not None:
        yield Action.make(side, "right_place", figure=man.id)


def do_right_place(state: CommandoState, action: Action, chance: Chance,
                   log: EventLog) -> None:
    man = state.men[str(action.get("figure"))]
    ident = _pick(state, man.side)
    assert ident is not None and man.use(ABILITY), "checked by the options"
    h = state.hostages[ident]
    at = hostages.where(state, h)
    # his side knows where he is now, as if seen there this turn (C-171's last sighting)
    state.hostage_seen.setdefault(man.side, {})[ident] = (at, state.turn, h.status)
    log.emit("right-place", {"figure": man.id, "hostage": ident, "at": cell_json(at),
                             "status": h.status}, frozenset({man.side}))
