"""The bot interface: a bot sees one side's view and its legal actions, and picks one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario


class Bot(Protocol):
    """Chooses an action for ``side``; it is given only that side's view (never the true state)."""

    name: str

    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action: ...


class BotFactory(Protocol):
    """Builds a bot for one side of one scenario (the scenario's map and briefing are public)."""

    def __call__(self, scenario: Scenario, side: str) -> Bot: ...
