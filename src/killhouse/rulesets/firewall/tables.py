"""The tables of "Firewall 2136AD" (digest sections 2-16), read once from the YAML in ``data/``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from killhouse.rulesets.data import load_table

#: Fire types of §7.3 (``Spec`` is replaced by the grenade's own type, §9).
FIRE_TYPES = (
    "SS", "SS(A)", "CB", "B", "B(MG)", "B(HMG)", "VMG", "AV(L)", "AV(M)", "AV(H)", "Spec"
)
#: Fire types that are "Guns" (ruling F-22).
GUNS = frozenset({"AV(L)", "AV(M)", "AV(H)"})
#: Vehicle / building armour classes (§7.4.2, §17.5).
ARMOUR_CLASSES = ("soft", "light", "medium", "heavy")


def _load(name: str) -> dict[str, Any]:
    return load_table("killhouse.rulesets.firewall", name)


def _opt_fraction(value: Any) -> Fraction | None:
    return None if value is None else Fraction(str(value))


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def normalise_name(name: str) -> str:
    """A weapon or item name compared loosely: case, quotes and punctuation ignored."""
    return re.sub(r"[^a-z0-9]+", "", name.lower())


@dataclass(frozen=True)
class Mode:
    """One fire type of a weapon with its own Gutz modifier and Malf (``None`` = n/a)."""

    fire: str
    gutz: int
    malf: int | None


@dataclass(frozen=True)
class Weapon:
    """One row of the §8 tables."""

    id: str
    name: str
    group: str
    modes: tuple[Mode, ...]
    short: int
    effect: int
    long: int
    armour: str = "normal"
    one_handed: bool = False
    cc: str = "improvised"
    nonlethal: bool = False
    flame: bool = False
    shotgun: bool = False
    automatic: bool = False
    grenade: bool = False
    launcher: bool = False
    heavy: bool = False
    ammo: int | None = None
    reload: str = "none"
    aliases: tuple[str, ...] = ()

    def mode(self, fire: str | None = None) -> Mode:
        """The declared fire type's row (the first when none is declared)."""
        if fire is None:
            return self.modes[0]
        for mode in self.modes:
            if mode.fire.lower() == fire.lower():
                return mode
        known = ", ".join(m.fire for m in self.modes)
        raise ValueError(f"{self.name} has no fire type {fire!r} (it fires {known})")


@dataclass(frozen=True)
class Grenade:
    """One grenade type of §9."""

    id: str
    name: str
    fire: str
    nonlethal: bool = False
    armour: str = "normal"
    cloud: bool = False
    gas: str | None = None
    vehicle_fire: str | None = None


@dataclass(frozen=True)
class Armour:
    """One personal armour of §13."""

    id: str
    name: str
    loss: int
    move: int
    cp: int
    melee: int | None = None
    flame: int | None = None
    sealed: bool = False
    powered: bool = False
    hard_points: int = 0
    vehicle_armour: str | None = None

    def reduction(self, melee: bool = False, flame: bool = False) -> int:
        """R of §7.6: the loss column, or the melee / flame override from the notes (F-21)."""
        if melee and self.melee is not None:
            return self.melee
        if flame and self.flame is not None:
            return self.flame
        return self.loss


@dataclass(frozen=True)
class BurstResult:
    """What CS and S of one infantry table do (§7.4.1); radii in cm, ``None`` = target only."""

    cs_kill_radius: Fraction | None
    s_loss: int
    s_loss_radius: Fraction | None
    cs_suppress_radius: Fraction | None
    s_suppress_radius: Fraction | None


