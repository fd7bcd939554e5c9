"""Every event kind a game produces reads as a line of plain text."""

from __future__ import annotations

import itertools
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
    "orders",
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
            # a side's commit is said by its orders line or its shots: no line of its own
            assert line or event.kind in ("orders-committed", "fire-committed"), event
            kinds.add(event.kind)
    assert kinds <= KNOWN, kinds - KNOWN
    assert {"turn", "spotted", "moved", "game-over", "shot"} <= kinds


def test_each_known_kind_has_its_own_line() -> None:
    samples: dict[str, dict[str, Any]] = {
        "throw": {"thrower": "c1", "grenade": "stun", "target": [0, 3, 4], "on_target": True},
        "shot": {
            "firer": "c1",
            "target": "t1",
            "tier": 1,
            "posture": "hold",
            "range": "short",
            "target_moving": True,
            "target_hiding": False,
            "need": 3,
            "result": "miss",
        },
        "orders": {"side": "ct", "orders": [{"figure": "c1", "posture": "move", "facing": "e"}]},
        "game-over": {"winner": None, "reason": "both failed", "turn": 3, "step": "fire tier 1"},
        "hostage-rescued": {"rescued": 1, "total": 4},
        "bomb-armed": {"at": [0, 3, 3], "detonates": 12},
        "spotted": {"seen": [{"id": "t1", "at": [0, 1, 2]}], "sounds": []},
    }
    for kind, data in samples.items():
        line = RULES.narrate(Event(0, kind, data))
        assert line and not line.startswith(kind), (kind, line)


def test_the_umpire_reads_squares_postures_and_numbers_once_each() -> None:
    """Issue 10 item 15: scenario-form squares, postures, spot and hit needs, no echo."""
    game = play(SCENARIOS / "hostage.yaml", 1)
    lines = [line for e in game.log.events if (line := RULES.narrate(e))]
    text = "\n".join(lines)
    assert "ground:" in text and "L0:" not in text and "(31,15)" not in text
    assert any(" orders: " in line and "MOVE to ground:" in line for line in lines)
    assert any("spot " in line and ": needs " in line for line in lines)
    shots = [e for e in game.log.events if e.kind == "shot"]
    assert shots, "seed 1 has shots"
    for shot in shots:
        line = RULES.narrate(shot)
        assert line is not None and f"needs {shot.data['need']}+" in line
    # one line per shot: the target side's copy is not a second event
    assert sum(1 for line in lines if " fires at " in line or " fired on " in line) == len(shots)
    for before, after in itertools.pairwise(lines):
        if not before.startswith("  ["):
            assert before != after, before
