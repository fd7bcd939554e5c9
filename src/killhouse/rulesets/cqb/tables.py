"""The tables of CQB (digest sections 3, 4, 8, 9, 10-13), read once from the YAML in ``data/``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from killhouse.rulesets.data import load_table

PACKAGE = "killhouse.rulesets.cqb"
ABILITIES: tuple[str, ...] = ("novice", "experienced", "veteran", "elite")
LOCATIONS: tuple[str, ...] = ("brain-stem", "head", "strong-arm", "weak-arm", "leg", "torso")
ROUNDS: tuple[str, ...] = ("pistol", "magnum", "rifle", "shotgun", "fifty")
FIRINGS: tuple[str, ...] = ("slow-single", "rapid-single", "semi-auto", "burst", "full-auto")


@dataclass(frozen=True)
class Weapon:
    """One named weapon: its category's values with the weapon's own overrides (section 4.1)."""

    name: str
    category: str
    aim: int
    round: str
    firing: str
    recoil: str
    scope: bool
    hands: int
    burst_rounds: int
    misfire: bool
    magazine: int  # rounds a full magazine holds (ruling Q-60)

    @property
    def automatic(self) -> bool:
        return self.firing in ("burst", "full-auto")


@dataclass(frozen=True)
class Tables:
    """Every number of the digest's tables, typed."""

    values: Mapping[int, int]
    joker_reaction_value: int
    remove: Mapping[str, tuple[int, ...]]
    lowest: Mapping[str, int]
    default_jokers: int
    luck: Mapping[int, tuple[str, int]]
    hostage_remove: tuple[int, ...]
    hostage_jokers: int

    categories: Mapping[str, Mapping[str, Any]]
    weapons: Mapping[str, Weapon]
    scope_first_shot: int
    rates: Mapping[str, Mapping[str, int]]
    fixed_auto_burst_rounds: int
    spare_magazines: int

    base_tn: int
    movement: Mapping[str, int]
    called: Mapping[str, int]
    range_rows: tuple[tuple[int, int], ...]
    recoil_single_heavy: int
    recoil: Mapping[int, tuple[int, int]]
    other: Mapping[str, int]
    cover: Mapping[str, int]
    line_extend: int
    line_near: int
    aim_point_reach: int

    location: Mapping[int, tuple[str, bool]]
    effects: Mapping[str, Mapping[str, str]]
    soft_armour: Mapping[str, str]
    ignores_armour: frozenset[str]
    armour_knockdown: bool

    tests: Mapping[str, Any]


def _load(name: str) -> dict[str, Any]:
    return load_table(PACKAGE, name)


@cache
def tables() -> Tables:
    decks, weapons, fire, hits, tests = (
        _load(n) for n in ("decks.yaml", "weapons.yaml", "fire.yaml", "hits.yaml", "tests.yaml")
    )
    cats = weapons["categories"]
    named: dict[str, Weapon] = {}
    for name, spec in weapons["weapons"].items():
        base = {**cats[spec["category"]], **spec}
        named[name] = Weapon(
            name=name,
            category=spec["category"],
            aim=int(base["aim"]),
            round=str(base["round"]),
            firing=str(base["firing"]),
            recoil=str(base["recoil"]),
            scope=bool(base.get("scope", False)),
            hands=int(base.get("hands", 2)),
            burst_rounds=int(base.get("burst_rounds", weapons["default_burst_rounds"])),
            misfire=bool(base.get("misfire", False)),
            magazine=int(base["magazine"]),
        )
    return Tables(
        values={int(k): int(v) for k, v in decks["values"].items()},
        joker_reaction_value=int(decks["joker_reaction_value"]),
        remove={a: tuple(v["remove"]) for a, v in decks["abilities"].items()},
        lowest={a: int(v["lowest"]) for a, v in decks["abilities"].items()},
        default_jokers=int(decks["default_jokers"]),
        luck={int(k): (str(v["luck"]), int(v["jokers"])) for k, v in decks["luck"].items()},
        hostage_remove=tuple(decks["hostage_deck"]["remove"]),
        hostage_jokers=int(decks["hostage_deck"]["jokers"]),
        categories=cats,
        weapons=named,
        scope_first_shot=int(weapons["scope_first_shot"]),
        rates=weapons["rates"],
        fixed_auto_burst_rounds=int(weapons["fixed_auto_burst_rounds"]),
        spare_magazines=int(weapons["spare_magazines"]),
        base_tn=int(fire["base_tn"]),
        movement=fire["movement"],
        called=fire["called"],
        range_rows=tuple((int(r["upto"]), int(r["mod"])) for r in fire["range"]),
        recoil_single_heavy=int(fire["recoil_single_heavy"]),
        recoil={int(k): (int(v[0]), int(v[1])) for k, v in fire["recoil"].items()},
        other=fire["other"],
        cover=fire["cover"],
        line_extend=int(fire["line_of_fire"]["extend"]),
        line_near=int(fire["line_of_fire"]["near_target"]),
        aim_point_reach=int(fire["aim_point_reach"]),
        location={int(k): (str(v["loc"]), bool(v["plated"])) for k, v in hits["location"].items()},
        effects=hits["effects"],
        soft_armour=hits["soft_armour"],
        ignores_armour=frozenset(hits["ignores_armour"]),
        armour_knockdown=bool(hits["armour_knockdown"]),
        tests=tests,
    )
