"""Geometry test vectors: range (G-TV1), arcs (G-TV2, 3), scatter (G-TV18-21), radius (G-TV22).

The digest's vectors use y north; the map's y grows south, so each is mirrored.
"""

from __future__ import annotations

import numpy as np
import pytest

from killhouse.core.areas import blast_area
from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.geometry import euclidean_sq
from killhouse.core.terrain import Terrain
from killhouse.rulesets.gogogo.geom import (
    AUTO,
    BEHIND,
    PERIPHERAL,
    arc_zone,
    round_div_sqrt,
    scatter_point,
    sector,
    throw_line,
)
from killhouse.rulesets.gogogo.grenades import landing

ORIGIN = (20, 20)


def to_map(x: int, y_north: int) -> tuple[int, int]:
    return ORIGIN[0] + x, ORIGIN[1] - y_north


def north(cell: tuple[int, int]) -> tuple[int, int]:
    return cell[0] - ORIGIN[0], ORIGIN[1] - cell[1]


@pytest.mark.parametrize(
    ("target", "d2", "short"),
    [((5, 0), 25, True), ((4, 3), 25, True), ((5, 1), 26, False), ((6, 0), 36, False)],
)
def test_g_tv1_range(target: tuple[int, int], d2: int, short: bool) -> None:
    assert euclidean_sq((0, 0), target) == d2
    assert (d2 <= 25) is short


@pytest.mark.parametrize(
    ("facing", "target", "zone"),
    [
        ("e", (5, 2), AUTO),
        ("e", (5, 3), PERIPHERAL),
        ("e", (0, 4), PERIPHERAL),
        ("e", (-1, 4), BEHIND),
        ("ne", (5, 3), AUTO),
        ("ne", (5, 0), PERIPHERAL),
        ("ne", (-3, 3), PERIPHERAL),
        ("ne", (-3, 2), BEHIND),
    ],
)
def test_g_tv2_and_3_arcs(facing: str, target: tuple[int, int], zone: str) -> None:
    x, y = target
    assert arc_zone(facing, x, -y) == zone  # map y is south


def test_arcs_are_mirror_safe_and_cover_the_circle() -> None:
    for dx in range(-6, 7):
        for dy in range(-6, 7):
            if dx == dy == 0:
                continue
            autos = [
                f
                for f in ("n", "ne", "e", "se", "s", "sw", "w", "nw")
                if arc_zone(f, dx, dy) == AUTO
            ]
            assert autos == [sector(dx, dy)]


def test_sector_directions_on_the_map() -> None:
    assert sector(0, -5) == "n"
    assert sector(3, 1) == "e"
    assert sector(2, 1) == "se"
    assert sector(-4, 4) == "sw"


@pytest.mark.parametrize(
    ("q", "d", "n"),
    [(3, 1, 3), (12, 32, 2), (-8, 32, -1), (5, 4, 3), (3, 4, 2), (-3, 4, -2), (1, 4, 1), (0, 7, 0)],
)
def test_round_div_sqrt_halves_away_from_zero(q: int, d: int, n: int) -> None:
    # 5/2 = 2.5 -> 3, 3/2 = 1.5 -> 2, -3/2 -> -2, 1/2 -> 1
    assert round_div_sqrt(q, d) == n


def open_terrain(size: int = 41) -> np.ndarray:
    terrain = np.full((size, size), Terrain.FLOOR, dtype=np.uint8)
    terrain[0, :] = terrain[-1, :] = terrain[:, 0] = terrain[:, -1] = Terrain.WALL
    return terrain


@pytest.mark.parametrize(
    ("vector", "target", "direction", "k", "lands"),
    [
        ("G-TV18", (6, 0), "left", 3, (6, 3)),
        ("G-TV19a", (6, 0), "short", 4, (2, 0)),
        ("G-TV19b", (6, 0), "over", 2, (8, 0)),
        ("G-TV19c", (6, 0), "right", 1, (6, -1)),
        ("G-TV20", (3, 0), "short", 5, (0, 0)),
        ("G-TV21a", (4, 4), "over", 3, (6, 6)),
        ("G-TV21b", (4, 4), "left", 2, (3, 5)),
        ("G-TV21c", (4, 4), "right", 2, (5, 3)),
    ],
)
def test_scatter_vectors(
    vector: str, target: tuple[int, int], direction: str, k: int, lands: tuple[int, int]
) -> None:
    s, t = to_map(0, 0), to_map(*target)
    assert north(scatter_point(s, t, direction, k)) == lands, vector
    assert north(landing(open_terrain(), s, t, direction, k)) == lands, vector


