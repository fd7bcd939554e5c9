"""After the mission (digest 14): what a logged game did to each roster man, then the nine steps
in their order (ruling C-54), every roll through the given chance.

``debrief`` reads the replayed final state; ``after_game`` changes the roster. The player's
decisions (practice months, which characteristic to lose) come in as ``plans``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from killhouse.core.chance import Chance
from killhouse.errors import KillhouseError
from killhouse.roster.model import Man, Roster
from killhouse.roster.rules import AfterGame
from killhouse.rulesets.commando.campaign import healing, improvement
from killhouse.rulesets.commando.campaign.tables import campaign_tables
from killhouse.rulesets.commando.characters import hero_class
from killhouse.rulesets.commando.dice import d100
from killhouse.rulesets.commando.men import Kind
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.wounds import Wound
from killhouse.scenario.model import Scenario


def hero_potential(scenario: Scenario) -> int:
    """The scenario's ``options.hero_potential``, 1-5, default 2 (ruling C-58)."""
    c = campaign_tables().hero_potential
    value = scenario.options.get("hero_potential", c["default"])
    if isinstance(value, bool) or not isinstance(value, int) or not c["low"] <= value <= c["high"]:
        raise KillhouseError(f"options.hero_potential: expected a whole number from {c['low']} "
                             f"to {c['high']}, found {value!r} (ruling C-58)")
    return value


def debrief(
    state: CommandoState, scenario: Scenario, result: Any, notes: Mapping[str, Any]
) -> dict[str, Any]:
    """Each roster man's mission: his final and worst state, damage, the skills he used
    successfully and the proficiencies he hit with (digest 14; rulings C-131, C-133)."""
    winners = tuple(result.winners) if result is not None else ()
    men: dict[str, Any] = {}
    for spec in scenario.figures:
        name = spec.extra.get("roster")
        man = state.men.get(spec.id)
        if not isinstance(name, str) or man is None:
            continue
        # ruling C-133: "his men" are the men he led in the game, else the rest of his side
        led = [m for m in state.men.values() if m.leader == man.id]
        if not led:
            led = [m for m in state.men.values() if m.side == man.side and m.id != man.id]
        alive = sum(m.wound() is not Wound.DEAD for m in led)
        hits = sorted({
            key for key in (
                "knife" if w in ("combat_knife", "large_knife") else w
                for w in notes.get("hits", {}).get(spec.id, [])
            ) if key in man.ratings.wps  # ruling C-21: no proficiency, no improvement
        })
        men[name] = {
            "figure": spec.id,
            "side": man.side,
            "kind": man.ratings.kind.value,
            "state": man.wound().value,
            "worst": man.worst.value,
            "damage": man.damage,
            "endurance": man.end0(),
            "skills": sorted(notes.get("skills", {}).get(spec.id, [])),
            "hits": hits,
            "objectives": man.side in winners,  # ruling C-134: his side won the game
            "men": len(led),
            "alive": alive,
        }
    return {
        "winners": list(winners),
        "reason": "" if result is None else str(result.reason),
        "hero_potential": hero_potential(scenario),
        "men": men,
    }


def _weeks(record: Mapping[str, Any], key: str) -> Fraction:
    return Fraction(str(record.get(key, 0)))


def _number(value: Fraction) -> int | float:
    """A week count for the file: whole numbers as ints, halves as floats (exact in binary)."""
    return int(value) if value.denominator == 1 else float(value)


def _age(record: dict[str, Any], weeks: int) -> None:
    """Step 2: the weeks until the next mission are added to his age (52 weeks a year)."""
    total = int(record.get("weeks", 0)) + weeks
    record["age"] = int(record.get("age", campaign_tables().start_age)) + total // 52
    record["weeks"] = total % 52


def time_until_next(chance: Chance, plans: Mapping[str, Any]) -> int:
    """Step 2 (ruling C-54): 4 × (1d6 + 1) weeks for the whole roster, unless the campaign says."""
    given = plans.get("weeks")
    if given is not None:
        return int(given)
    c = campaign_tables()
    return c.weeks_per * (chance.roll(c.weeks_die, "weeks until the next mission") + c.weeks_plus)


def after_game(
    roster: Roster, brief: Mapping[str, Any], chance: Chance, plans: Mapping[str, Any]
) -> AfterGame:
    """The roster after the mission ``brief`` describes (digest 14, in order: ruling C-54)."""
    weeks = time_until_next(chance, plans)
    lines = [f"{weeks} weeks until the next mission"]
    men: list[Man] = []
    practice_plans: Mapping[str, Mapping[str, int]] = plans.get("practice", {})
    losses: Mapping[str, str] = plans.get("lose", {})
    for name in (*practice_plans, *losses):
        if name not in roster.names():
            raise KillhouseError(f"no man {name!r} in roster {roster.name!r}")
    for man in roster.men:
        if man.status in ("dead", "retired"):
            men.append(man)  # the dead stay dead
            continue
        facts = brief["men"].get(man.name)
        if facts is None:
            new, line = _rest(man, weeks, practice_plans.get(man.name, {}), chance)
        else:
            new, line = _mission(man, facts, brief, weeks, practice_plans.get(man.name, {}),
                                 losses.get(man.name), chance)
        men.append(new)
        lines.append(line)
    return AfterGame(replace(roster, men=tuple(men)), tuple(lines))


