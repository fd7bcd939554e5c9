"""A move on a board (§6.1, §6.2, §6.4): vectors M1-M5 and M7 in play, route checks."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.chance import Chance
from killhouse.core.events import Audience, EventLog
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall.moving import (
    MoveOrder,
    move_modifier,
    resolve_move,
    route_squares,
)
from killhouse.rulesets.firewall.teams import Figure, Status, Team, new_figure


class Dice(Chance):
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self.faces.pop(0) - 1


def _game(gutz: int = 7, clutter: int = 0) -> tuple[Board, dict[str, Figure], dict[str, Team]]:
    board = Board([Level.blank("park", 48, 48)])
    board.levels[0].clutter[10, 3] = clutter
    figures = {"w": new_figure("w", "a", "t", (0, 10), gutz=gutz)}
    return board, figures, {"t": Team("t", "a", ("w",), None, aware=True)}


def test_route_squares_measure_exactly() -> None:
    squares = route_squares((0, 0), ((3, 4), (3, 6)))
    # 5 + 2 squares of 2.5 cm
    assert squares[-1][0] == (3, 6) and squares[-1][1].rational() == Fraction(35, 2)


def test_m1_walk_15_cm_through_clutter_2() -> None:
    board, figures, teams = _game(clutter=2)
    order = MoveOrder("w", "walk", ((6, 10),), facing=(1, 0))
    assert move_modifier(board, figures, teams, order) == -2
    log = EventLog()
    report = resolve_move(board, figures, teams, order, Dice([2, 3]), log)
    assert report.result == "S" and figures["w"].cell == (6, 10)
    assert [e.audience for e in log.events] == [frozenset({"a"})]  # §21.4: the owner only
    assert figures["w"].facing == (1, 0) and not figures["w"].prone


def test_m2_failure_moves_exactly_half() -> None:
    board, figures, teams = _game(clutter=2)
    report = resolve_move(board, figures, teams, MoveOrder("w", "walk", ((6, 10),)),
                          Dice([3, 4]), EventLog())
    assert report.result == "F" and report.second is None
    assert figures["w"].cell == (3, 10)  # 7.5 cm
    assert figures["w"].failed_this_turn


def test_m3_run_failure_second_roll_loses_gutz() -> None:
    board, figures, teams = _game(clutter=1)
    order = MoveOrder("w", "run", ((12, 10),))  # 30 cm
    report = resolve_move(board, figures, teams, order, Dice([4, 5, 5, 3]), EventLog())
    assert report.second == "F" and figures["w"].gutz == 6
    assert figures["w"].cell == (5, 10)  # 13 cm allowance: the 12.5 cm square


def test_m4_critical_success_goes_past_the_maximum() -> None:
    board, figures, teams = _game(gutz=4, clutter=5)
    order = MoveOrder("w", "walk", ((9, 10),))  # 22.5 cm: 1.25 x 18
    resolve_move(board, figures, teams, order, Dice([2, 2]), EventLog())
    assert figures["w"].gutz == 5 and figures["w"].cell == (9, 10)


def test_m5_critical_failure_stays() -> None:
    board, figures, teams = _game(gutz=9)
    resolve_move(board, figures, teams, MoveOrder("w", "crawl", ((2, 10),), facing=(0, 1)),
                 Dice([5, 5]), EventLog())
    assert figures["w"].cell == (0, 10) and figures["w"].gutz == 8
    assert figures["w"].facing == (0, -1) and not figures["w"].prone  # F-13, F-14


def test_crawl_makes_prone() -> None:
    board, figures, teams = _game()
    resolve_move(board, figures, teams, MoveOrder("w", "crawl", ((2, 10),)), Dice([1, 2]),
                 EventLog())
    assert figures["w"].prone and figures["w"].cell == (2, 10)


def test_m7_rally() -> None:
    board, figures, teams = _game(gutz=6, clutter=3)
    figures["w"].suppressed = True
    order = MoveOrder("w", "walk", ((4, 10),))
    resolve_move(board, figures, teams, order, Dice([1, 3]), EventLog())
    assert figures["w"].suppressed and figures["w"].cell == (0, 10)
    assert figures["w"].failed_this_turn
    board, figures, teams = _game(gutz=6, clutter=3)
    figures["w"].suppressed = True
    report = resolve_move(board, figures, teams, order, Dice([1, 1]), EventLog())
    assert report.rallied and not figures["w"].suppressed and figures["w"].gutz == 7
    assert figures["w"].cell == (4, 10)  # CS: moves as for a plain S


@pytest.mark.parametrize(
    ("change", "reason"),
    [("wall", "not passable"), ("enemy", "holds an enemy"), ("long", "longer than"),
     ("end", "occupied"), ("used", "no Movement action")],
)
def test_illegal_moves_change_nothing(change: str, reason: str) -> None:
    board, figures, teams = _game()
    order = MoveOrder("w", "walk", ((6, 10),))
    if change == "wall":
        board.levels[0].terrain[10, 4] = Terrain.WALL
    elif change == "enemy":
        figures["e"] = new_figure("e", "b", "u", (3, 10), gutz=7)
    elif change == "long":
        order = MoveOrder("w", "walk", ((10, 10),))  # 25 cm > 22.5
    elif change == "end":
        figures["e"] = new_figure("e", "b", "u", (6, 10), gutz=7)
        figures["e"].status = Status.KILLED  # a body still holds its square (F-78)
    else:
        figures["w"].move_used = True
    before = repr(figures)
    with pytest.raises(IllegalActionError, match=reason):
        resolve_move(board, figures, teams, order, Dice([]), EventLog())
    assert repr(figures) == before


def test_longest_legal_route_is_the_critical_allowance() -> None:
    board, figures, teams = _game()
    resolve_move(board, figures, teams, MoveOrder("w", "walk", ((9, 10),)), Dice([1, 2]),
                 EventLog())
    assert figures["w"].cell == (7, 10)  # S: 18 cm allows 17.5, not 20


def test_move_event_goes_to_sides_that_see_the_end_square() -> None:
    board, figures, teams = _game()
    figures["near"] = new_figure("near", "b", "u", (6, 14), gutz=7)
    figures["hid"] = new_figure("hid", "c", "v", (6, 30), gutz=7)
    board.levels[0].terrain[20, :] = Terrain.WALL  # "hid" is behind a wall
    log = EventLog()
    resolve_move(board, figures, teams, MoveOrder("w", "walk", ((6, 10),)), Dice([1, 2]), log)
    assert log.events[-1].audience == frozenset({"a", "b"})
