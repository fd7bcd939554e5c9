"""Close-combat orders: a figure attacks one within 2 cm."""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.closecombat import melee_problem, resolve_melee
from killhouse.rulesets.firewall.fireorders import _chance_of_success, _combat_allowed
from killhouse.rulesets.firewall.objectives import HOSTAGES
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _aware,
    side_known,
    side_sees,
    team_figures,
)
from killhouse.rulesets.firewall.teams import Status


def melee_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.closecombat import melee_situation
    from killhouse.rulesets.firewall.melee import melee_modifier
    out = []
    seen = None
    for f in team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        for target in state.figures.values():
            if target.side != side and melee_problem(state.figures, f.id, target.id) is None:
                if seen is None:
                    seen = side_sees(state, side, table=False)  # vehicle crews' sight too
                if target.id not in seen:
                    continue
                mod = melee_modifier(melee_situation(state.board, state.figures, state.teams,
                                                     f.id, target.id))
                out.append(Action.make(side, "close-combat", figure=f.id, target=target.id,
                                       hint={"role": "attack",
                                             "p": float(_chance_of_success(f.gutz, mod)),
                                             "helpless": target.status is Status.INCAPACITATED,
                                             "hostage": target.side == HOSTAGES}))
    return out


def check_melee(state: FirewallState, action: Action) -> None:
    _combat_allowed(state, action)
    problem = melee_problem(state.figures, str(action.get("figure")), str(action.get("target")))
    if problem is not None:
        raise IllegalActionError(problem)


def melee(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_melee(state.board, state.figures, state.teams, str(action.get("figure")),
                  str(action.get("target")), chance, log, sides=state.sides,
                  known=lambda: side_known(state))
    state.combat_happened = True
    state.last = (str(action.get("figure")), "close-combat", "")
