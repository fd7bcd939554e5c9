"""Step costs beyond one multiplier (ruling K-9): additives, same-kind runs, elevation, rounding."""

from __future__ import annotations

import heapq
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.paths import (
    UNREACHABLE,
    StepCosts,
    StepRules,
    distance_field,
    path_cost,
    path_cost_exact,
)

from .maps import draw, link, open_floor

COMMANDO = StepRules(cardinal=5, diagonal=7, squeeze="none")
CQB = StepRules(cardinal=2, diagonal=3, divisor=2)


def ones(board: Board) -> list[np.ndarray]:
    return [np.ones(lv.terrain.shape, dtype=np.int64) for lv in board.levels]


def test_commando_c6_vectors_elevation_up_and_down() -> None:
    # C-6 test vectors: orthogonal into clear one level up = 5 + 6; diagonal one level down = 7 + 4
    board = open_floor(3, 3)
    elevation = [np.array([[0, 0, 0], [0, 0, 1], [-1, 0, 0]])]
    costs = StepCosts(elevation=elevation, up=6, down=4)
    here = Cell(0, 1, 1)
    assert path_cost(board, [here, Cell(0, 2, 1)], ones(board), COMMANDO, costs=costs) == 11
    assert path_cost(board, [here, Cell(0, 0, 2)], ones(board), COMMANDO, costs=costs) == 11
    field = distance_field(board, [here], ones(board), COMMANDO, costs=costs)
    assert field.cost(Cell(0, 2, 1)) == 11
    assert field.cost(Cell(0, 0, 2)) == 11
    assert field.cost(Cell(0, 1, 0)) == 5
    assert field.cost(Cell(0, 0, 0)) == 7


def test_additive_costs_are_not_scaled_by_the_diagonal() -> None:
    # window cell: M 1, A +23 -> orthogonal 28 (C-6 vector), diagonal 30 (7 + 23, not 7 x 24)
    board = open_floor(3, 3)
    add = [np.zeros((3, 3), dtype=np.int64)]
    add[0][1, 1] = 23
    costs = StepCosts(add=add)
    assert (
        path_cost(board, [Cell(0, 0, 1), Cell(0, 1, 1)], ones(board), COMMANDO, costs=costs) == 28
    )
    assert (
        path_cost(board, [Cell(0, 0, 0), Cell(0, 1, 1)], ones(board), COMMANDO, costs=costs) == 30
    )
    field = distance_field(board, [Cell(0, 0, 0)], ones(board), COMMANDO, costs=costs)
    assert field.cost(Cell(0, 1, 1)) == 30
    assert field.cost(Cell(0, 2, 2)) == 5 + 5 + 7  # around the window: 17, not through it (37)


def test_road_bonus_only_from_road_to_road() -> None:
    # a row of road: entering road from clear costs 5, road to road 5 - 2 = 3 (C-6)
    board = open_floor(5, 2)
    kind = [np.array([[0, 1, 1, 1, 2], [0, 0, 0, 0, 0]])]
    bonus = [np.full((2, 5), -2, dtype=np.int64)]
    costs = StepCosts(kind=kind, same_kind_add=bonus)
    row = [Cell(0, x, 0) for x in range(5)]
    assert path_cost(board, row[:2], ones(board), COMMANDO, costs=costs) == 5
    assert path_cost(board, row[:4], ones(board), COMMANDO, costs=costs) == 5 + 3 + 3
    # a trail (kind 2) after a road is a different kind: no bonus
    assert path_cost(board, row, ones(board), COMMANDO, costs=costs) == 5 + 3 + 3 + 5
    field = distance_field(board, [row[0]], ones(board), COMMANDO, costs=costs)
    assert field.cost(row[3]) == 11
    assert field.path_to(row[3]) == row[1:4]


def test_minimum_step_cost_and_per_step_surcharge() -> None:
    board = open_floor(3, 1)
    kind = [np.array([[1, 1, 1]])]
    bonus = [np.array([[-9, -9, -9]])]
    costs = StepCosts(kind=kind, same_kind_add=bonus, minimum=1)
    assert (
        path_cost(
            board, [Cell(0, 0, 0), Cell(0, 1, 0), Cell(0, 2, 0)], ones(board), COMMANDO, costs=costs
        )
        == 2
    )
    carrying = StepCosts(per_step=15)  # carrying an incapacitated man: 5 + 15 = 20 (C-6)
    assert (
        path_cost(board, [Cell(0, 0, 0), Cell(0, 1, 0)], ones(board), COMMANDO, costs=carrying)
        == 20
    )
    with pytest.raises(ValueError):
        StepCosts(minimum=0)
    with pytest.raises(ValueError):
        StepCosts(kind=kind)


def test_stair_links_take_a_fixed_cost() -> None:
    m = draw("a>.", ".<b")
    link(m.board, Cell(0, 1, 0), Cell(1, 1, 0))
    costs = StepCosts(link=25)  # commando: changing storeys costs 25
    field = distance_field(m.board, [m["a"]], ones(m.board), COMMANDO, costs=costs)
    assert field.cost(Cell(1, 1, 0)) == 5 + 25
    assert field.cost(m["b"]) == 5 + 25 + 5
    assert field.path_to(m["b"]) == [Cell(0, 1, 0), Cell(1, 1, 0), m["b"]]


