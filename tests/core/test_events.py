"""Events: who may see them, and the redacted copy a side receives."""

from __future__ import annotations

from killhouse.core.events import EventLog


def test_public_event_reaches_everyone() -> None:
    log = EventLog()
    event = log.emit("smoke", {"at": [0, 1, 2]})
    assert event.for_side("a") == {"seq": 0, "kind": "smoke", "at": [0, 1, 2]}
    assert event.to_json() == {"seq": 0, "kind": "smoke", "at": [0, 1, 2]}


def test_hidden_event_reaches_only_its_audience() -> None:
    log = EventLog()
    log.emit("plant", {"bomb": "b1"})
    event = log.emit("order", {"side": "a"}, audience=frozenset({"a"}))
    assert event.seq == 1
    assert event.for_side("b") is None and event.for_side("a") is not None
    assert event.to_json()["audience"] == ["a"]


def test_a_side_gets_its_redacted_copy_and_the_umpire_the_whole() -> None:
    log = EventLog()
    full = {"figure": "zach", "firer": "gunman-3", "raw": 2}
    event = log.emit("damage", full, None, {"fbi": {"figure": "zach", "firer": None, "raw": 2}})
    assert event.for_side("fbi") == {
        "seq": 0,
        "kind": "damage",
        "figure": "zach",
        "firer": None,
        "raw": 2,
    }
    assert event.for_side("terrorists") == {"seq": 0, "kind": "damage", **full}
    assert event.to_json()["views"] == {"fbi": {"figure": "zach", "firer": None, "raw": 2}}
