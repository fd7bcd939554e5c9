"""Picking up a weapon (10 TP; C-178 … C-180) and destroying a searchlight by fire (C-13,
C-181, C-182), in play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import fire, lightfire
from killhouse.rulesets.commando.characters import charmod
from killhouse.scenario.model import ObjectSpec
from tests.rulesets.commando.arena import (
    activate,
    arena,
    declare,
    events,
    hold_windows,
    kinds,
    registered,
    state,
)

pytestmark = pytest.mark.usefixtures(registered.__name__)


def battlefield(fallen: tuple[int, int] = (6, 4), kane: tuple[int, int] = (5, 4),
                light: str = "day") -> Game:
    """Kane (raider, M16) and a fallen guard g1 (AK47, pistol) next to him; g2 far off."""
    men = [("kane", "raiders", kane, ("m16",), {"man": "commando"}),
           ("g1", "guards", fallen, ("ak47", "pistol"), {}),
           ("g2", "guards", (38, 8), ("pistol",), {})]
    game = Game(arena(men, light=light), seed=1)
    state(game).men["g1"].kill()
    return game


def pickups(game: Game) -> list[tuple[str, str]]:
    return [(a.get("fallen"), a.get("weapon")) for a in kinds(game, "raiders").get("pickup", [])]


@pytest.mark.parametrize(("at", "offered"), [((5, 4), True), ((6, 5), True), ((7, 4), False),
                                             ((7, 6), False)])
def test_a_fallen_mans_weapons_are_picked_up_on_or_next_to_his_square(
        at: tuple[int, int], offered: bool) -> None:
    game = battlefield(fallen=at)
    activate(game, "kane")
    assert pickups(game) == ([("g1", "ak47"), ("g1", "pistol")] if offered else [])


@pytest.mark.parametrize(("tp", "offered"), [(10, True), (9, False)])
def test_picking_up_costs_ten_tp(tp: int, offered: bool) -> None:
    game = battlefield()
    activate(game, "kane")
    state(game).men["kane"].tp = tp
    assert bool(pickups(game)) is offered


def test_a_man_in_action_drops_nothing() -> None:
    game = battlefield()
    s = state(game)
    s.men["g1"].killed = False
    activate(game, "kane")
    assert pickups(game) == []


def test_the_weapon_is_in_his_hand_and_gone_from_the_ground() -> None:
    game = battlefield()
    s = state(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "pickup", figure="kane", fallen="g1", weapon="ak47"))
    hold_windows(game)
    kane = s.men["kane"]
    assert (kane.in_hand, kane.tp) == ("ak47", 40)
    assert "ak47" in kane.carried and "m16" in kane.carried
    assert pickups(game) == [("g1", "pistol")]
    assert game.view("raiders")["weapons"] == [{"at": [0, 6, 4], "weapons": ["pistol"]}]
    assert events(game, "pickup") == [{"figure": "kane", "weapon": "ak47", "at": [0, 6, 4]}]


def test_an_empty_weapon_is_picked_up_empty() -> None:
    game = battlefield()
    s = state(game)
    s.men["g1"].empty = frozenset({"ak47"})
    activate(game, "kane")
    game.apply(Action.make("raiders", "pickup", figure="kane", fallen="g1", weapon="ak47"))
    assert "ak47" in s.men["kane"].empty and "m16" not in s.men["kane"].empty


@pytest.mark.parametrize(("dx", "seen"), [(12, True), (13, False)])
def test_weapons_on_the_ground_are_seen_where_the_side_sees(dx: int, seen: bool) -> None:
    # clear night: observation range 12 (digest 6.1)
    game = battlefield(fallen=(5 + dx, 4), light="night")
    lying = game.view("raiders").get("weapons")
    assert (lying == [{"at": [0, 5 + dx, 4], "weapons": ["ak47", "pistol"]}]) is seen
    if not seen:
        assert lying is None


def test_an_enemy_weapon_fires_at_minus_fifteen_and_his_own_kind_does_not() -> None:
    game = battlefield()
    s = state(game)
    s.pos["g2"] = Cell(0, 10, 4)  # range 5 from Kane
    s.observed["raiders"].add("g2")
    activate(game, "kane")
    game.apply(Action.make("raiders", "pickup", figure="kane", fallen="g1", weapon="ak47"))
    hold_windows(game)
    declare(game, Action.make("raiders", "fire", figure="kane", target="g2"))
    [shot] = events(game, "fire")
    kane = s.men["kane"].ratings
    # AK47 at range 4-8: 65; no proficiency: -min(15, 65 // 2); enemy weapon -15 (C-180)
    expected = 65 + kane.hero_combat() + charmod(kane.mk) - 15 - 15
    assert shot["chance"] == expected


# -- searchlights shot out (C-181, C-182) ----------------------------------------------------


def lit(kane: tuple[int, int], weapon: str = "pistol") -> Game:
    men = [("kane", "raiders", kane, (weapon,), {"man": "commando"}),
           ("g1", "guards", (38, 8), ("pistol",), {})]
    scenario = arena(men, light="night")
    light = ObjectSpec("sl", "searchlight", "objects[0]", at=Cell(0, 35, 4),
                       extra={"aim": "ground:30,4"})
    return Game(replace(scenario, objects=[light]), seed=3)


@pytest.mark.parametrize(("x", "offered"), [(5, True), (4, False)])
def test_a_pistol_reaches_a_light_thirty_squares_away_not_thirty_one(x: int,
                                                                    offered: bool) -> None:
    game = lit((x, 4))
    activate(game, "kane")
    assert bool(kinds(game, "raiders").get("shoot_light")) is offered


@pytest.mark.parametrize(("tp", "offered"), [(7, True), (6, False)])
def test_the_fire_task_costs_the_weapons_fire_cost(tp: int, offered: bool) -> None:
    game = lit((20, 4))
    activate(game, "kane")
    state(game).men["kane"].tp = tp
    assert bool(kinds(game, "raiders").get("shoot_light")) is offered


def test_the_chance_is_the_base_plus_the_lights_terrain_and_his_own_additions() -> None:
    game = lit((20, 4), weapon="m16")
    s = state(game)
    kane = s.men["kane"]
    base = fire.base_chance("m16", 15)
    assert base is not None
    r = kane.ratings
    assert lightfire.chance_to_hit(s, kane, "sl") == base + r.hero_combat() + charmod(r.mk) - 15


def test_one_hit_puts_the_light_out_and_the_firer_is_observed() -> None:
    outs = 0
    for seed in range(1, 6):
        game = lit((30, 4))
        game = Game(game.scenario, seed=seed)
        s = state(game)
        activate(game, "kane")
        game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl"))
        hold_windows(game)
        [shot] = events(game, "shoot-light")
        assert shot["hit"] is any(r <= shot["chance"] for r in shot["rolls"])
        assert len(shot["rolls"]) == 1  # a pistol fires once
        assert (s.lights["sl"].aim is None) is shot["hit"]
        assert "kane" in s.observed["guards"]
        enemy_copy = next(e for e in game.log.events if e.kind == "shoot-light").for_side(
            "guards")
        assert enemy_copy is not None and "chance" not in str(enemy_copy)
        outs += shot["hit"]
    assert outs > 0
