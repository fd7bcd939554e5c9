"""Vehicles firing and being fired at (§7.3, §7.4.2, §7.4.3, §7.8, §17.6; rulings F-22,
F-29, F-49, F-50).

A vehicle weapon fires once a Turn, by one crew position's Combat action, with the collective
crew Gutz: a hard point into its 90° arc, a turret into any, a pintle through 360° (only by its
own gunner). It is measured and aimed from the footprint square nearest the target, and a
vehicle target is measured to its footprint square nearest the firer (ruling F-143). Against
a vehicle the roll takes the weapon, range, suppression, night, leader, optics and riding
modifiers, no cover, prone or clutter (ruling F-149); the result is the SS(A) table, the AV
matrix, or (soft skin only) the weapon's own table against the crew Gutz.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.footprint import model_arc
from killhouse.core.geometry import line_of_sight
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall import armour as arm
from killhouse.rulesets.firewall.fire import (
    FireSituation,
    apply_hit,
    can_affect_vehicle,
    fire_modifier,
    infantry_outcome,
    range_band,
)
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll
from killhouse.rulesets.firewall.jams import malfunction_roll
from killhouse.rulesets.firewall.shooting import (
    CONTACT_CM,
    HAND_GRENADE,
    Shot,
    _apply_malfunction,
    _grenade_problem,
    resolve_shot,
)
from killhouse.rulesets.firewall.tables import GUNS, tables
from killhouse.rulesets.firewall.teams import Figure, Status, bonus_for, resolve_leader_loss
from killhouse.rulesets.firewall.vehicles.crew import crew_stopped
from killhouse.rulesets.firewall.vehicles.damage import (
    apply_effect,
    crew_gain,
    destroy,
    effect_on_vehicle,
)
from killhouse.rulesets.firewall.vehicles.model import Mount, Vehicle, fires_mount
from killhouse.rulesets.firewall.vehicles.sight import (
    figures_seen,
    lifted,
    nearest_square,
    vehicles_seen,
)

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState

XY = tuple[int, int]
#: fire types that are bursts with radii (§7.4.1)
BURSTS = frozenset({"B", "B(MG)", "B(HMG)", "VMG"})


@dataclass(frozen=True)
class VFire:
    """A vehicle weapon fired by one crew position at a figure or a vehicle."""

    vehicle: str
    crew: int
    mount: str
    target: str


@dataclass(frozen=True)
class AtVehicle:
    """A figure's ranged attack at a vehicle (SS(A), a Gun, or anything at soft skin)."""

    figure: str
    weapon: str
    vehicle: str
    fire: str | None = None
    grenade: str | None = None
    #: at the pintle gunner rather than the vehicle (§17.6, ruling F-158)
    gunner: bool = False


