"""Vehicle Points (§17.2-§17.6): the price of a design, its checks, and a vehicle in play made
from a sample (§17.9, ruling F-51) or from a design."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from killhouse.rulesets.firewall.tables import ARMOUR_CLASSES, tables
from killhouse.rulesets.firewall.vehicles.catalogue import (
    ARCS,
    CREW_ROLES,
    MOUNT_KINDS,
    MOUNT_TYPES,
    RATES,
    SURFACES,
    catalogue,
)
from killhouse.rulesets.firewall.vehicles.model import Crew, Mount, Vehicle


@dataclass(frozen=True)
class Design:
    """A vehicle as §17.2 defines it: chassis, crew roles, passengers, one rate per surface,
    armour and mounts (each ``{type, kind, arc?, weapon?}``)."""

    name: str
    chassis: str
    crew: tuple[str, ...]
    passengers: int
    move: Mapping[str, str]
    armour: str
    mounts: tuple[Mapping[str, Any], ...]


def design_of(spec: Mapping[str, Any]) -> Design:
    """A design from a sample's or a scenario's mapping."""
    return Design(str(spec.get("name", "vehicle")), str(spec.get("chassis")),
                  tuple(str(r) for r in spec.get("crew", ["driver"])),
                  int(spec.get("passengers", 0)),
                  {str(k): str(v) for k, v in dict(spec.get("move", {})).items()},
                  str(spec.get("armour", "soft")),
                  tuple(dict(m) for m in spec.get("mounts", [])))


def sample(sid: str) -> Design:
    """A §17.9 sample vehicle, as printed."""
    return design_of(catalogue().samples[sid])


def mount_type(mount: Mapping[str, Any]) -> str:
    """The fire type of a mount: the weapon's, or the one the mount names."""
    weapon = mount.get("weapon")
    if weapon is not None:
        return tables().weapon(str(weapon)).mode().fire
    return str(mount.get("type"))


def vehicle_points(d: Design) -> int:
    """The VP a design costs (§17.3-§17.6): crew 2 each (copilot 2, copilot-gunner 3),
    passengers 1 each, the movement rates, armour and mounts (a pintle's price includes its
    gunner)."""
    c = catalogue()
    vp = 0
    for role in d.crew:
        vp += {"copilot": c.copilot_vp, "copilot_gunner": c.copilot_gunner_vp}.get(role, c.crew_vp)
    vp += d.passengers * c.passenger_vp
    vp += sum(int(c.rates[s][r]["vp"]) for s, r in d.move.items())
    vp += c.armour_vp[d.armour]
    for m in d.mounts:
        price = {"hardpoint": c.hardpoint_vp, "turret": c.turret_vp,
                 "pintle": c.pintle_vp}[str(m.get("kind"))]
        vp += int(price[mount_type(m)])
    return vp


