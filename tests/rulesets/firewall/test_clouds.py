"""Smoke and gas clouds in play (§9, rulings F-25 … F-27, F-100): aimed at a square, 4 × 4
squares for 1d6+1 Turns, Medium cover inside and intervening cover across, gas attacks at
placement and once a Turn after, protection by sealed armour or breathing kit."""

from __future__ import annotations

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.clouds import Cloud, gas_attack, protected, throw_cloud
from killhouse.rulesets.firewall.flow import FLOW
from killhouse.rulesets.firewall.shooting import target_cover
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Figure, Team, new_figure
from killhouse.rulesets.firewall.upkeep import begin_turn, new_game
from tests.rulesets.firewall.test_teams import Dice


def _state(dice: list[int], grenade: str = "smoke") -> tuple[FirewallState, EventLog, Dice]:
    figures = {
        "t": new_figure("t", "a", "ta", (5, 5), gutz=9, is_leader=True, facing=(0, 1),
                        grenades={grenade: 2}, weapons=("colt_m2117",)),
        "e": new_figure("e", "b", "tb", (5, 10), gutz=8, is_leader=True, facing=(0, -1),
                        weapons=("colt_m2117",)),
    }
    teams = {"ta": Team("ta", "a", ("t",), "t", aware=True),
             "tb": Team("tb", "b", ("e",), "e", aware=True)}
    log = EventLog()
    # initiative a 6, b 1; then the listed dice
    chance = Dice([6, 1, *dice])
    state = new_game(Board([Level.blank("street", 20, 20)]), figures, teams, ("a", "b"),
                     chance, log, 15)
    FLOW.apply(state, Action.make("a", "activate", team="ta"), chance, log)
    return state, log, chance


def _throw(state: FirewallState, log: EventLog, chance: Dice, at: tuple[int, int],
           grenade: str = "smoke") -> None:
    FLOW.apply(state, Action.make("a", "cloud", figure="t", weapon="hand_grenade",
                                  grenade=grenade, at=[0, *at]), chance, log)


def test_a_smoke_cloud_covers_4_by_4_squares_for_1d6_plus_1_turns() -> None:
    state, log, chance = _state([1, 2, 3])  # S (1+2 ≤ 9), duration die 3: D = 4
    _throw(state, log, chance, (5, 10))
    smoke = state.board.levels[0].smoke
    assert smoke[9:13, 4:8].all() and smoke.sum() == 16  # columns x−1..x+2, rows y−1..y+2
    assert state.clouds[0].until == 1 + 4
    for turn in range(2, 6):  # the last Turn it stands is 1 + D = 5 (the edge)
        begin_turn(state, Dice([6, 1]), log)
        assert state.turn == turn and state.clouds
    begin_turn(state, Dice([6, 1]), log)  # Turn 6: one past
    assert not state.clouds and not state.board.levels[0].smoke.any()


def test_a_cf_is_a_dud_that_costs_a_gutz() -> None:
    state, log, chance = _state([6, 6])
    _throw(state, log, chance, (5, 10))
    assert not state.clouds and state.figures["t"].gutz == 8
    assert state.figures["t"].grenades["smoke"] == 1


def test_inside_a_cloud_is_medium_cover_and_across_it_intervening() -> None:
    state, log, chance = _state([1, 2, 3])
    _throw(state, log, chance, (5, 10))
    firer, target = state.figures["t"], state.figures["e"]
    assert target_cover(state.board, firer, target) == ("medium", False)
    target.cell = (5, 15)  # behind the cloud (rows 9..12): across it
    assert target_cover(state.board, firer, target) == ("none", True)
    target.cell = (9, 5)  # beside the firer, the cloud not on the line
    assert target_cover(state.board, firer, target) == ("none", False)


def test_a_cloud_needs_range_arc_and_a_grenade() -> None:
    state, log, chance = _state([1, 2, 3])
    with pytest.raises(IllegalActionError, match="front arc"):
        _throw(state, log, chance, (5, 1))
    with pytest.raises(IllegalActionError, match="no Tear Gas grenade"):
        _throw(state, log, chance, (5, 10), "tear_gas")
    with pytest.raises(IllegalActionError, match="Long range"):
        _throw(state, log, chance, (5, 11))  # 6 squares: one past the Hand Grenade's 12 cm
    _throw(state, log, chance, (5, 10))  # 5 squares (dx²+dy² = 25 ≤ 33): the edge
    assert state.clouds


def _victim(armour: str = "street_clothing", kit: frozenset[str] = frozenset()) -> Figure:
    return new_figure("v", "b", "tb", (5, 5), gutz=8, armour=armour, cyber=kit)


@pytest.mark.parametrize(("grenade", "armour", "kit", "safe"), [
    ("smoke", "street_clothing", frozenset(), True),
    ("tear_gas", "street_clothing", frozenset(), False),
    ("tear_gas", "street_clothing", frozenset({"gas_mask"}), True),
    ("poison_gas", "street_clothing", frozenset({"lung_filters"}), True),
    ("nerve_gas", "street_clothing", frozenset({"gas_mask"}), False),
    ("nerve_gas", "isuku_ceramoplas", frozenset(), True),
])
def test_protection_from_gas(grenade: str, armour: str, kit: frozenset[str], safe: bool) -> None:
    assert protected(_victim(armour, kit), grenade) is safe


def _cloud(grenade: str) -> Cloud:
    return Cloud("c", grenade, 0, ((5, 5),), 9, gutz=8)


@pytest.mark.parametrize(("grenade", "dice", "status", "gutz"), [
    ("poison_gas", [1, 1], "killed", 8),  # CS on the cloud's Gutz: killed
    ("tranq_gas", [1, 1], "incapacitated", 8),  # non-lethal: helpless (F-33)
    ("poison_gas", [2, 3], "active", 6),  # S: the SS loss of 2, no armour (F-100)
    ("poison_gas", [6, 5], "active", 8),  # F: nothing
])
def test_a_gas_attack(grenade: str, dice: list[int], status: str, gutz: int) -> None:
    v = _victim("korlon_pleximesh")
    assert gas_attack(_cloud(grenade), v, 1, Dice(dice), None) is not None
    assert v.status.value == status and v.gutz == gutz


def test_a_gas_cloud_attacks_a_figure_once_a_turn() -> None:
    cloud, v = _cloud("poison_gas"), _victim()
    assert gas_attack(cloud, v, 1, Dice([6, 5]), None) == "F"
    assert gas_attack(cloud, v, 1, Dice([1, 1]), None) is None
    assert gas_attack(cloud, v, 2, Dice([6, 5]), None) == "F"


def test_gas_placed_on_a_figure_attacks_it_at_once() -> None:
    state, log, chance = _state([1, 2, 3, 1, 1], grenade="poison_gas")  # S, D, then CS on e
    _throw(state, log, chance, (5, 10), "poison_gas")
    assert state.figures["e"].status.value == "killed"
    assert [e.kind for e in log.events if e.kind in ("cloud", "gas")] == ["cloud", "gas"]


def test_throw_cloud_without_the_flow_consumes_the_grenade() -> None:
    state, _log, _chance = _state([])
    t = state.figures["t"]
    result, cloud = throw_cloud(Dice([2, 3, 1]), t, state.teams["ta"], state.figures,
                                "hand_grenade", "smoke", (5, 10), 1, "c1", None)
    assert result == "S" and cloud is not None and cloud.until == 1 + 2
    assert t.grenades["smoke"] == 1
