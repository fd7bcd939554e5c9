"""Role AI for "Go! Go! Go!": terrorists guard, hide and ambush, plant and cover the bomb;
counter-terrorists close in, stun and smoke, clear rooms, and escort hostages or the VIP out.

A bot sees only its side's view (the public map plus what its figures see, hear and know)
and the hints on its legal actions; of the rules it reads only ``rulesets.gogogo.facts``.
The bot is one class built in layers, one module each: ``mirror`` (the side's map, fields,
sight), ``routes`` (destinations, facings), ``goals`` (mission goals), ``grenades``,
``setup`` (5.1) and ``bot`` (planning and feeding the engine); ``scoring`` holds its values.
Use ``bot_for(scenario, side)``.
"""

from __future__ import annotations

from killhouse.ai.roles.gogogo.bot import GoGoGoBot
from killhouse.ai.roles.gogogo.common import FigurePlan, Seen
from killhouse.scenario.model import Scenario


def bot_for(scenario: Scenario, side: str) -> GoGoGoBot:
    """The role bot for ``side`` of a gogogo scenario."""
    return GoGoGoBot(scenario, side)


__all__ = ["FigurePlan", "GoGoGoBot", "Seen", "bot_for"]
