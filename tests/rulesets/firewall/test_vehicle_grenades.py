"""Grenades out of a vehicle (§17.3 "hand weapons", ruling F-171): a passenger throws a hand
grenade or fires a launcher grenade at a model from the footprint square nearest it, at −3,
the grenade used up; the Hand Grenade's Long range at its edge and one square past; smoke and
gas are refused with the state unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.vehicles.model import ACTIVE
from killhouse.rulesets.firewall.vehicles.sight import stamp
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.ashend import drawn_edges

ROOT = Path(__file__).resolve().parents[3]
ASH = ROOT / "scenarios" / "firewall" / "escape_from_ash_end.yaml"


def _uav_with_passengers(target: tuple[int, int]) -> tuple[Game, FirewallState]:
    """The UAV at (22, 36) facing north (footprint x 22..24, y 36..40) with Malone and the
    militia aboard, their team active; Mildred at ``target``."""
    game = drawn_edges(Game(load_scenario(ASH), 1))
    state: FirewallState = game.state
    v = state.vehicles["uav"]
    v.status, v.anchor, v.facing, v.arrives_roll = ACTIVE, (22, 36), "n", None
    for fid in v.passengers:
        state.figures[fid].cell = v.anchor
    stamp(state.board, v)
    team = state.teams["extraction"]
    team.aware = team.activated_this_turn = True
    state.active_team = team.id
    state.figures["mildred"].cell = target
    return game, state


def _grenade_options(game: Game) -> set[tuple[str, str, str]]:
    return {(str(a.get("figure")), str(a.get("weapon")), str(a.get("grenade")))
            for a in game.legal_actions("mayor")
            if a.kind == "passenger-fire" and a.get("grenade") is not None}


def test_a_passenger_throws_a_hand_grenade_and_fires_a_launcher_grenade_out() -> None:
    game, state = _uav_with_passengers((23, 32))
    options = _grenade_options(game)
    assert ("malone", "hand_grenade", "fragmentation") in options
    assert ("militia-1", "20mm_gl", "concussion") in options
    assert not any(g == "tranq_gas" for _, _, g in options)  # no clouds out of a vehicle
    hint = next(a.hint for a in game.legal_actions("mayor") if a.kind == "passenger-fire"
                and a.get("grenade") == "fragmentation" and a.get("figure") == "malone")
    assert hint["grenade"] is True and hint["area"] is True
    malone = state.figures["malone"]
    before = malone.grenades["fragmentation"]
    events = game.apply(Action.make("mayor", "passenger-fire", figure="malone",
                                    weapon="hand_grenade", target="mildred",
                                    grenade="fragmentation"))
    assert any(e.kind == "shot" for e in events)
    assert malone.grenades["fragmentation"] == before - 1  # §9: used up
    assert malone.combat_used and malone.aboard == "uav"  # still inside


def test_the_passenger_minus_3_applies_to_a_thrown_grenade() -> None:
    from killhouse.rulesets.firewall.fire import fire_terms
    from killhouse.rulesets.firewall.shooting import Shot, shot_situation
    from killhouse.rulesets.firewall.vehicles.orders import _at_window
    _, state = _uav_with_passengers((23, 32))
    shot = Shot("malone", "hand_grenade", "mildred", grenade="fragmentation")
    with _at_window(state, state.figures["malone"], "mildred"):
        terms = dict(fire_terms(shot_situation(state.board, state.figures, state.teams, shot)))
    assert terms["passenger"] == -3


def test_hand_grenade_long_range_from_the_nearest_footprint_square_and_one_past() -> None:
    """Hand Grenade Long 12 cm: 5 squares from (23, 36) is 10 cm between the bases and in
    range, 6 squares is 12.5 cm and not (F-1: centre distance less 2.5 cm)."""
    game, _ = _uav_with_passengers((23, 31))
    assert ("malone", "hand_grenade", "fragmentation") in _grenade_options(game)
    game, _ = _uav_with_passengers((23, 30))
    assert ("malone", "hand_grenade", "fragmentation") not in _grenade_options(game)
    with pytest.raises(IllegalActionError, match="beyond"):
        game.apply(Action.make("mayor", "passenger-fire", figure="malone",
                               weapon="hand_grenade", target="mildred",
                               grenade="fragmentation"))


def test_smoke_and_gas_are_not_thrown_out_of_a_vehicle() -> None:
    game, state = _uav_with_passengers((23, 32))
    before = (game.state_hash(), len(game.log.events), game.rng.state)
    with pytest.raises(IllegalActionError, match="F-171"):
        game.apply(Action.make("mayor", "passenger-fire", figure="malone",
                               weapon="hand_grenade", target="mildred", grenade="tranq_gas"))
    assert (game.state_hash(), len(game.log.events), game.rng.state) == before
    assert state.figures["malone"].grenades["tranq_gas"] == 2