def _rest(man: Man, weeks: int, plan: Mapping[str, int], chance: Chance) -> tuple[Man, str]:
    """A man who missed the mission: older, healing on, practising with any months left."""
    record = dict(man.record)
    _age(record, weeks)
    notes: list[str] = ["missed the mission"]
    status = _heal(record, Fraction(0), weeks, notes)
    values = dict(man.characteristics)
    _practise(man.name, record, values, plan, weeks, False, chance, notes)
    return replace(man, characteristics=values, record=record, status=status), (
        f"{man.name}: " + "; ".join(notes))


def _heal(record: dict[str, Any], new: Fraction, weeks: int, notes: list[str]) -> str:
    """Step 8: healing owed (carried + this mission's) against the weeks until the next
    mission; a man still healing then misses it and carries the rest (ruling C-60)."""
    owed = _weeks(record, "healing") + new
    if owed > weeks:
        record["healing"] = _number(owed - weeks)
        notes.append(f"heals {_number(owed)} weeks: misses the next mission")
        return "resting"
    record.pop("healing", None)
    if owed:
        notes.append(f"heals in {_number(owed)} weeks")
    record["free_months"] = healing.months_left(Fraction(weeks), owed)
    return "fit"


def _practise(
    name: str, record: dict[str, Any], values: dict[str, int], plan: Mapping[str, int],
    weeks: int, wounded: bool, chance: Chance, notes: list[str],
) -> None:
    """Step 8's practice: the player's months, one roll per characteristic (ruling C-55)."""
    available = int(record.pop("free_months", 0))
    if not plan:
        return
    problem = healing.check_plan(plan, available)
    if problem:
        raise KillhouseError(f"--practice {name}: {problem}")
    banked = dict(record.get("practice", {}))
    for key, months in plan.items():
        p = healing.practice(key, months, int(banked.get(key, 0)), values[key], wounded)
        if p.problem:
            raise KillhouseError(f"--practice {name}: {p.problem}")
        if p.banked:
            banked[key] = p.banked
        else:
            banked.pop(key, None)
        if p.pct <= 0:
            notes.append(f"practised {key} {months} months (nothing to roll yet)")
            continue
        if d100(chance, f"{name} practice {key}") <= p.pct:
            values[key] += 1
            notes.append(f"practice {key} +1 ({p.pct}%)")
        else:
            notes.append(f"practice {key} no gain ({p.pct}%)")
    if banked:
        record["practice"] = banked
    else:
        record.pop("practice", None)


def _mission(
    man: Man, facts: Mapping[str, Any], brief: Mapping[str, Any], weeks: int,
    plan: Mapping[str, int], lose: str | None, chance: Chance,
) -> tuple[Man, str]:
    """Steps 1-9 for a man who went on the mission."""
    record = dict(man.record)
    record["missions"] = int(record.get("missions", 0)) + 1
    games = man.games + 1
    if facts["state"] == Wound.DEAD.value:  # step 1: only survivors carry on
        record.pop("healing", None)
        return replace(man, status="dead", games=games, record=record), (
            f"{man.name}: died on the mission")
    notes: list[str] = [f"came back {facts['state']}"]
    values = dict(man.characteristics)
    skills = dict(man.skills)
    figure = dict(man.figure)
    wps = dict(figure.get("wps", {}))
    _age(record, weeks)  # step 2
    history = {k: list(v) for k, v in record.get("history", {}).items()}
    for skill in facts["skills"]:  # step 3
        if skill not in skills:
            continue
        old = skills[skill]
        if improvement.skill_improves(chance, f"{man.name} improve {skill}", old):
            skills[skill] = old + 1
            history.setdefault(skill, []).append(f"{old}/{old + 1}")
            notes.append(f"{skill} {old}/{old + 1}")
        else:
            notes.append(f"{skill} stays {old}")
    if history:
        record["history"] = history
    for weapon in facts["hits"]:  # step 4
        if weapon not in wps:
            continue
        old = int(wps[weapon])
        if improvement.wp_improves(chance, f"{man.name} improve wp {weapon}", old):
            wps[weapon] = old + 1
            notes.append(f"{weapon} +{old}/+{old + 1}")
        else:
            notes.append(f"{weapon} stays +{old}")
    figure["wps"] = wps
    objectives = bool(facts["objectives"])
    half = 2 * int(facts["alive"]) >= int(facts["men"])
    if facts["kind"] == Kind.COMMANDO.value:  # steps 5-7 (Grunts skip them, ruling C-61)
        _leader_steps(man.name, record, values, figure, objectives, half,
                      int(brief["hero_potential"]), chance, notes)
    worst = str(facts["worst"])
    wound_type = healing.WOUND_TYPE.get(worst)
    new = healing.heal_weeks(wound_type, int(facts["damage"]), int(facts["endurance"]))
    status = _heal(record, new, weeks, notes)  # step 8
    wounded = worst != Wound.UNWOUNDED.value
    _practise(man.name, record, values, plan, weeks, wounded, chance, notes)
    pct = improvement.loss_chance(worst)  # step 9
    if pct and d100(chance, f"{man.name} characteristic loss") <= pct:
        order = list(campaign_tables().loss["order"])
        if lose is not None:
            if lose not in order:
                raise KillhouseError(f"--lose {man.name}: expected one of {', '.join(order)}")
            key = lose
        else:
            key = order[chance.roll(len(order), f"{man.name} characteristic lost") - 1]
        values[key] -= 1
        notes.append(f"loses 1 {key} ({pct}%)")
    if "hero" in values:
        record["class"] = hero_class(values["hero"]).name
        if values["hero"] <= campaign_tables().retired_at_most:
            status = "retired"  # ruling C-51
            notes.append("forcibly retired (Hero 4 or less)")
    return replace(man, characteristics=values, skills=skills, figure=figure, record=record,
                   status=status, games=games), f"{man.name}: " + "; ".join(notes)


