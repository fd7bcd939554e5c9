"""Grid geometry of "Go! Go! Go!": vision arcs, sound sectors, throw lines, scatter and bursts.

Map coordinates have y growing south (``core.cells``); the digest's vectors use y
north. The arc tests of ruling G-7 are invariant under that reflection as long as the
facing and the vector use the same frame, so they run on map vectors directly. Scatter
(ruling G-19) names "left" and "right", which a reflection swaps, so it converts.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from killhouse.core.cells import COMPASS, COMPASS_ORDER
from killhouse.core.geometry import arc_test, cells_on_segment, line_of_sight

BoolArray = NDArray[np.bool_]

#: the sight rule that decides play (ruling G-8: the exact segment test, K-1); the ruleset's
#: ``GameInfo.sight`` is this value and every sight test of gogogo passes it
SIGHT: Literal["exact", "supercover"] = "exact"

AUTO = "auto"
PERIPHERAL = "peripheral"
BEHIND = "behind"


def arc_zone(facing: str, dx: int, dy: int) -> str:
    """Where map vector ``(dx, dy)`` falls for a figure facing ``facing`` (ruling G-7).

    ``auto`` within ±22.5°, ``peripheral`` up to ±90° (exactly 90° included), else ``behind``.
    """
    f = COMPASS[facing]
    if in_arc(f, dx, dy, 22.5):
        return AUTO
    if in_arc(f, dx, dy, 90.0):
        return PERIPHERAL
    return BEHIND


def in_arc(facing: tuple[int, int], dx: int, dy: int, half_angle: float) -> bool:
    """``core.geometry.arc_test`` of one integer vector, in plain integers where the test is
    exact (an 8-way facing at ±22.5° or ±90°, ruling G-7; the zero vector always inside):
    the same answer without numpy's arrays for a single pair. Other arcs ask ``arc_test``."""
    fx, fy = facing
    if fx in (-1, 0, 1) and fy in (-1, 0, 1):
        if dx == 0 and dy == 0:
            return True
        dot = fx * dx + fy * dy
        if half_angle == 90.0:
            return dot >= 0
        if half_angle == 22.5:
            cross = fx * dy - fy * dx
            return dot > 0 and (abs(cross) + dot) ** 2 <= 2 * dot * dot
    return bool(arc_test(facing, dx, dy, half_angle))


def sector(dx: int, dy: int) -> str:
    """The compass sector whose auto-cone test passes for map vector ``(dx, dy)`` (ruling G-33).

    An integer vector never lies on a 22.5° edge, so exactly one sector passes.
    """
    if dx == 0 and dy == 0:
        raise ValueError("a zero vector has no direction")
    for name in COMPASS_ORDER:
        fx, fy = COMPASS[name]
        dot = fx * dx + fy * dy
        cross = fx * dy - fy * dx
        if dot > 0 and (abs(cross) + dot) ** 2 <= 2 * dot * dot:
            return name
    raise AssertionError(f"no sector for ({dx}, {dy})")  # pragma: no cover


def round_div_sqrt(q: int, d: int) -> int:
    """The integer nearest ``q / sqrt(d)``, halves away from zero, in exact integer arithmetic."""
    if d <= 0:
        raise ValueError("d must be positive")
    sign = -1 if q < 0 else 1
    a = abs(q)
    # n = floor(a/√d + 1/2): the largest n with (2n - 1)·√d <= 2a
    n = math.floor(a / math.sqrt(d) + 0.5)
    while n > 0 and (2 * n - 1) ** 2 * d > 4 * a * a:
        n -= 1
    while (2 * n + 1) ** 2 * d <= 4 * a * a:
        n += 1
    return sign * n


def scatter_point(
    thrower: tuple[int, int], target: tuple[int, int], direction: str, k: int
) -> tuple[int, int]:
    """Where a scattered grenade would come down before walls stop it (ruling G-19).

    ``u`` is the unit vector from thrower to target; short is ``T - k·u``, over ``T + k·u``,
    left and right are ``T ± k·u`` turned 90° (left of the throw's direction as seen on the
    map with north up). Each component is rounded to the nearest integer, halves away from
    zero. A short scatter with ``k ≥ |T - S|`` lands on the thrower's square.
    """
    sx, sy = thrower
    tx, ty = target
    dx, dy = tx - sx, ty - sy
    d = dx * dx + dy * dy
    if d == 0:
        raise ValueError("a grenade is never thrown at the thrower's own square")
    if direction == "short":
        if k * k >= d:
            return thrower
        ox, oy = -k * dx, -k * dy
    elif direction == "over":
        ox, oy = k * dx, k * dy
    elif direction == "left":
        # y north: left = (-u_y, u_x); with map y = -north y this is (dy, -dx) on the map
        ox, oy = k * dy, -k * dx
    elif direction == "right":
        ox, oy = -k * dy, k * dx
    else:
        raise ValueError(f"unknown scatter direction {direction!r}")
    return tx + round_div_sqrt(ox, d), ty + round_div_sqrt(oy, d)


def trace_stop(blocked: BoolArray, start: tuple[int, int], end: tuple[int, int]) -> tuple[int, int]:
    """The last clear cell on the segment from ``start`` towards ``end`` (ruling G-19).

    ``blocked`` (indexed ``[y, x]``) marks walls, closed doors, windows and outside; leaving
    the array counts as blocked. Where the segment passes exactly through a grid corner it
    is stopped only if both cells touching that corner are blocked (as for sight, G-8).
    """
    height, width = blocked.shape

    def stops(x: int, y: int) -> bool:
        return not (0 <= x < width and 0 <= y < height) or bool(blocked[y, x])

    last = start
    for x, y in cells_on_segment(start, end)[1:]:
        lx, ly = last
        if abs(x - lx) == 1 and abs(y - ly) == 1 and stops(x, ly) and stops(lx, y):
            break
        if stops(x, y):
            break
        last = (x, y)
    return last


def throw_line(
    opaque: BoolArray, opening: BoolArray, thrower: tuple[int, int], target: tuple[int, int]
) -> tuple[bool, bool]:
    """Whether a throw line is clear, and whether it passes through a doorway or window.

    ``opaque`` marks walls and closed doors (smoke and windows do not block, G-3 table);
    ``opening`` marks open doors and windows. Only cells strictly between the ends count
    as "through" (ruling G-18).
    """
    clear = line_of_sight(opaque, thrower, target)
    between = cells_on_segment(thrower, target)[1:-1]
    through = any(bool(opening[y, x]) for x, y in between)
    return clear, through