@dataclass(frozen=True)
class Tables:
    """Every number of the digest's tables, typed."""

    gutz_base: Mapping[str, int]
    experience: Mapping[str, int]
    leader_bonus: int
    min_gutz: int
    max_gutz: int
    leader_radius_cm: int
    leader_loss: Mapping[str, Mapping[str, Any]]
    speeds: Mapping[str, int]
    move_cs_factor: Fraction
    cyber_legs_factor: Mapping[str, Fraction]
    movement: Mapping[str, Any]
    fire: Mapping[str, Any]
    results: Mapping[str, BurstResult]
    infantry_table: Mapping[str, str]
    ssa_loss: Mapping[str, int]
    ssa_cs_heavy_loss: int
    av: Mapping[str, Mapping[str, Mapping[str, str | int]]]
    melee: Mapping[str, Any]
    malfunction: Mapping[str, Any]
    weapons: Mapping[str, Weapon]
    grenades: Mapping[str, Grenade]
    cloud: Mapping[str, int]
    armour: Mapping[str, Armour]
    cyber: Mapping[str, Mapping[str, Any]]
    cyber_failure: Mapping[int, Mapping[str, Any]]
    drugs: Mapping[str, Mapping[str, Any]]
    skills: Mapping[str, Any]
    weapon_names: Mapping[str, str]
    #: cyber function -> its system (ruling F-112) and the exploding figure's table (§14.2)
    cyber_systems: Mapping[str, str] = field(default_factory=dict)
    cyber_explosion: str = "B(MG)"

    def weapon(self, name: str) -> Weapon:
        """A weapon by id or printed name (case, quotes and punctuation ignored)."""
        if name in self.weapons:
            return self.weapons[name]
        wid = self.weapon_names.get(normalise_name(name))
        if wid is not None:
            return self.weapons[wid]
        raise KeyError(f"no weapon {name!r} in the §8 tables")

    def grenade(self, name: str) -> Grenade:
        """A grenade type by id or name."""
        key = normalise_name(name)
        for grenade in self.grenades.values():
            if key in (normalise_name(grenade.id), normalise_name(grenade.name)):
                return grenade
        if key == "heap":
            return self.grenades["heat"]
        raise KeyError(f"no grenade type {name!r} in §9")


def _weapon(wid: str, row: Mapping[str, Any]) -> Weapon:
    modes = tuple(
        Mode(str(fire), int(gutz), None if malf is None else int(malf))
        for fire, gutz, malf in row["modes"]
    )
    for mode in modes:
        if mode.fire not in FIRE_TYPES:
            raise ValueError(f"weapon {wid}: unknown fire type {mode.fire!r}")
    short, effect, long_ = int(row["short"]), int(row["effect"]), int(row["long"])
    if not 0 < short <= effect <= long_:
        raise ValueError(f"weapon {wid}: ranges {short}/{effect}/{long_} are not increasing")
    return Weapon(
        id=wid,
        name=str(row["name"]),
        group=str(row["group"]),
        modes=modes,
        short=short,
        effect=effect,
        long=long_,
        armour=str(row.get("armour", "normal")),
        one_handed=bool(row.get("one_handed", False)),
        cc=str(row.get("cc", "improvised")),
        nonlethal=bool(row.get("nonlethal", False)),
        flame=bool(row.get("flame", False)),
        shotgun=bool(row.get("shotgun", False)),
        automatic=bool(row.get("automatic", False)),
        grenade=bool(row.get("grenade", False)),
        launcher=bool(row.get("launcher", False)),
        heavy=bool(row.get("heavy", False)),
        ammo=None if row.get("ammo") is None else int(row["ammo"]),
        reload=str(row.get("reload", "none")),
        aliases=tuple(str(a) for a in row.get("aliases", ())),
    )


