"""The tables of "Go! Go! Go!" (digest section 3), read once from the YAML files in ``data/``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from killhouse.rulesets.data import load_table


def _load(name: str) -> dict[str, Any]:
    return load_table("killhouse.rulesets.gogogo", name)


def _faces(mapping: Mapping[Any, Any]) -> tuple[str, ...]:
    """A d6 table keyed 1..6 as a tuple indexed by ``face - 1``."""
    faces = tuple(str(mapping[i]) for i in range(1, 7))
    return faces


@dataclass(frozen=True)
class Tables:
    """Every number of the source's tables, typed."""

    spot_need: Mapping[str, Mapping[str, int]]
    spot_target_hiding: int
    spot_per_wound: int
    spot_stunned: int

    fire_need: Mapping[str, Mapping[str, int]]
    short_range_sq: int
    fire_target_hiding: int
    fire_target_moving: int
    fire_per_wound: int
    fire_stunned: int
    fire_per_aim: int
    hit_effect: tuple[str, ...]
    sniper_hit: str

    grenade_need: int
    grenade_opening: int
    grenade_per_wound: int
    grenade_stunned: int
    scatter_direction: tuple[str, ...]
    scatter_die: int
    radius: int
    radius_sq: int
    max_throw_sq: int
    he_effect: tuple[str, ...]
    stun_effect: tuple[str, ...]
    stun_turns: int
    ct_grenades: Mapping[str, int]
    t_grenade_choices: tuple[str, ...]

    move: int
    stealth: int
    stunned_move: int
    stunned_stealth: int
    hold_follow: int
    hearing_sq: int
    plant_turns: int
    fuse_turns: int
    defuse_turns: int
    turn_limit: int
    hostages: int
    team_size: int


@cache
def tables() -> Tables:
    """The tables, loaded on first use and shared (they never change)."""
    spot = _load("spotting.yaml")
    fire = _load("fire.yaml")
    gren = _load("grenades.yaml")
    num = _load("numbers.yaml")
    return Tables(
        spot_need={row: dict(cols) for row, cols in spot["need"].items()},
        spot_target_hiding=int(spot["modifiers"]["target_hiding"]),
        spot_per_wound=int(spot["modifiers"]["observer_per_wound"]),
        spot_stunned=int(spot["modifiers"]["observer_stunned"]),
        fire_need={row: dict(cols) for row, cols in fire["need"].items()},
        short_range_sq=int(fire["short_range"]) ** 2,
        fire_target_hiding=int(fire["modifiers"]["target_hiding"]),
        fire_target_moving=int(fire["modifiers"]["target_moving"]),
        fire_per_wound=int(fire["modifiers"]["firer_per_wound"]),
        fire_stunned=int(fire["modifiers"]["firer_stunned"]),
        fire_per_aim=int(fire["modifiers"]["per_aim_turn"]),
        hit_effect=_faces(fire["hit_effect"]),
        sniper_hit=str(fire["sniper_hit"]),
        grenade_need=int(gren["accuracy"]["need"]),
        grenade_opening=int(gren["accuracy"]["through_opening"]),
        grenade_per_wound=int(gren["accuracy"]["thrower_per_wound"]),
        grenade_stunned=int(gren["accuracy"]["thrower_stunned"]),
        scatter_direction=_faces(gren["scatter_direction"]),
        scatter_die=int(gren["scatter_distance_die"]),
        radius=int(gren["radius"]),
        radius_sq=int(gren["radius"]) ** 2,
        max_throw_sq=int(gren["max_throw"]) ** 2,
        he_effect=_faces(gren["he_effect"]),
        stun_effect=_faces(gren["stun_effect"]),
        stun_turns=int(gren["stun_turns"]),
        ct_grenades={str(k): int(v) for k, v in gren["loadout"]["ct"].items()},
        t_grenade_choices=tuple(str(g) for g in gren["loadout"]["t_choices"]),
        move=int(num["move"]),
        stealth=int(num["stealth"]),
        stunned_move=int(num["stunned_move"]),
        stunned_stealth=int(num["stunned_stealth"]),
        hold_follow=int(num["hold_follow"]),
        hearing_sq=int(num["hearing"]) ** 2,
        plant_turns=int(num["plant_turns"]),
        fuse_turns=int(num["fuse_turns"]),
        defuse_turns=int(num["defuse_turns"]),
        turn_limit=int(num["turn_limit"]),
        hostages=int(num["hostages"]),
        team_size=int(num["team_size"]),
    )


def allowance(posture: str | None, stunned: bool) -> int:
    """A figure's movement allowance (table 3.5) for its posture, halved when stunned (G-22).

    The one place the G-22 halving is written; stationary postures move nowhere.
    """
    t = tables()
    if posture == "move":
        return t.stunned_move if stunned else t.move
    if posture == "stealth":
        return t.stunned_stealth if stunned else t.stealth
    return 0


def follow_allowance(leader_posture: str | None, stunned: bool) -> int:
    """A following hostage's allowance: its leader's this turn (G-25), 2 if the leader held.

    ``stunned`` is true when the hostage *or its leader* is stunned (ruling G-71): the leader's
    allowance this turn is the stunned one, and a stunned hostage moves at half speed; both
    stunned is still half speed, not a quarter.
    """
    if leader_posture in ("move", "stealth"):
        return allowance(leader_posture, stunned)
    t = tables()
    return t.stunned_stealth if stunned else t.hold_follow