def test_fractional_allowances_are_not_rounded() -> None:
    # cqb: 1" orthogonal, 1.5" diagonal (2 and 3 over divisor 2); a 6" allowance
    board = open_floor(12, 12)
    field = distance_field(board, [Cell(0, 0, 0)], ones(board), CQB)
    six = Cell(0, 6, 0)
    five_diag = Cell(0, 5, 1)  # 4 + 1.5 = 5.5
    six_and_half = Cell(0, 6, 1)  # 5 + 1.5 = 6.5: outside 6", though floor(6.5) = 6
    assert field.exact_cost(six) == 6
    assert field.exact_cost(five_diag) == Fraction(11, 2)
    assert field.exact_cost(six_and_half) == Fraction(13, 2)
    inside = field.within_allowance(6)[0]
    assert inside[0, 6] and inside[1, 5] and not inside[1, 6]
    assert field.cost(six_and_half) == 6  # the floored cost G-3 uses: why cqb must not use it
    assert field.within_allowance("6.5")[0][1, 6]
    assert not field.within_allowance("6.4")[0][1, 6]
    path = [Cell(0, 0, 0), Cell(0, 1, 1)]
    assert path_cost_exact(board, path, ones(board), CQB) == Fraction(3, 2)
    assert path_cost(board, path, ones(board), CQB) == 1
    assert field.exact_cost(Cell(0, 20, 0)) is None


# -- against an independent reference --------------------------------------------------------


def reference(
    enter: np.ndarray,
    add: np.ndarray,
    kind: np.ndarray,
    same: np.ndarray,
    elevation: np.ndarray,
    up: int,
    down: int,
    per_step: int,
    start: tuple[int, int],
) -> np.ndarray:
    h, w = enter.shape
    best = np.full((h, w), UNREACHABLE, dtype=np.int64)
    best[start[1], start[0]] = 0
    queue = [(0, start)]
    while queue:
        d, (x, y) = heapq.heappop(queue)
        if d > best[y, x]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx, dy) == (0, 0) or not (0 <= nx < w and 0 <= ny < h) or enter[ny, nx] <= 0:
                    continue
                base = 7 if dx and dy else 5
                step = base * int(enter[ny, nx]) + int(add[ny, nx]) + per_step
                if kind[ny, nx] and kind[ny, nx] == kind[y, x]:
                    step += int(same[ny, nx])
                rise = int(elevation[ny, nx]) - int(elevation[y, x])
                step += up * max(rise, 0) + down * max(-rise, 0)
                step = max(step, 1)
                if d + step < best[ny, nx]:
                    best[ny, nx] = d + step
                    heapq.heappush(queue, (d + step, (nx, ny)))
    return best


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_modelled_field_matches_reference(data: st.DataObject) -> None:
    w = data.draw(st.integers(1, 7))
    h = data.draw(st.integers(1, 7))
    shape = (h, w)
    enter = data.draw(arrays(np.int64, shape, elements=st.sampled_from([0, 1, 1, 1, 2, 3])))
    add = data.draw(arrays(np.int64, shape, elements=st.integers(0, 12)))
    kind = data.draw(arrays(np.int64, shape, elements=st.integers(0, 2)))
    same = data.draw(arrays(np.int64, shape, elements=st.integers(-6, 0)))
    elevation = data.draw(arrays(np.int64, shape, elements=st.integers(0, 2)))
    up, down, per_step = (
        data.draw(st.integers(0, 6)),
        data.draw(st.integers(0, 4)),
        data.draw(st.integers(0, 3)),
    )
    start = (data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1)))
    board = open_floor(w, h)
    costs = StepCosts(
        add=[add],
        kind=[kind],
        same_kind_add=[same],
        elevation=[elevation],
        up=up,
        down=down,
        per_step=per_step,
    )
    field = distance_field(board, [Cell(0, *start)], [enter], COMMANDO, costs=costs)
    want = reference(enter, add, kind, same, elevation, up, down, per_step, start)
    assert field.raw[0].tolist() == want.tolist()
    # every reachable cell's path re-costs to its distance
    for y in range(h):
        for x in range(w):
            if want[y, x] not in (0, UNREACHABLE):
                path = field.path_to(Cell(0, x, y))
                total = path_cost(board, [Cell(0, *start), *path], [enter], COMMANDO, costs=costs)
                assert total == want[y, x]


def test_a_zero_model_changes_nothing() -> None:
    m = draw(
        """
        ..#..
        .#...
        ...#.
        """
    )
    enter = [np.where(m.board.passable_mask(0), 1, 0)]
    plain = distance_field(m.board, [Cell(0, 0, 0)], enter, CQB)
    modelled = distance_field(m.board, [Cell(0, 0, 0)], enter, CQB, costs=StepCosts())
    assert plain.raw[0].tolist() == modelled.raw[0].tolist()
