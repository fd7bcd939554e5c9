"""``FlowRuleset``: a ruleset whose loop runs from its declared ``Flow``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import JSON, Action, Decision, Ruleset
from killhouse.rulesets.kit.flow import Flow

S = TypeVar("S")


class FlowRuleset(Ruleset[S], Generic[S]):
    """Answers ``pending``, ``legal_actions`` and ``apply`` from ``self.flow``.

    A subclass builds its flow once (``flow`` is an instance attribute set in ``__init__``, or
    a class attribute) and writes only rules: checks, resolutions, views.
    """

    flow: Flow[S]
    #: ``Flow.validate`` refuses a side that is not to decide, with the engine's message
    checks_turn: ClassVar[bool] = True

    def pending(self, state: S) -> tuple[Decision, ...]:
        return self.flow.pending(state)

    def legal_actions(self, state: S, side: str) -> list[Action]:
        return self.flow.legal_actions(state, side)

    def legal(self, state: S, side: str) -> Sequence[Action]:
        return self.flow.legal(state, side)

    def apply(self, state: S, action: Action, chance: Chance, log: EventLog) -> None:
        self.flow.apply(state, action, chance, log)

    def schemas(self) -> dict[str, dict[str, JSON]]:
        return self.flow.schemas()

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["flow"] = self.flow.describe()
        return out
