"""Ranged combat (digest §7): range bands, modifiers, result tables and area effects.

Pure functions: positions are squares, distances are model distances (ruling F-1), and
every area effect is computed from positions at the moment of the roll (ruling F-20).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from killhouse.rulesets.firewall.grid import Cell, within
from killhouse.rulesets.firewall.gutz import Result
from killhouse.rulesets.firewall.tables import GUNS, Mode, Weapon, tables

Band = Literal["short", "effective", "long"]
Cover = Literal["none", "light", "medium", "heavy"]


def range_band(weapon: Weapon, firer: Cell, target: Cell) -> Band | None:
    """Short / effective / long by model distance, inclusive; ``None`` beyond Long (F-19)."""
    if within(firer, target, weapon.short):
        return "short"
    if within(firer, target, weapon.effect):
        return "effective"
    if within(firer, target, weapon.long):
        return "long"
    return None


def infantry_table(fire_type: str) -> str:
    """The result table a fire type uses against infantry (§7.3)."""
    return tables().infantry_table[fire_type]


@dataclass(frozen=True)
class FireSituation:
    """Everything §7.5 adds to a shot's target number (ruling F-2: modifiers add to Gutz)."""

    mode: Mode
    band: Band
    fire_type: str | None = None  # the grenade's type for Spec, else the mode's
    vs_infantry: bool = True
    suppressed: bool = False
    target_prone: bool = False
    cover: Cover = "none"
    intervening_cover: bool = False
    night: bool = False
    night_vision: bool = False
    target_clutter: int = 0
    two_weapons: bool = False
    passenger: bool = False
    transport: str = "none"
    leader: int = 0
    target_optic: bool = False
    combat_computer: bool = False
    built_in: bool = False
    drug: int = 0

    @property
    def attack_type(self) -> str:
        return self.fire_type or self.mode.fire


def fire_terms(s: FireSituation) -> list[tuple[str, int]]:
    """The named modifiers of §7.5 that apply, in table order (zeros left out)."""
    m = tables().fire["modifiers"]
    terms: list[tuple[str, int]] = [
        ("weapon", s.mode.gutz),
        (f"{s.band} range", int(tables().fire["range_band"][s.band])),
    ]
    if s.attack_type == "CB":
        terms.append(("controlled burst", int(m["controlled_burst"])))
    if s.suppressed:
        terms.append(("firer suppressed", int(m["suppressed"])))
    if s.vs_infantry and (s.attack_type == "SS(A)" or s.attack_type in GUNS):
        # ruling F-22: the −2 of the conversion, applied once
        terms.append(("anti-armour vs infantry", int(m["anti_armour_vs_infantry"])))
    if s.target_prone:
        terms.append(("target prone", int(m["target_prone"])))
    terms.append(("cover", int(m["cover"][s.cover])))
    if s.intervening_cover:
        terms.append(("intervening cover", int(m["intervening_cover"])))
    if s.night and not s.night_vision:
        # ruling F-44: a Lo Light eye or IR goggles cancel the night part
        terms.append(("night", int(m["night"])))
    terms.append(("target clutter", int(m["clutter"][s.target_clutter])))
    if s.two_weapons:
        terms.append(("two weapons", int(m["two_weapons"])))  # ruling F-34
    if s.passenger:
        terms.append(("passenger", int(m["passenger"])))
    terms.append(("transport", int(m["transport"][s.transport])))  # ruling F-46
    if s.leader:
        terms.append(("leader", s.leader))
    if s.target_optic:
        terms.append(("target optic", int(m["target_optic"])))
    if s.combat_computer:
        terms.append(("combat computer", int(m["combat_computer"])))
    if s.built_in:
        terms.append(("built-in weapon", int(m["built_in"])))
    if s.drug:
        terms.append(("drug", s.drug))
    return [(name, value) for name, value in terms if value != 0]


def fire_modifier(s: FireSituation) -> int:
    """M of a shot: the sum of §7.5's modifiers."""
    return sum(value for _, value in fire_terms(s))


@dataclass(frozen=True)
class Hit:
    """What one attack does to one model (before armour): killed, Gutz lost, suppressed."""

    killed: bool = False
    loss: int = 0
    suppressed: bool = False


@dataclass(frozen=True)
class ShotOutcome:
    """A shot's effects on infantry by model id, the firer's change and whether it jams."""

    hits: Mapping[str, Hit] = field(default_factory=dict)
    firer_change: int = 0
    malfunction: bool = False


def _near(centre: Cell, cell: Cell, radius: Fraction | None) -> bool:
    return radius is not None and within(centre, cell, radius)


