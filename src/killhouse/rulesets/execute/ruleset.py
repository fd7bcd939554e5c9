"""``ExecuteRuleset``: "Execute, execute, execute!" (A. Ruef, v1.1) behind the engine protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from killhouse.core.chance import Chance
from killhouse.core.events import Event, EventLog
from killhouse.errors import Problem, ScenarioError
from killhouse.rulesets.base import Action, Decision, Param, Result, RollSpec, Ruleset
from killhouse.rulesets.execute import flow, play, views
from killhouse.rulesets.execute.actions import legal
from killhouse.rulesets.execute.build import build
from killhouse.rulesets.execute.narrate import narrate
from killhouse.rulesets.execute.news import known_ids
from killhouse.rulesets.execute.rolls import (
    odds_device,
    odds_disarm,
    odds_grenade,
    odds_initiative,
    odds_shot,
    odds_surveillance,
)
from killhouse.rulesets.execute.setup import read_scenario
from killhouse.rulesets.execute.state import DEAD, INCAPACITATED, ExecuteState
from killhouse.rulesets.execute.vision import refresh
from killhouse.scenario.model import Issue, Scenario

WEAPON_CHOICES = ("pistol", "smg", "sniper")

ROLLS: dict[str, RollSpec] = {
    "shot": RollSpec(
        "shot", "A shot (5.4): TN = 2 × target's Evasion − firer's effective Firearms on the "
        "weapon's die (pistol d6, SMG d8, sniper d10).",
        (
            Param("weapon", str, "smg", "the firer's weapon", WEAPON_CHOICES),
            Param("firearms", int, 8, "the firer's Firearms on the card"),
            Param("evasion", int, 6, "the target's Evasion Value"),
            Param("damage", int, 0, "VD the firer has taken (−2 Firearms per VD, E-14)"),
        ),
        odds_shot,
    ),
    "device": RollSpec(
        "device", "Pick a lock, shut off security, a camera or the power (5.7): TN = 2 × level − "
        "effective Electronics on d12.",
        (
            Param("level", int, 7, "the device's level (1-10)"),
            Param("electronics", int, 5, "the agent's Electronics on the card"),
            Param("damage", int, 0, "VD the agent has taken (E-14)"),
        ),
        odds_device,
    ),
    "bomb-disarm": RollSpec(
        "bomb-disarm", "Disarm a bomb (5.8): TN = 2 × bomb level − effective Electronics on d6; "
        "anything but success sets it off (E-21).",
        (
            Param("level", int, 6, "the bomb's level"),
            Param("electronics", int, 9, "the agent's Electronics on the card"),
            Param("damage", int, 0, "VD the agent has taken (E-14)"),
        ),
        odds_disarm,
    ),
    "grenade": RollSpec(
        "grenade", "Throw a grenade (5.9, E-24): TN = 2 × (5 + floor(distance/5)) − effective "
        "Grenades on d8; a miss overshoots by TN − roll squares (E-26, E-42).",
        (
            Param("distance", int, 11, "squares from thrower to target (1-15)"),
            Param("grenades", int, 8, "the thrower's Grenades on the card"),
            Param("damage", int, 0, "VD the thrower has taken (E-14)"),
        ),
        odds_grenade,
    ),
    "surveillance": RollSpec(
        "surveillance", "The FBI's surveillance d12 (5.10, E-29): how many terrorists and "
        "hostages it reveals.",
        (
            Param("terrorists", int, 10, "terrorists on the map"),
            Param("hostages", int, 8, "hostages on the map"),
        ),
        odds_surveillance,
    ),
    "initiative": RollSpec(
        "initiative", "Initiative (E-8): each side rolls d6, FBI first; the higher wins and ties "
        "are re-rolled until the dice differ.",
        (),
        odds_initiative,
    ),
}


class ExecuteRuleset(Ruleset[ExecuteState]):
    """The FBI Hostage Rescue Unit against terrorists holding hostages, in phased turns."""

    id: ClassVar[str] = "execute"
    title: ClassVar[str] = "Execute, execute, execute!"
    source: ClassVar[str] = "Execute, execute, execute! v1.1 by Andrew Ruef (digest: execute.md)"
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = {
        "side": frozenset({"role"}),
        "object": frozenset({"level", "skill", "mode", "timer", "holder", "covers", "links"}),
    }
    default_turn_limit: ClassVar[int] = 30

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        return read_scenario(scenario)[1]

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> ExecuteState:
        setup, issues = read_scenario(scenario)
        if setup is None:
            raise ScenarioError([
                Problem(scenario.file, scenario.line_of(i.path), i.path, i.message, i.hint)
                for i in issues
            ])
        state = build(setup, scenario)
        log.emit("scenario", {"name": scenario.name, "hostages": state.hostage_count,
                              "turn_limit": state.options.turn_limit,
                              "levels": [lv.name for lv in state.board.levels]}, None)
        refresh(state, log)
        return state

    def pending(self, state: ExecuteState) -> tuple[Decision, ...]:
        return flow.pending(state)

    def legal_actions(self, state: ExecuteState, side: str) -> list[Action]:
        if side not in {d.side for d in flow.pending(state)}:
            return []
        return legal(state, side)

    def apply(self, state: ExecuteState, action: Action, chance: Chance, log: EventLog) -> None:
        play.apply(state, action, chance, log)

    def result(self, state: ExecuteState) -> Result | None:
        return state.result

    def view(self, state: ExecuteState, side: str) -> dict[str, Any]:
        return views.view(state, side)

    def known_ids(self, state: ExecuteState, side: str) -> frozenset[str]:
        return known_ids(state, side)

    def secret_ids(self, state: ExecuteState, side: str) -> frozenset[str]:
        return views.secret_ids(state, side)

    def snapshot(self, state: ExecuteState) -> dict[str, Any]:
        return views.snapshot(state)

    def invariants(self, state: ExecuteState) -> list[str]:
        return views.invariants(state)

    def sides(self, state: ExecuteState) -> tuple[str, ...]:
        return state.side_ids()

    def casualties(self, state: ExecuteState) -> dict[str, int]:
        return {
            state.fbi: sum(1 for f in state.agents() if f.status in (DEAD, INCAPACITATED)),
            state.terrorists: sum(
                1 for f in state.terrorist_figures() if f.status in (DEAD, INCAPACITATED)
            ),
            "hostages": sum(1 for f in state.hostages() if f.status == DEAD),
        }

    def narrate(self, event: Event) -> str | None:
        return narrate(event)

    def rolls(self) -> Mapping[str, RollSpec]:
        return ROLLS
