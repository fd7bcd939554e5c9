"""Squares in the event log a seat reads: firewall and commando write them as cqb does,
``(x,y)`` and ``(x,y level n)``, never as the raw lists their events carry (ruling W-16)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from killhouse.core.events import Event
from killhouse.rulesets import get_ruleset

RAW = re.compile(r"\[\d+, \d+(, \d+)?\]")

CASES: list[tuple[str, str, dict[str, Any], str]] = [
    ("firewall", "move", {"figure": "guard-b", "speed": "walk", "dice": [2, 4], "result": "F",
                          "to": [24, 24]}, "guard-b walks [2, 4]: F; now at (24,24)."),
    ("firewall", "walk", {"figure": "alpha-4", "to": [11, 13]}, "alpha-4 walks to (11,13)."),
    ("commando", "step", {"figure": "nash", "to": [0, 17, 14]}, "nash steps to (17,14)"),
    ("commando", "climb", {"figure": "nash", "to": [1, 16, 10]},
     "nash takes the stairs to (16,10 level 1)"),
    ("commando", "door", {"figure": "orme", "open": True, "at": [0, 8, 7]},
     "orme opens the door at (8,7)"),
    ("commando", "run", {"figure": "t2", "to": [0, 32, 11]}, "t2 runs to (32,11)"),
    ("commando", "force-door", {"figure": "vale", "at": [0, 8, 7], "opened": True},
     "vale forces the locked door at (8,7): it gives"),
    ("commando", "explosion", {"device": "frag", "at": [0, 10, 5], "environment": "open"},
     "a frag goes off at (10,5) (open)"),
    ("commando", "engaged", {"square": [0, 12, 10], "men": ["k2", "vale"]},
     "hand-to-hand at (12,10): k2, vale"),
    ("commando", "throw", {"figure": "nash", "device": "frag", "at": [0, 10, 5],
                           "on_target": False, "distance": 2, "direction": "north",
                           "lands": [0, 10, 3]},
     "nash throws a frag at (10,5): misses 2 north to (10,3)"),
]


@pytest.mark.parametrize(("ruleset", "kind", "data", "line"), CASES,
                         ids=[f"{r}-{k}" for r, k, _, _ in CASES])
def test_squares_are_written_as_coordinates(
    ruleset: str, kind: str, data: dict[str, Any], line: str
) -> None:
    text = get_ruleset(ruleset).narrate(Event(0, kind, data))
    assert text == line
    assert not RAW.search(text.replace("[2, 4]", ""))  # the dice stay a list; squares do not
