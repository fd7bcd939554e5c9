"""Supercover sight (F-24) beside the exact corner rule (K-1), and extended sight segments."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from killhouse.core.geometry import (
    SIGHT_MODES,
    cells_on_extended_segment,
    cells_on_segment,
    line_of_sight,
    los_from,
    los_pairs,
)

from .maps import draw
from .test_geometry import XY, grids_and_pairs, reference_trace


def reference_supercover(opaque: np.ndarray, a: XY, b: XY, veil: np.ndarray | None) -> bool:
    """Blocked by any opaque cell the closed segment touches, ends excepted."""
    cells, corners = reference_trace(a, b)
    touched = set(cells) | {c for pair in corners for c in pair}
    for x, y in touched:
        if (x, y) not in (a, b) and opaque[y, x]:
            return False
        if veil is not None and veil[y, x]:
            return False
    return True


def test_a_single_corner_blocks_supercover_but_not_exact() -> None:
    # one wall cell touched at its corner by the diagonal: K-1 sees past, F-24 does not
    m = draw(
        """
        a#.
        ...
        ..b
        """
    )
    opaque = m.board.opaque(0)
    a, b = (m["a"].x, m["a"].y), (m["b"].x, m["b"].y)
    assert line_of_sight(opaque, a, b)
    assert line_of_sight(opaque, a, b, mode="exact")
    assert not line_of_sight(opaque, a, b, mode="supercover")
    assert not line_of_sight(opaque, b, a, mode="supercover")


def test_supercover_ends_never_block_and_open_ground_is_clear() -> None:
    m = draw("a.+.b\n.....")
    opaque = m.board.opaque(0)
    assert line_of_sight(opaque, (0, 0), (2, 0), mode="supercover")
    assert not line_of_sight(opaque, (0, 0), (4, 0), mode="supercover")
    assert line_of_sight(opaque, (0, 1), (4, 1), mode="supercover")


def test_unknown_sight_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="supercover"):
        line_of_sight(np.zeros((2, 2), dtype=bool), (0, 0), (1, 1), mode="shadowcast")
    assert SIGHT_MODES == ("exact", "supercover")


def test_los_from_passes_the_mode() -> None:
    m = draw(
        """
        a#.
        ...
        ...
        """
    )
    opaque = m.board.opaque(0)
    everywhere = np.ones(opaque.shape, dtype=bool)
    exact = los_from(opaque, (0, 0), everywhere)
    cover = los_from(opaque, (0, 0), everywhere, mode="supercover")
    assert exact[2, 2] and not cover[2, 2]
    # only the diagonal (1,1), (2,2) grazes the wall's corner: every other cell is seen alike
    differ = np.argwhere(exact != cover).tolist()
    assert differ == [[1, 1], [2, 2]]


@settings(max_examples=150, deadline=None)
@given(grids_and_pairs())
def test_supercover_matches_reference(
    case: tuple[np.ndarray, np.ndarray, list[XY], list[XY]],
) -> None:
    opaque, veil, origins, targets = case
    got = los_pairs(opaque, origins, targets, veil, mode="supercover")
    want = [reference_supercover(opaque, a, b, veil) for a, b in zip(origins, targets, strict=True)]
    assert got.tolist() == want
    back = los_pairs(opaque, targets, origins, veil, mode="supercover")
    assert back.tolist() == got.tolist()


def test_supercover_batches_agree_with_single_pairs() -> None:
    rng = np.random.default_rng(5)
    opaque = rng.random((40, 40)) < 0.15
    pts = rng.integers(0, 40, size=(3000, 2))
    qts = rng.integers(0, 40, size=(3000, 2))
    batch = los_pairs(opaque, pts, qts, mode="supercover")
    for i in range(0, 3000, 97):
        a, b = tuple(pts[i].tolist()), tuple(qts[i].tolist())
        assert batch[i] == reference_supercover(opaque, a, b, None)


# -- extended segments (cqb's line of fire 6" past the target) ------------------------------


def test_extension_along_a_row_edge_and_one_step_past() -> None:
    # target 3 cells east, extended 6: the far end is the centre of cell 9
    assert cells_on_extended_segment((0, 0), (3, 0), 6) == [(x, 0) for x in range(10)]
    # extended 5.5 the end lies on the edge between cells 8 and 9: cell 9 is not entered
    assert cells_on_extended_segment((0, 0), (3, 0), Fraction(11, 2)) == [(x, 0) for x in range(9)]
    # one step past the edge enters it
    assert cells_on_extended_segment((0, 0), (3, 0), Fraction(56, 10))[-1] == (9, 0)


def test_extension_zero_is_the_plain_segment() -> None:
    for b in [(2, 1), (5, 3), (-4, 2), (0, -3), (3, 3)]:
        assert cells_on_extended_segment((0, 0), b, 0) == cells_on_segment((0, 0), b)


def test_extension_on_a_diagonal_uses_true_length() -> None:
    # (0,0)->(2,2) has length 2*sqrt2; 6 more reaches t = 1 + 6/(2 sqrt 2) = 3.12..: x = 6.24
    got = cells_on_extended_segment((0, 0), (2, 2), 6)
    assert got == [(k, k) for k in range(7)]
    # an extension of sqrt(2)/2 would end on the corner (2.5, 2.5) and not enter (3, 3);
    # (a rational cannot equal sqrt(2)/2, so step just either side of it)
    assert cells_on_extended_segment((0, 0), (2, 2), Fraction(7071, 10000))[-1] == (2, 2)
    assert cells_on_extended_segment((0, 0), (2, 2), Fraction(7072, 10000))[-1] == (3, 3)


@settings(max_examples=200, deadline=None)
@given(
    st.tuples(st.integers(-6, 6), st.integers(-6, 6)).filter(lambda p: p != (0, 0)),
    st.fractions(min_value=0, max_value=8, max_denominator=4),
)
def test_extension_matches_the_plain_segment_to_a_far_cell(b: XY, beyond: Fraction) -> None:
    # extending by a whole multiple of the segment reaches a cell centre: compare with the
    # plain segment there; otherwise the extension is a prefix of a longer plain segment
    got = cells_on_extended_segment((0, 0), b, beyond)
    longer = cells_on_segment((0, 0), (b[0] * 10, b[1] * 10))
    assert got == longer[: len(got)]
    length = math.hypot(*b)
    reach = 1 + float(beyond) / length
    # every returned cell's centre is within half a cell of the covered stretch
    for x, y in got:
        t = (x * b[0] + y * b[1]) / (length * length)
        assert -0.75 < t < reach + 0.75


def test_extension_refuses_a_point_segment_and_negative_lengths() -> None:
    with pytest.raises(ValueError):
        cells_on_extended_segment((1, 1), (1, 1), 6)
    with pytest.raises(ValueError):
        cells_on_extended_segment((0, 0), (1, 0), -1)
