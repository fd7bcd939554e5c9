"""Improvement after a mission (digest 14 steps 3-7, 9): skills, weapon proficiencies, Lead, Hero,
promotion and characteristic loss, each one roll through the given chance."""

from __future__ import annotations

from collections.abc import Mapping

from killhouse.core.chance import Chance
from killhouse.rulesets.commando.campaign.tables import campaign_tables
from killhouse.rulesets.commando.dice import d100


def skill_improves(chance: Chance, purpose: str, rating: int) -> bool:
    """Step 3: a d100 higher than the current rating raises it by 1."""
    return d100(chance, purpose) > rating


def wp_target(addition: int) -> int:
    """Step 4: T = 28 + 4 × addition, at most 95 (always a 5 % chance)."""
    w = campaign_tables().wp_improve
    return min(w["cap"], w["base"] + w["per"] * addition)


def wp_improves(chance: Chance, purpose: str, addition: int) -> bool:
    """Step 4: a d100 greater than T raises the addition by 1."""
    return d100(chance, purpose) > wp_target(addition)


def lead_change(streak: Mapping[str, int], success: bool) -> tuple[int, dict[str, int]]:
    """Step 5 (ruling C-57): three successes in a row +1, two failures in a row -1; the
    streak that changed Lead starts again, and either result breaks the other streak."""
    rule = campaign_tables().lead
    wins = streak.get("success", 0) + 1 if success else 0
    losses = 0 if success else streak.get("failure", 0) + 1
    change = 0
    if wins >= rule["successes"]:
        change, wins = 1, 0
    if losses >= rule["failures"]:
        change, losses = -1, 0
    return change, {"success": wins, "failure": losses}


def hero_chance(hero: int, success: bool, potential: int) -> int:
    """Step 6: after a success (30 - Hero) × HeroPotential (at least 0) to rise; after a
    failure Hero itself, to fall."""
    if success:
        return max(0, (campaign_tables().hero_top - hero) * potential)
    return hero


def hero_change(chance: Chance, purpose: str, hero: int, success: bool, potential: int) -> int:
    """Step 6: +1, 0 or -1 on one d100 (roll <= the chance)."""
    roll = d100(chance, purpose)
    if roll > hero_chance(hero, success, potential):
        return 0
    return 1 if success else -1


def promotion_points(objectives: bool, half_survived: bool, hero_delta: int) -> int:
    """Step 7's Promotion Point Schedule, before the missions since the last promotion."""
    p = campaign_tables().promotion
    points = int(p["objectives"] if objectives else p["no_objectives"])
    points += int(p["half_survived"] if half_survived else p["less_than_half"])
    if hero_delta > 0:
        points += int(p["hero_up"])
    elif hero_delta < 0:
        points += int(p["hero_down"])
    return points


def promotion_total(points: int, since: int) -> int:
    """Step 7.2: 0 or more adds the missions since his last promotion, negative subtracts them."""
    return points + since if points >= 0 else points - since


def promotion(chance: Chance, purpose: str, total: int, waiting: bool) -> int:
    """Step 7.3-7.5: +1 rank on d100 <= P, -1 on d100 < N for a total of -N (ruling C-56);
    0 when nothing can happen (no roll: waiting after a promotion, or a total of 0)."""
    if total > 0 and not waiting:
        return 1 if d100(chance, purpose) <= total else 0
    if total < 0:
        return -1 if d100(chance, purpose) < -total else 0
    return 0


def loss_chance(worst: str) -> int:
    """Step 9: 10 after a serious wound (not incapacitated), 35 after incapacitation."""
    loss = campaign_tables().loss
    if worst == "incapacitated":
        return int(loss["incapacitated"])
    if worst == "seriously wounded":
        return int(loss["serious"])
    return 0
