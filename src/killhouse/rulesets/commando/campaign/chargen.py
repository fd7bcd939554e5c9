"""Character generation (digest 13.1): characteristics, bonuses and penalties, the optional
reroll, skills, weapon proficiencies and Hero extras, every roll through the given chance.

The player's choices (which skills, weapons and abilities; whether to scrap a weak man) come in
as arguments: the engine never makes them (rulings C-130, C-132).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from killhouse.core.chance import Chance
from killhouse.roster.model import Man
from killhouse.rulesets.commando.campaign.tables import campaign_tables
from killhouse.rulesets.commando.characters import efficiency, hero_class
from killhouse.rulesets.commando.dice import d100
from killhouse.rulesets.commando.men import ABILITIES
from killhouse.rulesets.commando.tables import tables

KINDS = ("commando", "grunt")


def bonus_points(roll: int) -> int:
    """Bonus and Penalty Tables (digest 13.2): d100 -> 0 … 4 points."""
    points = 0
    for low, add in tables().bonus:
        if roll >= low:
            points = add
    return points


def keep_best_four(chance: Chance, purpose: str) -> int:
    """5d6, keep the best four (13.1 step 1): one event holds the five dice."""
    dice = chance.dice(5, 6, purpose)
    return sum(dice) - min(dice)


def bonus_roll(chance: Chance, purpose: str) -> tuple[int, int]:
    """One d100 on the Bonus (or Penalty) Table: (the roll, its points)."""
    roll = d100(chance, purpose)
    return roll, bonus_points(roll)


def adjust(chance: Chance, key: str, value: int, purpose: str) -> int:
    """The Bonus/Penalty step for one characteristic (13.1): on 23-24 the Bonus Table where the
    chart gives one (Endurance chains while the d100 is 51 or more), on 4-5 the Penalty Table."""
    c = campaign_tables()
    if value in c.bonus_triggers and key in c.bonus_on:
        if key == c.chain:
            while True:
                roll, points = bonus_roll(chance, f"{purpose} bonus")
                value += points
                if roll < c.chain_from:
                    break
        else:
            value += bonus_roll(chance, f"{purpose} bonus")[1]
    elif value in c.penalty_triggers and key in c.penalty_on:
        value -= bonus_roll(chance, f"{purpose} penalty")[1]
    return value


def characteristic(chance: Chance, key: str, purpose: str) -> int:
    """One characteristic with its bonus or penalty (13.1 step 1)."""
    return adjust(chance, key, keep_best_four(chance, purpose), purpose)


def roll_characteristics(chance: Chance, kind: str, name: str) -> dict[str, int]:
    """Every characteristic of a man of ``kind``, in the chart's order."""
    return {
        key: characteristic(chance, key, f"roster {name} {key}")
        for key in campaign_tables().characteristics[kind]
    }


def weak(kind: str, values: Mapping[str, int]) -> bool:
    """Whether the player may scrap him (13.1 step 7): total 84 or less (56 for a Grunt)."""
    return sum(values.values()) <= campaign_tables().reroll_at_most[kind]


def roll_man(chance: Chance, kind: str, name: str, reroll: bool) -> tuple[dict[str, int], int]:
    """His characteristics and how many times he was rolled: a Hero of 0-4 is always rolled
    again (ruling C-51); a weak man again only when the player asked (``reroll``, C-130)."""
    tries = 0
    while True:
        tries += 1
        values = roll_characteristics(chance, kind, name)
        if "hero" in values and values["hero"] <= campaign_tables().retired_at_most:
            continue
        if reroll and weak(kind, values):
            continue
        return values, tries


def allowance(kind: str, hero: int | None) -> dict[str, int]:
    """Skills, WPs (besides pistol and knife) and Hero abilities he may choose (13.1 steps 3-6)."""
    c = campaign_tables()
    extra = hero_class(hero) if hero is not None else None
    return {
        "skills": c.skills[kind] + (extra.skills_wps if extra else 0),
        "wps": c.wps[kind] + (extra.skills_wps if extra else 0),
        "abilities": extra.abilities if extra else 0,
    }


