"""Climbing, jumping and falling in play (§6.6; rulings F-17, F-18, F-180 … F-183): a map's
``height`` layer, the ``climb`` and ``jump`` actions, their rolls as events and the falls."""

from __future__ import annotations

from fractions import Fraction

import pytest

from killhouse.core.chance import SeededChance
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.movement import fall
from killhouse.rulesets.firewall.rolls import odds_fall
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from killhouse.scenario.loader import loads_scenario
from tests.rulesets.firewall.test_teams import Dice

# a one-storey block 10 cm high (^), a second roof across a 2-square gap, a 1 cm barrier (o),
# a 2 cm block (v)
MAP = """\
name: Rooftops
ruleset: firewall
map:
  legend:
    "^": {terrain: floor, height: 10}
    "o": {terrain: floor, height: 1}
    "v": {terrain: floor, height: 2}
  levels:
    ground: |
      ..............
      .^^^..^^^^^...
      .^^^..^^^^^...
      ..............
      ..o...........
      .v............
      ..............
      ..............
sides:
  - {id: red, controller: human}
  - {id: blue, controller: human}
figures:
  - {id: r1, side: red, team: r, type: ganger, gutz: 7, at: "ground:2,3", facing: n}
  - {id: b1, side: blue, team: b, type: ganger, gutz: 7, at: "ground:13,7", facing: n}
"""


def _game(at: tuple[int, int] = (2, 3), faces: list[int] | None = None,
          **figure: object) -> Game:
    game = Game(loads_scenario(MAP), 1)
    state: FirewallState = game.state
    for t in state.teams.values():
        t.aware = True
    f = state.figures["r1"]
    f.cell = at
    for key, value in figure.items():
        setattr(f, key, value)
    state.active_team = None
    state.order, state.step = ("red", "blue"), 0
    game.apply(Action.make("red", "activate", team="r"))
    if faces is not None:
        game.chance = Dice(faces)  # type: ignore[assignment]
    return game


def _act(game: Game, kind: str, to: tuple[int, int]) -> None:
    game.apply(Action.make("red", kind, figure="r1", to=[0, *to]))


def test_a_move_keeps_to_one_height() -> None:
    game = _game()
    with pytest.raises(IllegalActionError, match="10 cm high"):
        game.apply(Action.make("red", "move", figure="r1", speed="walk", path=[[0, 2, 1]]))
    kinds = {a.kind for a in game.legal_actions("red")}
    assert {"climb", "jump"} <= kinds


def test_a_storey_takes_two_climbs_and_the_climber_hangs_between() -> None:
    # Crawl 6 cm: 10 cm is two actions; S at Gutz 7, clutter 0: 7 ≤ 7 (the edge)
    game = _game(faces=[3, 4])
    _act(game, "climb", (2, 2))
    f = game.state.figures["r1"]
    assert f.cell == (2, 3) and f.climb_to == (2, 2) and f.hang == 6
    assert game.view("red")["figures"][0]["climbing"] == {"to": [0, 2, 2], "height": 6.0}
    events = [e for e in game.log.events if e.kind == "climb"]
    assert events[-1].data["dice"] == [3, 4] and events[-1].data["result"] == "S"
    f.move_used = False  # next Turn: no ordinary move off the face
    with pytest.raises(IllegalActionError, match="hangs on a face"):
        game.apply(Action.make("red", "move", figure="r1", speed="crawl", path=[[0, 3, 3]]))
    # on up the face: 4 cm more reaches the roof
    game.chance = Dice([1, 2])  # type: ignore[assignment]
    _act(game, "climb", (2, 2))
    assert f.cell == (2, 2) and f.climb_to is None and f.hang == 0


@pytest.mark.parametrize(("acrobatics", "faces", "reached"), [
    (2, [3, 4], True),  # Crawl 6 + 4 = 10 cm: the whole storey in one S (the edge)
    (1, [3, 4], False),  # 8 cm: one step short, it hangs at 8
    (1, [2, 2], True),  # CS: 1.25 × 8 = 10 cm
])
def test_acrobatics_and_critical_success_lengthen_a_climb(
        acrobatics: int, faces: list[int], reached: bool) -> None:
    game = _game(faces=faces, skills={"acrobatics": acrobatics})
    _act(game, "climb", (2, 2))
    f = game.state.figures["r1"]
    assert (f.cell == (2, 2)) is reached
    if not reached:
        assert f.hang == 8


def test_a_failed_climb_goes_nowhere_and_a_critical_failure_falls() -> None:
    game = _game(faces=[4, 4, 3, 4, 5, 5])  # (4,4) at Gutz 7: a double above 7, CF
    f = game.state.figures["r1"]
    f.climb_to, f.hang = (2, 2), Fraction(8)
    _act(game, "climb", (2, 2))
    # CF: −1, then a fall from 8 cm: 2 attacks at Gutz 11: (3,4) S −2, (5,5) CS killed
    assert f.status is Status.KILLED and f.climb_to is None and f.cell == (2, 3)
    falls = [e for e in game.log.events if e.kind == "fall"]
    assert falls[-1].data["attacks"] == ["S", "CS"] and falls[-1].data["height"] == "8"


def test_a_failure_stays_put() -> None:
    game = _game(faces=[4, 5])  # 9 > 7: F
    _act(game, "climb", (2, 2))
    f = game.state.figures["r1"]
    assert f.cell == (2, 3) and f.climb_to == (2, 2) and f.hang == 0 and f.failed_this_turn


