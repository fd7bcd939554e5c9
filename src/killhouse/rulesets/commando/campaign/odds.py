"""The campaign's named rolls for ``killhouse odds commando`` (digest 16): each runs the same code
character generation and the after-mission sequence use."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from killhouse.core.chance import Chance
from killhouse.rulesets.base import Param, RollSpec
from killhouse.rulesets.commando.campaign import chargen, healing, improvement
from killhouse.rulesets.commando.campaign.after_mission import time_until_next
from killhouse.rulesets.commando.campaign.tables import campaign_tables
from killhouse.rulesets.commando.dice import d100

#: the Endurance chain is unbounded; odds follow it until it has added this much, and name the rest
CHAIN_CAP = 5


def _grouped_bonus(chance: Chance, purpose: str) -> tuple[int, int]:
    """One Bonus Table roll grouped by its points (5 branches, not 100), with the chain's
    continue-or-stop reading kept: (points, 1 if the chain goes on)."""
    def attempt(c: Chance) -> tuple[int, int]:
        roll, points = chargen.bonus_roll(c, purpose)
        return points, int(roll >= campaign_tables().chain_from)
    return chance.repeat_until(attempt)


def odds_generated(chance: Chance, p: Mapping[str, Any]) -> str:
    """A characteristic after its Bonus or Penalty step (13.1) from a 5d6-keep-4 total:
    St, Dex, End and Lead roll the Bonus Table on 23-24 (End chains while the d100 is 51 or
    more; followed until it has added CHAIN_CAP), St and Dex the Penalty Table on 4-5."""
    key, value = str(p["which"]), int(p["rolled"])
    c = campaign_tables()
    start = value
    if value in c.bonus_triggers and key in c.bonus_on:
        while True:
            points, more = _grouped_bonus(chance, "bonus")
            value += points
            if key != c.chain or not more:
                return str(value)
            if value - start >= CHAIN_CAP:
                return f"{start + CHAIN_CAP}+"
    if value in c.penalty_triggers and key in c.penalty_on:
        value -= _grouped_bonus(chance, "penalty")[0]
    return str(value)


def odds_bonus(chance: Chance, p: Mapping[str, Any]) -> str:
    """One roll on the Bonus (or Penalty) Table (13.2): its points."""
    return f"{'-' if p['penalty'] else '+'}{_grouped_bonus(chance, 'bonus')[0]}"


def odds_wp_improve(chance: Chance, p: Mapping[str, Any]) -> str:
    """Weapon proficiency after a mission with a hit (14 step 4): d100 > min(95, 28 + 4a)."""
    a = int(p["addition"])
    ok = chance.repeat_until(lambda c: improvement.wp_improves(c, "wp", a))
    return "improves" if ok else "stays"


def odds_skill_improve(chance: Chance, p: Mapping[str, Any]) -> str:
    """A skill used successfully (14 step 3): d100 > rating."""
    r = int(p["rating"])
    ok = chance.repeat_until(lambda c: improvement.skill_improves(c, "skill", r))
    return "improves" if ok else "stays"


def odds_hero(chance: Chance, p: Mapping[str, Any]) -> str:
    """Hero after a mission (14 step 6): +1 on d100 <= (30 - Hero) x potential after a
    success; -1 on d100 <= Hero after a failure."""
    hero, potential, success = int(p["hero"]), int(p["potential"]), not p["failure"]
    delta = chance.repeat_until(
        lambda c: improvement.hero_change(c, "hero", hero, success, potential))
    return {1: "+1", 0: "no change", -1: "-1"}[delta]


def odds_heal(chance: Chance, p: Mapping[str, Any]) -> str:
    """Healing against the time until the next mission (14 step 8, C-54, C-60): the weeks to
    heal are fixed by the wound; 4 x (1d6 + 1) weeks decide whether he misses the next mission
    and how many whole months he may practise."""
    wound = None if p["wound"] == "none" else str(p["wound"])
    owed = healing.heal_weeks(wound, int(p["points"]), int(p["end"]))
    weeks = time_until_next(chance, {})
    if owed > weeks:
        return f"heals {_weeks(owed)} wk: misses the next mission"
    return f"heals {_weeks(owed)} wk: {healing.months_left(Fraction(weeks), owed)} months free"


def _weeks(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


def odds_practice(chance: Chance, p: Mapping[str, Any]) -> str:
    """One characteristic's practice roll at the end of the period (14 step 8, C-55)."""
    got = healing.practice(str(p["which"]), int(p["months"]), int(p["banked"]), int(p["value"]),
                           bool(p["wounded"]))
    if got.problem:
        return "not allowed"
    pct = got.pct
    ok = chance.repeat_until(lambda c: d100(c, "practice") <= pct)
    return "+1" if ok else "no gain"


