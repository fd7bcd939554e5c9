"""The forced fire target and the run-away route of a panicking man (rulings C-14, C-80)."""

from __future__ import annotations

from killhouse.core.cells import Cell
from killhouse.rulesets.commando.movement import step_model
from killhouse.rulesets.commando.panic_moves import forced_fire_target, gap, run_away
from tests.core.maps import draw

MAP = """
..........
..........
....#.....
....#.....
..........
"""


def grid(width: int, height: int) -> list[list[str]]:
    return [["clear"] * width for _ in range(height)]


def walls() -> list[list[str]]:
    g = grid(10, 5)
    g[2][4] = g[3][4] = "wall"
    return g


def test_forced_fire_takes_the_nearest_visible_enemy() -> None:
    board = draw(MAP).board
    at = Cell(0, 2, 3)
    observed = {"far": Cell(0, 9, 0), "hidden": Cell(0, 6, 3), "near": Cell(0, 2, 0)}
    assert forced_fire_target(board, at, observed) == "near"
    assert forced_fire_target(board, at, {"hidden": Cell(0, 6, 3)}) is None


def test_every_step_increases_range_and_tp_limit_the_route() -> None:
    board = draw(MAP).board
    model = step_model([walls()])
    enemy = Cell(0, 9, 4)
    route = run_away(board, Cell(0, 6, 4), [enemy], 25, model)
    ranges = [gap(Cell(0, 6, 4), enemy)] + [gap(c, enemy) for c in route]
    assert ranges == sorted(ranges) and len(set(ranges)) == len(ranges)
    assert route and sum(5 if c.x == p.x or c.y == p.y else 7
                         for p, c in zip([Cell(0, 6, 4), *route], route, strict=False)) <= 25


HIDE = """
..........
...#......
..........
"""


def test_prefers_breaking_line_of_sight() -> None:
    board = draw(HIDE).board
    g = grid(10, 3)
    g[1][3] = "wall"
    model = step_model([g])
    enemy = Cell(0, 0, 1)
    # from (4, 0) both E (5, 0) and SE (5, 1) reach range 5; only SE puts the wall between,
    # so it wins although it costs 7 against 5 (C-80)
    assert run_away(board, Cell(0, 4, 0), [enemy], 7, model) == [Cell(0, 5, 1)]
    # with 6 TP only the cheaper, visible step is affordable
    assert run_away(board, Cell(0, 4, 0), [enemy], 6, model) == [Cell(0, 5, 0)]


def test_no_enemy_or_no_tp_means_no_route() -> None:
    board = draw(MAP).board
    model = step_model([walls()])
    assert run_away(board, Cell(0, 5, 1), [], 50, model) == []
    assert run_away(board, Cell(0, 5, 1), [Cell(0, 8, 2)], 4, model) == []
