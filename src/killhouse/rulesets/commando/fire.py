"""Fire combat: chance to hit, the kill table, fires, magazine checks and task costs (digest 8).

Rulings C-17 … C-27: ``# of fires`` separate d100 rolls; each roll r kills on r ≤ K(H), hits on
r ≤ H, else misses; Mag Chk is the % chance the magazine runs dry after the task.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando.characters import charmod
from killhouse.rulesets.commando.dice import d100, halve, passes, percent_check, weapon_damage
from killhouse.rulesets.commando.tables import Dice, Firearm, tables

KILL = "kill"
WOUND = "wound"
MISS = "miss"


def firearm(name: str) -> Firearm:
    weapons = tables().firearms
    if name not in weapons:
        raise KeyError(f"unknown firearm {name!r} (known: {', '.join(weapons)})")
    return weapons[name]


def band_index(rng: int) -> int | None:
    """The Fire Combat Table column for ``rng`` squares; ``None`` at range 0 (H2H only, C-27)."""
    if rng < 1:
        return None
    for i, band in enumerate(tables().bands):
        if band.holds(rng):
            return i
    raise AssertionError(f"no band holds range {rng}")


def base_chance(weapon: str, rng: int) -> int | None:
    """The table's base %, or ``None`` where the weapon may not fire ("P", range 0: C-27)."""
    index = band_index(rng)
    return None if index is None else firearm(weapon).base[index]


