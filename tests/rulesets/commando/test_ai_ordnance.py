"""The role AI with the new tasks, from its own side's view: raiders throw grenades into rooms
where enemies were last seen and aim when one fire task is all they can pay; defenders set off
a Claymore when an enemy stands in its cone."""

from __future__ import annotations

import pytest

from killhouse.ai.roles.commando import DefenderBot, RaiderBot, in_cone
from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import devices
from tests.rulesets.commando.arena import activate, arena, events, hold_windows, registered, state

pytestmark = pytest.mark.usefixtures(registered.__name__)

ROOM_WALLS = tuple((x, y) for x in range(9, 14) for y in (1, 7)) + \
    tuple((x, y) for x in (9, 13) for y in range(1, 8) if (x, y) != (9, 4))


def test_raider_prepares_and_throws_a_grenade_where_the_enemy_was_last_seen() -> None:
    men = [("kane", "raiders", (4, 4), ("m16", "frag"), {"man": "commando"}),
           ("g1", "guards", (11, 4), ("pistol",), {})]
    game = Game(arena(men, walls=ROOM_WALLS, doors=((9, 4),)), seed=2)
    s = state(game)
    s.last_seen["raiders"]["g1"] = (Cell(0, 11, 4), 1)  # seen going into the room
    s.ever_seen["raiders"].add("g1")
    activate(game, "kane")
    bot = RaiderBot(game.scenario, "raiders")
    rng = Rng.from_seed(1)
    for _ in range(2):
        game.apply(bot.choose(game.view("raiders"), game.legal_actions("raiders"), rng))
        hold_windows(game)
    [throw] = events(game, "throw")
    assert throw["at"] in ([0, 11, 4], (0, 11, 4))
    # no door between the pair is open: the throw has no LOS (x0.5) and a door in between (-10)
    assert throw["chance"] == (55 + 1 + 2 - 10) // 2


def test_raider_holds_the_grenade_when_a_friend_stands_near_the_target() -> None:
    men = [("kane", "raiders", (4, 4), ("m16", "frag"), {"man": "commando"}),
           ("bird", "raiders", (10, 5), ("m16",), {"man": "grunt", "leader": "kane"}),
           ("g1", "guards", (11, 4), ("pistol",), {})]
    game = Game(arena(men, walls=((7, 3), (7, 4), (7, 5))), seed=2)
    s = state(game)
    s.last_seen["raiders"]["g1"] = (Cell(0, 11, 4), 1)
    activate(game, "kane")
    bot = RaiderBot(game.scenario, "raiders")
    pick = bot.choose(game.view("raiders"), game.legal_actions("raiders"), Rng.from_seed(1))
    assert pick.kind != "prepare"