def _leader_steps(
    name: str, record: dict[str, Any], values: dict[str, int], figure: dict[str, Any],
    objectives: bool, half: bool, potential: int, chance: Chance, notes: list[str],
) -> None:
    """Steps 5-7 for a Commando: Lead streaks, Hero, promotion (rulings C-56, C-57, C-136)."""
    success = objectives and half  # ruling C-57
    notes.append("success" if success else "no success")
    change, streak = improvement.lead_change(record.get("streak", {}), success)
    record["streak"] = streak
    if change:
        old = values["lead"]
        values["lead"] = max(campaign_tables().lead["minimum"], old + change)
        notes.append(f"Lead {old}/{values['lead']}")
    old_hero = values["hero"]
    delta = improvement.hero_change(chance, f"{name} hero", old_hero, success, potential)
    if delta:
        values["hero"] = old_hero + delta
        notes.append(f"Hero {old_hero}/{values['hero']}")
        _hero_extras(record, values["hero"], notes)
    else:
        notes.append(f"Hero stays {old_hero}")
    p = campaign_tables().promotion
    since = int(record.get("since_promotion", 0)) + 1
    record["since_promotion"] = since
    wait = int(record.get("wait", 0))
    if wait:
        record["wait"] = wait - 1  # ruling C-136: the three missions after a promotion
        if wait == 1:
            record.pop("wait")
    if int(record["missions"]) < int(p["eligible_after"]):
        return
    total = improvement.promotion_total(improvement.promotion_points(objectives, half, delta),
                                        since)
    low, high = (int(v) for v in p["ranks"])
    rank = int(record.get("rank", campaign_tables().start_rank))
    if (total > 0 and rank >= high) or (total < 0 and rank <= low):
        return
    moved = improvement.promotion(chance, f"{name} promotion", total, wait > 0)
    if moved > 0:
        record["rank"] = rank + 1
        record["since_promotion"] = 0
        record["wait"] = int(p["wait"])
        notes.append(f"promoted to rank {rank + 1} ({total}%)")
    elif moved < 0:
        record["rank"] = rank - 1
        notes.append(f"demoted to rank {rank - 1}")


def _hero_extras(record: dict[str, Any], hero: int, notes: list[str]) -> None:
    """Ruling C-50: a Hero threshold reached gives its extras once; they are never lost."""
    had = dict(record.get("extras", {"skills_wps": 0, "abilities": 0}))
    now = hero_class(hero)
    more_sw = max(0, now.skills_wps - int(had.get("skills_wps", 0)))
    more_ab = max(0, now.abilities - int(had.get("abilities", 0)))
    if not (more_sw or more_ab):
        return
    record["extras"] = {"skills_wps": max(now.skills_wps, int(had.get("skills_wps", 0))),
                        "abilities": max(now.abilities, int(had.get("abilities", 0)))}
    open_ = dict(record.get("to_choose", {}))
    for key, more in (("skills", more_sw), ("wps", more_sw), ("abilities", more_ab)):
        if more:
            open_[key] = int(open_.get(key, 0)) + more
    record["to_choose"] = open_
    notes.append(f"may choose {more_sw} skill(s), {more_sw} WP(s), {more_ab} ability(ies)")

