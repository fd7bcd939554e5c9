"""Values derived from a man's characteristics (digest 3, 12.1, 13.3, 13.5, 13.6).

Pure lookups over the charts plus the two rolls the tactical game makes on them: a skill check
and the 5d6-keep-4 characteristic roll (the latter also serves the separate campaign issue).
"""

from __future__ import annotations

from dataclasses import dataclass

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando.dice import percent_check
from killhouse.rulesets.commando.notes import note_skill
from killhouse.rulesets.commando.tables import tables


def charmod(value: int) -> int:
    """Characteristic Modification Table; values below 0 use the 0 row (digest 13.3)."""
    value = max(0, value)
    for low, high, mod in tables().charmod_rows:
        if value >= low and (high is None or value <= high):
            return mod
    raise AssertionError(f"charmod table has no row for {value}")


def st_bonus(strength: int) -> int:
    """Strength's H2H kill and damage bonus: +1 at 21-24 … +4 at 30+ (digest 3)."""
    bonus = 0
    for low, add in tables().st_bonus:
        if strength >= low:
            bonus = add
    return bonus


@dataclass(frozen=True)
class HeroRating:
    """What a Hero rating gives now (ruling C-50: these follow the current rating)."""

    rating: int
    name: str
    retired: bool
    combat: int
    obs: str
    skill: int
    skills_wps: int
    abilities: int
    escape: bool


def hero_class(rating: int) -> HeroRating:
    """Hero Class Chart with cumulative extras and ruling C-49's "each +2 over 29"."""
    rows = tables().hero
    chosen = rows[0]
    skills_wps = abilities = 0
    for row in rows:
        if rating >= row.low:
            chosen = row
            skills_wps += row.skills_wps
            abilities += row.abilities
    if chosen.combat is None or chosen.obs is None or chosen.skill is None:
        # ruling C-51: Hero 0-4 is forcibly retired
        return HeroRating(rating, chosen.name, True, 0, tables().doofus_obs, 0, 0, 0, False)
    beyond = tables().hero_beyond
    steps = max(0, rating - beyond["above"]) // beyond["step"]  # ruling C-49: full steps of 2
    name = "Beyond Price" if steps else chosen.name
    return HeroRating(
        rating, name, False,
        chosen.combat + steps * beyond["combat"], chosen.obs,
        chosen.skill + steps * beyond["skill"], skills_wps, abilities, chosen.escape,
    )


def skill_level(skill: str, rating: int, mult: float | None = None) -> int:
    """SDL = floor(rating × DiffMult) (digest 12.1, C-2); ``mult`` for per-object skills."""
    row = tables().skills[skill]
    factor = row.mult if row.mult is not None else mult
    if factor is None:
        raise ValueError(f"skill {skill!r} needs a difficulty multiple from the object")
    return int(rating * factor)  # floor, ratings and factors are positive


def skill_chance(skill: str, rating: int, hero_skill: int, mult: float | None = None) -> int:
    """d100 target: SDL + Hero skill mod, with Demolitions' 35 % floor (ruling C-45)."""
    pct = skill_level(skill, rating, mult) + hero_skill
    return max(tables().skills[skill].minimum, pct)


def skill_check(
    chance: Chance, skill: str, rating: int, hero_skill: int, mult: float | None = None,
    audience: Audience = None, who: str | None = None,
) -> bool:
    """One skill roll (ruling C-45); ``who`` rolled it, for the campaign's notes (digest 14)."""
    pct = skill_chance(skill, rating, hero_skill, mult)
    ok = percent_check(chance, pct, f"skill {skill}", audience)
    note_skill(who, skill, ok)
    return ok


def efficiency(total: int) -> int:
    """Skill Efficiency Table: 2d10 total -> skill rating (digest 13.5)."""
    return tables().efficiency[total]


def characteristic(
    chance: Chance, purpose: str = "characteristic", audience: Audience = None
) -> int:
    """5d6, keep the best four (digest 13.1 step 1)."""
    dice = chance.dice(5, 6, purpose, audience)
    return sum(dice) - min(dice)
