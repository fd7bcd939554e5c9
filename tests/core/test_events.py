"""Events: who may see them, and the redacted copy a side receives."""

from __future__ import annotations

import dataclasses

import pytest

from killhouse.core.events import Event, EventLog


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


def _mixed(log: EventLog, hidden: list[int]) -> None:
    """Events a sees (public, named, redacted) with ``hidden[i]`` events for b only before
    the i-th of them."""
    seen = [
        ("smoke", {"at": [0, 1, 2]}, None, None),
        ("order", {"side": "a"}, frozenset({"a"}), None),
        ("shot", {"by": "x", "at": "y"}, frozenset({"a", "b"}), {"a": {"by": None, "at": "y"}}),
        ("bang", {}, None, None),
    ]
    for (kind, data, audience, views), n in zip(seen, hidden, strict=True):
        for i in range(n):
            log.emit("move", {"figure": f"b{i}"}, frozenset({"b"}))
        log.emit(kind, data, audience, views)


def test_a_sides_copies_are_numbered_densely_whatever_it_cannot_see() -> None:
    log = EventLog()
    _mixed(log, [2, 0, 3, 1])
    copies = log.for_side("a")
    assert [c["seq"] for c in copies] == [0, 1, 2, 3]
    assert log.count_for("a") == 4 and log.count_for("b") == len(log) - 1
    assert [c["seq"] for c in log.for_side("b")] == list(range(len(log) - 1))
    assert [c["seq"] for c in log.for_side("a", since=2)] == [2, 3]
    # the umpire's log keeps its own numbers
    assert [e.to_json()["seq"] for e in log.events] == list(range(len(log)))


def test_games_differing_only_in_hidden_events_give_a_side_the_same_numbers() -> None:
    few, many = EventLog(), EventLog()
    _mixed(few, [0, 0, 0, 0])
    _mixed(many, [5, 1, 0, 7])
    assert [e.for_side("a") for e in few.events] == [
        c for c in (e.for_side("a") for e in many.events) if c is not None
    ]
    assert few.for_side("a") == many.for_side("a")
    assert few.count_for("a") == many.count_for("a")


def test_spectators_count_only_events_every_side_sees_whole() -> None:
    log = EventLog()
    _mixed(log, [1, 1, 1, 1])
    assert log.for_public() == [
        {"seq": 0, "kind": "smoke", "at": [0, 1, 2]},
        {"seq": 1, "kind": "bang"},
    ]
    assert log.public_count() == 2 and log.for_public(since=1)[0]["kind"] == "bang"


def test_numbering_survives_a_cut_back_log() -> None:
    log = EventLog()
    _mixed(log, [1, 0, 0, 0])
    cut = len(log)
    log.emit("move", {}, frozenset({"b"}))
    log.emit("order", {}, frozenset({"a"}))
    del log.events[cut:]  # an illegal action's rollback (Game.apply)
    event = log.emit("order", {}, frozenset({"a"}))
    assert event.for_side("a") == {"seq": 4, "kind": "order"} and log.count_for("a") == 5


def test_a_logged_event_is_the_dataclass_made_field_by_field_and_stays_frozen() -> None:
    """``emit`` builds each event in one step: equal to the dataclass's own construction
    from the same fields, with its fields in order, and still frozen."""

    log = EventLog()
    log.emit("a", {"x": 1}, frozenset({"red"}))
    event = log.emit("b", {"y": 2}, None, {"red": {"y": None}})
    fields = [f.name for f in dataclasses.fields(Event)]
    assert list(vars(event)) == fields
    assert event == Event(**{name: getattr(event, name) for name in fields})
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.kind = "c"  # type: ignore[misc]
