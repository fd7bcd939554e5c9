"""Technical repair of stopped cyber systems (§14.2, F-112) and the Medical skill (§16.2,
F-45) in play; rulings F-188 … F-191.

``repair(figure, patient, system)``: a Technical skill use (a Movement action) by the figure
or a friend within 2 cm restores one stopped system on S or CS; a CF leaves it dead for the
game. ``treat(figure, patient)``: a medic within 2 cm heals lost Gutz (once per patient) or,
on a CS only, revives a Killed figure whose body is on the table. Both are secret from the
other sides (cyber state and Gutz are, §21.4) but for what an enemy sees: a body getting up.
"""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.drugs import drug_bonus
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import change_gutz
from killhouse.rulesets.firewall.objectives import NEAR_CM
from killhouse.rulesets.firewall.skillroll import skill_level, skill_use
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _aware,
    _who_sees,
    mine,
    team_figures,
)
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status, bonus_for

#: figures on the table a technician or medic can reach
TREATABLE = frozenset({Status.ACTIVE, Status.INCAPACITATED})


def stopped_systems(f: Figure) -> list[str]:
    """The figure's stopped cyber systems that can still be repaired (F-112, F-188)."""
    table = tables().cyber_systems
    return sorted({str(table[c]) for c in f.cyber_stopped - f.cyber_dead if c in table})


def _beside(a: Figure, b: Figure) -> bool:
    return a.id == b.id or (a.level == b.level and within(a.cell, b.cell, NEAR_CM))


def _modifier(state: FirewallState, f: Figure) -> int:
    """A skill use that does not move: the leader's bonus and movement drugs (F-30)."""
    return bonus_for(f, state.teams[f.team], state.figures) + drug_bonus(f.drug_effects,
                                                                        "movement")


def _slot_problem(state: FirewallState, f: Figure) -> str | None:
    if f.move_used:
        return f"{f.id} has no Movement action left this Turn"
    if not _aware(state, f):
        return "a team not yet aware of the enemy only walks (non-combat movement, F-16)"
    if f.carrying is not None:
        return f"{f.id} carries {f.carrying}"
    return None


# -- Technical repair --------------------------------------------------------------------------

def repair_problem(state: FirewallState, f: Figure, patient: Figure | None,
                   system: str) -> str | None:
    """Why ``f`` may not repair ``system`` of ``patient`` now (ruling F-188), or ``None``."""
    problem = _slot_problem(state, f)
    if problem is not None:
        return problem
    if not state.skills and skill_level(f, "technical") < 1:
        return (f"{f.id} has no Technical skill and the scenario does not use the skills "
                "option (§14.2: a Technical roll, with the optional skills, F-188)")
    if patient is None or patient.side != f.side or patient.status not in TREATABLE:
        return "the patient must be a figure of the same side on the table"
    if not _beside(f, patient):
        return f"{patient.id} is not within 2 cm of {f.id}"
    if system not in stopped_systems(patient):
        return f"{patient.id} has no stopped system {system!r} that can be repaired"
    return None


def repair_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    broken = [g for g in state.figures.values() if g.side == side and g.cyber_stopped
              and g.status in TREATABLE]
    if not broken:
        return out
    for f in team_figures(state, side):
        for patient in broken:
            for system in stopped_systems(patient):
                if repair_problem(state, f, patient, system) is None:
                    out.append(Action.make(side, "repair", figure=f.id, patient=patient.id,
                                           system=system, hint={"role": "other"}))
    return out


