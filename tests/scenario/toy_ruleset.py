"""A tiny ruleset for loader tests, so they do not depend on the real rulesets.

It knows three stat cards, one mission with a rescue zone, and a few extra
scenario keys; its game is a single "pass" decision per side, enough to be a
complete ``Ruleset``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, Decision, Result, Ruleset
from killhouse.scenario.model import Issue, Scenario

CARDS = frozenset({"zach_dante", "rookie", "hostage_female"})
MISSIONS = frozenset({"hostage-rescue", "sweep"})


@dataclass
class ToyState:
    sides: tuple[str, ...]
    passed: set[str] = field(default_factory=set)


class ToyRuleset(Ruleset[ToyState]):
    id: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy ruleset for scenario loader tests"
    source: ClassVar[str] = "tests"
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = {
        "figure": frozenset({"morale"}),
        "object": frozenset({"skill", "timer"}),
        "side": frozenset({"points"}),
    }

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        issues: list[Issue] = []
        for fig in scenario.figures:
            if fig.card is None and fig.stats is None:
                issues.append(Issue(fig.path, "needs a card or stats"))
            if fig.card is not None and fig.card not in CARDS:
                close = difflib.get_close_matches(fig.card, sorted(CARDS), n=1)
                hint = f"did you mean {close[0]!r}?" if close else ""
                issues.append(
                    Issue(f"{fig.path}.card", f"no stat card {fig.card!r} in ruleset 'toy'", hint)
                )
            if fig.at is None and fig.kind == "hostage":
                issues.append(Issue(f"{fig.path}", "a hostage must be placed on the map"))
        mission = scenario.objectives.get("mission")
        if mission is not None and mission not in MISSIONS:
            issues.append(Issue("objectives.mission", f"unknown mission {mission!r}"))
        zone = scenario.objectives.get("rescue_zone")
        if zone is not None and zone not in scenario.board.zones:
            issues.append(Issue("objectives.rescue_zone", f"no zone {zone!r} on the map"))
        return issues

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> ToyState:
        return ToyState(tuple(scenario.side_ids()))

    def pending(self, state: ToyState) -> tuple[Decision, ...]:
        return tuple(Decision(s, "pass") for s in state.sides if s not in state.passed)

    def legal_actions(self, state: ToyState, side: str) -> list[Action]:
        return [Action.make(side, "pass")] if side not in state.passed else []

    def apply(self, state: ToyState, action: Action, chance: Chance, log: EventLog) -> None:
        if action not in self.legal_actions(state, action.side):
            raise IllegalActionError(f"{action.side} may not {action.kind} now")
        state.passed.add(action.side)
        log.emit("passed", {"side": action.side})

    def result(self, state: ToyState) -> Result | None:
        return Result(None, "everyone passed") if len(state.passed) == len(state.sides) else None

    def view(self, state: ToyState, side: str) -> dict[str, Any]:
        return {
            "side": side,
            "turn": 1,
            "figures": [],
            "seen": [],
            "remembered": [],
            "sounds": [],
            "goals": [],
            "public": {"passed": sorted(state.passed)},
        }

    def known_ids(self, state: ToyState, side: str) -> frozenset[str]:
        return frozenset()

    def snapshot(self, state: ToyState) -> dict[str, Any]:
        return {"sides": list(state.sides), "passed": sorted(state.passed)}


class CrashingRuleset(ToyRuleset):
    """A ruleset with a bug in its checks: the loader must still answer with a message."""

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        raise RuntimeError("table 'cards' is missing")