@cache
def tables() -> Tables:
    """The tables, loaded on first use and shared (they never change)."""
    gutz = _load("gutz.yaml")
    move = _load("movement.yaml")
    fire = _load("fire.yaml")
    melee = _load("melee.yaml")
    malf = _load("malfunction.yaml")
    weap = _load("weapons.yaml")
    arm = _load("armour.yaml")
    cyb = _load("cyber.yaml")
    drugs = _load("drugs.yaml")
    skills = _load("skills.yaml")
    weapons = {str(k): _weapon(str(k), v) for k, v in weap["weapons"].items()}
    names: dict[str, str] = {}
    for weapon in weapons.values():
        for n in (weapon.id, weapon.name, *weapon.aliases):
            key = normalise_name(n)
            if names.get(key, weapon.id) != weapon.id:
                raise ValueError(f"weapon name {n!r} is ambiguous")
            names[key] = weapon.id
    return Tables(
        gutz_base={str(k): int(v) for k, v in gutz["base"].items()},
        experience={str(k): int(v) for k, v in gutz["experience"].items()},
        leader_bonus=int(gutz["leader_bonus"]),
        min_gutz=int(gutz["min_gutz"]),
        max_gutz=int(gutz["max_gutz"]),
        leader_radius_cm=int(gutz["leader_radius_cm"]),
        leader_loss={str(k): dict(v) for k, v in gutz["leader_loss"].items()},
        speeds={str(k): int(v) for k, v in move["speeds"].items()},
        move_cs_factor=Fraction(str(move["critical_success_factor"])),
        cyber_legs_factor={
            str(k): Fraction(str(v)) for k, v in move["cyber_legs_factor"].items()
        },
        movement=dict(move),
        fire=dict(fire),
        results={
            str(k): BurstResult(
                cs_kill_radius=_opt_fraction(v["cs_kill_radius"]),
                s_loss=int(v["s_loss"]),
                s_loss_radius=_opt_fraction(v["s_loss_radius"]),
                cs_suppress_radius=_opt_fraction(v["cs_suppress_radius"]),
                s_suppress_radius=_opt_fraction(v["s_suppress_radius"]),
            )
            for k, v in fire["results"].items()
        },
        infantry_table={str(k): str(v) for k, v in fire["infantry_table"].items()},
        ssa_loss={str(k): int(v) for k, v in fire["ssa"]["s_loss"].items()},
        ssa_cs_heavy_loss=int(fire["ssa"]["cs_heavy_loss"]),
        av={
            str(w): {str(a): dict(r) for a, r in cols.items()} for w, cols in fire["av"].items()
        },
        melee=dict(melee),
        malfunction=dict(malf),
        weapons=weapons,
        grenades={
            str(k): Grenade(
                id=str(k),
                name=str(v["name"]),
                fire=str(v["fire"]),
                nonlethal=bool(v.get("nonlethal", False)),
                armour=str(v.get("armour", "none" if v.get("nonlethal") else "normal")),
                cloud=bool(v.get("cloud", False)),
                gas=None if v.get("gas") is None else str(v["gas"]),
                vehicle_fire=None if v.get("vehicle_fire") is None else str(v["vehicle_fire"]),
            )
            for k, v in weap["grenades"].items()
        },
        cloud={str(k): int(v) for k, v in weap["cloud"].items()},
        armour={
            str(k): Armour(
                id=str(k),
                name=str(v["name"]),
                loss=int(v["loss"]),
                move=int(v["move"]),
                cp=int(v["cp"]),
                melee=None if v.get("melee") is None else int(v["melee"]),
                flame=None if v.get("flame") is None else int(v["flame"]),
                sealed=bool(v.get("sealed", False)),
                powered=bool(v.get("powered", False)),
                hard_points=int(v.get("hard_points", 0)),
                vehicle_armour=_opt_str(v.get("vehicle_armour")),
            )
            for k, v in arm["armour"].items()
        },
        cyber={str(k): dict(v) for k, v in cyb["items"].items()},
        cyber_failure={int(k): dict(v) for k, v in cyb["failure"].items()},
        drugs={str(k): dict(v) for k, v in drugs["drugs"].items()},
        skills=dict(skills),
        weapon_names=names,
        cyber_systems={str(k): str(v) for k, v in cyb["systems"].items()},
        cyber_explosion=str(cyb["explosion"]),
    )
