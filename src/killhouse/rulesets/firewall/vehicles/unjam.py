"""Clearing a jammed vehicle weapon (§11.2 with §17.8; ruling F-170).

The crew position that may fire the mount clears it: the pintle gunner his pintle, the driver
or a gunner (copilot-gunner) any other mount. The driver spends his Movement action, as §11.2
says (so the vehicle does not drive on in that Turn); a gunner has no Movement action (§17.8)
and spends his one action. The roll is the collective crew Gutz with no modifier: no clutter,
no suppression (F-30), no leader bonus for a crew (F-150). CS: ready, crew +1; S: ready;
F: still jammed and the position has failed (the 1/3 rule counts it); CF: useless, crew −1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.gutz import gutz_roll
from killhouse.rulesets.firewall.jams import unjam_effect
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.vehicles.crew import crew_stopped, team_vehicle
from killhouse.rulesets.firewall.vehicles.damage import crew_gain, destroy
from killhouse.rulesets.firewall.vehicles.model import fires_mount

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState

@dataclass(frozen=True)
class VUnjam:
    """A crew position clearing one jammed mount of its vehicle."""

    vehicle: str
    crew: int
    mount: str


def unjam_problem(state: FirewallState, u: VUnjam) -> str | None:
    """Why this crew position may not clear this mount now (ruling F-170), or ``None``."""
    v = state.vehicles.get(u.vehicle)
    if v is None or not v.active:
        return f"{u.vehicle} is not a running vehicle"
    if state.active_team != v.team:
        return f"{v.id}'s crew is not the active team"
    if not 0 <= u.crew < len(v.crew):
        return f"{v.id} has no crew position {u.crew}"
    c = v.crew[u.crew]
    mount = next((m for m in v.mounts if m.id == u.mount), None)
    if mount is None:
        return f"{v.id} has no mount {u.mount}"
    if mount.state != "jammed":
        return f"{mount.id} is {mount.state}, not jammed (§11.2)"
    if not fires_mount(c.role, mount):
        return (f"crew position {u.crew} ({c.role}) does not fire {mount.id}: the crew "
                "position that fires a mount clears it (F-170)")
    if c.out or c.failed or crew_stopped(v):
        return f"crew position {u.crew} of {v.id} has no action left this Turn"
    if c.moves and c.move_used:
        return f"{v.id}'s driver has used his Movement action this Turn (§11.2)"
    if not c.moves and c.combat_used:
        return f"crew position {u.crew} of {v.id} has used its action this Turn"
    return None


def _u(action: Action) -> VUnjam:
    return VUnjam(str(action.get("vehicle")), int(action.get("crew")), str(action.get("mount")))


def vunjam_options(state: FirewallState, side: str) -> Iterable[Action]:
    """Every crew position of the active vehicle that may clear one of its jammed mounts."""
    if state.active_team is None or state.teams[state.active_team].side != side:
        return []
    v = team_vehicle(state, state.active_team)
    if v is None or not any(m.state == "jammed" for m in v.mounts):
        return []
    out = []
    for i in range(len(v.crew)):
        for m in v.mounts:
            act = Action.make(side, "vehicle-unjam", vehicle=v.id, crew=i, mount=m.id)
            if unjam_problem(state, _u(act)) is None:
                out.append(dataclasses.replace(act, hint={
                    "role": "task", "p": _p(v.gutz), "driver": v.crew[i].moves}))
    return out


def _p(gutz: int) -> float:
    from killhouse.rulesets.firewall.fireorders import _chance_of_success
    return float(_chance_of_success(gutz, 0))


def check_vunjam(state: FirewallState, action: Action) -> None:
    problem = unjam_problem(state, _u(action))
    if problem is not None:
        raise IllegalActionError(problem)


def resolve_vunjam(state: FirewallState, u: VUnjam, chance: Chance, log: EventLog) -> str:
    """Roll and apply ruling F-170; refuses an illegal clearing before any change."""
    problem = unjam_problem(state, u)
    if problem is not None:
        raise IllegalActionError(problem)
    v = state.vehicles[u.vehicle]
    c = v.crew[u.crew]
    mount = next(m for m in v.mounts if m.id == u.mount)
    if c.moves:
        c.move_used = True
    else:
        c.combat_used = True
    own = frozenset({v.side})
    roll = gutz_roll(chance, v.gutz, 0, f"{v.id} un-jams {mount.id}", own)
    weapon_state, change = unjam_effect(roll.result)
    mount.state = weapon_state
    crew_gain(v, change)
    if roll.result in ("F", "CF"):
        c.failed = True
    destroyed = v.gutz < tables().min_gutz
    if destroyed:
        destroy(state, v)
    log.emit("vehicle-unjam", {"vehicle": v.id, "crew": u.crew, "mount": mount.id,
                               "dice": list(roll.dice), "result": roll.result,
                               "state": mount.state, "destroyed": destroyed}, own)
    return roll.result


def vunjam(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_vunjam(state, _u(action), chance, log)
    state.last = (str(action.get("vehicle")), "unjam", "")
