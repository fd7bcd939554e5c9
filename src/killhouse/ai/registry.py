"""Which bot plays a side: the scenario's ``controller`` (``ai``, ``ai:<name>``) picks it.

``ai`` means the ruleset's role AI when it has one (module ``killhouse.ai.roles.<ruleset>``
exporting ``bot_for(scenario, side)``), else the baseline bot. ``ai:baseline`` and
``ai:random`` name those bots directly.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from killhouse.ai.base import Bot
from killhouse.ai.baseline import BaselineBot
from killhouse.core.rng import Rng
from killhouse.errors import KillhouseError
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario

#: the names ``controller: ai:<name>`` may give (``role``: the ruleset's role AI, else baseline)
BOT_NAMES = ("role", "baseline", "random")


class RandomBot:
    """Uniformly random legal play: for conformance tests and as a floor in balance runs."""

    name = "random"

    def __init__(self, scenario: Scenario, side: str) -> None:
        self.side = side

    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        return actions[rng.below(len(actions))]


def role_bot(scenario: Scenario, side: str) -> Bot | None:
    """The ruleset's role AI for ``side``, or ``None`` when the ruleset ships none."""
    try:
        module = importlib.import_module(f"killhouse.ai.roles.{scenario.ruleset}")
    except ModuleNotFoundError as exc:
        if exc.name == f"killhouse.ai.roles.{scenario.ruleset}":
            return None
        raise
    bot: Bot = module.bot_for(scenario, side)
    return bot


def bot_for(scenario: Scenario, side: str, name: str | None = None) -> Bot:
    """The bot for ``side``: ``name`` if given, else what the side's controller says."""
    if name is None:
        controller = next((s.controller for s in scenario.sides if s.id == side), "ai")
        name = controller.split(":", 1)[1] if ":" in controller else "role"
    if name in ("role", "ai"):
        return role_bot(scenario, side) or BaselineBot(scenario, side)
    if name == "baseline":
        return BaselineBot(scenario, side)
    if name == "random":
        return RandomBot(scenario, side)
    raise KillhouseError(f"no bot named {name!r} (known: {', '.join(BOT_NAMES)})")
