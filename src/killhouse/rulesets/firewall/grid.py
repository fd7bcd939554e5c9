"""Model distances on the 2.5 cm grid (digest §1.2, ruling F-1).

Model distance is edge to edge: ``max(0, centre distance − 2.5 cm)``; "within R cm" is the
exact integer test ``dx² + dy² ≤ floor(((R + 2.5) / 2.5)²)`` from ``core.measure.radius_sq``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from killhouse.core.measure import RootSum, footprint_within_sq, polyline_length, radius_sq

#: One square is one 25 mm base (ruling F-1).
CELL_CM = Fraction(5, 2)

Cell = tuple[int, int]


@cache
def reach_sq(cm: Fraction | int | str) -> int:
    """The largest ``dx² + dy²`` whose model distance is ≤ ``cm`` (inclusive, ruling F-1)."""
    return radius_sq(Fraction(cm), CELL_CM, CELL_CM)


def within(a: Cell, b: Cell, cm: Fraction | int | str) -> bool:
    """Whether two one-square models are within ``cm`` of each other, edge to edge."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 <= reach_sq(cm)


def model_within(cells: Sequence[Cell], others: Sequence[Cell], cm: Fraction | int | str) -> bool:
    """Whether two models (any footprints) are within ``cm``: the nearest squares decide."""
    return footprint_within_sq(cells, others, reach_sq(cm))


def route_length_cm(route: Sequence[Cell]) -> RootSum:
    """The exact length of a movement route through square centres, in cm (§1.2)."""
    return polyline_length(route).scale(CELL_CM)
