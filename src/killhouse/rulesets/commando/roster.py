"""Reading a scenario's men into ``Ratings`` and ``ManState``, with one issue per bad field.

A figure's ``stats`` hold ``st``, ``mk``, ``dex``, ``end`` (and ``lead``, ``hero`` for a
Commando); the ruleset's own figure keys are ``man`` (commando, grunt or doofus; default
doofus), ``leader``, ``wps``, ``skills``, ``abilities``, ``obs`` and ``auxiliary``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from killhouse.rulesets.commando.characters import hero_class
from killhouse.rulesets.commando.men import ABILITIES, Kind, ManState, Ratings, SkillRating
from killhouse.rulesets.commando.tables import tables
from killhouse.scenario.model import FigureSpec, Issue

FIGURE_KEYS = frozenset({"man", "leader", "wps", "skills", "abilities", "obs", "auxiliary"})
CHARACTERISTICS = ("st", "mk", "dex", "end")
#: weapons a proficiency may name: the firearms, the H2H weapons and "knife" (C-21, C-43)
WP_WEAPONS = frozenset(tables().firearms) | frozenset(tables().melee) | {"knife"}
MAX_RATING = 60


def _hint(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f"did you mean {close[0]!r}?" if close else f"one of {', '.join(sorted(options))}"


def _rating(value: Any, path: str, issues: list[Issue], low: int = 0) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        issues.append(Issue(path, f"expected a whole number, found {value!r}"))
        return None
    if not low <= value <= MAX_RATING:
        issues.append(Issue(path, f"{value} is out of range", f"{low} to {MAX_RATING}"))
        return None
    return value


def read_ratings(spec: FigureSpec) -> tuple[Ratings | None, list[Issue]]:
    """The ratings of one figure, or ``None`` with the issues that stop it."""
    issues: list[Issue] = []
    extra = spec.extra
    raw_kind = str(extra.get("man", Kind.DOOFUS.value))
    if raw_kind not in {k.value for k in Kind}:
        issues.append(Issue(f"{spec.path}.man", f"unknown kind of man {raw_kind!r}",
                            _hint(raw_kind, [k.value for k in Kind])))
        return None, issues
    kind = Kind(raw_kind)
    stats: Mapping[str, Any] = spec.stats or {}
    needed = CHARACTERISTICS + (("lead", "hero") if kind is Kind.COMMANDO else ())
    allowed = (*CHARACTERISTICS, "lead", "hero")
    for key in stats:
        if key not in allowed:
            issues.append(Issue(f"{spec.path}.stats.{key}", f"unknown stat {key!r}",
                                _hint(str(key), allowed)))
    values: dict[str, int] = {}
    for key in needed:
        if key not in stats:
            issues.append(Issue(f"{spec.path}.stats", f"missing stat {key!r}",
                                f"a {kind.value} needs {', '.join(needed)}"))
            continue
        value = _rating(stats[key], f"{spec.path}.stats.{key}", issues)
        if value is not None:
            values[key] = value
    if kind is not Kind.COMMANDO:
        for key in ("lead", "hero"):
            if key in stats:
                issues.append(Issue(f"{spec.path}.stats.{key}",
                                    f"a {kind.value} has no {key}",
                                    "only Commandos have Lead and Hero (digest 3)"))
    if "hero" in values and hero_class(values["hero"]).retired:
        issues.append(Issue(f"{spec.path}.stats.hero", f"Hero {values['hero']} is forcibly "
                            "retired", "Hero 5 or more (ruling C-51)"))
    wps: dict[str, int] = {"pistol": 0, "knife": 0}
    raw_wps = extra.get("wps", {})
    if not isinstance(raw_wps, Mapping):
        issues.append(Issue(f"{spec.path}.wps", "expected a mapping of weapon to addition"))
    else:
        for weapon, add in raw_wps.items():
            if weapon not in WP_WEAPONS:
                issues.append(Issue(f"{spec.path}.wps.{weapon}", f"unknown weapon {weapon!r}",
                                    _hint(str(weapon), sorted(WP_WEAPONS))))
                continue
            value = _rating(add, f"{spec.path}.wps.{weapon}", issues)
            if value is not None:
                wps[str(weapon)] = value
    skills: dict[str, SkillRating] = {}
    raw_skills = extra.get("skills", {})
    if not isinstance(raw_skills, Mapping):
        issues.append(Issue(f"{spec.path}.skills", "expected a mapping of skill to rating"))
    else:
        for skill, rating in raw_skills.items():
            if skill not in tables().skills:
                issues.append(Issue(f"{spec.path}.skills.{skill}", f"unknown skill {skill!r}",
                                    _hint(str(skill), list(tables().skills))))
                continue
            value = _rating(rating, f"{spec.path}.skills.{skill}", issues, low=1)
            if value is not None:
                skills[str(skill)] = SkillRating(str(skill), value)
    raw_abilities = extra.get("abilities", [])
    abilities: set[str] = set()
    if not isinstance(raw_abilities, list):
        issues.append(Issue(f"{spec.path}.abilities", "expected a list of Hero abilities"))
    else:
        for i, ability in enumerate(raw_abilities):
            if ability not in ABILITIES:
                issues.append(Issue(f"{spec.path}.abilities[{i}]",
                                    f"unknown Hero ability {ability!r}",
                                    _hint(str(ability), sorted(ABILITIES))))
            else:
                abilities.add(str(ability))
    if abilities and kind is not Kind.COMMANDO:
        issues.append(Issue(f"{spec.path}.abilities", "only Commandos have Hero abilities"))
    if "increase_endurance" in abilities and "ignore_serious_wounds" not in abilities:
        issues.append(Issue(f"{spec.path}.abilities", "increase_endurance needs "
                            "ignore_serious_wounds", "digest 12.2 (ruling C-46)"))
    obs = extra.get("obs")
    if obs is not None and str(obs) not in tables().obs_index:
        issues.append(Issue(f"{spec.path}.obs", f"unknown Obs code {obs!r}",
                            f"one of {''.join(tables().obs_index)}"))
    if obs is not None and kind is not Kind.DOOFUS:
        issues.append(Issue(f"{spec.path}.obs", "only a Doofus takes his Obs code from the "
                            "scenario", "Commandos and Grunts use the Hero Class Chart (C-3)"))
    aux = extra.get("auxiliary")
    if aux is not None and aux not in tables().auxiliary:
        issues.append(Issue(f"{spec.path}.auxiliary", f"unknown auxiliary ability {aux!r}",
                            _hint(str(aux), tables().auxiliary)))
    if issues:
        return None, issues
    return Ratings(
        kind, values["st"], values["mk"], values["dex"], values["end"],
        lead=values.get("lead"), hero=values.get("hero"), wps=wps, skills=skills,
        abilities=frozenset(abilities), auxiliary=None if aux is None else str(aux),
        obs=None if obs is None else str(obs),
    ), issues


def read_roster(figures: Sequence[FigureSpec]) -> tuple[dict[str, ManState], list[Issue]]:
    """Every man, with leaders checked (ruling C-76): same side; a Grunt's is a Commando; a
    Doofus's NPC leader is a man with Lead (else Lead 10, ruling C-3)."""
    men: dict[str, ManState] = {}
    issues: list[Issue] = []
    for spec in figures:
        ratings, found = read_ratings(spec)
        issues.extend(found)
        if ratings is not None and spec.side is not None:
            leader = spec.extra.get("leader")
            men[spec.id] = ManState(spec.id, spec.side, ratings,
                                    leader=None if leader is None else str(leader))
    by_id = {spec.id: spec for spec in figures}
    _roster_leaders(figures, men)
    for spec in figures:
        man = men.get(spec.id)
        if man is None or man.leader is None:
            continue
        leader = men.get(man.leader)
        path = f"{spec.path}.leader"
        if man.leader not in by_id:
            issues.append(Issue(path, f"no man {man.leader!r} in this scenario",
                                _hint(man.leader, list(by_id))))
        elif leader is None:
            continue
        elif leader.side != man.side:
            issues.append(Issue(path, f"{man.leader!r} is on another side"))
        elif man.ratings.kind is Kind.COMMANDO:
            issues.append(Issue(path, "a Commando has no leader over him"))
        elif man.ratings.kind is Kind.GRUNT and leader.ratings.kind is not Kind.COMMANDO:
            issues.append(Issue(path, "a Grunt's leader must be a Commando (digest 3)"))
        elif leader.ratings.lead is None and man.ratings.kind is Kind.DOOFUS:
            issues.append(Issue(path, f"{man.leader!r} has no Lead to lead with",
                                "give the NPC leader man: commando with lead and hero"))
    for man in men.values():
        if man.ratings.kind is Kind.GRUNT and man.leader is None:
            issues.append(Issue(f"{by_id[man.id].path}", "a Grunt needs his Commando as leader",
                                "leader: <commando id> (digest 3)"))
    return men, issues


def _roster_leaders(figures: Sequence[FigureSpec], men: dict[str, ManState]) -> None:
    """Ruling C-138: a Grunt drawn from a roster with no ``leader`` serves under his squad's
    Commando if he is in the game, else under the first Commando of his side."""
    by_name = {str(f.extra["roster"]): f.id for f in figures if "roster" in f.extra}
    for spec in figures:
        man = men.get(spec.id)
        if man is None or man.leader is not None or man.ratings.kind is not Kind.GRUNT:
            continue
        if "roster" not in spec.extra:
            continue
        squad = by_name.get(str(spec.extra.get("squad")))
        if squad is not None and squad in men and men[squad].side == man.side:
            man.leader = squad
            continue
        man.leader = next((f.id for f in figures if f.id in men and men[f.id].side == man.side
                           and men[f.id].ratings.kind is Kind.COMMANDO), None)


def leader_lead(man: ManState, men: Mapping[str, ManState]) -> int:
    """The Lead his panic and preservation use: his leader's, or the NPC default 10 (C-3)."""
    leader = men.get(man.leader) if man.leader else None
    if leader is not None and leader.ratings.lead is not None:
        return leader.ratings.lead
    return tables().default_lead
