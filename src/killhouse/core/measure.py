"""Exact measures on the grid: radius masks by squared thresholds, polyline lengths, quarter arcs.

Rulesets measured in centimetres or inches (cqb, firewall) compare real lengths against
allowances. Every helper here is exact: radii compare squares of integers, and a polyline's
length is kept as a sum of square roots that compares with a rational exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

Number = int | Fraction


# -- radii -------------------------------------------------------------------------


def radius_sq(distance: Number | str, cell: Number | str = 1, offset: Number | str = 0) -> int:
    """The largest ``dx² + dy²`` within ``distance`` of a centre, in cells of size ``cell``.

    ``offset`` is added to the distance first: firewall measures edge to edge on 2.5 cm cells,
    so its radius R is ``radius_sq(R, "2.5", "2.5")`` (5 cm -> 9, 8 cm -> 17). Inclusive:
    a cell exactly at the distance is inside. Strings are read as exact decimals.
    """
    reach = (Fraction(distance) + Fraction(offset)) / Fraction(cell)
    if reach < 0:
        raise ValueError(f"a radius cannot be negative: {distance}")
    return math.floor(reach * reach)


def radius_mask(shape: tuple[int, int], origin: tuple[int, int], max_sq: int) -> BoolArray:
    """A level-sized mask (``[y, x]``) of the cells whose centre is within ``max_sq`` of ``origin``.

    ``max_sq`` is a squared threshold (``radius_sq``), so radii such as 17 that are not perfect
    squares are exact; the origin cell is inside whenever ``max_sq >= 0``.
    """
    ys, xs = np.indices(shape)
    mask: BoolArray = (xs - origin[0]) ** 2 + (ys - origin[1]) ** 2 <= max_sq
    return mask


def within_sq(
    origins: Sequence[tuple[int, int]] | IntArray,
    targets: Sequence[tuple[int, int]] | IntArray,
    max_sq: int,
) -> BoolArray:
    """For many ``(x, y)`` pairs at once, whether ``dx² + dy² <= max_sq``."""
    a = np.asarray(origins, dtype=np.int64).reshape(-1, 2)
    b = np.asarray(targets, dtype=np.int64).reshape(-1, 2)
    d = b - a
    out: BoolArray = (d * d).sum(axis=1) <= max_sq
    return out


def footprint_within_sq(
    cells: Sequence[tuple[int, int]] | IntArray,
    others: Sequence[tuple[int, int]] | IntArray,
    max_sq: int,
) -> bool:
    """Whether any cell of one model is within ``max_sq`` of any cell of another.

    A model covering several cells is as near as its nearest cell (firewall: "minimised over
    all squares of a multi-square model").
    """
    a = np.asarray(cells, dtype=np.int64).reshape(-1, 1, 2)
    b = np.asarray(others, dtype=np.int64).reshape(1, -1, 2)
    d = a - b
    return bool(((d * d).sum(axis=2) <= max_sq).any())


# -- exact lengths -----------------------------------------------------------------


def _squarefree(n: int) -> tuple[int, int]:
    """``n = k² · s`` with ``s`` squarefree; returns ``(k, s)``."""
    k, s, f = 1, n, 2
    while f * f <= s:
        while s % (f * f) == 0:
            s //= f * f
            k *= f
        f += 1
    return k, s


@dataclass(frozen=True)
class RootSum:
    """An exact length ``sum(c_s · sqrt(s))`` over squarefree ``s`` with rational ``c_s``.

    Sums of square roots of distinct squarefree numbers are independent over the rationals,
    so the length equals a rational only when no irrational term remains; otherwise its
    comparison with a rational is decided by interval arithmetic at rising precision, which
    always ends. ``float(length)`` is for display only.
    """

    terms: tuple[tuple[int, Fraction], ...] = ()

    @classmethod
    def sqrt(cls, n: int) -> RootSum:
        """The exact square root of a non-negative integer."""
        if n < 0:
            raise ValueError(f"no real square root of {n}")
        if n == 0:
            return cls()
        k, s = _squarefree(n)
        return cls(((s, Fraction(k)),))

    def __add__(self, other: RootSum | Number) -> RootSum:
        terms = dict(self.terms)
        extra = other.terms if isinstance(other, RootSum) else ((1, Fraction(other)),)
        for s, c in extra:
            terms[s] = terms.get(s, Fraction(0)) + c
        return RootSum(tuple(sorted((s, c) for s, c in terms.items() if c != 0)))

    def scale(self, factor: Number | str) -> RootSum:
        """The length times a rational (cells to centimetres: ``scale("2.5")``)."""
        f = Fraction(factor)
        return RootSum(tuple((s, c * f) for s, c in self.terms if c * f != 0))

    def __float__(self) -> float:
        return float(sum(float(c) * math.sqrt(s) for s, c in self.terms))

    def rational(self) -> Fraction | None:
        """The length as a rational when it is one (no irrational term), else ``None``."""
        if any(s != 1 for s, _ in self.terms):
            return None
        return sum((c for _, c in self.terms), Fraction(0))

    def compare(self, bound: Number | str) -> int:
        """-1, 0 or 1 as this length is below, equal to or above the rational ``bound``."""
        b = Fraction(bound)
        exact = self.rational()
        if exact is not None:
            return (exact > b) - (exact < b)
        # every Decimal operation is off by at most one unit in the last of `precision`
        # digits, relative to a magnitude below `size`
        size = sum((abs(c) * (math.isqrt(s) + 1) for s, c in self.terms), abs(b)) + 1
        steps = 4 * len(self.terms) + 2
        precision = 30
        while True:
            with localcontext() as ctx:
                ctx.prec = precision
                total = Decimal(0)
                for s, c in self.terms:
                    total += Decimal(c.numerator) / Decimal(c.denominator) * Decimal(s).sqrt()
                diff = total - Decimal(b.numerator) / Decimal(b.denominator)
                error = Decimal(steps * math.ceil(size)) * Decimal(10) ** (1 - precision)
                if abs(diff) > error:
                    return 1 if diff > 0 else -1
            precision *= 2

    def __le__(self, bound: Number | str) -> bool:
        return self.compare(bound) <= 0

    def __lt__(self, bound: Number | str) -> bool:
        return self.compare(bound) < 0

    def __ge__(self, bound: Number | str) -> bool:
        return self.compare(bound) >= 0

    def __gt__(self, bound: Number | str) -> bool:
        return self.compare(bound) > 0

    def __str__(self) -> str:
        parts = [(str(c) if s == 1 else f"{c}*sqrt({s})") for s, c in self.terms]
        return " + ".join(parts) or "0"


def polyline_length(points: Iterable[tuple[int, int]]) -> RootSum:
    """The exact length in cell units of a route through cell centres (firewall §1.2).

    Multiply by the cell size with ``RootSum.scale`` and compare with an allowance:
    ``polyline_length([(0, 0), (3, 4), (3, 6)]).scale("2.5") <= 17.5`` (5 + 2 cells = 17.5 cm).
    """
    total = RootSum()
    for (ax, ay), (bx, by) in pairwise(points):
        total = total + RootSum.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
    return total


# -- quarter arcs ------------------------------------------------------------------

#: The four 90° arcs of a facing, named clockwise from the front.
QUARTERS: tuple[str, ...] = ("front", "right", "back", "left")
#: Which arcs own a direction exactly on a 45° boundary (ruling K-8).
ARC_TIES: tuple[str, ...] = ("front-back", "sides")


def quarter_arc(
    facing: tuple[int, int],
    dx: IntArray | int,
    dy: IntArray | int,
    ties: str = "front-back",
) -> NDArray[np.str_]:
    """The 90° arc (front, right, back, left) of each map vector for a facing vector.

    Ruling K-8: a direction exactly on a 45° boundary belongs to the front or back arc with
    ``ties="front-back"`` (firewall F-49), or to the side arc with ``ties="sides"``. The zero
    vector is in front. Vectors may be in doubled units (a model's centre on a cell corner).
    """
    if ties not in ARC_TIES:
        raise ValueError(f"unknown arc tie rule {ties!r}; expected one of {', '.join(ARC_TIES)}")
    fx, fy = facing
    dxa = np.asarray(dx, dtype=np.int64)
    dya = np.asarray(dy, dtype=np.int64)
    dot = fx * dxa + fy * dya
    cross = fx * dya - fy * dxa  # > 0: to the right of the facing (y grows southwards)
    across = np.abs(cross)
    if ties == "front-back":
        front = dot >= across
        back = -dot >= across
    else:
        front = dot > across
        back = -dot > across
    back &= ~front  # only the zero vector satisfies both; it is in front
    out = np.where(front, "front", np.where(back, "back", np.where(cross > 0, "right", "left")))
    return out
