"""The charts of Commando (seed 003, digest sections 5-13), read once from the YAML in ``data/``.

Every number the mechanics use lives in those files; this module only types them. A "P" entry
(prohibited at that range, ruling C-27) is read as ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from killhouse.rulesets.data import load_table

_DICE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


def _load(name: str) -> dict[str, Any]:
    return load_table("killhouse.rulesets.commando", name)


@dataclass(frozen=True)
class Dice:
    """``<count>d<sides>+<plus>`` as printed on a chart (``1d10-2``, ``2d6``)."""

    count: int
    sides: int
    plus: int = 0

    @classmethod
    def parse(cls, text: str) -> Dice:
        match = _DICE.match(str(text).strip())
        if match is None:
            raise ValueError(f"not a dice expression: {text!r}")
        count, sides, plus = match.groups()
        return cls(int(count or 1), int(sides), int(plus or 0))

    def __str__(self) -> str:
        plus = f"{self.plus:+d}" if self.plus else ""
        return f"{self.count}d{self.sides}{plus}"


def _pct(value: Any) -> int | None:
    """A chart percentage, or ``None`` for "P"."""
    return None if str(value) == "P" else int(value)


@dataclass(frozen=True)
class Band:
    """One range column of an accuracy table: ``low..high`` squares (``high`` None = open)."""

    low: int
    high: int | None
    base: int | None

    def holds(self, rng: int) -> bool:
        return rng >= self.low and (self.high is None or rng <= self.high)


@dataclass(frozen=True)
class Terrain:
    """One row of the Terrain Effects Chart; ``multiple`` None means impassable."""

    name: str
    blocks_vision: str
    multiple: int | None
    additive: int | None
    fire: int | None

    def additive_or_zero(self) -> int:
        return self.additive or 0


@dataclass(frozen=True)
class Firearm:
    """One row of the Fire Combat Table (digest 8.1) with its task kind (ruling C-20)."""

    name: str
    fires: int
    base: tuple[int | None, ...]
    mag: int | None
    damage: Dice
    task: str


@dataclass(frozen=True)
class MeleeWeapon:
    """One row of the Hand-to-Hand Combat Table (digest 10.3)."""

    name: str
    hit: int
    damage_class: int | None
    grappled_class: int | None
    grappled_kills: bool
    kill: int
    proficiency: str | None


@dataclass(frozen=True)
class HeroClass:
    """One row of the Hero Class Chart (digest 13.6)."""

    low: int
    name: str
    combat: int | None
    obs: str | None
    skill: int | None
    skills_wps: int
    abilities: int
    escape: bool


@dataclass(frozen=True)
class Skill:
    """One row of the Skill Table (digest 12.1); ``mult`` None = set per object."""

    name: str
    tp: str | None
    mult: float | None
    minimum: int


@dataclass(frozen=True)
class Tables:
    """Every chart of the ruleset, typed."""

    allotment: Mapping[str, int]
    cost: Mapping[str, int]
    extra: Mapping[str, int]
    force_door_base: int

    field: Mapping[str, Terrain]
    line: Mapping[str, Terrain]
    along_only: frozenset[str]
    min_step: int

    obs_light: tuple[str, ...]
    obs_range: Mapping[str, Mapping[str, int | None]]
    obs_index: Mapping[str, int]
    obs_min: int
    obs_max: int
    obs_defending: int
    obs_mod: Mapping[str, int]
    obs_woods_rubble: frozenset[str]
    obs_rough: frozenset[str]
    obs_near: int
    obs_far: int
    searchlight_half: int
    searchlight_nearby: int
    sixth_sense: int

    leadership: Mapping[int, tuple[int, int]]
    default_lead: int
    panic_mod: Mapping[str, int]
    leader_radius: int
    panic_results: Mapping[int, str]
    preservation_cap: int
    preservation_radius: int
    preserving_fire_range: int

    bands: tuple[Band, ...]
    firearms: Mapping[str, Firearm]
    task_cost: Mapping[str, int]
    semi_cost: int
    semi_fires: int
    semi_weapons: frozenset[str]
    fire_mod: Mapping[str, int]
    nonproficiency: int
    spray_spread: int
    kill_rows: tuple[tuple[int, int], ...]

    accuracy: Mapping[str, tuple[Band, ...]]
    thrown: frozenset[str]
    fired: frozenset[str]
    thrown_mod: Mapping[str, int]
    fired_mod: Mapping[str, int]
    directions: tuple[str, ...]
    thrown_scatter: Mapping[int, int]
    fired_scatter: Dice
    blast_damage: Mapping[str, Mapping[str, Dice]]
    blast_radius: Mapping[str, int]
    blast_kill_per_man: int
    cloud_turns: int
    illumination_radius: int

    melee: Mapping[str, MeleeWeapon]
    melee_damage: Mapping[int, tuple[int, ...]]
    disengage: Mapping[int, Mapping[int, tuple[tuple[int, int, str], ...]]]
    draw_fails_up_to: Mapping[str, Mapping[str, int]]
    melee_rounds: int
    max_per_side: int
    grapple_base: int
    grapple_vs_evade: int
    strike_vs_evade: int
    personal_combat_hit: int
    personal_combat_damage: int

    charmod_rows: tuple[tuple[int, int | None, int], ...]
    st_bonus: tuple[tuple[int, int], ...]
    hero: tuple[HeroClass, ...]
    hero_beyond: Mapping[str, int]
    skills: Mapping[str, Skill]
    efficiency: Mapping[int, int]
    cost_safe_cracking: int
    safe_cracking_lock_mult: float
    bonus: tuple[tuple[int, int], ...]
    ranks: tuple[str, ...]
    #: the Auxiliary Combat Abilities Chart in its order (jokes, ruling C-47)
    auxiliary: tuple[str, ...]
    doofus_obs: str


def _terrain(rows: Mapping[str, Any]) -> dict[str, Terrain]:
    return {
        name: Terrain(
            name,
            str(row["blocks_vision"]),
            None if row["multiple"] is None else int(row["multiple"]),
            None if row["additive"] is None else int(row["additive"]),
            None if row["fire"] is None else int(row["fire"]),
        )
        for name, row in rows.items()
    }


def _bands(rows: list[list[Any]]) -> tuple[Band, ...]:
    return tuple(
        Band(int(low), None if high is None else int(high), _pct(base)) for low, high, base in rows
    )


def _ints(mapping: Mapping[str, Any]) -> dict[str, int]:
    return {str(k): int(v) for k, v in mapping.items()}


@cache
def tables() -> Tables:
    """The charts, loaded on first use and shared (they never change)."""
    tasks = _load("tasks.yaml")
    terrain = _load("terrain.yaml")
    obs = _load("observation.yaml")
    panic = _load("panic.yaml")
    fire = _load("fire.yaml")
    gren = _load("grenades.yaml")
    melee = _load("melee.yaml")
    chars = _load("characters.yaml")
    bands = tuple(
        Band(int(low), None if high is None else int(high), None) for low, high in fire["bands"]
    )
    return Tables(
        allotment=_ints(tasks["allotment"]),
        cost=_ints(tasks["cost"]),
        extra=_ints(tasks["extra"]),
        force_door_base=int(tasks["force_door_base"]),
        field=_terrain(terrain["field"]),
        line=_terrain(terrain["line"]),
        along_only=frozenset(terrain["along_only"]),
        min_step=int(terrain["min_step"]),
        obs_light=tuple(obs["light"]),
        obs_range={
            weather: {light: None if v is None else int(v) for light, v in row.items()}
            for weather, row in obs["range"].items()
        },
        obs_index=_ints(obs["index"]),
        obs_min=int(obs["clamp"]["min"]),
        obs_max=int(obs["clamp"]["max"]),
        obs_defending=int(obs["defending_side"]),
        obs_mod=_ints(obs["modifiers"]),
        obs_woods_rubble=frozenset(obs["terrain_groups"]["woods_rubble"]),
        obs_rough=frozenset(obs["terrain_groups"]["rough"]),
        obs_near=int(obs["far_ranges"]["near"]),
        obs_far=int(obs["far_ranges"]["far"]),
        searchlight_half=int(obs["searchlight"]["half_size"]),
        searchlight_nearby=int(obs["searchlight"]["nearby"]),
        sixth_sense=int(obs["sixth_sense"]),
        leadership={int(k): (int(v[0]), int(v[1])) for k, v in panic["leadership"].items()},
        default_lead=int(panic["default_lead"]),
        panic_mod=_ints(panic["modifiers"]),
        leader_radius=int(panic["leader_radius"]),
        panic_results={int(k): str(v) for k, v in panic["results"].items()},
        preservation_cap=int(panic["preservation_cap"]),
        preservation_radius=int(panic["preservation_radius"]),
        preserving_fire_range=int(panic["preserving_fire_range"]),
        bands=bands,
        firearms={
            name: Firearm(
                name,
                int(row["fires"]),
                tuple(_pct(v) for v in row["base"]),
                None if row["mag"] is None else int(row["mag"]),
                Dice.parse(row["damage"]),
                str(row["task"]),
            )
            for name, row in fire["weapons"].items()
        },
        task_cost=_ints(fire["task_cost"]),
        semi_cost=int(fire["semi"]["cost"]),
        semi_fires=int(fire["semi"]["fires"]),
        semi_weapons=frozenset(fire["semi"]["weapons"]),
        fire_mod=_ints(fire["modifiers"]),
        nonproficiency=int(fire["nonproficiency"]),
        spray_spread=int(fire["spray_spread"]),
        kill_rows=tuple((int(low), int(k)) for low, k in fire["kill"]),
        accuracy={name: _bands(rows) for name, rows in gren["accuracy"].items()},
        thrown=frozenset(gren["thrown"]),
        fired=frozenset(gren["fired"]),
        thrown_mod=_ints(gren["thrown_modifiers"]),
        fired_mod=_ints(gren["fired_modifiers"]),
        directions=tuple(gren["directions"]),
        thrown_scatter={int(k): int(v) for k, v in gren["thrown_scatter"].items()},
        fired_scatter=Dice.parse(gren["fired_scatter"]),
        blast_damage={
            kind: {env: Dice.parse(d) for env, d in row.items()}
            for kind, row in gren["damage"].items()
        },
        blast_radius=_ints(gren["blast_radius"]),
        blast_kill_per_man=int(gren["blast_kill_per_man"]),
        cloud_turns=int(gren["cloud_turns"]),
        illumination_radius=int(gren["illumination_radius"]),
        melee={
            name: MeleeWeapon(
                name,
                int(row["hit"]),
                None if row["class"] is None else int(row["class"]),
                None if row["grappled"] in (None, "kill") else int(row["grappled"]),
                row["grappled"] == "kill",
                int(row["kill"]),
                None if row["proficiency"] is None else str(row["proficiency"]),
            )
            for name, row in melee["weapons"].items()
        },
        melee_damage={int(k): tuple(int(v) for v in row) for k, row in melee["damage"].items()},
        disengage={
            int(w): {
                int(n): tuple((int(lo), int(hi), str(res)) for lo, hi, res in cell)
                for n, cell in row.items()
            }
            for w, row in melee["disengage"].items()
        },
        draw_fails_up_to={k: _ints(v) for k, v in melee["draw_fails_up_to"].items()},
        melee_rounds=int(melee["rounds"]),
        max_per_side=int(melee["max_per_side"]),
        grapple_base=int(melee["grapple_base"]),
        grapple_vs_evade=int(melee["grapple_vs_evade"]),
        strike_vs_evade=int(melee["strike_vs_evade"]),
        personal_combat_hit=int(melee["personal_combat_hit"]),
        personal_combat_damage=int(melee["personal_combat_damage"]),
        charmod_rows=tuple(
            (int(lo), None if hi is None else int(hi), int(m)) for lo, hi, m in chars["charmod"]
        ),
        st_bonus=tuple((int(lo), int(b)) for lo, b in chars["st_bonus"]),
        hero=tuple(
            HeroClass(
                int(r[0]), str(r[1]),
                None if r[2] is None else int(r[2]),
                None if r[3] is None else str(r[3]),
                None if r[4] is None else int(r[4]),
                int(r[5]), int(r[6]), bool(r[7]),
            )
            for r in chars["hero"]
        ),
        hero_beyond=_ints(chars["hero_beyond"]),
        skills={
            name: Skill(
                name,
                None if row["tp"] is None else str(row["tp"]),
                None if row["mult"] is None else float(row["mult"]),
                int(row.get("minimum", 0)),
            )
            for name, row in chars["skills"].items()
        },
        efficiency={int(k): int(v) for k, v in chars["efficiency"].items()},
        cost_safe_cracking=int(chars["skills"]["safe_cracking"]["tp"]),
        safe_cracking_lock_mult=float(chars["skills"]["safe_cracking"]["lock_mult"]),
        bonus=tuple((int(lo), int(p)) for lo, p in chars["bonus"]),
        ranks=tuple(chars["ranks"]),
        auxiliary=tuple(str(a) for a in chars["auxiliary"]),
        doofus_obs=str(chars["doofus_obs"]),
    )