def nonproficiency(base: int) -> int:
    """Ruling C-21: the penalty is min(15, floor(base / 2))."""
    return min(tables().nonproficiency, base // 2)


def terrain_modifier(
    target_terrain: str, lines: Sequence[str] = (), firer_in_water: bool = False
) -> int:
    """Ruling C-22: the target square's field modifier plus the single worst line-terrain modifier
    within 1 square of the target on the line of fire; water, firer out: −20 replaces −6."""
    t = tables()
    if target_terrain == "water" and not firer_in_water:
        field = t.fire_mod["target_in_water"]
    else:
        # ruling C-75: a target in a door or window cell takes that cell's modifier
        row = t.field.get(target_terrain) or t.line.get(target_terrain)
        if row is None:
            raise KeyError(f"unknown terrain kind {target_terrain!r}")
        field = row.fire or 0
    line_mods = [t.line[k].fire or 0 for k in lines]
    return field + min([0, *line_mods])


@dataclass(frozen=True)
class FireSituation:
    """Everything the chance to hit depends on (digest 8.2). ``wp`` None = no proficiency."""

    weapon: str
    rng: int
    mk: int = 13
    hero_combat: int = 0
    wp: int | None = 0
    terrain: int = 0                 # from ``terrain_modifier`` (C-22)
    target_prone: bool = False
    target_flush_wall: bool = False  # ruling C-23
    moving_vehicle: bool = False
    enemy_weapon: bool = False
    target_moving: bool = False      # spent TP on movement this turn (C-23)
    aimed: bool = False              # ruling C-24
    target_on_vehicle: bool = False
    severely_wounded: bool = False


def hit_chance(s: FireSituation) -> int | None:
    """H = base + terrain + Hero + CharMod(Mk) + WP (or −nonprof) + modifiers, ×0.5 if seriously
    wounded, rounded down (C-2); ``None`` where the weapon may not fire."""
    base = base_chance(s.weapon, s.rng)
    if base is None:
        return None
    mod = tables().fire_mod
    h = base + s.terrain + s.hero_combat + charmod(s.mk)
    h += s.wp if s.wp is not None else -nonproficiency(base)
    for flag, key in (
        (s.target_prone, "target_prone"),
        (s.target_flush_wall, "target_flush_wall"),
        (s.moving_vehicle, "moving_vehicle"),
        (s.enemy_weapon, "enemy_weapon"),
        (s.target_moving, "target_moving"),
        (s.aimed, "aimed"),
        (s.target_on_vehicle, "target_on_vehicle"),
    ):
        if flag:
            h += mod[key]
    return halve(h, 1 if s.severely_wounded else 0)


def kill_chance(h: int) -> int:
    """Kill Percentage Table: K(H) = 0 for H ≤ 5, else min(16, floor(H/6)) (ruling C-18)."""
    k = 0
    for low, kill in tables().kill_rows:
        if h >= low:
            k = kill
    return k


@dataclass(frozen=True)
class Shot:
    """One fire's result: ``kill``, ``wound`` (with damage points) or ``miss``.

    ``roll`` is the d100 as rolled in play, for narration (``None`` when no die was rolled,
    K-5); it takes no part in comparing results (under exact enumeration it means nothing)."""

    result: str
    damage: int = 0
    roll: int | None = field(default=None, compare=False)


def fire_roll(chance: Chance, h: int, audience: Audience = None,
              rolled: list[int] | None = None) -> str:
    """Ruling C-18: one d100 r; r ≤ K(H) kills, else r ≤ H hits, else misses (no damage yet).

    Collapsed with ``repeat_until`` (see ``dice.percent_check``): one d100 in play, a three-way
    branch under exact enumeration. ``rolled`` collects the d100 for narration.
    """
    k = kill_chance(h)
    if h <= 0:
        return MISS  # ruling K-5 (C-189): nothing can hit, so no die is rolled

    def classify(c: Chance) -> str:
        r = d100(c, "fire", audience)
        if rolled is not None:
            rolled.append(r)
        return KILL if passes(r, k) else WOUND if passes(r, h) else MISS

    return chance.repeat_until(classify)


def one_fire(chance: Chance, h: int, damage: Dice, audience: Audience = None) -> Shot:
    """One fire with its damage: a hit that does not kill rolls the weapon's Damage (min 1)."""
    rolled: list[int] = []
    result = fire_roll(chance, h, audience, rolled)
    roll = rolled[-1] if rolled else None
    if result != WOUND:
        return Shot(result, roll=roll)
    return Shot(WOUND, weapon_damage(chance, damage, "fire damage", audience), roll=roll)


def fires(weapon: str, semi: bool = False) -> int:
    """Number of to-hit rolls of one task (C-17); semi-automatic makes one (C-20)."""
    return tables().semi_fires if semi else firearm(weapon).fires


def fire_task(
    chance: Chance, weapon: str, h: int, semi: bool = False, audience: Audience = None
) -> tuple[Shot, ...]:
    """Every fire of one task against one target, in order (digest 8.7)."""
    dmg = firearm(weapon).damage
    return tuple(one_fire(chance, h, dmg, audience) for _ in range(fires(weapon, semi)))


def mag_chance(weapon: str, semi: bool = False) -> int:
    """Mag Chk %: 0 for "No"; halved, rounded down, for semi-automatic fire (ruling C-20)."""
    mag = firearm(weapon).mag
    if mag is None:
        return 0
    return mag // 2 if semi else mag


def mag_check(chance: Chance, weapon: str, semi: bool = False, audience: Audience = None) -> bool:
    """Ruling C-19: after the task, d100 ≤ Mag Chk empties the magazine; "No" rolls nothing."""
    pct = mag_chance(weapon, semi)
    if firearm(weapon).mag is None:
        return False
    return percent_check(chance, pct, "mag check", audience)


def can_fire_semi(weapon: str) -> bool:
    return weapon in tables().semi_weapons


def fire_cost(weapon: str, semi: bool = False, spray: bool = False, sniping: bool = False) -> int:
    """TP of one fire task (ruling C-20) plus spray (+7, C-25) and Sniping (+10, 12.1)."""
    t = tables()
    if semi and not can_fire_semi(weapon):
        raise ValueError(f"{weapon} cannot fire semi-automatic")
    cost = t.semi_cost if semi else t.task_cost[firearm(weapon).task]
    if spray:
        cost += t.extra["spray_fire"]
    if sniping:
        cost += t.extra["sniping"]
    return cost


def can_spray(weapon: str, semi: bool = False) -> bool:
    """Ruling C-25: automatic weapons with 3 or more fires."""
    w = firearm(weapon)
    return not semi and w.task in ("automatic", "machinegun") and w.fires >= 3
