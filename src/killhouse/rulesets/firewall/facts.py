"""What firewall bots may import: the public map's heights and walls between storeys, and the
grid's model distance (§1.2, §6.6; rulings F-1, F-180, F-250, F-251)."""

from __future__ import annotations

from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.heights import LOW_OBSTACLE_CM, surface
from killhouse.rulesets.firewall.storeyclimb import Face, board_face

__all__ = ["LOW_OBSTACLE_CM", "Face", "board_face", "surface", "within"]
