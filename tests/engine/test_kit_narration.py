"""The kit's narration context for squares: level names for the game being narrated, and the
ways rulesets write a square (commando now writes them as cqb does, ruling W-16)."""

from __future__ import annotations

from killhouse.core.events import Event
from killhouse.rulesets.commando.narrate import narrate as commando_narrate
from killhouse.rulesets.cqb.narrate import narrate as cqb_narrate
from killhouse.rulesets.kit.narration import (
    LEVEL_NAMES,
    as_carried,
    coordinates,
    level_name,
    level_names,
    note_levels,
    square,
)


def test_square_names_the_level_as_scenario_files_do() -> None:
    with level_names(["ground", "upper"]):
        assert square([1, 4, 2]) == "upper:4,2"
        assert square([0, 0, 0]) == "ground:0,0"
        assert square([2, 1, 1]) == "L2:1,1"  # one past the last known level
        assert square(None) == "off-map" and square(None, "nowhere") == "nowhere"
    assert square([1, 4, 2]) == "L1:4,2"  # outside the block the names are gone


def test_level_names_nest_and_come_back() -> None:
    token = LEVEL_NAMES.set(())
    try:
        note_levels(["deck", "bridge"])
        assert level_name(1) == "bridge"
        with level_names(["a"]):
            assert level_name(0) == "a" and level_name(1) == "L1"
        assert level_name(1) == "bridge" and level_name(-1) == "L-1"
    finally:
        LEVEL_NAMES.reset(token)


def test_coordinates_and_the_carried_form() -> None:
    assert coordinates([0, 3, 4]) == "(3,4)"
    assert coordinates([1, 3, 4]) == "(3,4 level 1)"
    assert coordinates(None) == "?" and coordinates([]) == "?"
    assert as_carried([0, 3, 12]) == "[0, 3, 12]"


def test_cqb_and_commando_narrate_squares_through_the_kit() -> None:
    throw = Event(1, "throw", {"figure": "a1", "grenade": "stun", "at": [1, 5, 6], "tn": 8,
                               "card": "7H", "landing": "on target"})
    assert cqb_narrate(throw) == (
        "a1 throws a stun grenade at (5,6 level 1): TN 8, 7H: on target."
    )
    step = Event(2, "step", {"figure": "bird", "to": [0, 3, 12]})
    assert commando_narrate(step) == "bird steps to (3,12)"  # ruling W-16: as cqb writes squares
    door = Event(3, "door", {"figure": "frost", "open": True, "at": [0, 7, 2]})
    assert commando_narrate(door) == "frost opens the door at (7,2)"
