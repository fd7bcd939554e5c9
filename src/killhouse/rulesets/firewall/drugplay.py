"""Drugs in play (digest §15; rulings F-41, F-115, F-116): taking a dose as a Movement action,
the active effects on shooting, close-combat and Movement-action rolls and on Gutz, and their
end at the figure's next critical failure."""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.drugs import drug_bonus, take_drug
from killhouse.rulesets.firewall.gutz import change_gutz, gutz_roll
from killhouse.rulesets.firewall.state import FirewallState, _who_sees, mine, team_figures
from killhouse.rulesets.firewall.teams import Figure, Status, bonus_for


def end_effects(f: Figure) -> list[str]:
    """§15: every active effect ends at the figure's next critical failure; a T80 / Ground
    Zero effect takes back the Gutz it actually added. Returns the drugs whose effect ended."""
    from killhouse.rulesets.firewall.frenzy import LASTING  # fwskill hook: F-192, F-193
    ended = sorted(d for d in f.drug_effects
                   if not (d in LASTING and f.drug_effects[d] == "critical"))
    for drug in ended:
        gained = f.drug_gained.pop(drug, 0)
        if gained:
            change = change_gutz(f.gutz, -gained)
            f.gutz = change.gutz
            if change.status != "active" and f.active:
                f.status = Status(change.status)
    for drug in ended:
        del f.drug_effects[drug]
    return ended


def drug_problem(state: FirewallState, f: Figure, drug: str) -> str | None:
    if f.move_used:
        return f"{f.id} has no Movement action left this Turn"
    if f.drugs.get(drug, 0) <= 0:
        return f"{f.id} carries no dose of {drug}"
    return None


def drug_options(state: FirewallState, side: str) -> Iterable[Action]:
    return [Action.make(side, "drug", figure=f.id, drug=d, hint={"role": "other"})
            for f in team_figures(state, side) for d in sorted(f.drugs)
            if drug_problem(state, f, d) is None]


def check_drug(state: FirewallState, action: Action) -> None:
    problem = drug_problem(state, mine(state, action), str(action.get("drug")))
    if problem is not None:
        raise IllegalActionError(problem)


def take(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§15: a Movement action and a Gutz roll (leader's bonus and movement drugs, no
    clutter); the dose is used whatever the result. S or CS: the effect (no CS gain, F-41;
    re-taking an active drug adds nothing); F: nothing, the figure has failed; CF: other
    active effects end, then the drug's critical effect instead of the −1 (ruling F-116).
    Only the figure's side hears of it (§21.4: drugs are secret)."""
    f = state.figures[str(action.get("figure"))]
    drug = str(action.get("drug"))
    own = frozenset({f.side})
    f.move_used = True
    f.drugs[drug] -= 1
    mod = bonus_for(f, state.teams[f.team], state.figures) + drug_bonus(f.drug_effects, "movement")
    roll = gutz_roll(chance, f.gutz, mod, f"{f.id} takes a drug", own)
    ended: list[str] = []
    if roll.result == "CF":
        ended = end_effects(f)
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
    if drug in f.drug_effects and roll.result in ("S", "CS"):
        taken = None  # §15: re-taking an active drug adds nothing
    else:
        taken = take_drug(drug, roll.result, f.gutz)
        if taken.effect is not None:
            f.drug_effects[drug] = taken.effect
        if taken.gained:
            f.drug_gained[drug] = taken.gained
        if taken.dead:
            f.status = Status.KILLED
        elif taken.gutz != f.gutz:
            change = change_gutz(f.gutz, taken.gutz - f.gutz)
            f.gutz = change.gutz
            if change.status != "active":
                f.status = Status(change.status)
    state.last = (f.id, "drug", "")
    log.emit("drug", {"figure": f.id, "drug": drug, "dice": list(roll.dice),
                      "result": roll.result, "ended": ended, "status": f.status.value}, own)
    if not f.active:
        log.emit("drug-down", {"figure": f.id, "status": f.status.value}, _who_sees(state, f))
    elif drug == "wah_wah_juice" and roll.result == "CF" and f.drug_effects.get(drug):
        from killhouse.rulesets.firewall.frenzy import defect  # fwskill hook: F-193
        defect(state, f, chance, log)


def after_drugs(state: FirewallState, f: Figure, cf_rolls: int, log: EventLog) -> None:
    """Ruling F-116: a CF of the figure's own action rolls (any but the dose's own) ends its
    active drug effects."""
    if cf_rolls and f.drug_effects and state.last is not None and state.last[1] != "drug":
        ended = end_effects(f)
        log.emit("drugs-end", {"figure": f.id, "ended": ended}, frozenset({f.side}))
