"""``GoGoGoRuleset``: Jim Wallman's "Go! Go! Go!" through the engine protocol.

Registration, metadata and scenario keys only: the flow (both sides deciding at once at
every decision point, section 5.2) is declared in ``flow.py``, the new game built in
``build.py``, views, the snapshot and the invariants are in ``views.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from killhouse.core.chance import Chance
from killhouse.core.events import Event, EventLog
from killhouse.rulesets.base import JSON, GameInfo, Result, RollSpec
from killhouse.rulesets.gogogo import build, views
from killhouse.rulesets.gogogo.flow import FLOW
from killhouse.rulesets.gogogo.geom import SIGHT
from killhouse.rulesets.gogogo.narrate import narrate as narrate_event
from killhouse.rulesets.gogogo.rolls import ROLLS
from killhouse.rulesets.gogogo.scenario import SCENARIO_KEYS, plan_scenario
from killhouse.rulesets.gogogo.state import OOA, GoState
from killhouse.rulesets.kit import Flow, FlowRuleset
from killhouse.scenario.model import Issue, Scenario


class GoGoGoRuleset(FlowRuleset[GoState]):
    """Counter-terrorists against terrorists, simultaneous secret orders, strict sight."""

    id: ClassVar[str] = "gogogo"
    title: ClassVar[str] = "Go! Go! Go!"
    source: ClassVar[str] = (
        "Jim Wallman, 'Go! Go! Go!', a ripped-off counter-terrorist assault game "
        "(umpired figures game after Counter-Strike)"
    )
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = SCENARIO_KEYS
    flow: Flow[GoState] = FLOW  # phases and moves declared on the kit (flow.py)
    info: ClassVar[GameInfo | None] = GameInfo(
        turn_shapes=("simultaneous",),
        imperfect_information=True,
        roles=("CT", "T"),
        unit="square (G-1: one unit of the figure scale)",
        seats_per_side=(1, 100),  # per-player views: one seat per figure (G-35)
        sight=SIGHT,
    )

    # -- scenarios -----------------------------------------------------------------------
    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        return plan_scenario(scenario).issues

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> GoState:
        return build.start(scenario, chance, log)

    # -- the loop ------------------------------------------------------------------------

    def result(self, state: GoState) -> Result | None:
        if not state.over:
            return None
        return Result(state.winner, state.reason or "", dict(state.details))

    # -- information -----------------------------------------------------------------------
    def view(self, state: GoState, side: str) -> dict[str, JSON]:
        return views.view(state, side)

    def known_ids(self, state: GoState, side: str) -> frozenset[str]:
        return views.known_ids(state, side)

    def secret_ids(self, state: GoState, side: str) -> frozenset[str]:
        return views.secret_ids(state, side)

    def snapshot(self, state: GoState) -> dict[str, JSON]:
        return views.snapshot(state)

    def invariants(self, state: GoState) -> list[str]:
        return views.invariants(state)

    def sides(self, state: GoState) -> tuple[str, ...]:
        return state.sides

    def casualties(self, state: GoState) -> dict[str, int]:
        return {
            side: sum(1 for f in state.side_figures(side) if f.status == OOA)
            for side in state.sides
        }

    def narrate(self, event: Event) -> str | None:
        return narrate_event(event)

    def rolls(self) -> Mapping[str, RollSpec]:
        return ROLLS

    def describe(self) -> dict[str, Any]:
        info = super().describe()
        info["missions"] = ["hostage", "destruction", "assassination"]
        return info
