"""Grenades, launchers and satchels: accuracy, scatter and blast (digest 9, rulings C-28 … C-33).

Thrown devices use the Grenade Accuracy Modifiers with Dex; fired launchers use the Rifle Grenade
Accuracy Modifiers with Mk; both add the Hero combat bonus and neither uses WP (ruling C-32).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando.characters import charmod
from killhouse.rulesets.commando.dice import blast_damage, halve, percent_check
from killhouse.rulesets.commando.tables import tables

THROWN = ("frag", "smoke", "illumination", "satchel")
FIRED = ("rifle_grenade", "thump_gun", "rocket", "law")
DEVICES = THROWN + FIRED
#: which damage table each device's blast uses against men (ruling C-30); smoke/illum: none
DAMAGE_TABLE = {
    "frag": "grenade", "rifle_grenade": "grenade", "thump_gun": "grenade", "rocket": "grenade",
    "law": "grenade", "satchel": "satchel", "demolition": "satchel",
}
ENVIRONMENTS = ("open", "vented", "closed")


def accuracy_base(device: str, rng: int) -> int | None:
    """The device's accuracy table; ``None`` = P, including any range not listed (C-27, C-31)."""
    bands = tables().accuracy.get(device)
    if bands is None:
        raise KeyError(f"unknown device {device!r} (known: {', '.join(DEVICES)})")
    for band in bands:
        if band.holds(max(0, rng)):
            return band.base
    return None


@dataclass(frozen=True)
class Throw:
    """The conditions of one throw or launch (digest 9.2, 9.3). ``terrain`` is the target's kind."""

    device: str
    rng: int
    dex: int = 13
    mk: int = 13
    hero_combat: int = 0
    terrain: str = "clear"
    target_higher: bool = False
    target_by_wall: bool = False          # adjacent to a wall (a trench counts by terrain)
    door_between: bool = False
    window_or_slit_between: bool = False  # thrown only
    thrower_prone: bool = False           # thrown only
    severely_wounded: bool = False
    no_los: bool = False
    grenade_toss: bool = False            # Grenade Toss skill success (12.1)


def accuracy(s: Throw) -> int | None:
    """Final accuracy %: base + modifiers + CharMod, then ×0.5 per condition, down (C-2, C-32)."""
    base = accuracy_base(s.device, s.rng)
    if base is None:
        return None
    t = tables()
    halves = int(s.severely_wounded) + int(s.no_los)
    wall = s.target_by_wall or s.terrain == "trench"
    if s.device in t.thrown:
        mod = t.thrown_mod
        a = base + charmod(s.dex) + s.hero_combat
        if s.terrain in ("rough", "crater", "woods"):
            a += mod["target_rough_woods"]
        elif s.terrain in ("dune", "forest"):
            a += mod["target_dune_forest"]
        if s.target_higher:
            a += mod["target_higher"]
        if wall:
            a += mod["target_wall_or_trench"]
        if s.door_between:
            a += mod["door_between"]
        if s.window_or_slit_between:
            a += mod["window_or_slit_between"]
        if s.grenade_toss:
            a += mod["grenade_toss"]  # before the x.5 factors (12.1)
        halves += int(s.thrower_prone)
    else:
        mod = t.fired_mod
        a = base + charmod(s.mk) + s.hero_combat
        if s.terrain in ("rough", "crater", "woods", "rubble"):
            a += mod["target_rough_woods_rubble"]
        elif s.terrain == "dune":
            a += mod["target_dune"]
        elif s.terrain == "forest":
            a += mod["target_forest"]
        if s.target_higher:
            a += mod["target_higher"]
        if wall:
            a += mod["target_wall_or_trench"]
        if s.door_between:
            a += mod["door_between"]
    return halve(a, halves)


@dataclass(frozen=True)
class Landing:
    """Where a round lands relative to its target square: on it, or scattered (C-29)."""

    on_target: bool
    direction: str | None = None
    distance: int = 0
    #: the accuracy d100 in play, for narration (None when the outcome was certain, K-5)
    roll: int | None = field(default=None, compare=False)


def scatter(chance: Chance, device: str, audience: Audience = None) -> tuple[str, int]:
    """Ruling C-29: 1d8 direction (1 = N, clockwise); thrown items the Grenade Scatter Table
    on 1d6, fired rounds 1d6 squares."""
    t = tables()
    direction = t.directions[chance.roll(8, "scatter direction", audience) - 1]
    face = chance.roll(6, "scatter distance", audience)
    distance = t.thrown_scatter[face] if device in t.thrown else face
    return direction, distance


def land(chance: Chance, device: str, pct: int, audience: Audience = None) -> Landing:
    """The accuracy roll and, on a miss, the scatter."""
    rolled: list[int] = []
    if percent_check(chance, pct, f"{device} accuracy", audience, rolled):
        return Landing(True, roll=rolled[-1] if rolled else None)
    direction, distance = scatter(chance, device, audience)
    return Landing(False, direction, distance, roll=rolled[-1] if rolled else None)


def blast(
    chance: Chance, device: str, environment: str, men: int, audience: Audience = None
) -> tuple[int | None, ...]:
    """Per man in the blast area (in the given order): damage points, or ``None`` if killed.

    Ruling C-28: one d100 ≤ 2 × N kills one man chosen at random instead of his damage roll;
    every other man rolls his own damage on the table for the landing square's environment.
    Ruling C-65 (ours): the kill roll is made first, then the damage rolls in order.
    """
    t = tables()
    table = DAMAGE_TABLE.get(device)
    if table is None or men <= 0:
        return tuple(0 for _ in range(max(0, men)))
    if environment not in ENVIRONMENTS:
        raise KeyError(f"unknown environment {environment!r} (known: {', '.join(ENVIRONMENTS)})")
    victim: int | None = None
    if percent_check(chance, t.blast_kill_per_man * men, "blast kill", audience):
        victim = chance.pick(range(men), "blast victim", audience)
    dice = t.blast_damage[table][environment]
    return tuple(
        None if i == victim else blast_damage(chance, dice, "blast damage", audience)
        for i in range(men)
    )


def blast_radius(device: str) -> int:
    """Ruling C-28: radius 1 for grenades and launcher rounds, 2 for satchels and charges."""
    table = DAMAGE_TABLE.get(device, "grenade")
    return tables().blast_radius[table]
