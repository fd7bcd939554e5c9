"""The named rolls of "Go! Go! Go!" for umpires' odds, run through the functions play uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from killhouse.core.chance import Chance
from killhouse.core.geometry import euclidean_sq
from killhouse.core.terrain import Terrain
from killhouse.errors import UnknownRollError
from killhouse.rulesets.base import Param, RollSpec
from killhouse.rulesets.gogogo import dice
from killhouse.rulesets.gogogo.grenades import landing
from killhouse.rulesets.gogogo.tables import tables

FIRERS = ("moving", "stationary", "sniper")
OBSERVERS = ("moving", "stationary", "hiding")
TARGETS = ("moving", "stationary")


def _bool(params: Mapping[str, Any], name: str) -> bool:
    value = params.get(name, False)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "yes", "1", "false", "no", "0", ""):
        return value.lower() in ("true", "yes", "1")
    if isinstance(value, int):
        return bool(value)
    raise UnknownRollError(f"--{name} must be true or false, got {value!r}")


def _int(params: Mapping[str, Any], name: str, default: int, low: int = 0) -> int:
    value = params.get(name, default)
    if value is None:
        value = default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise UnknownRollError(f"--{name} must be a whole number, got {value!r}") from None
    if number < low:
        raise UnknownRollError(f"--{name} must be at least {low}, got {number}")
    return number


def _choice(params: Mapping[str, Any], name: str, choices: tuple[str, ...], default: str) -> str:
    value = params.get(name, default)
    if value is None:
        value = default
    if value not in choices:
        raise UnknownRollError(f"--{name} must be one of {', '.join(choices)}, got {value!r}")
    return str(value)


def resolve_spot(chance: Chance, params: Mapping[str, Any]) -> str:
    seen = dice.spot(
        chance,
        _choice(params, "observer", OBSERVERS, "stationary"),
        _choice(params, "target", TARGETS, "moving"),
        _bool(params, "target-hiding"),
        _int(params, "wounds", 0),
        _bool(params, "stunned"),
    )
    return "spotted" if seen else "unseen"


def resolve_fire(chance: Chance, params: Mapping[str, Any]) -> str:
    firer = _choice(params, "firer", FIRERS, "stationary")
    span = _int(params, "range", 3)
    short = span * span <= tables().short_range_sq  # G-2
    need = dice.fire_need(
        firer,
        short,
        _bool(params, "target-moving"),
        _bool(params, "target-hiding"),
        _int(params, "wounds", 0),
        _bool(params, "stunned"),
        _int(params, "aim", 0) if firer == "sniper" else 0,
    )
    return dice.shot(chance, need, firer == "sniper")


def resolve_hit_effect(chance: Chance, params: Mapping[str, Any]) -> str:
    if _bool(params, "sniper"):
        return tables().sniper_hit
    return dice.hit_effect(chance)


def resolve_grenade(chance: Chance, params: Mapping[str, Any]) -> str:
    need = dice.grenade_need(
        _bool(params, "through-door"), _int(params, "wounds", 0), _bool(params, "stunned")
    )
    if dice.grenade_accuracy(chance, need):
        return "on-target"
    direction, k = dice.scatter(chance)
    return f"{direction} {k}"


def resolve_grenade_radius(chance: Chance, params: Mapping[str, Any]) -> str:
    """Whether the intended square ends inside the burst, on open ground, thrown due east."""
    distance = _int(params, "distance", 6, low=1)
    need = dice.grenade_need(
        _bool(params, "through-door"), _int(params, "wounds", 0), _bool(params, "stunned")
    )
    if dice.grenade_accuracy(chance, need):
        return "in-radius"
    direction, k = dice.scatter(chance)
    size = 2 * (distance + 8) + 1
    terrain = np.full((size, size), Terrain.FLOOR, dtype=np.uint8)
    mid = size // 2
    thrower, target = (mid - distance, mid), (mid, mid)
    at = landing(terrain, thrower, target, direction, k)
    inside = euclidean_sq(at, target) <= tables().radius_sq
    return "in-radius" if inside else "outside"


def resolve_he(chance: Chance, params: Mapping[str, Any]) -> str:
    return dice.he_effect(chance)


def resolve_stun(chance: Chance, params: Mapping[str, Any]) -> str:
    return dice.stun_effect(chance)


WOUNDS = Param(
    "wounds", int, 0, "wounds of the figure making the roll (−1 each, G-15)", min=0
)
STUNNED = Param("stunned", bool, False, "the figure making the roll is stunned (−2)")

ROLLS: dict[str, RollSpec] = {
    "spot": RollSpec(
        "spot",
        "Spot a target in the peripheral arc (table 3.1): spotted or unseen.",
        (
            Param("observer", str, "stationary", "the observer's movement state", OBSERVERS),
            Param("target", str, "moving", "the target's movement state", TARGETS),
            Param("target-hiding", bool, False, "the target is hiding (−1)"),
            WOUNDS,
            STUNNED,
        ),
        resolve_spot,
    ),
    "fire": RollSpec(
        "fire",
        "One shot (tables 3.2 and 3.3): out-of-action, wounded or miss.",
        (
            Param("firer", str, "stationary", "the firer's row", FIRERS),
            Param("range", int, 3, "distance to the target (short up to 5)", min=1),
            Param("target-moving", bool, False, "the target moves this turn (−1)"),
            Param("target-hiding", bool, False, "the target is hiding (−1)"),
            WOUNDS,
            STUNNED,
            Param("aim", int, 0, "complete turns a sniper has aimed (+1 each)", min=0),
        ),
        resolve_fire,
    ),
    "hit-effect": RollSpec(
        "hit-effect",
        "The effect of a hit (table 3.3): out-of-action or wounded.",
        (Param("sniper", bool, False, "a sniper hit (always out of action)"),),
        resolve_hit_effect,
    ),
    "grenade": RollSpec(
        "grenade",
        "Grenade accuracy and scatter (table 3.4): on-target, or direction and distance.",
        (
            Param("through-door", bool, False, "thrown through a doorway or window (−1)"),
            WOUNDS,
            STUNNED,
        ),
        resolve_grenade,
    ),
    "grenade-radius": RollSpec(
        "grenade-radius",
        "Whether the intended square ends inside the burst (open ground, G-19, G-20).",
        (
            Param(
                "distance", int, 6, "throw distance in squares, along a grid axis", min=1, max=10
            ),
            Param("through-door", bool, False, "thrown through a doorway or window (−1)"),
            WOUNDS,
            STUNNED,
        ),
        resolve_grenade_radius,
    ),
    "he-effect": RollSpec(
        "he-effect",
        "HE grenade on one figure in the radius: stunned, wounded or out-of-action.",
        (),
        resolve_he,
    ),
    "stun-effect": RollSpec(
        "stun-effect",
        "Stun grenade on one figure in the radius: stunned or no-effect.",
        (),
        resolve_stun,
    ),
}
