"""Checking a hand-edited Commando roster man (ruling C-137): every impossible value is one issue
at its field, with what was expected, so a roster file never fails with a traceback."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from killhouse.roster.model import Man, Roster
from killhouse.rulesets.commando.campaign.chargen import SKILLS, WP_CHOICES
from killhouse.rulesets.commando.campaign.tables import campaign_tables
from killhouse.rulesets.commando.characters import hero_class
from killhouse.rulesets.commando.men import ABILITIES
from killhouse.rulesets.commando.tables import tables
from killhouse.scenario.model import Issue

#: the highest characteristic a campaign can reach (24 + a Bonus chain + practice; C-137)
MAX_CHARACTERISTIC = 40
#: the best Skill Efficiency rating (digest 13.5); a skill rises at most 1 a mission
BEST_SKILL = max(tables().efficiency.values())
FIGURE_KEYS = ("man", "wps", "abilities", "squad", "auxiliary")
RECORD_KEYS = ("age", "weeks", "rank", "missions", "rolled", "to_choose", "class", "extras",
               "since_promotion", "wait", "streak", "healing", "practice", "history")
CLASSES = (*dict.fromkeys(row.name for row in tables().hero), "Beyond Price")


def _hint(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f"did you mean {close[0]!r}?" if close else "one of " + ", ".join(options)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_man(man: Man, path: str, roster: Roster) -> list[Issue]:
    """Every impossible value of one Commando roster man (digest 13, 14)."""
    issues: list[Issue] = []
    figure, record = man.figure, man.record
    for key in figure:
        if key not in FIGURE_KEYS:
            issues.append(Issue(f"{path}.figure.{key}", "unknown key", _hint(key, FIGURE_KEYS)))
    kind = figure.get("man")
    if kind not in ("commando", "grunt"):
        issues.append(Issue(f"{path}.figure.man" if "man" in figure else f"{path}.figure",
                            f"expected the kind of man (commando or grunt), found {kind!r}",
                            "figure: {man: commando, wps: {pistol: 0, knife: 0}}"))
        return issues
    missions = record.get("missions", 0)
    if not _whole(missions) or missions < 0:
        issues.append(Issue(f"{path}.record.missions",
                            f"expected a number of missions, found {missions!r}"))
        missions = 0
    _characteristics(man, path, str(kind), issues)
    _skills(man, path, int(missions), issues)
    _wps(figure.get("wps"), path, int(missions), issues)
    _abilities(figure.get("abilities", []), path, str(kind), issues)
    _record(man, path, str(kind), roster, issues)
    return issues


def _characteristics(man: Man, path: str, kind: str, issues: list[Issue]) -> None:
    wanted = campaign_tables().characteristics[kind]
    values = man.characteristics
    for key in values:
        if key not in wanted:
            hint = ("a Grunt has no Lead or Hero (digest 13.1 step 6)" if key in ("lead", "hero")
                    else _hint(key, wanted))
            issues.append(Issue(f"{path}.characteristics.{key}", f"a {kind} has no {key!r}", hint))
    for key in wanted:
        if key not in values:
            issues.append(Issue(f"{path}.characteristics", f"missing {key!r}",
                                f"a {kind} has {', '.join(wanted)}"))
            continue
        value = values[key]
        if value > MAX_CHARACTERISTIC:
            issues.append(Issue(f"{path}.characteristics.{key}", f"{key} {value} is impossible",
                                f"0 to {MAX_CHARACTERISTIC}: 5d6 keep 4 gives 4-24, bonuses and "
                                "practice add a few points (ruling C-137)"))
    if values.get("lead", 1) < campaign_tables().lead["minimum"]:
        issues.append(Issue(f"{path}.characteristics.lead", "Lead is never below 1 (ruling C-57)"))
    hero = values.get("hero")
    if (hero is not None and hero <= campaign_tables().retired_at_most
            and man.status not in ("retired", "dead")):
        issues.append(Issue(f"{path}.characteristics.hero", f"Hero {hero} is forcibly retired",
                            "status: retired, or Hero 5 or more (ruling C-51)"))


def _skills(man: Man, path: str, missions: int, issues: list[Issue]) -> None:
    for skill, rating in man.skills.items():
        where = f"{path}.skills.{skill}"
        if skill not in SKILLS:
            issues.append(Issue(where, f"unknown skill {skill!r}", _hint(skill, SKILLS)))
        elif rating < 1 or rating > BEST_SKILL + missions:
            issues.append(Issue(where, f"rating {rating} is impossible after {missions} "
                                "mission(s)", f"1 to {BEST_SKILL + missions}: 2d10 gives at most "
                                f"{BEST_SKILL}, +1 a mission at most (digest 13.5, 14 step 3)"))


def _wps(wps: Any, path: str, missions: int, issues: list[Issue]) -> None:
    where = f"{path}.figure.wps"
    if not isinstance(wps, Mapping):
        issues.append(Issue(where, f"expected a mapping of weapon to addition, found {wps!r}",
                            "wps: {pistol: 0, knife: 0}"))
        return
    for weapon in campaign_tables().free_wps:
        if weapon not in wps:
            issues.append(Issue(where, f"missing {weapon!r}",
                                "everyone starts with Pistol +0 and Knife +0 (13.1 step 5)"))
    for weapon, add in wps.items():
        if weapon not in WP_CHOICES:
            issues.append(Issue(f"{where}.{weapon}", f"unknown weapon {weapon!r}",
                                _hint(str(weapon), WP_CHOICES)))
        elif not _whole(add) or add < 0:
            issues.append(Issue(f"{where}.{weapon}", f"expected an addition 0 or more, "
                                f"found {add!r}"))
        elif add > missions:
            issues.append(Issue(f"{where}.{weapon}", f"WP +{add} is impossible after {missions} "
                                "mission(s)", f"at most +{missions}: a proficiency starts at +0 "
                                "and rises at most 1 a mission (digest 14 step 4)"))


def _abilities(abilities: Any, path: str, kind: str, issues: list[Issue]) -> None:
    where = f"{path}.figure.abilities"
    if not isinstance(abilities, list):
        issues.append(Issue(where, f"expected a list of Hero abilities, found {abilities!r}"))
        return
    if abilities and kind != "commando":
        issues.append(Issue(where, "only Commandos have Hero abilities"))
    for i, ability in enumerate(abilities):
        if ability not in ABILITIES:
            issues.append(Issue(f"{where}[{i}]", f"unknown Hero ability {ability!r}",
                                _hint(str(ability), sorted(ABILITIES))))
    if "increase_endurance" in abilities and "ignore_serious_wounds" not in abilities:
        issues.append(Issue(where, "increase_endurance needs ignore_serious_wounds",
                            "digest 12.2 (ruling C-46)"))


def _record(man: Man, path: str, kind: str, roster: Roster, issues: list[Issue]) -> None:
    record = man.record
    for key in record:
        if key not in RECORD_KEYS:
            issues.append(Issue(f"{path}.record.{key}", "unknown key", _hint(key, RECORD_KEYS)))
    rank = record.get("rank", campaign_tables().start_rank)
    if not _whole(rank) or not 1 <= rank <= 10:
        issues.append(Issue(f"{path}.record.rank", f"rank {rank!r} is not on the Rank List",
                            "1 (Private) to 10 (Colonel)"))
    age = record.get("age", campaign_tables().start_age)
    if not _whole(age) or age < campaign_tables().start_age:
        issues.append(Issue(f"{path}.record.age", f"age {age!r} is impossible",
                            f"men start at {campaign_tables().start_age} (13.1 step 2)"))
    healing = record.get("healing", 0)
    if isinstance(healing, bool) or not isinstance(healing, (int, float)) or healing < 0:
        issues.append(Issue(f"{path}.record.healing",
                            f"expected weeks of healing 0 or more, found {healing!r}"))
    elif healing > 0 and man.status not in ("resting", "dead", "retired"):
        issues.append(Issue(f"{path}.status", f"a man with {healing} weeks still to heal "
                            f"is resting, not {man.status}", "status: resting (ruling C-60)"))
    name = record.get("class")
    hero = man.characteristics.get("hero")
    if name is not None:
        if kind != "commando" or hero is None:
            issues.append(Issue(f"{path}.record.class", "only a Commando has a Hero class"))
        elif name not in CLASSES:
            issues.append(Issue(f"{path}.record.class", f"unknown hero class {name!r}",
                                _hint(str(name), CLASSES)))
        elif name != hero_class(hero).name:
            issues.append(Issue(f"{path}.record.class", f"Hero {hero} is {hero_class(hero).name}"
                                f", not {name}", "digest 13.6"))
    aux = man.figure.get("auxiliary")
    if aux is not None:  # ruling C-47: a Commando's joke, from the chart
        if kind != "commando":
            issues.append(Issue(f"{path}.figure.auxiliary",
                                "only a Commando rolls an auxiliary ability"))
        elif aux not in tables().auxiliary:
            issues.append(Issue(f"{path}.figure.auxiliary", f"unknown auxiliary ability {aux!r}",
                                _hint(str(aux), tables().auxiliary)))
    squad = man.figure.get("squad")
    if squad is not None:
        leader = next((m for m in roster.men if m.name == squad), None)
        if kind != "grunt":
            issues.append(Issue(f"{path}.figure.squad", "only a Grunt serves under a Commando"))
        elif leader is None or leader.figure.get("man") != "commando":
            issues.append(Issue(f"{path}.figure.squad", f"no Commando {squad!r} in this roster",
                                _hint(str(squad), [m.name for m in roster.men
                                                   if m.figure.get("man") == "commando"])))
