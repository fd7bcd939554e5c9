"""Climbing and leaping between storeys (§1.2, §6.6, §12; rulings F-250 … F-252): a roof's
edge and an upper window as faces, several climbing actions with the climber hanging between,
the storey height at its edges, a leap's fall, and what is refused."""

from __future__ import annotations

from fractions import Fraction

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, ScenarioError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from killhouse.scenario.loader import loads_scenario
from tests.rulesets.firewall.test_teams import Dice

# a one-storey block on the left with a flat roof (the upper level's floor over it), a
# two-storey house on the right with a window on its north side at 9,1 upstairs; '-' is open air
MAP = """\
name: Two storeys
ruleset: firewall
{options}map:
  legend:
    "-": {{terrain: outside}}
    "^": {{terrain: floor, height: 2}}
  levels:
    ground: |
      ..............
      .####..#####..
      .#..#..#...#..
      .####..#...#..
      .......#####..
      ..............
    upper: |
      --------------
      -..^.--##=##--
      -....--#...#--
      -....--#...#--
      -------#####--
      --------------
sides:
  - {{id: red, controller: human}}
  - {{id: blue, controller: human}}
figures:
  - {{id: r1, side: red, team: r, type: ganger, gutz: 7, at: "ground:0,2", facing: e}}
  - {{id: b1, side: blue, team: b, type: ganger, gutz: 7, at: "ground:13,5", facing: n}}
"""


def _game(at: tuple[int, int, int] = (0, 0, 2), faces: list[int] | None = None,
          storey: int | None = None, **figure: object) -> Game:
    options = "" if storey is None else f"options: {{storey_cm: {storey}}}\n"
    game = Game(loads_scenario(MAP.format(options=options)), 1)
    state: FirewallState = game.state
    for t in state.teams.values():
        t.aware = True
    f = state.figures["r1"]
    f.level, f.cell = at[0], (at[1], at[2])
    for key, value in figure.items():
        setattr(f, key, value)
    state.active_team = None
    state.order, state.step = ("red", "blue"), 0
    game.apply(Action.make("red", "activate", team="r"))
    if faces is not None:
        game.chance = Dice(faces)  # type: ignore[assignment]
    return game


def _act(game: Game, kind: str, to: tuple[int, int, int]) -> None:
    game.apply(Action.make("red", kind, figure="r1", to=list(to)))


def _offered(game: Game, kind: str) -> set[tuple[int, int, int]]:
    return {tuple(a.get("to")) for a in game.legal_actions("red")  # type: ignore[misc]
            if a.kind == kind and a.get("figure") == "r1"}


def test_the_storey_height_defaults_to_ten_cm_and_a_scenario_sets_it() -> None:
    assert _game().state.storey_cm == 10
    assert _game(storey=12).state.storey_cm == 12
    for bad in (0, 100):  # one past each end of 1..99
        with pytest.raises(ScenarioError, match=r"options\.storey_cm: expected a whole number"):
            _game(storey=bad)
    assert _game(storey=1).state.storey_cm == 1 and _game(storey=99).state.storey_cm == 99


def test_roof_edges_and_windows_are_offered_and_nothing_through_a_ceiling() -> None:
    assert _offered(_game(), "climb") == {(1, 1, 1), (1, 1, 2), (1, 1, 3)}
    assert _offered(_game(at=(0, 9, 0)), "climb") == {(1, 9, 2)}  # in at the window
    assert _offered(_game(at=(0, 8, 0)), "climb") == set()  # a wall, no window, no roof
    assert _offered(_game(at=(0, 8, 2)), "climb") == set()  # indoors: a ceiling above
    # from the roof: down its edges and a leap off them
    down = _offered(_game(at=(1, 1, 2)), "climb")
    assert (0, 0, 2) in down and (0, 0, 1) in down
    assert (0, 0, 2) in _offered(_game(at=(1, 1, 2)), "jump")
    assert (0, 9, 0) in _offered(_game(at=(1, 9, 2)), "jump")  # out of the window


def test_a_storey_takes_two_climbs_and_the_climber_hangs_between() -> None:
    # Crawl 6 cm: 10 cm is two actions; S at Gutz 7, clutter 0: (3,4) = 7 ≤ 7 (the edge)
    game = _game(faces=[3, 4])
    _act(game, "climb", (1, 1, 2))
    f = game.state.figures["r1"]
    assert (f.level, f.cell, f.climb_to, f.climb_level, f.hang) == (0, (0, 2), (1, 2), 1, 6)
    assert game.view("red")["figures"][0]["climbing"] == {"to": [1, 1, 2], "height": 6.0}
    game.state.figures["b1"].cell = (0, 5)  # in plain sight below the wall
    assert game.view("blue")["seen"][0]["climbing"] == {"to": [1, 1, 2], "height": 6.0}
    assert _offered(game, "jump") == set()
    f.move_used = False  # next Turn: no ordinary move off the wall
    with pytest.raises(IllegalActionError, match="hangs on a face"):
        game.apply(Action.make("red", "move", figure="r1", speed="crawl", path=[[0, 0, 3]]))
    with pytest.raises(IllegalActionError, match="up to it or down"):
        _act(game, "climb", (1, 1, 1))
    assert _offered(game, "climb") == {(1, 1, 2), (0, 0, 2)}
    game.chance = Dice([1, 2])  # type: ignore[assignment]
    _act(game, "climb", (1, 1, 2))
    assert (f.level, f.cell, f.climb_to, f.climb_level, f.hang) == (1, (1, 2), None, None, 0)
    assert game.view("red")["figures"][0].get("climbing") is None