def check_repair(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    patient = state.figures.get(str(action.get("patient")))
    problem = repair_problem(state, f, patient, str(action.get("system")))
    if problem is not None:
        raise IllegalActionError(problem)


def repair(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§14.2: a Technical skill roll; S or CS restores the system (CS +1 to the technician),
    F nothing (failed), CF −1 to the technician and the system dead for the game (F-188)."""
    f = state.figures[str(action.get("figure"))]
    patient = state.figures[str(action.get("patient"))]
    system = str(action.get("system"))
    own = frozenset({f.side})
    f.move_used = True
    roll = skill_use(state, f, "technical", _modifier(state, f), chance,
                      f"{f.id} repairs {patient.id}'s {system}", own)
    table = tables().cyber_systems
    functions = frozenset(c for c in patient.cyber_stopped if table.get(c) == system)
    if roll.result in ("S", "CS"):
        patient.cyber = patient.cyber | functions
        patient.cyber_stopped = patient.cyber_stopped - functions
    elif roll.result == "CF":
        patient.cyber_dead = patient.cyber_dead | functions
    state.last = (f.id, "repair", "")
    log.emit("repair", {"figure": f.id, "patient": patient.id, "system": system,
                        "dice": list(roll.dice), "result": roll.result}, own)


# -- Medical -------------------------------------------------------------------------------

def treat_problem(state: FirewallState, f: Figure, patient: Figure | None) -> str | None:
    """Why ``f`` may not treat ``patient`` now (rulings F-45, F-189, F-190), or ``None``."""
    problem = _slot_problem(state, f)
    if problem is not None:
        return problem
    if skill_level(f, "medical") < 1:
        return f"{f.id} has no Medical skill: a level-0 medic restores nothing (§16.2)"
    if patient is None or patient.side != f.side or patient.carried_by is not None or (
            patient.status not in (*TREATABLE, Status.KILLED)):
        return "the patient must be a figure of the same side lying or standing on the table"
    if not _beside(f, patient):
        return f"{patient.id} is not within 2 cm of {f.id}"
    if patient.healed:
        return f"{patient.id} has had its one treatment of the game (§16.2)"
    if patient.status is not Status.KILLED and patient.gutz >= patient.start_gutz:
        return f"{patient.id} has lost no Gutz"
    return None


def treat_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    medics = [f for f in team_figures(state, side) if skill_level(f, "medical") >= 1]
    if not medics:
        return out
    patients = [g for g in state.figures.values() if g.side == side and not g.healed
                and g.status in (*TREATABLE, Status.KILLED)]
    for f in medics:
        for patient in patients:
            if treat_problem(state, f, patient) is None:
                out.append(Action.make(side, "treat", figure=f.id, patient=patient.id,
                                       hint={"role": "other"}))
    return out


def check_treat(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    problem = treat_problem(state, f, state.figures.get(str(action.get("patient"))))
    if problem is not None:
        raise IllegalActionError(problem)


def treat(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§16.2 (F-45): the Medical skill roll (leader's bonus, no clutter). Heal: S restores
    min(level, lost) Gutz, CS one more (never above the start), CF costs the patient 1; the
    one treatment of the game is spent by an S or CS. Revive (a Killed patient): only a CS,
    back with ⌊Gutz at death / 2⌋ (at least 2), Incapacitated until its side's next Turn."""
    f = state.figures[str(action.get("figure"))]
    patient = state.figures[str(action.get("patient"))]
    own = frozenset({f.side})
    f.move_used = True
    level = skill_level(f, "medical")
    roll = skill_use(state, f, "medical", _modifier(state, f), chance,
                      f"{f.id} treats {patient.id}", own)
    data: dict[str, object] = {"figure": f.id, "patient": patient.id,
                               "dice": list(roll.dice), "result": roll.result}
    if patient.status is Status.KILLED:
        data["revive"] = True
        if roll.result == "CS":
            patient.healed = True
            patient.gutz = max(tables().min_gutz, patient.gutz // 2)
            patient.status = Status.INCAPACITATED
            patient.revived = state.turn
            # ruling F-191: whoever sees the body sees it stir (not its Gutz)
            log.emit("revived", {"figure": patient.id}, _who_sees(state, patient))
    elif roll.result in ("S", "CS"):
        gain = level + (1 if roll.result == "CS" else 0)
        new = min(patient.start_gutz, patient.gutz + gain)
        data["restored"] = new - patient.gutz
        patient.gutz = new
        patient.healed = True
    elif roll.result == "CF":
        change = change_gutz(patient.gutz, -1)
        patient.gutz = change.gutz
        data["restored"] = -1
        if change.status != "active":
            # a helpless patient below 2 dies of it (F-70); an active one routs
            dead = patient.status is Status.INCAPACITATED
            patient.status = Status.KILLED if dead else Status(change.status)
            log.emit("treat-down", {"figure": patient.id, "status": patient.status.value},
                     _who_sees(state, patient))
    state.last = (f.id, "treat", "")
    log.emit("treat", data, own)


def wake_revived(state: FirewallState) -> None:
    """Ruling F-190: a revived figure is Incapacitated until its side's next Turn; it stands
    up active in the upkeep of the Turn after its revival."""
    for f in state.figures.values():
        if f.revived and f.status is Status.INCAPACITATED and state.turn > f.revived:
            f.status = Status.ACTIVE
            f.revived = 0
