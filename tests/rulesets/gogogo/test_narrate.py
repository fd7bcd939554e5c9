"""Every event kind a game produces reads as a line of plain text."""

from __future__ import annotations

from typing import Any

from killhouse.core.events import Event

from .helpers import RULES
from .test_scenarios import SCENARIOS, play

KNOWN = {
    "mission",
    "bomb-fuse",
    "turn",
    "spotted",
    "orders-committed",
    "fire-committed",
    "throw",
    "burst",
    "smoke",
    "grenade-effect",
    "path-cut",
    "moved",
    "hostage-follows",
    "hostage-moved",
    "bomb-picked-up",
    "bomb-dropped",
    "rescued",
    "hostage-rescued",
    "vip-escaped",
    "hostage-killed",
    "vip-killed",
    "shot",
    "shot-at",
    "shot-lost",
    "plant-progress",
    "bomb-planted",
    "bomb-armed",
    "defuse-progress",
    "bomb-defused",
    "bomb-detonated",
    "stun-ends",
    "game-over",
    "deployed",
    "setup-committed",
    "roll",
}


def test_played_events_narrate() -> None:
    kinds: set[str] = set()
    for name in ("hostage", "destruction", "assassination"):
        game = play(SCENARIOS / f"{name}.yaml", 2)
        for event in game.log.events:
            line = RULES.narrate(event)
            assert line, event
            kinds.add(event.kind)
    assert kinds <= KNOWN, kinds - KNOWN
    assert {"turn", "spotted", "moved", "game-over", "shot"} <= kinds


def test_each_known_kind_has_its_own_line() -> None:
    samples: dict[str, dict[str, Any]] = {
        "throw": {"thrower": "c1", "grenade": "stun", "target": [0, 3, 4], "on_target": True},
        "shot-at": {"target": "c1", "result": "miss", "by": None, "tier": 1},
        "game-over": {"winner": None, "reason": "both failed", "turn": 3, "step": "fire tier 1"},
        "hostage-rescued": {"rescued": 1, "total": 4},
        "bomb-armed": {"at": [0, 3, 3], "detonates": 12},
        "spotted": {"seen": [{"id": "t1", "at": [0, 1, 2]}], "sounds": []},
    }
    for kind, data in samples.items():
        line = RULES.narrate(Event(0, kind, data))
        assert line and not line.startswith(kind), (kind, line)