def infantry_outcome(
    fire_type: str,
    result: Result,
    target: str,
    positions: Mapping[str, Cell],
    firer: str | None = None,
    malf: int | None = 0,
) -> ShotOutcome:
    """Result table §7.4.1 against a figure: who is killed, loses Gutz or is suppressed.

    ``positions`` holds every model that could be inside a radius (the target included);
    the firer is never affected (ruling F-20). Radii are from the target.
    """
    if result == "F":
        return ShotOutcome()
    if result == "CF":
        # §7.4.1: no effect; firer −1; malfunction roll unless Malf is n/a (F-66)
        return ShotOutcome(firer_change=-1, malfunction=malf is not None)
    row = tables().results[infantry_table(fire_type)]
    centre = positions[target]
    hits: dict[str, Hit] = {}
    for mid, cell in positions.items():
        if mid == firer:
            continue
        is_target = mid == target
        if result == "CS":
            killed = is_target or _near(centre, cell, row.cs_kill_radius)
            suppressed = not killed and _near(centre, cell, row.cs_suppress_radius)
            if killed or suppressed:
                hits[mid] = Hit(killed=killed, suppressed=suppressed)
        else:
            loses = is_target or _near(centre, cell, row.s_loss_radius)
            suppressed = row.s_suppress_radius is not None and (
                is_target or _near(centre, cell, row.s_suppress_radius)
            )
            if loses or suppressed:
                hits[mid] = Hit(loss=row.s_loss if loses else 0, suppressed=suppressed)
    return ShotOutcome(hits=hits, firer_change=1 if result == "CS" else 0)


VehicleEffect = Literal["kill"] | int


def ssa_vs_armour(result: Result, armour_class: str) -> VehicleEffect:
    """SS(A) against a vehicle or building section (§7.4.2): "kill" or a Gutz loss (0 = none)."""
    t = tables()
    if result == "CS":
        return t.ssa_cs_heavy_loss if armour_class == "heavy" else "kill"
    if result == "S":
        return t.ssa_loss[armour_class]
    return 0


def av_vs_armour(fire_type: str, result: Result, armour_class: str) -> VehicleEffect:
    """A Gun against a vehicle or building section: the AV matrix of §7.4.3 (R-18)."""
    if result not in ("CS", "S"):
        return 0
    cell = tables().av[fire_type][armour_class][result]
    return "kill" if cell == "kill" else int(cell)


def can_affect_vehicle(fire_type: str, armour_class: str) -> bool:
    """Light-or-heavier armour is affected only by SS(A) and Guns (§7.3, ruling F-50)."""
    return armour_class == "soft" or fire_type == "SS(A)" or fire_type in GUNS


@dataclass(frozen=True)
class FigureAfter:
    """A figure after one attack's hit: its Gutz, status and suppression."""

    gutz: int
    status: str  # active | killed | routed | incapacitated
    suppressed: bool


def apply_hit(
    gutz: int,
    status: str,
    suppressed: bool,
    hit: Hit,
    reduction: int = 0,
    *,
    nonlethal: bool = False,
) -> FigureAfter:
    """One figure's share of an attack: kills ignore armour, losses are ``max(0, L − R)``.

    Ruling F-33: a non-lethal "kill" or drop below 2 makes the figure Incapacitated; a
    helpless figure is not suppressed further and dies to a later lethal kill or to a lethal
    loss that takes it below 2.
    """
    helpless = status == "incapacitated"
    if hit.killed:
        if nonlethal:
            return FigureAfter(gutz, "incapacitated", suppressed)
        return FigureAfter(gutz, "killed", suppressed)
    loss = max(0, hit.loss - reduction)
    new = gutz - loss
    new_status = status
    if loss and new < tables().min_gutz:
        if helpless:
            new_status = "incapacitated" if nonlethal else "killed"
        else:
            new_status = "incapacitated" if nonlethal else "routed"
    still_suppressed = suppressed or (hit.suppressed and not helpless and new_status == "active")
    return FigureAfter(new, new_status, still_suppressed)


def cloud_outcome(result: Result) -> tuple[bool, int]:
    """A smoke or gas grenade (ruling F-27): (cloud placed, thrower's Gutz change).

    CS places it and gains 1; S and F place it (no scatter); CF is a dud, −1 and never a
    malfunction roll.
    """
    return {"CS": (True, 1), "S": (True, 0), "F": (True, 0), "CF": (False, -1)}[result]


def cloud_squares(centre: Cell) -> list[Cell]:
    """The 4 × 4 squares of a cloud on square (x, y): columns x−1..x+2, rows y−1..y+2 (F-25)."""
    c = tables().cloud
    x, y = centre
    return [
        (x + dx, y + dy)
        for dy in range(c["low"], c["high"] + 1)
        for dx in range(c["low"], c["high"] + 1)
    ]
