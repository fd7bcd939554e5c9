"""Hand-to-hand combat: strikes, grapples, damage, disengagement and weapon draws (digest 10).

Rulings C-37 … C-44: a grappled target is hit automatically; every hit then rolls % to kill (+St
bonus); a non-kill does Damage Table[1d10][class] + St bonus; the draw table lists failures.
"""

from __future__ import annotations

from dataclasses import dataclass

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando.characters import charmod, st_bonus
from killhouse.rulesets.commando.dice import halve, percent_check
from killhouse.rulesets.commando.tables import MeleeWeapon, tables

KILL = "kill"
WOUND = "wound"
MISS = "miss"
ALL = "all"
ONE = "one"
NONE = "none"


def weapon(name: str) -> MeleeWeapon:
    weapons = tables().melee
    if name not in weapons:
        raise KeyError(f"unknown hand-to-hand weapon {name!r} (known: {', '.join(weapons)})")
    return weapons[name]


def damage_points(face: int, damage_class: int) -> int:
    """Hand-to-Hand Damage Table: 1d10 row × damage class column (1..11)."""
    return tables().melee_damage[face][damage_class - 1]


def needs_proficiency(name: str) -> bool:
    """Ruling C-21 / C-43: fists, umbrella, swagger stick and dog never take the penalty."""
    return weapon(name).proficiency is not None


@dataclass(frozen=True)
class Strike:
    """One striker's strike at one target in a round (digest 10.2)."""

    weapon: str
    st: int = 13
    hero_combat: int = 0
    wp: int | None = 0              # None = no proficiency (C-21); ignored where none is needed
    target_evading: bool = False
    personal_combat: bool = False   # Personal Combat success this round (12.1)
    severely_wounded: bool = False
    grappled: bool = False          # striker and target are grappled with each other


def strike_chance(s: Strike) -> int:
    """To hit, not grappled: (ToHit + CharMod(St) + Hero + WP − nonprof − 20 evading + 10 Personal
    Combat) × 0.5 if seriously wounded (ruling C-43); grappled targets are hit automatically."""
    t = tables()
    w = weapon(s.weapon)
    if s.grappled:
        return 100
    pct = w.hit + charmod(s.st) + s.hero_combat
    if needs_proficiency(s.weapon):
        # ruling C-67: the penalty halves the H2H table's own % to hit
        pct += s.wp if s.wp is not None else -min(t.nonproficiency, w.hit // 2)
    if s.target_evading:
        pct += t.strike_vs_evade
    if s.personal_combat:
        pct += t.personal_combat_hit
    return halve(pct, 1 if s.severely_wounded else 0)


def kill_chance(s: Strike) -> int:
    """Ruling C-39: every H2H hit rolls % to kill + St bonus (the garrote: 90 + St bonus)."""
    return weapon(s.weapon).kill + st_bonus(s.st)


@dataclass(frozen=True)
class Blow:
    """A strike's result: ``kill``, ``wound`` with damage points, or ``miss``."""

    result: str
    damage: int = 0


def strike_roll(chance: Chance, s: Strike, audience: Audience = None) -> str:
    """Hit and kill rolls of one strike: ``kill``, ``wound`` (damage still to roll) or ``miss``."""
    w = weapon(s.weapon)
    if w.grappled_kills:
        # ruling C-44: the garrote only works on a man he is grappling; no to-hit roll
        if not s.grappled:
            return MISS
        return KILL if percent_check(chance, kill_chance(s), "garrote", audience) else MISS
    if not s.grappled and not percent_check(chance, strike_chance(s), "strike", audience):
        return MISS
    if percent_check(chance, kill_chance(s), "strike kill", audience):
        return KILL
    damage_class = w.grappled_class if s.grappled else w.damage_class
    return MISS if damage_class is None else WOUND


def strike(chance: Chance, s: Strike, audience: Audience = None) -> Blow:
    """Resolve one strike with its damage (digest 10.2; rulings C-39, C-43, C-44)."""
    t = tables()
    w = weapon(s.weapon)
    result = strike_roll(chance, s, audience)
    if result != WOUND:
        return Blow(result)
    damage_class = w.grappled_class if s.grappled else w.damage_class
    assert damage_class is not None
    points = damage_points(chance.roll(10, "strike damage", audience), damage_class)
    points += st_bonus(s.st)
    if s.personal_combat:
        points += t.personal_combat_damage
    return Blow(WOUND, max(1, points))  # ruling C-68: a hit does at least 1


def grapple_chance(st_own: int, st_opp: int, opp_evading: bool = False) -> int:
    """Ruling C-40: 50 + CharMod(St) own − CharMod(St) opponent, −25 if he evades.
    The same roll breaks a grapple for a grappled man who evades."""
    t = tables()
    pct = t.grapple_base + charmod(st_own) - charmod(st_opp)
    return pct + (t.grapple_vs_evade if opp_evading else 0)


def grapple(chance: Chance, st_own: int, st_opp: int, opp_evading: bool = False,
            audience: Audience = None) -> bool:
    pct = grapple_chance(st_own, st_opp, opp_evading)
    return percent_check(chance, pct, "grapple", audience)


def disengage_result(total: int, withdrawing: int, staying: int) -> str:
    """Disengagement Table on a 2d6 total: ``all``, ``one`` or ``none`` (ruling C-42: 3 or more
    men use the "2" row or column)."""
    cell = tables().disengage[min(2, withdrawing)][min(2, staying)]
    for low, high, result in cell:
        if low <= total <= high:
            return result
    return NONE


def disengage(chance: Chance, withdrawing: int, staying: int, audience: Audience = None) -> str:
    """Roll 2d6 for one square's disengagement attempts."""
    total = sum(chance.dice(2, 6, "disengage", audience))
    return disengage_result(total, withdrawing, staying)


def draw_succeeds(total: int, armed: bool, grappled: bool) -> bool:
    """Weapon Draw Table: the listed range is failure, any higher roll draws (ruling C-41)."""
    row = tables().draw_fails_up_to["armed" if armed else "unarmed"]
    return total > row["grappled" if grappled else "free"]


def draw(chance: Chance, armed: bool, grappled: bool, audience: Audience = None) -> bool:
    """Roll 2d6 on the Weapon Draw Table (ruling C-41: the die is 2d6)."""
    return draw_succeeds(sum(chance.dice(2, 6, "weapon draw", audience)), armed, grappled)
