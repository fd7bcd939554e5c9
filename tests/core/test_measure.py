"""Exact radii by squared thresholds, polyline lengths and the 45° tie rule of arcs (K-8)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from killhouse.core.measure import (
    RootSum,
    footprint_within_sq,
    polyline_length,
    quarter_arc,
    radius_mask,
    radius_sq,
    within_sq,
)


@pytest.mark.parametrize(
    ("radius", "max_sq", "inside"),
    # firewall F-1's table: R cm edge to edge on 2.5 cm cells, squares inside without the centre
    [
        ("2", 3, 8),
        ("2.5", 4, 12),
        ("5", 9, 28),
        ("7.5", 16, 48),
        ("8", 17, 56),
        ("10", 25, 80),
        ("15", 49, 148),
    ],
)
def test_radius_sq_reproduces_firewall_table(radius: str, max_sq: int, inside: int) -> None:
    assert radius_sq(radius, "2.5", "2.5") == max_sq
    mask = radius_mask((41, 41), (20, 20), max_sq)
    assert int(mask.sum()) - 1 == inside


def test_radius_seventeen_edge_and_one_past() -> None:
    # 17 = 4² + 1²: (4, 1) is inside, (4, 2) (20) and (3, 3) (18) are not
    mask = radius_mask((11, 11), (5, 5), 17)
    assert mask[5 + 1, 5 + 4] and mask[5 - 4, 5 - 1]
    assert not mask[5 + 2, 5 + 4] and not mask[5 + 3, 5 + 3]
    assert within_sq([(0, 0), (0, 0), (0, 0)], [(4, 1), (4, 2), (3, 3)], 17).tolist() == [
        True,
        False,
        False,
    ]


def test_radius_sq_plain_cells_and_bad_input() -> None:
    assert radius_sq(6) == 36  # cqb: 6" on 1" cells
    assert radius_sq(Fraction(13, 2)) == 42
    with pytest.raises(ValueError):
        radius_sq(-3)


def test_footprint_distance_is_its_nearest_cell() -> None:
    car = [(0, 0), (1, 0), (0, 1), (1, 1)]
    assert footprint_within_sq(car, [(4, 1)], 9)  # (1,1) to (4,1): 9, inside
    assert not footprint_within_sq(car, [(5, 1)], 9)  # 16: one step past


def test_polyline_length_is_exact() -> None:
    route = [(0, 0), (3, 4), (3, 6)]
    length = polyline_length(route)
    assert length.rational() == 7
    cm = length.scale("2.5")
    assert cm <= Fraction(35, 2) and not cm < Fraction(35, 2)
    assert cm.compare("17.5") == 0


def test_polyline_length_with_roots_decides_edges_exactly() -> None:
    diag = polyline_length([(0, 0), (1, 1), (2, 2)])  # 2*sqrt(2) = sqrt(8)
    assert diag == RootSum.sqrt(8)
    assert str(diag) == "2*sqrt(2)"
    assert diag.rational() is None
    # sqrt(8) = 2.8284271247461900976...: bounds a hair either side
    assert diag <= Fraction("2.82842712474619009761")
    assert diag > Fraction("2.82842712474619009760")
    assert diag.compare(Fraction(2828427, 1000000)) == 1
    mixed = polyline_length([(0, 0), (1, 1), (3, 2), (3, 5)])  # sqrt2 + sqrt5 + 3
    assert abs(float(mixed) - (2**0.5 + 5**0.5 + 3)) < 1e-12
    assert mixed.compare(Fraction(665028, 100000)) == 1
    assert mixed.compare(Fraction(665029, 100000)) == -1
    # a route of a single cell has no length
    assert polyline_length([(2, 2)]).rational() == 0


def test_root_sum_refuses_negative_roots() -> None:
    with pytest.raises(ValueError):
        RootSum.sqrt(-1)


def test_quarter_arcs_and_the_45_degree_tie_rule() -> None:
    # ruling K-8 / F-49: a direction exactly on a 45° boundary is front or back by default
    north = (0, -1)
    dx = np.array([0, 1, 1, 1, 0, -1, -1, -1, 2, 1, 0])
    dy = np.array([-1, -1, 0, 1, 1, 1, 0, -1, -1, -2, 0])
    got = quarter_arc(north, dx, dy).tolist()
    assert got == [
        "front",
        "front",
        "right",
        "back",
        "back",
        "back",
        "left",
        "front",
        "right",
        "front",
        "front",
    ]
    sides = quarter_arc(north, dx, dy, ties="sides").tolist()
    assert sides[:8] == ["front", "right", "right", "right", "back", "left", "left", "left"]
    # a diagonal facing: its boundaries are the cardinal directions
    ne = quarter_arc((1, -1), np.array([1, 0, 1, -1, 0]), np.array([0, -1, 1, 0, 1])).tolist()
    assert ne == ["front", "front", "right", "back", "back"]
    with pytest.raises(ValueError):
        quarter_arc(north, 1, 1, ties="nearest")
