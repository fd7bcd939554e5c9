"""Role AI for Execute: the FBI stacks up, opens locks, clears rooms and walks hostages out;
the terrorists guard the hostages, hold their rooms, answer alarms and noise, and set off
their bombs when the game is lost.

Both bots see only their side's view and the hints on their legal actions; they build on
``BaselineBot`` (its seeded tie-breaking and path-distance helpers). Use ``bot_for(scenario,
side)`` (the registry's entry point) or ``ROLE_BOTS["execute"]``.
"""


from __future__ import annotations

from killhouse.ai.roles.execute.common import ExecuteBot
from killhouse.ai.roles.execute.fbi import FbiBot
from killhouse.ai.roles.execute.terrorists import TerroristBot
from killhouse.scenario.model import Scenario

__all__ = ["ROLE_BOTS", "ExecuteBot", "FbiBot", "TerroristBot", "bot_for"]


def bot_for(scenario: Scenario, side: str) -> ExecuteBot:
    """The role bot for ``side`` of an Execute scenario (the FBI or the terrorists)."""
    spec = next((s for s in scenario.sides if s.id == side), None)
    role = spec.extra.get("role") if spec is not None else None
    if role is None:
        role = "fbi" if side.lower() in ("fbi", "hru", "police", "swat") else "terrorists"
    return FbiBot(scenario, side) if role == "fbi" else TerroristBot(scenario, side)


#: the registry's convention: ruleset id -> factory(scenario, side)
ROLE_BOTS = {"execute": bot_for}
