"""``CommandoCampaign``: the commando ruleset's answer to ``Ruleset.campaign()`` (digest 13, 14).

It only routes: rolling is in ``chargen``, the after-mission steps in ``after_mission``,
checking hand-edited files in ``records``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from killhouse.core.chance import Chance
from killhouse.errors import KillhouseError
from killhouse.roster.model import Man, Roster
from killhouse.roster.rules import AfterGame, NewMen
from killhouse.rulesets.commando import notes
from killhouse.rulesets.commando.campaign import after_mission, chargen, records
from killhouse.rulesets.commando.characters import hero_class
from killhouse.rulesets.commando.tables import tables
from killhouse.scenario.model import Issue, Scenario


class CommandoCampaign:
    """Rosters of Commandos and Grunts carried from mission to mission."""

    def check_man(self, man: Man, path: str, roster: Roster) -> list[Issue]:
        return records.check_man(man, path, roster)

    def new_men(
        self, chance: Chance, request: NewMen, taken: Sequence[str] = ()
    ) -> list[Man]:
        """Commandos first, then Grunts, each Grunt in the squad of a new Commando in turn
        (ruling C-138); the player's lists fill their choices (C-132), a Grunt's from the
        ``grunt_skills``/``grunt_wps`` lists when given."""
        for kind in request.counts:
            if kind not in chargen.KINDS:
                raise KillhouseError(f"commando rosters hold commandos and grunts, not {kind!r}")
        problems = chargen.check_choices(request.choices)
        if problems:
            raise KillhouseError("; ".join(problems))
        commandos = request.counts.get("commando", 0)
        grunts = request.counts.get("grunt", 0)
        names = chargen.pick_names(chance, request.names, commandos + grunts, taken)
        men: list[Man] = []
        for i, name in enumerate(names):
            kind = "commando" if i < commandos else "grunt"
            squad = names[(i - commandos) % commandos] if kind == "grunt" and commandos else None
            man = chargen.new_man(chance, kind, name, request.reroll, squad, request.jokes)
            choices = request.choices
            if kind == "grunt":
                choices = {
                    "skills": choices.get("grunt_skills", choices.get("skills", ())),
                    "wps": choices.get("grunt_wps", choices.get("wps", ())),
                }
            men.append(chargen.choose(chance, man, choices))
        return men

    def choose(self, chance: Chance, man: Man, choices: Mapping[str, Sequence[str]]) -> Man:
        problems = chargen.check_choices(choices)
        if problems:
            raise KillhouseError("; ".join(problems))
        if not man.record.get("to_choose"):
            raise KillhouseError(f"{man.name} has nothing left to choose")
        return chargen.choose(chance, man, choices)

    def recording(self) -> AbstractContextManager[dict[str, Any]]:
        return notes.recording()

    def debrief(
        self, state: Any, scenario: Scenario, result: Any, notes: Mapping[str, Any]
    ) -> dict[str, Any]:
        return after_mission.debrief(state, scenario, result, notes)

    def after_game(
        self, roster: Roster, debrief: Mapping[str, Any], chance: Chance,
        plans: Mapping[str, Any],
    ) -> AfterGame:
        return after_mission.after_game(roster, debrief, chance, plans)

    def table(self, roster: Roster) -> tuple[list[str], list[list[str]]]:
        """One row per man: kind, status, rank, the characteristics, skills, WPs, abilities."""
        columns = ["name", "kind", "status", "rank", "age", "missions", "St", "Mk", "Dex",
                   "End", "Lead", "Hero", "class", "skills", "WPs", "abilities", "to choose"]
        rows: list[list[str]] = []
        for man in roster.men:
            c, r, f = man.characteristics, man.record, man.figure
            rank = int(r.get("rank", 2))
            hero = c.get("hero")
            to_choose = ", ".join(f"{k} {v}" for k, v in r.get("to_choose", {}).items())
            status = man.status
            if r.get("healing"):
                status += f" ({r['healing']} wk)"
            rows.append([
                man.name, str(f.get("man", "")), status,
                tables().ranks[rank - 1] if 1 <= rank <= 10 else str(rank),
                str(r.get("age", "")), str(r.get("missions", 0)),
                *(str(c.get(k, "")) for k in ("st", "mk", "dex", "end", "lead", "hero")),
                hero_class(hero).name if hero is not None else "",
                ", ".join(f"{k} {v}" for k, v in man.skills.items()),
                ", ".join(f"{k} +{v}" for k, v in f.get("wps", {}).items()),
                ", ".join([*f.get("abilities", []),
                           *([f"joke: {f['auxiliary']}"] if f.get("auxiliary") else [])]),
                to_choose,
            ])
        return columns, rows