def new_man(chance: Chance, kind: str, name: str, reroll: bool, squad: str | None,
            jokes: bool = False) -> Man:
    """A man of ``kind`` rolled up, his choices still open (``record.to_choose``); with
    ``jokes`` a Commando also rolls his joke auxiliary ability (1d5 in chart order, C-47)."""
    c = campaign_tables()
    values, tries = roll_man(chance, kind, name, reroll)
    figure: dict[str, Any] = {
        "man": kind,
        "wps": {w: 0 for w in c.free_wps},
    }
    if kind == "commando":
        figure["abilities"] = []
        if jokes:  # ruling C-47: one at random, 1d5 in chart order, only when asked for
            chart = tables().auxiliary
            face = chance.dice(1, len(chart), f"roster {name} auxiliary ability")[0]
            figure["auxiliary"] = chart[face - 1]
    if squad is not None:
        figure["squad"] = squad
    hero = values.get("hero")
    record: dict[str, Any] = {
        "age": c.start_age,
        "rank": c.start_rank,
        "missions": 0,
        "rolled": tries,
        "to_choose": allowance(kind, hero),
    }
    if hero is not None:
        h = hero_class(hero)
        record["class"] = h.name
        record["extras"] = {"skills_wps": h.skills_wps, "abilities": h.abilities}  # C-50
        record["since_promotion"] = 0
        record["streak"] = {"success": 0, "failure": 0}
    return Man(name, values, {}, {}, "fit", 0, figure, record)


def pick_names(chance: Chance, given: Sequence[str], count: int, taken: Sequence[str]) -> list[str]:
    """``count`` names: the player's first, then names drawn from the campaign's list."""
    names = list(given[:count])
    pool = [n for n in campaign_tables().names if n not in names and n not in taken]
    while len(names) < count:
        if not pool:
            names.append(f"Man {len(names) + 1 + len(taken)}")
            continue
        name = chance.pick(pool, "roster name")
        pool.remove(name)
        names.append(name)
    return names


SKILLS = tuple(tables().skills)
WP_CHOICES = tuple(sorted(set(tables().firearms) | set(tables().melee) | {"knife"}))


def choose(chance: Chance, man: Man, choices: Mapping[str, Sequence[str]]) -> Man:
    """The man after his open choices are taken from the player's lists, in order (13.1 steps
    3-5; ruling C-132): a skill he has, a weapon he is proficient with and an ability he holds
    are passed over, as is Increase Endurance without Ignore Serious Wounds (C-46). Each new
    skill's rating is 2d10 on the Skill Efficiency Table. What the lists cannot fill stays
    open."""
    record = dict(man.record)
    open_ = dict(record.get("to_choose", {}))
    skills = dict(man.skills)
    figure = dict(man.figure)
    wps = dict(figure.get("wps", {}))
    abilities = list(figure.get("abilities", []))
    for skill in choices.get("skills", ()):
        if open_.get("skills", 0) <= 0:
            break
        if skill in skills:
            continue
        total = sum(chance.dice(2, 10, f"roster {man.name} skill {skill}"))
        skills[skill] = efficiency(total)
        open_["skills"] -= 1
    for weapon in choices.get("wps", ()):
        if open_.get("wps", 0) <= 0:
            break
        if weapon in wps:
            continue
        wps[weapon] = 0
        open_["wps"] -= 1
    for ability in choices.get("abilities", ()):
        if open_.get("abilities", 0) <= 0:
            break
        if ability in abilities:
            continue
        if ability == "increase_endurance" and "ignore_serious_wounds" not in abilities:
            continue
        abilities.append(ability)
        open_["abilities"] -= 1
    figure["wps"] = wps
    if "abilities" in figure or abilities:
        figure["abilities"] = abilities
    record["to_choose"] = {k: v for k, v in open_.items() if v > 0}
    if not record["to_choose"]:
        del record["to_choose"]
    return replace(man, skills=skills, figure=figure, record=record)


def check_choices(choices: Mapping[str, Sequence[str]]) -> list[str]:
    """Every unknown skill, weapon or ability the player named, as a message."""
    known = {"skills": SKILLS, "wps": WP_CHOICES, "abilities": tuple(sorted(ABILITIES)),
             "grunt_skills": SKILLS, "grunt_wps": WP_CHOICES}
    out: list[str] = []
    for key, names in choices.items():
        options = known.get(key, ())
        for name in names:
            if name not in options:
                close = difflib.get_close_matches(name, options, n=1)
                hint = f"did you mean {close[0]!r}?" if close else "one of " + ", ".join(options)
                what = key.removeprefix("grunt_")[:-1]
                out.append(f"--{key.replace('_', '-')}: unknown {what} {name!r} ({hint})")
    return out