def test_climbing_down_a_storey() -> None:
    game = _game(at=(2, 2), faces=[3, 4])
    _act(game, "climb", (2, 3))
    f = game.state.figures["r1"]
    assert f.cell == (2, 3) and f.hang == 4 and f.climb_to == (2, 2)


@pytest.mark.parametrize(("to", "acrobatics", "legal"), [
    ((6, 1), 0, True),  # over the two gap squares: dx² 9 ≤ 11 (Crawl 6 cm, F-1)
    ((7, 1), 0, False),  # dx² 16 > 11: one square past Crawl 6 cm
    ((7, 1), 1, True),  # Crawl + 2 = 8 cm: 16 ≤ 17
    ((8, 1), 1, False),  # 25 > 17
])
def test_a_gap_jump_reaches_crawl_distance(to: tuple[int, int], acrobatics: int,
                                           legal: bool) -> None:
    game = _game(at=(3, 1), skills={"acrobatics": acrobatics})
    legal_to = {tuple(a.get("to")) for a in game.legal_actions("red") if a.kind == "jump"}
    assert ((0, *to) in legal_to) is legal


def test_a_jump_lands_or_falls_into_the_gap() -> None:
    game = _game(at=(3, 1), faces=[3, 4])
    _act(game, "jump", (6, 1))
    assert game.state.figures["r1"].cell == (6, 1)
    game = _game(at=(3, 1), faces=[5, 5, 1, 2, 6, 6])  # CF, then two attacks at Gutz 11
    _act(game, "jump", (6, 1))
    f = game.state.figures["r1"]
    assert f.cell == (4, 1) and f.gutz == 6 - 2  # −1 for the CF, −2 for one S
    assert [e.data["attacks"] for e in game.log.events if e.kind == "fall"] == [["S", "CF"]]


def test_a_low_obstacle_under_two_cm_is_jumped_and_one_of_two_cm_is_not() -> None:
    game = _game(at=(1, 4), faces=[3, 4])
    _act(game, "jump", (3, 4))  # over the 1 cm barrier at (2,4)
    assert game.state.figures["r1"].cell == (3, 4)
    game = _game(at=(0, 5))
    with pytest.raises(IllegalActionError, match="2 cm above"):
        _act(game, "jump", (2, 5))  # the 2 cm block at (1,5): "under 2 cm" is the limit


def test_a_leap_from_a_roof_is_a_fall() -> None:
    game = _game(at=(2, 2), faces=[3, 4, 1, 1])
    _act(game, "jump", (2, 3))
    f = game.state.figures["r1"]
    # 10 cm: two attacks at Gutz 11 (ruling F-18, vector M8): S −2, then 1-1 CS killed
    assert f.cell == (2, 3) and f.status is Status.KILLED


@pytest.mark.parametrize(("height", "attacks"), [(3, 0), (4, 1), (7, 1), (8, 2)])
def test_fall_attacks_start_at_four_cm(height: int, attacks: int) -> None:
    results, _, _ = fall(Dice([4, 5] * 3), height, "test")
    assert len(results) == attacks


def test_play_and_the_odds_roll_agree() -> None:
    for seed in range(200):
        a = odds_fall(SeededChance(Rng(seed)), {"height-cm": 10})
        _, killed, lost = fall(SeededChance(Rng(seed)), 10, "x")
        assert a == ("killed" if killed else "unhurt" if lost == 0 else f"gutz-{lost}")


def test_unaware_teams_and_suppressed_figures_do_not_climb() -> None:
    game = _game()
    game.state.figures["r1"].suppressed = True
    assert not [a for a in game.legal_actions("red") if a.kind in ("climb", "jump")]
    game.state.figures["r1"].suppressed = False
    game.state.teams["r"].aware = False
    with pytest.raises(IllegalActionError, match="F-16"):
        _act(game, "climb", (2, 2))


def test_play_that_prefers_climbing_and_jumping_leaks_nothing() -> None:
    """Random legal play on the rooftops that climbs, jumps or leaps whenever it may, with the
    invariants, the view contract and the leak check for both sides after every action."""
    from killhouse.core.rng import Rng as Gen
    from killhouse.rulesets.kit.view import view_problems
    from tests.conformance import assert_no_leak

    kinds: list[str] = []
    for seed in (1, 2, 3):
        game = Game(loads_scenario(MAP), seed)
        rng = Gen.from_seed(seed)
        for t in game.state.teams.values():
            t.aware = True
        for _ in range(300):
            pending = game.pending()
            if not pending:
                break
            side = pending[0].side
            actions = [a for a in game.legal_actions(side) if not a.get("exit")]
            heights = [a for a in actions if a.kind in ("climb", "jump")]
            pool = heights if heights and rng.below(4) else actions
            action = pool[rng.below(len(pool))]
            before = {s: game.ruleset.known_ids(game.state, s) for s in ("red", "blue")}
            start = len(game.log)
            game.apply(action)
            assert not game.ruleset.invariants(game.state)
            for other in ("red", "blue"):
                assert not view_problems(game.view(other))
                assert_no_leak(game, other, before[other], start)
            kinds += [e.kind for e in game.log.since(start)]
    assert {"climb", "jump", "fall"} <= set(kinds)
