"""CQB additions: narration of an equipment strike, ammunition (Q-28, Q-60 …), aiming at a
point (Q-15), restraining and disarming, window states, extraction, darkness."""

from __future__ import annotations

from killhouse.core.events import Event
from killhouse.rulesets.cqb.narrate import narrate


def test_an_equipment_strike_narrates_no_location() -> None:
    """Regression: a joker location card (section 13) has no location; the line said None."""
    event = Event(0, "hit", {"firer": "hj-3", "target": "blue-2", "location": None,
                             "effect": "equipment", "knocked_down": False,
                             "condition": "active", "stray": False, "card": "joker"})
    line = narrate(event)
    assert line is not None
    assert "None" not in line
    assert "equipment" in line and "hj-3 hits blue-2" in line