def test_scatter_for_a_throw_due_north_goes_left_to_the_west() -> None:
    s, t = to_map(0, 0), to_map(0, 5)
    assert north(scatter_point(s, t, "left", 2)) == (-2, 5)
    assert north(scatter_point(s, t, "right", 2)) == (2, 5)


def test_scatter_stops_at_walls_and_the_map_edge() -> None:
    terrain = open_terrain()
    terrain[10, 25] = Terrain.WALL  # map (25, 10) is north (5, 10)
    # thrown north to (5, 6); over 6 would land at (5, 12) but the wall at north (5, 10) stops it
    s, t = to_map(5, 0), to_map(5, 6)
    assert north(landing(terrain, s, t, "over", 6)) == (5, 9)
    # a window stops it too
    terrain[10, 25] = Terrain.WINDOW
    assert north(landing(terrain, s, t, "over", 6)) == (5, 9)
    # the map edge: thrown west to the border
    s2, t2 = (3, 20), (1, 20)
    assert landing(terrain, s2, t2, "over", 5) == (1, 20)


def test_a_short_scatter_past_the_thrower_is_clamped() -> None:
    s, t = to_map(0, 0), to_map(6, 0)
    assert north(scatter_point(s, t, "short", 6)) == (0, 0)
    assert north(scatter_point(s, t, "short", 5)) == (1, 0)


def test_g_tv22_radius() -> None:
    level = Level.blank("ground", 21, 21)
    board = Board([level])
    area = blast_area(board, Cell(0, 10, 10), 4, "euclidean", board.opaque(0))
    for (x, y), inside in (((4, 0), True), ((2, 3), True), ((3, 3), False)):
        assert bool(area[10 - y, 10 + x]) is inside
    # walls and closed doors block the blast; windows do not
    level.terrain[10, 12] = Terrain.WALL
    level.terrain[12, 10] = Terrain.WINDOW
    area = blast_area(board, Cell(0, 10, 10), 4, "euclidean", board.opaque(0))
    assert not area[10, 13] and area[13, 10]


def test_throw_line_counts_doorways_and_windows_between() -> None:
    terrain = open_terrain(15)
    terrain[5, 7] = Terrain.DOOR_OPEN
    opaque = terrain == Terrain.WALL
    opening = (terrain == Terrain.DOOR_OPEN) | (terrain == Terrain.WINDOW)
    assert throw_line(opaque, opening, (3, 5), (10, 5)) == (True, True)
    assert throw_line(opaque, opening, (3, 5), (7, 5)) == (True, False)  # into the doorway
    terrain[5, 7] = Terrain.DOOR_CLOSED
    opaque = (terrain == Terrain.WALL) | (terrain == Terrain.DOOR_CLOSED)
    assert throw_line(opaque, opening, (3, 5), (10, 5))[0] is False


def test_the_integer_arc_test_is_core_arc_test_for_every_facing_and_vector() -> None:
    """``geom.in_arc`` answers as ``core.geometry.arc_test`` for every 8-way facing and every
    vector within 12 squares, at ±22.5° and ±90° (the integer rule, the edges at exactly
    22.5° never met and 90° included) and at the arcs it hands over (45°, all round)."""
    from killhouse.core.cells import COMPASS
    from killhouse.core.geometry import arc_test
    from killhouse.rulesets.gogogo.geom import in_arc

    for facing in COMPASS.values():
        for half in (22.5, 90.0, 45.0, 180.0):
            for dx in range(-12, 13):
                for dy in range(-12, 13):
                    assert in_arc(facing, dx, dy, half) == bool(arc_test(facing, dx, dy, half))
