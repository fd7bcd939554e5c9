"""``FirewallRuleset``: "Firewall 2136AD" (Wessex Games) on the flow kit.

Registration, metadata and scenario keys only; the Turn is declared in ``flow.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from killhouse.core.chance import Chance
from killhouse.core.events import Event, EventLog
from killhouse.core.layers import LayerSpec
from killhouse.errors import Problem, ScenarioError
from killhouse.rulesets.base import GameInfo, Result, RollSpec
from killhouse.rulesets.firewall import views
from killhouse.rulesets.firewall.flow import FLOW
from killhouse.rulesets.firewall.heights import HEIGHT
from killhouse.rulesets.firewall.narrate import narrate
from killhouse.rulesets.firewall.objectives import HOSTAGES
from killhouse.rulesets.firewall.rolls import ROLLS
from killhouse.rulesets.firewall.scenario import FIGURE_KEYS, SIDE_KEYS, read_scenario
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Status
from killhouse.rulesets.firewall.upkeep import new_game
from killhouse.rulesets.firewall.vehicles.scenario import OBJECT_KEYS as VEHICLE_KEYS
from killhouse.rulesets.kit import FlowRuleset
from killhouse.scenario.model import Issue, Scenario

DEFAULT_TURN_LIMIT = 15


class FirewallRuleset(FlowRuleset[FirewallState]):
    """Fire Teams of a side take the initiative in turn; every action is a 2d6 Gutz roll."""

    id: ClassVar[str] = "firewall"
    title: ClassVar[str] = "Firewall 2136AD"
    source: ClassVar[str] = ("Firewall 2136AD, cyber-skirmish street-warfare rules (Hartley, "
                             "Baumann, Blease; Wessex Games) (seed 004; digest: firewall.md)")
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = {
        "figure": FIGURE_KEYS, "side": SIDE_KEYS,
        "object": frozenset({"number", "size", "armour"}) | VEHICLE_KEYS,
    }
    info: ClassVar[GameInfo] = GameInfo(
        turn_shapes=("alternating",),
        imperfect_information=True,
        roles=("fire-teams", "game-master"),
        unit="2.5 cm (one 25 mm base)",
        min_sides=2,
        max_sides=4,
        sight="supercover",
    )
    flow = FLOW
    #: the map's surface heights in cm (§6.6, ruling F-180)
    layers: ClassVar[Mapping[str, LayerSpec]] = {"height": HEIGHT}

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        return read_scenario(scenario)[1]

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> FirewallState:
        setup, issues = read_scenario(scenario)
        if setup is None:
            raise ScenarioError([
                Problem(scenario.file, scenario.line_of(i.path), i.path, i.message, i.hint)
                for i in issues
            ])
        gm = frozenset(s for s in setup.sides if s not in setup.players)
        spike = setup.spike
        if spike is None and setup.counters and not gm:
            # ruling F-85: without a game master the hidden spike is drawn at random; a GM
            # side chooses it as its first decision (ruling F-195)
            spike = chance.pick(sorted(setup.counters), "the data-spike counter", gm)
            log.emit("spike-is", {"counter": spike}, gm)
        state = new_game(
            scenario.board.copy(), copy.deepcopy(setup.figures), copy.deepcopy(setup.teams),
            setup.sides, chance, log, scenario.turn_limit or DEFAULT_TURN_LIMIT,
            players=setup.players, objective=setup.objective,
            # fwsetup: edges chosen in set-up start empty (F-210, F-212)
            entry={} if setup.edges is not None else dict(setup.entry), edge_plan=setup.edges,
            counters=copy.deepcopy(setup.counters), arrival=dict(setup.arrival),
            night=setup.night, skills=setup.skills, spike=spike,
            sections=copy.deepcopy(setup.sections), vehicles=copy.deepcopy(setup.vehicles),
            # fwsetup (ruling F-214): a GM side places the counters; the file's squares are
            # the table's only without one
            unplaced=sorted(setup.counters, key=lambda c: setup.counters[c].number) if gm
            else [],
            # fwsetup (F-215 … F-217): §18.1's deployment and path end in set-up
            deploy_plan=setup.deploy,
            end_team=setup.deploy.end_team if setup.deploy is not None else None,
            loadout_plan=setup.loadout,  # fwkit (F-270): §18.1's kit picked in set-up
        )
        state.storey_cm = setup.storey_cm  # ruling F-250: the scenario's storey height
        return state

    def result(self, state: FirewallState) -> Result | None:
        return state.result

    def view(self, state: FirewallState, side: str) -> dict[str, Any]:
        return views.view(state, side)

    def known_ids(self, state: FirewallState, side: str) -> frozenset[str]:
        return views.known_ids(state, side)

    def secret_ids(self, state: FirewallState, side: str) -> frozenset[str]:
        return views.secret_ids(state, side)

    def snapshot(self, state: FirewallState) -> dict[str, Any]:
        return views.snapshot(state)

    def sides(self, state: FirewallState) -> tuple[str, ...]:
        return state.sides

    def casualties(self, state: FirewallState) -> dict[str, int]:
        out = {s: sum(1 for f in state.figures.values() if f.side == s
                      and f.status in (Status.KILLED, Status.ROUTED, Status.INCAPACITATED))
               for s in state.sides}
        hostages = [f for f in state.figures.values() if f.side == HOSTAGES]
        if hostages:
            out[HOSTAGES] = sum(1 for f in hostages if f.status is Status.KILLED)
        return out

    def invariants(self, state: FirewallState) -> list[str]:
        problems = []
        t = tables()
        squares: dict[tuple[int, int, int], str] = {}
        for f in state.figures.values():
            if f.active and not t.min_gutz <= f.gutz <= t.max_gutz:
                problems.append(f"{f.id} is active with Gutz {f.gutz}")
            if f.status in (Status.ROUTED, Status.EXITED, Status.RESERVE, Status.ABOARD):
                continue
            if f.carried_by is not None:
                carrier = state.figures[f.carried_by]
                if carrier.carrying != f.id or carrier.cell != f.cell:
                    problems.append(f"{f.id} is carried by {carrier.id} but not with it")
                continue
            key = (f.level, *f.cell)
            if key in squares:
                problems.append(f"{f.id} and {squares[key]} share {list(key)}")
            squares[key] = f.id
        if state.active_team is not None and not state.teams[state.active_team].activated_this_turn:
            problems.append("the active team is not marked activated")
        if state.result is None and not self.pending(state):
            problems.append("nobody is to decide but the game is not over")
        return problems

    def narrate(self, event: Event) -> str | None:
        return narrate(event)

    def rolls(self) -> Mapping[str, RollSpec]:
        return ROLLS
