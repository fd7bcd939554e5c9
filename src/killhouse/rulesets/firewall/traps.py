"""A trap set in play (§16.2 Technical "set or disarm traps"; rulings F-235 … F-241): where it
lies, whose it is, how well it was hidden, and which sides know of it.

Pure values and rules; the actions, the triggers and the search are in ``trapplay``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import Result

#: what a trap is made of (ruling F-236): a carried improvised AP bomb (a weapon, kept from a
#: disarm's CS, F-101) or a fragmentation grenade; either makes the §18.3 trap
ITEMS = ("improvised_bomb_ap", "fragmentation")
#: the weapon row a bomb trap uses up
BOMB = "improvised_bomb_ap"
#: ruling F-238: an enemy ending an action within 2 cm of the trap sets it off, as "within
#: 2 cm" of a counter (§18.3) is the reach of grabbing or disarming it
TRIGGER_CM = 2
#: ruling F-236: setting a trap needs a listed Technical skill of at least this level
TECHNICAL_NEED = 1


@dataclass
class Trap:
    """One trap on the table. ``result``, ``skill`` and ``experience`` are the setter's roll,
    Technical level and experience, which a search contests (F-240); ``known`` holds the sides
    that know where it lies: the setter's, the game master's, any that watched it set or found
    it (F-237)."""

    id: str
    side: str
    level: int
    cell: tuple[int, int]
    result: Result
    skill: int
    experience: str
    known: set[str] = field(default_factory=set)

    @property
    def spot(self) -> tuple[int, int, int]:
        return (self.level, *self.cell)

    def reaches(self, level: int, cell: tuple[int, int]) -> bool:
        """Whether a figure on ``cell`` of ``level`` stands within the trigger distance."""
        return level == self.level and within(cell, self.cell, TRIGGER_CM)