def test_raider_aims_when_his_tp_pay_for_one_fire_only() -> None:
    men = [("kane", "raiders", (1, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (11, 4), ("pistol",), {})]
    game = Game(arena(men), seed=2)
    s = state(game)
    s.observed["raiders"] = {"g1"}
    activate(game, "kane")
    bot = RaiderBot(game.scenario, "raiders")
    s.men["kane"].tp = 35  # 35 < 2 x 18: one M16 task either way
    assert bot.choose(game.view("raiders"), game.legal_actions("raiders"),
                      Rng.from_seed(1)).kind == "aim"
    s.men["kane"].tp = 36  # two fire tasks: fire, do not aim
    assert bot.choose(game.view("raiders"), game.legal_actions("raiders"),
                      Rng.from_seed(1)).kind == "fire"


def test_defender_sets_off_a_claymore_with_an_enemy_in_its_cone() -> None:
    men = [("kane", "raiders", (12, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (4, 4), ("pistol",), {})]
    game = Game(arena(men), seed=2)
    s = state(game)
    s.ordnance.mines.append(devices.Mine("m1", "guards", "g1", Cell(0, 5, 4), "E"))
    s.observed["guards"] = {"kane"}
    activate(game, "g1")
    bot = DefenderBot(game.scenario, "guards")
    pick = bot.choose(game.view("guards"), game.legal_actions("guards"), Rng.from_seed(1))
    assert pick == Action.make("guards", "detonate", figure="g1", mine="m1")
    assert in_cone(Cell(0, 5, 4), "E", Cell(0, 15, 4))       # 10 squares
    assert not in_cone(Cell(0, 5, 4), "E", Cell(0, 16, 4))   # 11
    assert not in_cone(Cell(0, 5, 4), "E", Cell(0, 3, 4))    # behind it


def test_raider_never_steps_into_a_grenade_that_will_go_off_and_leaves_one() -> None:
    men = [("kane", "raiders", (4, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (30, 4), ("pistol",), {})]
    game = Game(arena(men), seed=2)
    s = state(game)
    s.last_seen["raiders"]["g1"] = (Cell(0, 30, 4), 1)
    s.ordnance.live.append(devices.Live("x9", "frag", Cell(0, 7, 4), "guards", "g1", 1))
    activate(game, "kane")
    bot = RaiderBot(game.scenario, "raiders")
    rng = Rng.from_seed(1)
    for _ in range(6):
        pick = bot.choose(game.view("raiders"), game.legal_actions("raiders"), rng)
        if pick.kind != "step":
            break
        game.apply(pick)
        hold_windows(game)
        at = s.pos["kane"]
        assert max(abs(at.x - 7), abs(at.y - 4)) > 2  # never within the blast's reach
    # standing by the grenade with few TP left, he still steps away
    s.pos["kane"] = Cell(0, 9, 4)
    s.men["kane"].tp = 10
    pick = bot.choose(game.view("raiders"), game.legal_actions("raiders"), rng)
    assert pick.kind == "step" and str(pick.get("dir")).endswith("e")  # away, to x 10


def test_raider_throws_no_second_grenade_at_a_covered_square_nor_at_the_fallen() -> None:
    men = [("kane", "raiders", (4, 4), ("m16", "frag", "frag"), {"man": "commando"}),
           ("g1", "guards", (11, 4), ("pistol",), {})]
    game = Game(arena(men, walls=ROOM_WALLS, doors=((9, 4),)), seed=2)
    s = state(game)
    s.last_seen["raiders"]["g1"] = (Cell(0, 11, 4), 1)
    s.ordnance.live.append(devices.Live("x9", "frag", Cell(0, 11, 5), "raiders", "kane", 1))
    activate(game, "kane")
    bot = RaiderBot(game.scenario, "raiders")
    pick = bot.choose(game.view("raiders"), game.legal_actions("raiders"), Rng.from_seed(1))
    assert pick.kind != "prepare"  # his own frag already lies next to that square
    s.ordnance.live.clear()
    bot.fallen.add("g1")  # he saw g1 fall
    pick = bot.choose(game.view("raiders"), game.legal_actions("raiders"), Rng.from_seed(1))
    assert pick.kind != "prepare"
    bot.fallen.clear()
    pick = bot.choose(game.view("raiders"), game.legal_actions("raiders"), Rng.from_seed(1))
    assert pick.kind == "prepare"


def test_defender_keeps_his_claymore_man_unplotted_and_places_it_facing_the_enemy() -> None:
    men = [("kane", "raiders", (30, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (4, 4), ("pistol", "claymore"), {}),
           ("g2", "guards", (4, 6), ("pistol",), {})]
    game = Game(arena(men, light="night"), seed=2)  # kane out of sight
    s = state(game)
    s.last_seen["guards"]["kane"] = (Cell(0, 30, 4), 1)
    bot = DefenderBot(game.scenario, "guards")
    rng = Rng.from_seed(1)
    picks = []
    while "guards" not in s.committed:
        pick = bot.choose(game.view("guards"), game.legal_actions("guards"), rng)
        picks.append(pick)
        game.apply(pick)
    assert Action.make("guards", "plot", figure="g2") in picks
    assert Action.make("guards", "plot", figure="g1") not in picks
    activate(game, "g1")
    pick = bot.choose(game.view("guards"), game.legal_actions("guards"), rng)
    assert pick == Action.make("guards", "emplace", figure="g1", facing="E")


def test_defender_in_a_closet_plots_instead_of_placing_his_claymore() -> None:
    box = tuple((x, y) for x in range(2, 7) for y in (2, 6)) + \
        tuple((x, y) for x in (2, 6) for y in range(2, 7))
    men = [("kane", "raiders", (30, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (4, 4), ("pistol", "claymore"), {})]
    game = Game(arena(men, light="night", walls=box), seed=2)
    bot = DefenderBot(game.scenario, "guards")
    pick = bot.choose(game.view("guards"), game.legal_actions("guards"), Rng.from_seed(1))
    assert pick == Action.make("guards", "plot", figure="g1")  # 9 open squares: too few
