"""Models of several cells (ruling K-11): footprints, centres and arcs."""

from __future__ import annotations

import pytest

from killhouse.core.cells import Cell
from killhouse.core.footprint import centre2, footprint, model_arc
from killhouse.core.measure import footprint_within_sq


def test_a_car_two_by_four_turns_with_its_facing() -> None:
    north = footprint(Cell(0, 5, 5), 4, 2, "n")
    assert (
        len(north) == 8 and {c.x for c in north} == {5, 6} and {c.y for c in north} == {5, 6, 7, 8}
    )
    east = footprint(Cell(0, 5, 5), 4, 2, "e")
    assert {c.x for c in east} == {5, 6, 7, 8} and {c.y for c in east} == {5, 6}
    with pytest.raises(ValueError, match="K-11"):
        footprint(Cell(0, 0, 0), 4, 2, "ne")
    with pytest.raises(ValueError):
        footprint(Cell(0, 0, 0), 0, 2, "n")


def test_arcs_from_an_even_sized_model_use_its_true_centre() -> None:
    car = footprint(Cell(0, 0, 0), 4, 2, "n")  # x 0..1, y 0..3: centre (0.5, 1.5)
    assert centre2(car) == (1, 3)
    assert model_arc(car, "n", Cell(0, 0, -3)) == "front"
    assert model_arc(car, "n", Cell(0, 4, 1)) == "right"
    assert model_arc(car, "n", Cell(0, 1, 9)) == "back"
    assert model_arc(car, "n", Cell(0, -5, 2)) == "left"
    # (3, -1) is (2.5, -2.5) from the centre: on the 45° line, a tie, front (K-8);
    # one cell further east is right
    assert model_arc(car, "n", Cell(0, 3, -1)) == "front"
    assert model_arc(car, "n", Cell(0, 3, -1), ties="sides") == "right"
    assert model_arc(car, "n", Cell(0, 4, -1)) == "right"


def test_a_tie_on_the_boundary_goes_front_or_back() -> None:
    tank = footprint(Cell(0, 0, 0), 5, 3, "e")  # x 0..4, y 0..2: centre (2, 1)
    assert model_arc(tank, "e", Cell(0, 5, 4)) == "front"  # (3, 3) from the centre: a tie
    assert model_arc(tank, "e", Cell(0, 5, 4), ties="sides") == "right"
    assert model_arc(tank, "e", Cell(0, -1, 4)) == "back"


def test_distance_to_a_model_is_its_nearest_cell() -> None:
    van = footprint(Cell(0, 0, 0), 5, 3, "n")
    cells = [(c.x, c.y) for c in van]
    assert footprint_within_sq(cells, [(5, 4)], 9)  # (2, 4) to (5, 4): 3 cells
    assert not footprint_within_sq(cells, [(6, 4)], 9)
