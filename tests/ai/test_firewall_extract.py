"""The Firewall role AI's ``extract`` role (Escape from Ash End, issue 17): a carrier heads
for a free square beside its own vehicle, the vehicle drives up to a friend carrying the
Mayor and its passengers stay aboard, likely moves come before unlikely ones, and a gunner
clears a jammed mount at once."""

from __future__ import annotations

from pathlib import Path

from killhouse.ai.roles.firewall import FirewallBot
from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.teams import Status
from killhouse.rulesets.firewall.vehicles.model import ACTIVE
from killhouse.rulesets.firewall.vehicles.sight import stamp
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.ashend import drawn_edges

ASH = Path(__file__).resolve().parents[2] / "scenarios" / "firewall" / "escape_from_ash_end.yaml"


def _game_with_uav() -> tuple[Game, FirewallBot]:
    scenario = load_scenario(ASH)
    game = drawn_edges(Game(scenario, 1))
    state = game.state
    v = state.vehicles["uav"]
    v.status, v.anchor, v.facing, v.arrives_roll = ACTIVE, (22, 36), "n", None
    for fid in v.passengers:
        state.figures[fid].cell = v.anchor
    stamp(state.board, v)  # footprint x 22..24, y 36..40
    guard, mayor = state.figures["guard-a"], state.figures["lord-mayor"]
    guard.cell, guard.carrying = (23, 30), "lord-mayor"
    mayor.carried_by, mayor.cell = "guard-a", (23, 30)
    return game, FirewallBot(scenario, "mayor")


def test_a_carrier_heads_for_a_free_square_beside_its_own_vehicle() -> None:
    game, bot = _game_with_uav()
    game.state.figures["guard-b"].cell = (23, 35)  # a friend on one square beside it
    view = game.view("mayor", events_since=None)
    mine = bot._mine(view)
    targets = bot.targets_for(view, mine["guard-a"])
    assert Cell(0, 21, 35) in targets and Cell(0, 25, 41) in targets
    assert Cell(0, 23, 35) not in targets  # taken by guard-b
    assert not any(22 <= c.x <= 24 and 36 <= c.y <= 40 for c in targets)  # not the footprint
    # the others cover the carrier instead of crowding round him
    assert bot.targets_for(view, mine["guard-b"]) == []


def test_the_vehicle_drives_up_to_a_carrying_friend_and_passengers_stay_aboard() -> None:
    game, bot = _game_with_uav()
    state = game.state
    state.active_team = "uav-crew"
    state.teams["uav-crew"].aware = True
    view = game.view("mayor", events_since=None)
    drives = [a for a in game.legal_actions("mayor") if a.kind == "drive"]
    best = max(drives, key=lambda a: bot.vehicle_value(view, a))
    assert bot.vehicle_value(view, best) > 5.0  # it moves (the carrier is 6 squares off)
    to = best.hint["to"]
    assert (to[1] - 23) ** 2 + (to[2] - 30) ** 2 < (22 - 23) ** 2 + (36 - 30) ** 2
    out = Action.make("mayor", "disembark", figure="malone", to=[0, 21, 36],
                      hint={"role": "disembark", "to": [0, 21, 36]})
    assert bot.transfer_value(view, out, bot._mine(view).get("malone", {})) < 0


def test_a_likely_move_scores_above_an_unlikely_one_and_both_above_ending() -> None:
    game, bot = _game_with_uav()
    state = game.state
    state.figures["guard-b"].cell = (40, 40)  # no leader bonus for guard-a
    view = game.view("mayor", events_since=None)
    fig = bot._mine(view)["guard-a"]
    street = Action.make("mayor", "move", figure="guard-a", speed="walk", path=[[0, 23, 31]],
                         hint={"role": "move", "to": [0, 23, 31]})
    ruin = Action.make("mayor", "move", figure="guard-a", speed="walk", path=[[0, 23, 28]],
                       hint={"role": "move", "to": [0, 23, 28]})  # through the ruin's door
    assert bot.move_chance(view, street, fig) > bot.move_chance(view, ruin, fig)
    # Gutz 7, street Clutter 1, carrying −2: a non-double ≤ 4 (4 ways) or a double ≤ 7 (3)
    assert abs(bot.move_chance(view, street, fig) - 7 / 36) < 1e-9


def test_a_gunner_clears_a_jam_at_once_and_the_driver_only_when_nothing_better() -> None:
    game, bot = _game_with_uav()
    view = game.view("mayor", events_since=None)
    gunner = Action.make("mayor", "vehicle-unjam", vehicle="uav", crew=1, mount="m1",
                         hint={"role": "task", "p": 0.7, "driver": False})
    driver = Action.make("mayor", "vehicle-unjam", vehicle="uav", crew=0, mount="m1",
                         hint={"role": "task", "p": 0.7, "driver": True})
    mine = bot._mine(view)
    assert bot.rate(view, gunner, None, mine) > 500
    assert 5.0 < bot.rate(view, driver, None, mine) < 20.0
    assert game.state.figures["lord-mayor"].status is Status.INCAPACITATED