@pytest.mark.parametrize(("acrobatics", "storey", "faces", "reached", "hang"), [
    (2, 10, [3, 4], True, 0),  # Crawl 6 + 4 = 10 cm: the whole storey in one S (the edge)
    (2, 11, [3, 4], False, 10),  # one cm past: it hangs at 10
    (1, 10, [3, 4], False, 8),  # 8 cm: it hangs two short
    (1, 10, [2, 2], True, 0),  # CS: 1.25 × 8 = 10 cm (the edge)
    (1, 11, [2, 2], False, 10),  # CS one cm past
])
def test_a_storey_at_one_climb_and_one_past(acrobatics: int, storey: int, faces: list[int],
                                            reached: bool, hang: int) -> None:
    game = _game(faces=faces, storey=storey, skills={"acrobatics": acrobatics})
    _act(game, "climb", (1, 1, 2))
    f = game.state.figures["r1"]
    assert (f.level == 1) is reached and f.hang == hang


def test_a_surface_height_on_the_roof_adds_to_the_storey() -> None:
    # the roof square 3,1 is 2 cm high: the face from 3,0 is 12 cm; Acrobatics 2 reaches 10
    game = _game(at=(0, 3, 0), faces=[3, 4], skills={"acrobatics": 2})
    _act(game, "climb", (1, 3, 1))
    f = game.state.figures["r1"]
    assert f.level == 0 and f.hang == 10 and f.climb_level == 1


def test_in_at_a_window_lands_in_the_room_behind_it() -> None:
    game = _game(at=(0, 9, 0), faces=[1, 2], skills={"acrobatics": 2})
    _act(game, "climb", (1, 9, 2))
    f = game.state.figures["r1"]
    assert (f.level, f.cell) == (1, (9, 2))


def test_a_failed_climb_stays_and_a_critical_failure_falls_from_where_it_hung() -> None:
    game = _game(faces=[6, 5])  # 11 > 7: F, no movement, the figure has failed
    _act(game, "climb", (1, 1, 2))
    f = game.state.figures["r1"]
    assert (f.level, f.cell, f.climb_to) == (0, (0, 2), None) and f.failed_this_turn
    game = _game(faces=[4, 4, 3, 4, 1, 1], climb_to=(1, 2), climb_level=1, hang=Fraction(8))
    _act(game, "climb", (1, 1, 2))
    f = game.state.figures["r1"]
    # CF: −1, then a fall from 8 cm: 2 attacks at Gutz 11: (3,4) S −2, (1,1) CS killed
    assert f.status is Status.KILLED and f.climb_to is None and f.climb_level is None
    assert (f.level, f.cell) == (0, (0, 2))
    assert [e.data["height"] for e in game.log.events if e.kind == "fall"] == ["8"]


def test_climbing_down_from_the_roof_starts_at_the_whole_face() -> None:
    game = _game(at=(1, 1, 2), faces=[3, 4])
    _act(game, "climb", (0, 0, 2))
    f = game.state.figures["r1"]
    assert (f.level, f.cell, f.climb_to, f.climb_level, f.hang) == (0, (0, 2), (1, 2), 1, 4)
    f.move_used = False
    game.chance = Dice([3, 4])  # type: ignore[assignment]
    _act(game, "climb", (0, 0, 2))
    assert (f.level, f.cell, f.climb_to, f.hang) == (0, (0, 2), None, 0)


def test_a_held_top_keeps_the_climber_hanging_at_the_top() -> None:
    game = _game(faces=[1, 2], skills={"acrobatics": 2})
    blue = game.state.figures["b1"]
    blue.level, blue.cell = 1, (1, 2)
    with pytest.raises(IllegalActionError, match="held"):
        _act(game, "climb", (1, 1, 2))
    f = game.state.figures["r1"]
    assert (f.level, f.cell, f.climb_to, f.move_used) == (0, (0, 2), None, False)


@pytest.mark.parametrize(("storey", "attacks"), [(3, 0), (4, 1), (7, 1), (8, 2)])
def test_a_leap_down_a_storey_falls_its_height(storey: int, attacks: int) -> None:
    # floor(h/4) attacks: under 4 cm none (the edge 3 and one past 4), 8 cm two
    game = _game(at=(1, 1, 2), storey=storey, faces=[6, 6, 6, 6])
    _act(game, "jump", (0, 0, 2))
    f = game.state.figures["r1"]
    assert (f.level, f.cell, f.move_used) == (0, (0, 2), True)
    fall = next(e for e in game.log.events if e.kind == "fall")
    assert fall.data["height"] == str(storey) and len(fall.data["attacks"]) == attacks
    assert not f.failed_this_turn  # a leap has no roll to fail (F-183)


