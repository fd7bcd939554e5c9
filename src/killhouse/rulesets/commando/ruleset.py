"""``CommandoRuleset``: SPI's *Commando* tactical game through the engine protocol.

Registration, metadata and scenario keys only; the turn is declared in ``flow.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from killhouse.core.chance import Chance
from killhouse.core.events import Event, EventLog
from killhouse.core.layers import LayerSpec
from killhouse.errors import KillhouseError
from killhouse.roster.rules import RosterRules
from killhouse.rulesets.base import GameInfo, Result, RollSpec
from killhouse.rulesets.commando import (
    devices,
    hostages,
    lights,
    missions,
    pickup,
    rightplace,
    views,
)
from killhouse.rulesets.commando.flow import FLOW, note_sightings, start_turn
from killhouse.rulesets.commando.ground import LAYERS
from killhouse.rulesets.commando.rolls import ROLLS
from killhouse.rulesets.commando.roster import FIGURE_KEYS, read_roster
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.kit import FlowRuleset
from killhouse.scenario.model import FigureSpec, Issue, Scenario


def men_of(scenario: Scenario) -> list[FigureSpec]:
    """The scenario's men: every figure but the hostages (ruling C-170)."""
    return [f for f in scenario.figures if f.kind != "hostage"]


class CommandoRuleset(FlowRuleset[CommandoState]):
    """Two sides of men with Task Points, secret op-fire plots and alternating activations."""

    id: ClassVar[str] = "commando"
    title: ClassVar[str] = "Commando (SPI, 1979; Royal Irvanian Commando charts)"
    source: ClassVar[str] = "SPI 'Commando' (1979) and the Royal Irvanian Commando fan charts"
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = {
        "figure": FIGURE_KEYS, "object": frozenset({"aim"})}
    info: ClassVar[GameInfo] = GameInfo(
        ("simultaneous", "alternating", "reaction"), True, ("raider", "defender"), "1 square",
    )
    flow = FLOW
    #: terrain kinds, hill levels and buildings drawn on the map (ruling C-120)
    layers: ClassVar[Mapping[str, LayerSpec]] = LAYERS
    default_turn_limit: ClassVar[int] = 12

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        issues: list[Issue] = []
        if len(scenario.sides) != 2:
            issues.append(Issue("sides", "a Commando game has exactly two sides",
                                "the raiders first, the defenders second"))
        _, roster = read_roster(men_of(scenario))
        issues.extend(roster)
        for f in scenario.figures:
            if f.kind == "hostage":  # ruling C-170: a hostage is placed on the map, sideless
                if f.at is None:
                    issues.append(Issue(f"{f.path}.at", "a hostage starts on the map",
                                        'at: "ground:12,5"'))
                bad = hostages.check_stats(f.stats)  # ruling C-190
                if bad is not None:
                    issues.append(Issue(f"{f.path}.stats", bad, "stats: {end: 10}"))
                continue
            if f.side is None or f.at is None:
                issues.append(Issue(f"{f.path}.at", "every man starts on the map with a side",
                                    "off-map entry is not built yet (ruling C-83)"))
            for item in f.equipment:
                if item not in tables().firearms and item not in devices.ITEMS:
                    known = ", ".join((*tables().firearms, *devices.ITEMS))
                    issues.append(Issue(f"{f.path}.equipment", f"unknown item {item!r}",
                                        f"one of {known}"))
        issues.extend(devices.scenario_mines(scenario)[1])
        for obj in scenario.objects:
            # ruling C-123: searchlights are the scenario objects commando plays so far
            if obj.type != "searchlight":
                issues.append(Issue(f"{obj.path}.type", f"unknown object type {obj.type!r}",
                                    "commando objects: searchlight"))
            elif lights.parse_aim(scenario, obj.extra.get("aim")) is None:
                issues.append(Issue(f"{obj.path}.aim", "a searchlight needs the square it lights",
                                    'aim: "ground:12,5"'))
        defending = scenario.options.get("defending")
        if defending is not None and defending != "none" and defending not in {
                s.id for s in scenario.sides}:
            issues.append(Issue("options.defending", f"unknown side {defending!r}",
                                "the side that takes the defenders' -20 (C-12), or none"))
        issues.extend(missions.read(scenario)[1])
        issues.extend(rightplace.check(scenario))  # ruling C-193
        jokes = scenario.options.get("joke_abilities", False)
        if not isinstance(jokes, bool):
            issues.append(Issue("options.joke_abilities", "must be true or false",
                                "true plays Dry Humour (ruling C-47)"))
        time_out = scenario.options.get("time_out")
        if time_out is not None and (not isinstance(time_out, str) or not time_out.strip()):
            issues.append(Issue("options.time_out", "the turn limit's reason must be text",
                                'time_out: "the guards hold the radar station" (C-152)'))
        t = tables()
        weather = scenario.options.get("weather", "clear")
        if weather not in t.obs_range:
            issues.append(Issue("options.weather", f"unknown weather {weather!r}",
                                f"one of {', '.join(t.obs_range)}"))
        light = scenario.options.get("light", "day")
        if light not in t.obs_light:
            issues.append(Issue("options.light", f"unknown light {light!r}",
                                f"one of {', '.join(t.obs_light)}"))
        return issues

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> CommandoState:
        issues = self.check_scenario(scenario)
        if issues:
            raise KillhouseError("scenario does not suit commando: "
                                 + "; ".join(f"{i.path}: {i.message}" for i in issues))
        men, _ = read_roster(men_of(scenario))
        for f in men_of(scenario):
            man = men[f.id]
            man.start_mission()
            man.in_hand = next((e for e in f.equipment if e in tables().firearms), "pistol")
            man.carried = tuple(f.equipment)
        sides = (scenario.sides[0].id, scenario.sides[1].id)
        state = CommandoState(
            scenario=scenario, board=scenario.board.copy(), sides=sides, men=men,
            pos={f.id: f.at for f in men_of(scenario) if f.at is not None},
            weather=str(scenario.options.get("weather", "clear")),
            light=str(scenario.options.get("light", "day")),
            limit=scenario.turn_limit or self.default_turn_limit,
            observed={s: set() for s in sides}, ever_seen={s: set() for s in sides},
            last_seen={s: {} for s in sides},
            lights=lights.from_scenario(scenario),
            mission=missions.read(scenario)[0],
            hostages=hostages.from_scenario(scenario),
        )
        devices.setup(state)
        note_sightings(state)
        start_turn(state, chance, log)
        return state

    def result(self, state: CommandoState) -> Result | None:
        return state.result

    def view(self, state: CommandoState, side: str) -> dict[str, Any]:
        return views.view(state, side)

    def known_ids(self, state: CommandoState, side: str) -> frozenset[str]:
        return views.known_ids(state, side)

    def secret_ids(self, state: CommandoState, side: str) -> frozenset[str]:
        return views.secret_ids(state, side)

    def snapshot(self, state: CommandoState) -> dict[str, Any]:
        return views.snapshot(state)

    def umpire_extras(self, state: CommandoState) -> dict[str, Any]:
        # ruling C-179: every weapon on the ground, as a side's view lists those it sees
        return {"weapons": lying} if (lying := pickup.everywhere(state)) else {}

    def sides(self, state: CommandoState) -> tuple[str, ...]:
        return state.sides

    def casualties(self, state: CommandoState) -> dict[str, int]:
        return {s: sum(not m.active() for m in state.side_men(s)) for s in state.sides}

    def invariants(self, state: CommandoState) -> list[str]:
        problems = []
        for man in state.men.values():
            if man.tp < 0 or man.move_tp < 0:
                problems.append(f"{man.id} has negative TP")
        if state.active_man is not None and state.men[state.active_man].side != state.active_side:
            problems.append("the active man is not of the active side")
        return problems

    def narrate(self, event: Event) -> str | None:
        from killhouse.rulesets.commando.narrate import narrate
        return narrate(event)

    def rolls(self) -> Mapping[str, RollSpec]:
        from killhouse.rulesets.commando.campaign.odds import CAMPAIGN_ROLLS
        return {**ROLLS, **CAMPAIGN_ROLLS}

    def campaign(self) -> RosterRules:
        from killhouse.rulesets.commando.campaign.rules import CommandoCampaign
        return CommandoCampaign()