def odds_promotion(chance: Chance, p: Mapping[str, Any]) -> str:
    """Promotion or demotion (14 step 7, C-56): the Promotion Point Schedule and the missions
    since the last promotion."""
    total = improvement.promotion_total(
        improvement.promotion_points(not p["failed"], not p["lost-men"], int(p["hero-change"])),
        int(p["since"]))
    moved = chance.repeat_until(
        lambda c: improvement.promotion(c, "promotion", total, bool(p["waiting"])))
    return {1: "promoted", 0: "no change", -1: "demoted"}[moved]


CHARACTERISTICS = ("st", "mk", "dex", "end", "lead", "hero")


def _flag(name: str, help_text: str) -> Param:
    return Param(name, bool, False, help_text)


CAMPAIGN_ROLLS: dict[str, RollSpec] = {
    "generated": RollSpec(
        "generated", "A characteristic after the Bonus/Penalty step (13.1): from a 5d6-keep-4 "
        "total of 23-24 the Bonus Table (St, Dex, End, Lead; End chains while the d100 is 51+), "
        "of 4-5 the Penalty Table (St, Dex). The 5d6-keep-4 total itself: characteristic.",
        (Param("which", str, "end", "the characteristic", CHARACTERISTICS),
         Param("rolled", int, 24, "the 5d6-keep-4 total", min=4, max=24)),
        odds_generated,
    ),
    "bonus": RollSpec(
        "bonus", "One roll on the Bonus or Penalty Table (13.2).",
        (_flag("penalty", "the Penalty Table (subtract)"),), odds_bonus,
    ),
    "wp-improve": RollSpec(
        "wp-improve", "Weapon proficiency improvement (14 step 4, 16): d100 > min(95, 28 + 4A).",
        (Param("addition", int, 0, "the current addition A", min=0, max=60),),
        odds_wp_improve,
    ),
    "skill-improve": RollSpec(
        "skill-improve", "Skill improvement (14 step 3, 16): d100 > rating.",
        (Param("rating", int, 14, "the current rating", min=1, max=100),), odds_skill_improve,
    ),
    "hero": RollSpec(
        "hero", "Hero after a mission (14 step 6, C-58).",
        (Param("hero", int, 15, "the Hero rating", min=5, max=60),
         Param("potential", int, 2, "the scenario's HeroPotential", min=1, max=5),
         _flag("failure", "after a failed mission")),
        odds_hero,
    ),
    "heal": RollSpec(
        "heal", "Healing (14 step 8, C-60) against 4 x (1d6 + 1) weeks until the next mission.",
        (Param("wound", str, "serious", "the worst wound of the mission",
               ("none", *healing.TYPES)),
         Param("points", int, 6, "wound points taken", min=0, max=100),
         Param("end", int, 10, "his Endurance rating", min=0, max=60)),
        odds_heal,
    ),
    "practice": RollSpec(
        "practice", "A practice roll (14 step 8, C-55).",
        (Param("which", str, "mk", "the characteristic", ("st", "mk", "dex", "end")),
         Param("months", int, 4, "months practised this period", min=1, max=60),
         Param("banked", int, 0, "Mk/Dex months carried from before", min=0, max=60),
         Param("value", int, 15, "its current value (St 24+ gains 2% a month)", min=0, max=60),
         _flag("wounded", "he was wounded on the mission (Endurance)")),
        odds_practice,
    ),
    "promotion": RollSpec(
        "promotion", "Promotion or demotion after the fifth mission or later (14 step 7, C-56).",
        (_flag("failed", "objectives not achieved"),
         _flag("lost-men", "fewer than half of his men survived"),
         Param("hero-change", int, 0, "Hero change this mission", min=-1, max=1),
         Param("since", int, 5, "missions since his last promotion", min=1, max=100),
         _flag("waiting", "within three missions of a promotion")),
        odds_promotion,
    ),
}