def test_leaps_and_climbs_that_are_refused_leave_the_state_unchanged() -> None:
    game = _game()
    before = game.state.figures["r1"].__dict__.copy()
    with pytest.raises(IllegalActionError, match="no outside wall"):
        _act(game, "climb", (1, 2, 2))  # two squares, no window between
    with pytest.raises(IllegalActionError, match="leap goes down one storey"):
        _act(game, "jump", (1, 1, 2))  # no jumping up
    with pytest.raises(IllegalActionError, match="no outside wall"):
        _act(_game(at=(1, 2, 2)), "jump", (0, 2, 3))  # the middle of the roof
    game.state.figures["r1"].suppressed = True
    with pytest.raises(IllegalActionError, match="suppressed"):
        _act(game, "climb", (1, 1, 2))
    game.state.figures["r1"].suppressed = False
    assert game.state.figures["r1"].__dict__ == before
    unaware = _game()
    unaware.state.teams["r"].aware = False
    with pytest.raises(IllegalActionError, match="not yet aware"):
        _act(unaware, "climb", (1, 1, 2))


def test_a_wall_crumbling_under_a_climber_leaves_it_a_way_up_and_down() -> None:
    # the wall square under the roof's edge turns to rubble (a section falls, F-36)
    game = _game(climb_to=(1, 2), climb_level=1, hang=Fraction(6))
    game.state.board.levels[0].terrain[2, 1] = 1  # floor
    assert _offered(game, "climb") == {(1, 1, 2), (0, 0, 2)}


@pytest.mark.parametrize(("faces", "acrobatics", "reached"), [
    ([1, 3], 0, True),  # 4 ≤ 7 − 3: the room's clutter 3 counts (the edge)
    ([2, 3], 0, False),  # 5: one past, F
    ([2, 3], 1, True),  # Acrobatics 1 takes one off the clutter: 5 ≤ 7 − 2
])
def test_the_climb_rolls_the_higher_clutter_of_the_foot_and_the_room(
        faces: list[int], acrobatics: int, reached: bool) -> None:
    game = _game(at=(0, 9, 0), faces=faces, storey=6, skills={"acrobatics": acrobatics})
    game.state.board.levels[1].clutter[2, 9] = 3  # the room behind the window
    _act(game, "climb", (1, 9, 2))
    f = game.state.figures["r1"]
    assert (f.level == 1) is reached and f.failed_this_turn is not reached


def _after(game: Game) -> None:
    from killhouse.rulesets.firewall.upkeep import after_action
    after_action(game.state, game.chance, game.log)


@pytest.mark.parametrize(("hang", "faces", "status", "gutz"), [
    (Fraction(3), [], Status.INCAPACITATED, 7),  # under 4 cm: no attack (the edge)
    (Fraction(4), [3, 4], Status.INCAPACITATED, 5),  # one attack at Gutz 8: 7 ≤ 8, S −2
    (Fraction(8), [3, 4, 6, 6], Status.INCAPACITATED, 5),  # two attacks: S, then (6,6) CF
    (Fraction(8), [3, 4, 3, 3], Status.KILLED, 7),  # the second a CS: killed (F-18)
])
def test_a_climber_made_helpless_lets_go_and_falls(hang: Fraction, faces: list[int],
                                                     status: Status, gutz: int) -> None:
    game = _game(faces=faces, climb_to=(1, 2), climb_level=1, hang=hang)
    f = game.state.figures["r1"]
    f.status = Status.INCAPACITATED  # a stunner's CS, a gas, a tangler …
    _after(game)
    assert f.status is status and f.gutz == gutz and f.climb_to is None
    assert (f.level, f.cell, f.climb_level, f.hang) == (0, (0, 2), None, 0)
    fall = [e for e in game.log.events if e.kind == "fall"]
    assert [e.data["height"] for e in fall] == [str(hang)]


def test_a_helpless_climber_taken_below_2_by_the_fall_dies() -> None:
    game = _game(faces=[3, 4], climb_to=(1, 2), climb_level=1, hang=Fraction(4), gutz=3)
    f = game.state.figures["r1"]
    f.status = Status.INCAPACITATED
    _after(game)
    assert f.status is Status.KILLED and f.gutz == 1  # F-70, not a rout


def test_a_killed_climber_drops_without_attacks_and_a_suppressed_one_holds_on() -> None:
    game = _game(climb_to=(1, 2), climb_level=1, hang=Fraction(8))
    f = game.state.figures["r1"]
    f.suppressed = True
    _after(game)
    assert f.climb_to == (1, 2) and f.hang == 8
    f.status = Status.KILLED
    _after(game)
    assert f.climb_to is None and f.climb_level is None
    assert not [e for e in game.log.events if e.kind == "fall"]
