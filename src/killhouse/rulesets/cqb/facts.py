"""What CQB bots may import: the public map's rooms and the movement allowances (section 7)."""

from __future__ import annotations

from killhouse.rulesets.cqb.tables import tables
from killhouse.rulesets.cqb.world import find_rooms, inches

__all__ = ["allowance", "find_rooms", "inches"]


def allowance(mode: str) -> int:
    """Inches a move mode allows (section 7)."""
    return int(tables().tests["movement"][mode])
