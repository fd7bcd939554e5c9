"""Close combat against a vehicle (§10, ruling F-31): a figure touching the footprint
attacks it at −4, +4 with a grenade or improvised bomb (used up), weapon classes not counted;
CS destroys it, S costs it 2 Gutz, CF kills the attacker and gives the crew +1. Vehicles never
make close-combat attacks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall.grid import model_within, within
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll
from killhouse.rulesets.firewall.melee import MeleeSituation, melee_modifier, melee_outcome
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status, bonus_for, resolve_leader_loss
from killhouse.rulesets.firewall.vehicles.damage import apply_effect, crew_gain
from killhouse.rulesets.firewall.vehicles.model import Vehicle
from killhouse.rulesets.firewall.vehicles.sight import figures_seen, nearest_square, vehicles_seen

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState

REACH_CM = 2
BOMBS = ("improvised_bomb_ap", "improvised_bomb_av")


@dataclass(frozen=True)
class Assault:
    """A close-combat attack on a vehicle, with a grenade type or a bomb (``using``)."""

    figure: str
    vehicle: str
    using: str | None = None


def assault_problem(state: FirewallState, a: Assault) -> str | None:
    f = state.figures.get(a.figure)
    v = state.vehicles.get(a.vehicle)
    if f is None or v is None:
        return "no such figure or vehicle"
    if not f.active or f.combat_used or f.failed_this_turn:
        return f"{f.id} has no Combat action left this Turn"
    if v.side == f.side or not v.active:
        return f"{v.id} is not an enemy vehicle in play"
    if v.id not in vehicles_seen(state.board, state.figures, state.vehicles, f.side):
        return f"{v.id} is not a vehicle the side sees"
    if f.level != v.level or not model_within([f.cell], v.squares(), REACH_CM):
        return f"{v.id} is not within 2 cm of {f.id}"
    if a.using is not None:
        if a.using in BOMBS:
            if a.using not in f.weapons:
                return f"{f.id} carries no {a.using}"
        else:
            try:
                kind = tables().grenade(a.using)
            except KeyError:
                return f"no grenade type {a.using!r} (section 9)"
            if f.grenades.get(kind.id, 0) <= 0:
                return f"{f.id} has no {kind.name} grenade left"
    return None


def assault_situation(state: FirewallState, f: Figure, v: Vehicle,
                      using: str | None) -> MeleeSituation:
    """Ruling F-31 against a vehicle: the extra figures around the attacker and around the
    footprint, the higher Clutter of the attacker's square and the nearest footprint square."""
    near = nearest_square(v, f.cell)
    level = state.board.levels[v.level]
    clutter = max(state.board.clutter(Cell(f.level, *f.cell)), int(level.clutter[near[1],
                                                                                    near[0]]))
    enemies = sum(1 for g in state.figures.values() if g.active and g.side != f.side
                  and g.level == f.level and within(f.cell, g.cell, REACH_CM))
    friends = sum(1 for g in state.figures.values() if g.active and g.side == f.side
                  and g.id != f.id and g.level == v.level
                  and model_within([g.cell], v.squares(), REACH_CM))
    return MeleeSituation(vs_vehicle=True, with_grenade=using is not None,
                          extra_enemies=enemies, extra_friends=friends, clutter=clutter,
                          suppressed=f.suppressed,
                          leader=bonus_for(f, state.teams[f.team], state.figures),
                          cyber_arm="cyber_arm" in f.cyber,
                          combat_computer="combat_computer" in f.cyber,
                          strength=int(f.skills.get("strength", 0)), transport=f.rode)


def resolve_assault(state: FirewallState, a: Assault, chance: Chance, log: EventLog) -> Result:
    problem = assault_problem(state, a)
    if problem is not None:
        raise IllegalActionError(problem)
    f, v = state.figures[a.figure], state.vehicles[a.vehicle]
    mod = melee_modifier(assault_situation(state, f, v, a.using))
    f.combat_used = True
    if a.using in BOMBS:
        f.weapons = tuple(w for w in f.weapons if w != a.using)
    elif a.using is not None:
        f.grenades[tables().grenade(a.using).id] -= 1
    seeing = frozenset(s for s in state.sides if s == f.side or f.id in figures_seen(
        state.board, state.figures, state.vehicles, s)) | {v.side}
    roll = gutz_roll(chance, f.gutz, mod, f"{f.id} attacks {v.id} in close combat", seeing)
    out = melee_outcome(roll.result, vs_vehicle=True)
    destroyed = False
    if out.target_killed:
        destroyed = apply_effect(state, v, "kill")
    elif out.target_loss:
        destroyed = apply_effect(state, v, out.target_loss)
    if out.target_gain and v.active:
        crew_gain(v, out.target_gain)
    if out.attacker_gain:
        f.gutz = change_gutz(f.gutz, out.attacker_gain).gutz
    if out.attacker_killed:
        f.status = Status.KILLED
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
    state.teams[f.team].aware = True
    state.teams[v.team].aware = True
    log.emit("vehicle-assault", {"figure": f.id, "vehicle": v.id, "dice": list(roll.dice),
                                 "result": roll.result, "destroyed": destroyed,
                                 "using": a.using}, seeing)
    for team in state.teams.values():
        resolve_leader_loss(team, state.figures, chance)
    state.combat_happened = True
    return roll.result