def aim(state: FirewallState, v: Vehicle, target: str) -> tuple[XY, XY, int] | None:
    """(firing square, aimed square, level) for a target figure or vehicle."""
    if target in state.figures:
        f = state.figures[target]
        return nearest_square(v, f.cell), f.cell, f.level
    other = state.vehicles.get(target)
    if other is None:
        return None
    centre = v.squares()[len(v.squares()) // 2]
    at = nearest_square(other, centre)
    return nearest_square(v, at), at, other.level


def in_arc(v: Vehicle, arc: str | None, kind: str, square: XY) -> bool:
    """Ruling F-49: hard points fire into their 90° arc (45° lines belong to front/back)."""
    if kind != "hardpoint":
        return True
    return model_arc(v.cells(), v.facing, Cell(v.level, *square)) == arc


def vfire_problem(state: FirewallState, vf: VFire) -> str | None:
    """Why the vehicle may not fire this weapon at this target now, or ``None``."""
    v = state.vehicles.get(vf.vehicle)
    if v is None or not v.active:
        return f"{vf.vehicle} is not a running vehicle"
    if not 0 <= vf.crew < len(v.crew):
        return f"{v.id} has no crew position {vf.crew}"
    c = v.crew[vf.crew]
    if c.out or c.combat_used or c.failed or crew_stopped(v):
        return f"crew position {vf.crew} of {v.id} has no Combat action left this Turn"
    mount = next((m for m in v.mounts if m.id == vf.mount), None)
    if mount is None:
        return f"{v.id} has no mount {vf.mount}"
    if (mount.kind == "pintle") != (c.role == "pintle"):
        return "a pintle weapon is fired by its own gunner only, and he fires nothing else"
    if not fires_mount(c.role, mount):
        return "a copilot who is not a gunner fires no vehicle weapon (§17.3)"
    if mount.fired:
        return f"{mount.id} has fired this Turn (§7.8)"
    if mount.state != "ready":
        return f"{mount.id} is {mount.state}"
    weapon = tables().weapons[mount.weapon]
    place = aim(state, v, vf.target)
    if place is None:
        return f"no target {vf.target!r}"
    start, at, level = place
    if level != v.level:
        return "the target is on another level"
    if vf.target in state.figures:
        f = state.figures[vf.target]
        if f.side == v.side:
            return "a vehicle may not fire at its own side"
        if vf.target not in figures_seen(state.board, state.figures, state.vehicles, v.side):
            return f"{vf.target} is not a figure the side sees"
        if f.status not in (Status.ACTIVE, Status.INCAPACITATED):
            return f"{vf.target} is not on the table"
    else:
        other = state.vehicles[vf.target]
        if other.side == v.side or not other.active:
            return f"{other.id} is not an enemy vehicle in play"
        if other.id not in vehicles_seen(state.board, state.figures, state.vehicles, v.side):
            return f"{other.id} is not a vehicle the side sees"
        if not can_affect_vehicle(weapon.mode().fire, other.armour):
            return (f"{weapon.name} ({weapon.mode().fire}) cannot hurt {other.armour} armour "
                    "(F-50)")
    if not in_arc(v, mount.arc, mount.kind, at):
        return f"the target is outside {mount.id}'s {mount.arc} arc (§17.6)"
    if range_band(weapon, start, at) is None:
        return f"the target is beyond {weapon.name}'s Long range of {weapon.long} cm (F-19)"
    targets = [state.vehicles[vf.target]] if vf.target in state.vehicles else []
    with lifted(state.board, v, *targets):
        if not line_of_sight(state.board.opaque(level), start, at, mode="supercover"):
            return f"{v.id} has no line of sight to {vf.target} (F-24)"
    return None


def _crew_figure(state: FirewallState, v: Vehicle, mount_id: str, start: XY, at: XY) -> Figure:
    """The crew position as the firer of one shot at a figure: on the firing square, facing
    the target, with the mount's weapon and the crew's Gutz (ruling F-150)."""
    mount = next(m for m in v.mounts if m.id == mount_id)
    dx, dy = at[0] - start[0], at[1] - start[1]
    facing = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    return Figure(id=v.id, side=v.side, team=v.team, kind="crew", experience=v.experience,
                  start_gutz=v.start_gutz, gutz=v.gutz, cell=start, level=v.level,
                  facing=facing, weapons=(mount.weapon,),
                  weapon_state={mount.weapon: mount.state}, rolls_leader_loss=False)


def resolve_vfire(state: FirewallState, vf: VFire, chance: Chance, log: EventLog) -> Result:
    """Resolve a legal vehicle shot; refuses an illegal one before any change."""
    problem = vfire_problem(state, vf)
    if problem is not None:
        raise IllegalActionError(problem)
    v = state.vehicles[vf.vehicle]
    c = v.crew[vf.crew]
    mount = next(m for m in v.mounts if m.id == vf.mount)
    start, at, _ = aim(state, v, vf.target) or ((0, 0), (0, 0), 0)
    if vf.target in state.vehicles:
        result = _at_vehicle(state, v, None, mount.weapon, None, None,
                             state.vehicles[vf.target], start, at, chance, log, mount)
        c.combat_used = True
        mount.fired = True
        if result in ("F", "CF"):
            c.failed = True
        return result
    crew = _crew_figure(state, v, mount.id, start, at)
    figures = {**state.figures, crew.id: crew}
    with lifted(state.board, v):
        report = resolve_shot(state.board, figures, state.teams, Shot(crew.id, mount.weapon,
                                                                      vf.target),
                              chance, log, night=state.night, sides=state.sides, mounted=True)
    c.combat_used = True
    mount.fired = True
    if report.result in ("F", "CF"):
        c.failed = True
    # the crew's own change and a malfunction come back to the vehicle (F-29)
    v.gutz = crew.gutz
    _vehicle_malfunction(state, v, mount, report.malfunction, crew)
    if v.active and v.gutz < tables().min_gutz:
        destroy(state, v)
    splash_vehicles(state, mount.weapon, None, report.result, vf.target, v.id, log)
    return report.result


def _vehicle_malfunction(state: FirewallState, v: Vehicle, mount: object,
                         effect: str | None, crew: Figure | None = None) -> None:
    """Ruling F-29: jammed / useless as for any weapon; 5 the vehicle −2 and the weapon
    useless; 6+ the vehicle destroyed."""
    assert isinstance(mount, Mount)
    if effect in (None, "dud"):
        return
    if effect == "jammed":
        mount.state = "jammed"
    elif effect in ("useless", "dud_wrecks_launcher"):
        mount.state = "useless"
    elif effect == "explodes":
        mount.state = "useless"
        if crew is None:  # the loss already came through the crew figure otherwise
            v.gutz = change_gutz(v.gutz, -int(tables().malfunction["explosion_loss"])).gutz
        if v.gutz < tables().min_gutz:
            destroy(state, v)
    elif effect == "killed":
        mount.state = "useless"
        destroy(state, v)


def at_vehicle_problem(state: FirewallState, a: AtVehicle) -> str | None:
    """Why a figure may not attack this vehicle now (§7.1 with F-50, F-143), or ``None``."""
    f = state.figures.get(a.figure)
    v = state.vehicles.get(a.vehicle)
    if f is None or v is None:
        return "no such figure or vehicle"
    if not f.active:
        return f"{f.id} is not active"
    if f.combat_used or f.failed_this_turn:
        return f"{f.id} has no Combat action left this Turn"
    if v.side == f.side or not v.active:
        return f"{v.id} is not an enemy vehicle in play"
    if v.id not in vehicles_seen(state.board, state.figures, state.vehicles, f.side):
        return f"{v.id} is not a vehicle the side sees"
    if a.weapon not in f.weapons and a.weapon != HAND_GRENADE:
        return f"{f.id} does not carry {a.weapon}"
    if f.weapon_state.get(a.weapon, "ready") != "ready":
        return f"{a.weapon} is {f.weapon_state[a.weapon]}"
    weapon = tables().weapons[a.weapon]
    try:
        mode = weapon.mode(a.fire)
    except ValueError as exc:
        return str(exc)
    attack = mode.fire
    if mode.fire == "Spec":
        if a.grenade is None:
            return f"{weapon.name} needs a grenade type"
        problem = _grenade_problem(f, a.grenade)
        if problem is not None:
            return problem
        attack = tables().grenade(a.grenade).fire
    elif a.grenade is not None:
        return f"{weapon.name} does not fire grenades"
    if a.gunner:
        if not any(c.role == "pintle" and not c.out for c in v.crew):
            return f"{v.id} has no pintle gunner to shoot at"
    elif not can_affect_vehicle(attack, v.armour):
        return f"{weapon.name} ({attack}) cannot hurt {v.armour} armour (F-50)"
    for other in state.figures.values():
        if other.side != f.side and other.active and other.level == f.level and within(
                f.cell, other.cell, CONTACT_CM):
            return f"{f.id} is within 2 cm of {other.id}: close combat only (F-31)"
    at = nearest_square(v, f.cell)
    if v.level != f.level:
        return "the vehicle is on another level"
    if range_band(weapon, f.cell, at) is None:
        return f"{v.id} is beyond {weapon.name}'s Long range of {weapon.long} cm (F-19)"
    dx, dy = at[0] - f.cell[0], at[1] - f.cell[1]
    if f.facing[0] * dx + f.facing[1] * dy < 0:
        return f"{v.id} is outside {f.id}'s 180° front arc"
    with lifted(state.board, v):
        if not line_of_sight(state.board.opaque(f.level), f.cell, at, mode="supercover"):
            return f"{f.id} has no line of sight to {v.id} (F-24)"
    return None


def resolve_at_vehicle(state: FirewallState, a: AtVehicle, chance: Chance,
                       log: EventLog) -> Result:
    """Resolve a legal attack of a figure at a vehicle."""
    problem = at_vehicle_problem(state, a)
    if problem is not None:
        raise IllegalActionError(problem)
    f = state.figures[a.figure]
    v = state.vehicles[a.vehicle]
    at = nearest_square(v, f.cell)
    f.combat_used = True
    if a.grenade is not None:
        f.grenades[tables().grenade(a.grenade).id] -= 1
    if a.gunner:
        result = _at_gunner(state, f, a, v, at, chance, log)
    else:
        result = _at_vehicle(state, None, f, a.weapon, a.fire, a.grenade, v, f.cell, at,
                             chance, log)
    if result in ("F", "CF"):
        f.failed_this_turn = True
    return result


def vehicle_situation(state: FirewallState, firer: Figure | None, weapon: str,
                      fire: str | None, grenade: str | None, start: XY, at: XY
                      ) -> FireSituation:
    """The modifiers of a shot at a vehicle (ruling F-149)."""
    w = tables().weapons[weapon]
    band = range_band(w, start, at)
    assert band is not None
    g = tables().grenade(grenade) if grenade else None
    if firer is None:
        return FireSituation(mode=w.mode(fire), band=band, vs_infantry=False,
                             night=state.night)
    return FireSituation(
        mode=w.mode(fire), band=band, fire_type=g.fire if g else None, vs_infantry=False,
        suppressed=firer.suppressed, night=state.night,
        night_vision="lo_light" in firer.cyber or "ir_goggles" in firer.cyber,
        transport=firer.rode,
        leader=bonus_for(firer, state.teams[firer.team], state.figures),
        target_optic="target_optic" in firer.cyber,
        combat_computer="combat_computer" in firer.cyber)


def _at_vehicle(state: FirewallState, shooter: Vehicle | None, firer: Figure | None,
                weapon: str, fire: str | None, grenade: str | None, target: Vehicle,
                start: XY, at: XY, chance: Chance, log: EventLog,
                mount: Mount | None = None) -> Result:
    """The roll and its effect on the target vehicle, the firer's change, the malfunction
    (on ``mount``, the vehicle weapon fired)."""
    t = tables()
    w = t.weapons[weapon]
    situation = vehicle_situation(state, firer, weapon, fire, grenade, start, at)
    attack = situation.attack_type
    mod = fire_modifier(situation)
    side = shooter.side if shooter else firer.side if firer else ""
    name = shooter.id if shooter else firer.id if firer else ""
    gutz = shooter.gutz if shooter else firer.gutz if firer else 2
    seeing = frozenset(s for s in state.sides if s == side or (
        shooter is not None and shooter.id in vehicles_seen(
            state.board, state.figures, state.vehicles, s)) or (
        firer is not None and firer.id in figures_seen(
            state.board, state.figures, state.vehicles, s))) | {target.side}
    roll = gutz_roll(chance, gutz, mod, f"{name} fires {w.name} at {target.id}", seeing)
    effect = effect_on_vehicle(attack, roll.result, target.armour)
    destroyed = apply_effect(state, target, effect)
    hurt = _burst_on_figures(state, attack, roll.result, at, target, name, weapon, grenade)
    change = 1 if roll.result == "CS" else -1 if roll.result == "CF" else 0
    mode = w.mode(fire)
    malfunction = None
    if roll.result == "CF" and mode.malf is not None:
        malfunction = malfunction_roll(chance, mode.malf, mode.fire,
                                       shooter.experience if shooter else
                                       firer.experience if firer else "normal",
                                       w.grenade or w.launcher, audience=seeing)
    if shooter is not None:
        crew_gain(shooter, change)
        if mount is not None:
            _vehicle_malfunction(state, shooter, mount, malfunction)
        if shooter.active and shooter.gutz < t.min_gutz:
            destroy(state, shooter)
    elif firer is not None:
        ch = change_gutz(firer.gutz, change)
        firer.gutz = ch.gutz
        if ch.status != "active":
            firer.status = Status(ch.status)
        positions = {g.id: g.cell for g in state.figures.values() if g.level == firer.level
                     and g.status in (Status.ACTIVE, Status.INCAPACITATED)}
        _apply_malfunction(state.figures, firer, Shot(firer.id, weapon, firer.id, fire, grenade),
                           malfunction, attack, w.armour, False, positions)
        state.teams[firer.team].aware = True
    state.teams[target.team].aware = True
    data = {"firer": name, "vehicle": target.id, "weapon": w.name, "dice": list(roll.dice),
            "result": roll.result, "effect": effect, "destroyed": destroyed,
            "gutz_left": None, "malfunction": malfunction, "hurt": hurt}
    from killhouse.rulesets.firewall.vehicles.views import known_vehicle_ids
    known = {s: {g.id for g in state.figures.values() if g.side == s}
             | figures_seen(state.board, state.figures, state.vehicles, s) for s in state.sides}
    views = {}
    for s in state.sides:
        copy = {**data, "hurt": [h for h in hurt if h in known[s]]}
        if target.id not in known_vehicle_ids(state, s):
            copy["vehicle"] = None  # a third side that never saw it (§21.4)
        if s not in seeing:
            copy["firer"] = None
            copy["dice"] = None
        if s == target.side:
            copy["gutz_left"] = target.gutz
        views[s] = copy
    log.emit("vehicle-hit", data, frozenset(state.sides), views)
    for team in state.teams.values():
        resolve_leader_loss(team, state.figures, chance)
    state.combat_happened = True
    return roll.result


def _burst_on_figures(state: FirewallState, attack: str, result: Result, at: XY,
                      target: Vehicle, firer: str, weapon: str, grenade: str | None) -> list[str]:
    """A burst at a soft-skin vehicle also hits the figures around it (§7.4.1, S15): radii
    from the aimed footprint square; never the firer (F-20)."""
    if attack not in BURSTS or result not in ("S", "CS"):
        return []
    positions = {g.id: g.cell for g in state.figures.values() if g.level == target.level
                 and g.status in (Status.ACTIVE, Status.INCAPACITATED) and g.id != firer}
    marker = f"{target.id}#aim"
    out = infantry_outcome(attack, result, marker, {**positions, marker: at}, firer)
    return _hit_figures(state, {k: h for k, h in out.hits.items() if k != marker}, weapon,
                        grenade)


def _hit_figures(state: FirewallState, hits: object, weapon: str,
                 grenade: str | None) -> list[str]:
    from collections.abc import Mapping

    from killhouse.rulesets.firewall.fire import Hit
    assert isinstance(hits, Mapping)
    t = tables()
    w = t.weapons[weapon]
    g = t.grenade(grenade) if grenade else None
    rule = g.armour if g is not None else w.armour
    nonlethal = w.nonlethal or (g is not None and g.nonlethal)
    done = []
    for fid, hit in sorted(hits.items()):
        assert isinstance(hit, Hit)
        victim = state.figures[fid]
        armour = t.armour[victim.armour]
        r = arm.reduction(armour, rule, flame=w.flame)
        after = apply_hit(victim.gutz, victim.status.value, victim.suppressed, hit, r,
                          nonlethal=nonlethal)
        victim.gutz, victim.status, victim.suppressed = (
            after.gutz, Status(after.status), after.suppressed)
        state.teams[victim.team].aware = True
        done.append(fid)
    return done


def splash_vehicles(state: FirewallState, weapon: str, grenade: str | None, result: Result,
                    target: str, firer: str, log: EventLog | None = None) -> list[str]:
    """Ruling F-20 / F-151: vehicles inside a burst's radii around a figure target take the
    result too when the fire type can hurt their armour (CS inside the kill radius, S inside
    the loss radius); never suppressed."""
    if result not in ("S", "CS") or target not in state.figures:
        return []
    t = tables()
    w = t.weapons[weapon]
    attack = t.grenade(grenade).fire if grenade else w.mode().fire
    if attack not in BURSTS and attack != "SS(A)" and attack not in GUNS:
        return []
    from killhouse.rulesets.firewall.fire import infantry_table
    row = t.results[infantry_table(attack)]
    radius = row.cs_kill_radius if result == "CS" else row.s_loss_radius
    centre = state.figures[target]
    hit = []
    for v in state.vehicles.values():
        if not v.active or v.id == firer or v.level != centre.level or radius is None:
            continue
        if not can_affect_vehicle(attack, v.armour):
            continue
        if within(nearest_square(v, centre.cell), centre.cell, radius):
            effect = effect_on_vehicle(attack, result, v.armour)
            destroyed = apply_effect(state, v, effect)
            hit.append(v.id)
            if log is not None:
                from killhouse.rulesets.firewall.vehicles.views import known_vehicle_ids
                knows = frozenset(s for s in state.sides if v.id in known_vehicle_ids(state, s))
                log.emit("vehicle-caught", {"vehicle": v.id, "result": result,
                                            "effect": effect, "destroyed": destroyed}, knows)
    return hit



def gunner_situation(state: FirewallState, f: Figure, a: AtVehicle, v: Vehicle,
                     at: XY) -> FireSituation:
    """A shot at a pintle gunner: an infantry shot (SS(A) and Guns −2) with the cover of the
    vehicle's armour: Soft none, Light −1, Medium −3, Heavy −5 (§7.5, §17.6)."""
    from killhouse.rulesets.firewall.vehicles.catalogue import catalogue
    base = vehicle_situation(state, f, a.weapon, a.fire, a.grenade, f.cell, at)
    cover = catalogue().pintle_cover[v.armour]
    return dataclasses.replace(base, vs_infantry=True, cover=cover)  # type: ignore[arg-type]


def _at_gunner(state: FirewallState, f: Figure, a: AtVehicle, v: Vehicle, at: XY,
               chance: Chance, log: EventLog) -> Result:
    """Ruling F-158: the fire type's infantry table against the pintle gunner; a kill takes
    the position out for the game (the pintle falls silent), a Gutz loss comes off the
    collective crew Gutz without personal armour; only the gunner is hit."""
    from killhouse.rulesets.firewall.fire import infantry_table
    t = tables()
    w = t.weapons[a.weapon]
    situation = gunner_situation(state, f, a, v, at)
    attack = situation.attack_type
    seeing = frozenset(s for s in state.sides if s == f.side or f.id in figures_seen(
        state.board, state.figures, state.vehicles, s)) | {v.side}
    roll = gutz_roll(chance, f.gutz, fire_modifier(situation),
                     f"{f.id} fires {w.name} at {v.id}'s pintle gunner", seeing)
    gunner = next(c for c in v.crew if c.role == "pintle" and not c.out)
    if roll.result == "CS":
        gunner.out = True
    elif roll.result == "S":
        apply_effect(state, v, t.results[infantry_table(attack)].s_loss)
    change = 1 if roll.result == "CS" else -1 if roll.result == "CF" else 0
    ch = change_gutz(f.gutz, change)
    f.gutz = ch.gutz
    if ch.status != "active":
        f.status = Status(ch.status)
    mode = w.mode(a.fire)
    malfunction = None
    if roll.result == "CF" and mode.malf is not None:
        malfunction = malfunction_roll(chance, mode.malf, mode.fire, f.experience,
                                       w.grenade or w.launcher, audience=seeing)
        positions = {g.id: g.cell for g in state.figures.values() if g.level == f.level
                     and g.status in (Status.ACTIVE, Status.INCAPACITATED)}
        _apply_malfunction(state.figures, f, Shot(f.id, a.weapon, f.id, a.fire, a.grenade),
                           malfunction, attack, w.armour, False, positions)
    state.teams[f.team].aware = state.teams[v.team].aware = True
    log.emit("gunner-hit", {"firer": f.id, "vehicle": v.id, "weapon": w.name,
                            "dice": list(roll.dice), "result": roll.result,
                            "gunner_out": gunner.out, "malfunction": malfunction}, seeing)
    for team in state.teams.values():
        resolve_leader_loss(team, state.figures, chance)
    state.combat_happened = True
    return roll.result
