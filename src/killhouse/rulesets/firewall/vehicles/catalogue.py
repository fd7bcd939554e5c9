"""The §17 tables of ``data/vehicles.yaml``, loaded once and typed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from killhouse.rulesets.data import load_table

SPEEDS = ("slow", "cruise", "full")
SURFACES = ("land", "air", "water")
RATES = ("very_fast", "fast", "slow", "very_slow")
MOUNT_KINDS = ("hardpoint", "turret", "pintle")
ARCS = ("front", "back", "left", "right")
MOUNT_TYPES = ("VMG", "AV(L)", "AV(M)", "AV(H)")
CREW_ROLES = ("driver", "gunner", "copilot", "copilot_gunner")


@dataclass(frozen=True)
class Chassis:
    """A §17.2 chassis: its VP limit and footprint (ruling F-140)."""

    id: str
    name: str
    max_vp: int
    length: int
    width: int
    bike: bool


@dataclass(frozen=True)
class Catalogue:
    """Every §17 table."""

    transport: Mapping[str, Mapping[str, Any]]
    chassis: Mapping[str, Chassis]
    rates: Mapping[str, Mapping[str, Mapping[str, int]]]
    armour_vp: Mapping[str, int]
    pintle_cover: Mapping[str, str]
    hardpoint_vp: Mapping[str, int]
    turret_vp: Mapping[str, int]
    pintle_vp: Mapping[str, int]
    default_weapon: Mapping[str, str]
    samples: Mapping[str, Mapping[str, Any]]
    crew_vp: int
    copilot_vp: int
    copilot_gunner_vp: int
    passenger_vp: int
    max_mounts_per_arc: int

    def speed_cm(self, surface: str, rate: str, speed: str) -> Fraction:
        """cm per Movement action of a vehicle rate at a speed (§17.4)."""
        return Fraction(self.rates[surface][rate][speed])

    def transport_cm(self, kind: str, speed: str) -> Fraction:
        """cm per Movement action of a personal transport at a speed (§17.1)."""
        return Fraction(self.transport[kind][speed])


@cache
def catalogue() -> Catalogue:
    """The §17 tables, loaded on first use and shared."""
    raw = load_table("killhouse.rulesets.firewall", "vehicles.yaml")
    chassis = {k: Chassis(k, str(v["name"]), int(v["max_vp"]), int(v["length"]),
                          int(v["width"]), bool(v.get("bike", False)))
               for k, v in raw["chassis"].items()}
    return Catalogue(
        transport=raw["transport"], chassis=chassis, rates=raw["rates"],
        armour_vp=raw["armour_vp"], pintle_cover=raw["pintle_cover"],
        hardpoint_vp=raw["hardpoint_vp"], turret_vp=raw["turret_vp"],
        pintle_vp=raw["pintle_vp"], default_weapon=raw["default_weapon"],
        samples=raw["samples"], crew_vp=int(raw["crew_vp"]), copilot_vp=int(raw["copilot_vp"]),
        copilot_gunner_vp=int(raw["copilot_gunner_vp"]),
        passenger_vp=int(raw["passenger_vp"]),
        max_mounts_per_arc=int(raw["max_mounts_per_arc"]),
    )
