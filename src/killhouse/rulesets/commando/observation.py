"""Observation: range by weather and light, the chance index A-P and its modifiers (digest 6).

Rulings C-10 … C-13, C-23: the final chance is clamped to 5-95 % after every modifier including
the defending side's −20; a side observes a target if any of its observers' rolls succeeds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando.dice import clamp, distance, percent_check
from killhouse.rulesets.commando.tables import tables

UNLIMITED = 10**9


def observation_range(weather: str, light: str, night_fighting: bool = False) -> int:
    """Observation Range Table in squares (``UNLIMITED`` for U).

    Night Fighting success (12.1) uses the next better column: Night → Dawn/Dusk → Day.
    """
    t = tables()
    if weather not in t.obs_range:
        raise KeyError(f"unknown weather {weather!r} (known: {', '.join(t.obs_range)})")
    if light not in t.obs_light:
        raise KeyError(f"unknown light {light!r} (known: {', '.join(t.obs_light)})")
    column = t.obs_light.index(light)
    if night_fighting and column > 0:  # ruling C-73: by day there is no better column
        column -= 1
    value = t.obs_range[weather][t.obs_light[column]]
    return UNLIMITED if value is None else value


def in_range(rng: int, weather: str, light: str, night_fighting: bool = False) -> bool:
    """A target at ``rng`` squares may be rolled for (ruling C-11)."""
    return rng <= observation_range(weather, light, night_fighting)


@dataclass(frozen=True)
class Sighting:
    """The conditions of one observation roll (digest 6.3). ``terrain`` is the target's kind."""

    code: str
    rng: int = 1
    target_prone: bool = False
    terrain: str = "clear"
    target_in_building: bool = False
    large_building: bool = False
    observer_moving: bool = False
    target_moving: bool = False
    target_in_searchlight: bool = False   # and the observer within 20 squares (C-13)
    observer_in_searchlight: bool = False  # looking out of a lit area
    defending: bool = False               # observer's side still suffers the −20 (C-12)
    move_swiftly: bool = False            # target has Move Swiftly & Silently (C-46)
    night_fighting: bool = False          # observer's Night Fighting succeeded (12.1)


def observation_chance(s: Sighting) -> int:
    """Base(code) + every modifier, clamped to 5-95 (digest 6.2-6.3, ruling C-11)."""
    t = tables()
    mod = t.obs_mod
    if s.code not in t.obs_index:
        raise KeyError(f"unknown Obs code {s.code!r} (known: {''.join(t.obs_index)})")
    pct = t.obs_index[s.code]
    if s.target_prone:
        pct += mod["target_prone"]
    if s.terrain in t.obs_woods_rubble:
        pct += mod["target_woods_rubble"]
    elif s.terrain in t.obs_rough:
        pct += mod["target_rough_terrain"]
    if s.target_in_building:
        pct += mod["target_in_large_building"] if s.large_building else mod["target_in_building"]
    if s.observer_moving:
        pct += mod["observer_moving"]
    if s.target_moving:
        pct += mod["target_moving"]
    if s.rng >= t.obs_far:
        pct += mod["range_50_plus"]
    elif s.rng >= t.obs_near:
        pct += mod["range_30_49"]
    if s.target_in_searchlight:
        pct += mod["target_in_searchlight"]
    if s.observer_in_searchlight:
        pct += mod["observer_in_searchlight"]
    if s.move_swiftly:
        pct += mod["move_swiftly"]
    if s.night_fighting:
        pct += mod["night_fighting"]
    if s.defending:
        pct += t.obs_defending
    return clamp(pct, t.obs_min, t.obs_max)


def observe_roll(chance: Chance, pct: int, audience: Audience = None) -> bool:
    """One observer's roll: d100 ≤ chance."""
    return percent_check(chance, pct, "observation", audience)


def side_observes(chance: Chance, chances: Sequence[int], audience: Audience = None) -> bool:
    """Ruling C-11: observers roll in order; the first success ends the rolls on that target."""
    return any(observe_roll(chance, pct, audience) for pct in chances)


def automatically_observed(rng: int, has_los: bool) -> bool:
    """Ruling C-11: an enemy in LOS at range 1 needs no roll."""
    return has_los and rng <= 1


def observation_phase(
    chance: Chance,
    observers: Sequence[str],
    targets: Sequence[str],
    observed: frozenset[str],
    can_roll: Callable[[str, str], bool],
    pct: Callable[[str, str], int],
    automatic: Callable[[str, str], bool],
    audience: Audience = None,
) -> frozenset[str]:
    """Phase 1 for one side (ruling C-11): the enemies it observes afterwards.

    Targets in ascending id order, skipping those already observed; an automatic observation
    (LOS at range 1, Sixth Sense) needs no roll; otherwise observers who have LOS and range roll
    in ascending id order and the first success ends the rolls against that target.
    """
    seen = set(observed)
    for target in sorted(targets):
        if target in seen:
            continue
        eligible = [o for o in sorted(observers) if can_roll(o, target)]
        if any(automatic(o, target) for o in eligible):
            seen.add(target)
            continue
        for observer in eligible:
            if observe_roll(chance, pct(observer, target), audience):
                seen.add(target)
                break
    return frozenset(seen)


def kept(
    observed: frozenset[str], observers: Sequence[str], in_view: Callable[[str, str], bool]
) -> frozenset[str]:
    """Ruling C-11: observation lasts while one man of the side has LOS within range."""
    return frozenset(t for t in observed if any(in_view(o, t) for o in observers))


def lit_square(x: int, y: int, width: int, height: int) -> frozenset[tuple[int, int]]:
    """Ruling C-13: an aimed searchlight lights the 5×5 block centred on its square (clipped to
    the map) until its operator's next activation."""
    half = tables().searchlight_half
    return frozenset(
        (cx, cy)
        for cy in range(max(0, y - half), min(height, y + half + 1))
        for cx in range(max(0, x - half), min(width, x + half + 1))
    )


def light_flags(
    observer: tuple[int, int], target: tuple[int, int], lit: frozenset[tuple[int, int]]
) -> tuple[bool, bool]:
    """(target in searchlight with the observer nearby, observer lit looking out) for a
    ``Sighting`` (digest 6.3, ruling C-13: "nearby" is within 20 squares of the target)."""
    near = distance(observer[0] - target[0], observer[1] - target[1])
    target_lit = target in lit and near <= tables().searchlight_nearby
    observer_lit = observer in lit and target not in lit
    return target_lit, observer_lit
