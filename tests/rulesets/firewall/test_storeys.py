"""Storeys and openings (§12; rulings F-185 … F-187): the stairs as a one-square Walk
between levels, sight, fire and the leader's bonus per storey, windows and doorways as
Medium cover (a loop-hole Heavy), and the SWAT tenement's second storey played by the AI."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.shooting import target_cover
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import bonus_for
from killhouse.rulesets.firewall.vision import sees
from killhouse.scenario.loader import load_scenario, loads_scenario
from tests.rulesets.firewall.test_teams import Dice

TENEMENT = Path(__file__).parents[3] / "scenarios" / "firewall" / "swat_tenement.yaml"
STAIRS = (1, 8)  # ground '>' and upper '<' at the west end of the corridor


def _tenement(at: tuple[int, int] = STAIRS, level: int = 0, aware: bool = True,
              faces: list[int] | None = None) -> Game:
    """alpha-1 (the leader: no bonus of its own) on the ground-floor stairs, its team active."""
    game = Game(load_scenario(TENEMENT), 1)
    state: FirewallState = game.state
    for t in state.teams.values():
        t.aware = aware
    f = state.figures["alpha-1"]
    f.level, f.cell = level, at
    state.active_team = None
    state.order, state.step = ("swat", "gang"), 0
    state.teams["alpha"].activated_this_turn = False
    game.apply(Action.make("swat", "activate", team="alpha"))
    if faces is not None:
        game.chance = Dice(faces)  # type: ignore[assignment]
    return game


def _up(game: Game) -> None:
    game.apply(Action.make("swat", "stairs", figure="alpha-1", to=[1, *STAIRS]))


@pytest.mark.parametrize(("offset", "arrives", "failed"), [
    (0, True, False),  # S: a total equal to the Gutz (the edge)
    (1, False, True),  # F: one past, half a square reaches nothing (F-77)
])
def test_the_stairs_are_a_walk_of_one_square(offset: int, arrives: bool, failed: bool) -> None:
    game = _tenement()
    f = game.state.figures["alpha-1"]
    total = f.gutz + offset
    a = 1 if total - 1 != 1 else 2  # two different faces (no double) summing to total
    game.chance = Dice([a, total - a])  # type: ignore[assignment]
    _up(game)
    assert (f.level, f.cell) == ((1, STAIRS) if arrives else (0, STAIRS))
    assert f.failed_this_turn is failed and f.move_used
    event = [e for e in game.log.events if e.kind == "stairs"][-1]
    assert event.data["dice"] == [a, total - a]


def test_a_critical_failure_on_the_stairs_costs_one_and_stays() -> None:
    game = _tenement(faces=[6, 6])
    f = game.state.figures["alpha-1"]
    gutz = f.gutz
    _up(game)
    assert f.level == 0 and f.gutz == gutz - 1


def test_an_unaware_team_walks_the_stairs_without_a_roll() -> None:
    game = _tenement(aware=False, faces=[])
    _up(game)
    assert game.state.figures["alpha-1"].level == 1


def test_stairs_only_from_a_stair_square_and_to_its_link() -> None:
    game = _tenement(at=(2, 8))
    assert not [a for a in game.legal_actions("swat") if a.kind == "stairs"]
    before = game.state.figures["alpha-1"].cell
    with pytest.raises(IllegalActionError, match="does not stand on stairs"):
        _up(game)
    assert game.state.figures["alpha-1"].cell == before
    game = _tenement()
    offered = [a for a in game.legal_actions("swat") if a.kind == "stairs"]
    assert [list(a.get("to")) for a in offered] == [[1, *STAIRS]]
    with pytest.raises(IllegalActionError, match="does not stand on stairs"):
        game.apply(Action.make("swat", "stairs", figure="alpha-1", to=[1, 32, 7]))


def test_a_held_square_at_the_top_refuses_the_stairs() -> None:
    game = _tenement()
    moss = game.state.figures["moss"]
    moss.level, moss.cell = 1, STAIRS
    with pytest.raises(IllegalActionError, match="is held"):
        _up(game)


def test_sight_and_fire_stay_on_one_storey() -> None:
    game = _tenement(at=(5, 3))
    state: FirewallState = game.state
    f, moss = state.figures["alpha-1"], state.figures["moss"]
    assert moss.level == 1 and moss.cell == (5, 2)
    assert not sees(state.board, f, moss)
    with pytest.raises(IllegalActionError):
        game.apply(Action.make("swat", "shoot", figure="alpha-1", weapon="hk_mp5261v",
                               target="moss"))
    f.level = 1
    f.facing = (0, -1)
    assert sees(state.board, f, moss)


def test_the_leader_bonus_stays_on_one_storey() -> None:
    game = _tenement(at=(10, 8))
    state: FirewallState = game.state
    member = state.figures["alpha-2"]
    member.level, member.cell = 0, (10, 7)
    assert bonus_for(member, state.teams["alpha"], state.figures) == 1
    member.level = 1  # the same square one storey up: not within 8 cm (F-186)
    assert bonus_for(member, state.teams["alpha"], state.figures) == 0


OPENINGS = """\
name: Windows
ruleset: firewall
map:
  legend:
    "o": {terrain: window, cover: heavy}
  levels:
    ground: |
      #########
      #.......#
      #.......#
      ###=##o##
      .........
      .........
