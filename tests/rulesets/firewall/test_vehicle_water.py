"""Vehicles on water and on levels (§17.4, rulings F-172 and F-173) on the test map
``river_crossing.yaml``: a river of water squares (rows 8-15), a flat roof as level 1.

Each allowance is driven in play at its edge and one square past: the boat's water Fast at
Slow speed (18 cm: 7 squares, not 8), the hovercraft's water Slow once its footprint touches
the river (10 cm: 4 squares, not 5); a land-only car and a water-only boat are refused with a
reason; an air car crosses the water; a car on the roof stays on its level."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.vehicles.driving import Drive, drive_limit, drive_problem
from killhouse.scenario.loader import load_scenario

RIVER = Path(__file__).with_name("river_crossing.yaml")


def _game(vid: str) -> tuple[Game, FirewallState]:
    """The river map with ``vid``'s crew the active team."""
    game = Game(load_scenario(RIVER), 1)
    state: FirewallState = game.state
    v = state.vehicles[vid]
    team = state.teams[v.team]
    team.aware = team.activated_this_turn = True
    state.active_team = team.id
    return game, state


def _drive(game: Game, side: str, vid: str, to: tuple[int, int], speed: str = "slow",
           level: int = 0) -> None:
    game.apply(Action.make(side, "drive", vehicle=vid, speed=speed, path=[[level, *to]]))


def _state_of(game: Game) -> tuple[str, int, object]:
    return game.state_hash(), len(game.log.events), game.rng.state


def test_the_boat_at_its_water_allowance_and_one_square_past() -> None:
    # water Fast, Slow speed: 18 cm; the footprint x 6..8, y 10..11 faces east
    game, state = _game("boat")
    boat = state.vehicles["boat"]
    assert (boat.surfaces, boat.airborne) == ({"water": "fast"}, False)
    assert drive_limit(state, boat, Drive("boat", "slow", ((13, 10),))) == 18
    before = _state_of(game)
    with pytest.raises(IllegalActionError, match="more than 18 cm"):
        _drive(game, "mayor", "boat", (14, 10))  # 8 squares = 20 cm
    assert _state_of(game) == before
    _drive(game, "mayor", "boat", (13, 10))  # 7 squares = 17.5 cm: legal in play
    drove = next(e for e in reversed(game.log.events) if e.kind == "drive")
    assert drove.data["vehicle"] == "boat"
    assert boat.anchor in {(6, 10), (9, 10), (10, 10), (13, 10)}  # CF / F (half) / S


def test_the_hovercraft_drops_to_its_water_rate_when_its_footprint_touches_the_river() -> None:
    # land Fast / water Slow; the footprint x 2..3, y 2..5 faces south; the river starts at
    # row 8, so an anchor at row 5 or more puts the footprint's tail in the water
    game, state = _game("hover")
    hover = state.vehicles["hover"]
    assert drive_limit(state, hover, Drive("hover", "slow", ((2, 4),))) == 28  # land: Fast
    assert drive_limit(state, hover, Drive("hover", "slow", ((2, 5),))) == 10  # water: Slow
    assert "more than 10 cm" in str(drive_problem(state, Drive("hover", "slow", ((2, 7),))))
    with pytest.raises(IllegalActionError, match="more than 10 cm"):
        _drive(game, "mayor", "hover", (2, 7))  # 5 squares = 12.5 cm
    _drive(game, "mayor", "hover", (2, 6))  # 4 squares = 10 cm: exactly the allowance
    assert any(e.kind == "drive" and e.data["vehicle"] == "hover" for e in game.log.events)


def test_a_land_car_keeps_out_of_the_water_and_a_boat_off_dry_land() -> None:
    game, state = _game("bug")
    # City Bug footprint x 14..15, y 4..6: one square south is still dry, two touch row 8
    assert drive_problem(state, Drive("bug", "slow", ((14, 5),))) is None
    before = _state_of(game)
    with pytest.raises(IllegalActionError, match=r"is water: .* has no water rate"):
        _drive(game, "gang", "bug", (14, 6))
    assert _state_of(game) == before
    _, state = _game("boat")
    # the boat's footprint y 10..11: two squares north keep it in the water, three reach row 7
    assert drive_problem(state, Drive("boat", "slow", ((6, 8),))) is None
    assert "is dry land" in str(drive_problem(state, Drive("boat", "slow", ((6, 7),))))


def test_an_air_car_flies_over_the_river_at_its_air_rate() -> None:
    game, state = _game("aircar")
    car = state.vehicles["aircar"]
    assert car.airborne
    # 12 squares = 30 cm south over the water, under air Slow's 48 cm at Slow speed
    assert drive_limit(state, car, Drive("aircar", "slow", ((18, 14),))) == 48
    _drive(game, "gang", "aircar", (18, 14))
    assert any(e.kind == "drive" and e.data["vehicle"] == "aircar" for e in game.log.events)


def test_a_vehicle_drives_on_its_own_level_only() -> None:
    game, state = _game("roofcar")
    roof = state.vehicles["roofcar"]
    assert roof.level == 1
    before = _state_of(game)
    with pytest.raises(IllegalActionError, match="own level only"):
        _drive(game, "gang", "roofcar", (2, 3), level=0)
    assert _state_of(game) == before
    _drive(game, "gang", "roofcar", (2, 3), level=1)
    assert any(e.kind == "drive" and e.data["vehicle"] == "roofcar" for e in game.log.events)


def test_the_own_view_lists_every_rate() -> None:
    game, _ = _game("hover")
    mine = {v["id"]: v for v in game.view("mayor", events_since=None)["vehicles"]}
    assert mine["hover"]["rates"] == {"land": "fast", "water": "slow"}