def design_problems(d: Design, *, sample_vehicle: bool = False) -> list[str]:
    """Why a design is not allowed (§17.2-§17.6); samples skip the VP limit (ruling F-51)."""
    c = catalogue()
    out: list[str] = []
    chassis = c.chassis.get(d.chassis)
    if chassis is None:
        return [f"unknown chassis {d.chassis!r} (known: {', '.join(c.chassis)})"]
    if not d.crew or d.crew[0] != "driver" or d.crew.count("driver") != 1:
        out.append("a vehicle has exactly one driver, listed first (§17.3)")
    for role in d.crew:
        if role not in CREW_ROLES:
            out.append(f"unknown crew role {role!r} (known: {', '.join(CREW_ROLES)})")
    if d.armour not in ARMOUR_CLASSES:
        out.append(f"unknown armour {d.armour!r} (known: {', '.join(ARMOUR_CLASSES)})")
    if not d.move:
        out.append("a vehicle needs a movement rate on at least one surface (§17.4)")
    for s, r in d.move.items():
        if s not in SURFACES or r not in RATES:
            out.append(f"unknown movement rate {s}: {r} (surfaces {', '.join(SURFACES)}; "
                       f"rates {', '.join(RATES)})")
    if d.passengers < 0:
        out.append("passengers cannot be negative")
    per_arc: dict[str, int] = {}
    for i, m in enumerate(d.mounts):
        kind = str(m.get("kind"))
        if kind not in MOUNT_KINDS:
            out.append(f"mount {i}: unknown kind {kind!r} (hardpoint, turret or pintle)")
            continue
        try:
            fire = mount_type(m)
        except KeyError as exc:
            out.append(f"mount {i}: {exc.args[0]}")
            continue
        if fire not in MOUNT_TYPES:
            out.append(f"mount {i}: a mount carries a VMG or a Gun, not {fire}")
            continue
        if kind == "pintle" and (chassis.bike or fire not in c.pintle_vp):
            out.append(f"mount {i}: a pintle carries one VMG or AV(L), never on a motorcycle")
        if kind == "turret" and chassis.bike:
            out.append(f"mount {i}: motorbikes and trikes carry no turrets (§17.6)")
        if kind == "hardpoint":
            arc = str(m.get("arc"))
            if arc not in ARCS:
                out.append(f"mount {i}: a hard point names its arc (front, back, left, right)")
                continue
            if chassis.bike and arc not in ("front", "back"):
                out.append(f"mount {i}: motorbike hard points face front or back only (§17.6)")
            per_arc[arc] = per_arc.get(arc, 0) + 1
        elif kind == "turret":
            per_arc["turret"] = per_arc.get("turret", 0) + 1
    for arc, n in per_arc.items():
        # ruling F-142: a turret counts against no single arc, but at most two turrets
        if n > c.max_mounts_per_arc:
            out.append(f"at most {c.max_mounts_per_arc} mounts in the {arc} arc (§17.6)")
    gunners = sum(1 for r in d.crew if r in ("gunner", "copilot_gunner"))
    firing = sum(1 for m in d.mounts if m.get("kind") != "pintle")
    if gunners > max(0, firing - 1):
        # §17.3: the driver fires one weapon; one extra gunner per additional weapon
        out.append(f"{gunners} gunners for {firing} mounted weapons: one extra gunner per "
                   "additional weapon fired in the same Turn (§17.3)")
    if not out and not sample_vehicle:
        vp = vehicle_points(d)
        if vp > chassis.max_vp:
            out.append(f"{vp} VP is over the {chassis.name}'s limit of {chassis.max_vp} (§17.2)")
    return out


def make_vehicle(
    vid: str, side: str, d: Design, *, gutz: int, experience: str, drive: int,
    anchor: tuple[int, int], facing: str, level: int = 0, weapons: Mapping[int, str] = {},
) -> Vehicle:
    """A vehicle in play from a checked design: the driver and gunners, a pintle gunner per
    pintle, each mount with its weapon (the scenario's, or the §17.9 default, F-51)."""
    c = catalogue()
    chassis = c.chassis[d.chassis]
    # ruling F-172: a vehicle with an air rate flies everywhere; else its first rate leads
    surface = "air" if "air" in d.move else next(iter(d.move))
    rate = d.move[surface]
    mounts = []
    for i, m in enumerate(d.mounts):
        weapon = weapons.get(i) or m.get("weapon") or c.default_weapon[mount_type(m)]
        mounts.append(Mount(f"m{i + 1}", tables().weapon(str(weapon)).id, str(m["kind"]),
                            None if m.get("arc") is None else str(m["arc"])))
    crew = [Crew(r) for r in d.crew] + [Crew("pintle") for m in mounts if m.kind == "pintle"]
    v = Vehicle(vid, side, f"{vid}-crew", d.name, d.chassis, d.armour, surface, rate,
                experience, drive, gutz, gutz, anchor, facing, chassis.length,
                chassis.width, level, crew, mounts, d.passengers)
    v.rates = dict(d.move)
    return v