sides:
  - {id: red, controller: human}
  - {id: blue, controller: human}
figures:
  - {id: r1, side: red, team: r, type: ganger, gutz: 7, at: "ground:3,5", facing: n}
  - {id: b1, side: blue, team: b, type: ganger, gutz: 7, at: "ground:3,2", facing: s}
"""


@pytest.mark.parametrize(("firer", "target", "cover", "intervening"), [
    ((3, 5), (3, 2), "medium", False),  # the window is the square the line enters by
    ((3, 5), (3, 1), "none", True),  # a window further along the line: intervening
    ((6, 5), (6, 2), "heavy", False),  # a loop-hole drawn as a window with heavy cover
    ((1, 5), (1, 4), "none", False),  # open ground beside the wall: no opening crossed
])
def test_openings_give_their_cover(firer: tuple[int, int], target: tuple[int, int],
                                   cover: str, intervening: bool) -> None:
    game = Game(loads_scenario(OPENINGS), 1)
    state: FirewallState = game.state
    r, b = state.figures["r1"], state.figures["b1"]
    r.cell, b.cell = firer, target
    assert target_cover(state.board, r, b) == (cover, intervening)


def test_a_doorway_is_medium_cover_for_the_figure_in_it() -> None:
    game = _tenement(at=(12, 16))
    state: FirewallState = game.state
    kit = state.figures["kit"]
    kit.cell = (12, 14)  # the ground floor's south door
    assert state.board.terrain(Cell(0, 12, 14)).name == "DOOR_CLOSED"
    assert target_cover(state.board, state.figures["alpha-1"], kit)[0] == "medium"


def test_the_role_ai_takes_the_stairs_when_the_ground_floor_is_searched() -> None:
    """The assault bot's targets include every storey's rooms: with the ground floor searched
    and no enemy in sight, a SWAT man on the stairs goes up (the smallest change to the bot:
    rooms of every level, a search per level, the stairs rated as a move)."""
    from killhouse.ai.roles.firewall import FirewallBot
    from killhouse.core.rng import Rng
    from killhouse.rulesets.firewall.teams import Status

    game = _tenement()
    state: FirewallState = game.state
    for f in state.figures.values():
        if f.side == "swat" and f.id != "alpha-1":
            f.status = Status.RESERVE
    bot = FirewallBot(game.scenario, "swat")
    bot.looked.update(c for c in bot.inside if c.level == 0)
    action = bot.choose(game.view("swat"), game.legal_actions("swat"), Rng.from_seed(1))
    assert action.kind == "stairs" and list(action.get("to")) == [1, *STAIRS]
