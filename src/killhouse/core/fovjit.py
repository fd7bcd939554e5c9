"""Compiled helper of ``core.fov``: cut a shadowcast to a facing arc and smoke in one pass.

Writing only the seen cells into a zeroed block (whose untouched pages cost nothing) and
reading the shadowcast where libtcod left it (a strided view of its map buffer) keeps a
batch of fields of view within the cost of the bare shadowcasts.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

BoolArray = NDArray[np.bool_]


@njit(cache=True, nogil=True)
def cut_field(
    cells: BoolArray,
    channel: int,
    arc: BoolArray,
    has_arc: bool,
    ox: int,
    oy: int,
    smoke: BoolArray,
    has_smoke: bool,
    out: BoolArray,
) -> None:
    """``out |= seen & arc(shifted to the origin) & ~smoke``, cell by cell; ``out`` comes in
    all False and only the cells seen are written (a fresh zeroed block is not even touched
    where nothing is seen).

    ``seen`` is ``cells[:, :, channel]``: libtcod keeps its map as interleaved bytes
    (transparent, walkable, fov), and reading that buffer directly is several times faster
    than a strided view of one channel. ``arc`` is an origin-centred mask of shape
    ``(2h - 1, 2w - 1)`` for a level of ``(h, w)``: cell ``(x, y)`` reads
    ``arc[y - oy + h - 1, x - ox + w - 1]``.
    """
    height, width = out.shape
    for y in range(height):
        ay = y - oy + height - 1
        for x in range(width):
            ok = cells[y, x, channel]
            if ok and has_arc:
                ok = arc[ay, x - ox + width - 1]
            if ok and has_smoke:
                ok = not smoke[y, x]
            if ok:
                out[y, x] = True


def _fov_masks() -> NDArray[np.uint64]:
    """Three words that pick the fov byte of every cell from 24 bytes (8 cells) of libtcod's
    interleaved buffer (transparent, walkable, fov per cell), whatever the byte order."""
    pattern = np.zeros(24, dtype=np.uint8)
    pattern[2::3] = 0xFF
    return pattern.view(np.uint64).copy()


FOV_MASKS = _fov_masks()


@njit(cache=True, nogil=True)
def _cut_cells(
    cells: BoolArray,
    first: int,
    last: int,
    arc: BoolArray,
    has_arc: bool,
    ox: int,
    oy: int,
    smoke: BoolArray,
    has_smoke: bool,
    out: BoolArray,
) -> None:
    """``cut_field``'s test for the cells ``first`` … ``last - 1`` in row-major order."""
    height, width = out.shape
    for i in range(first, last):
        y = i // width
        x = i - y * width
        ok = cells[y, x, 2]
        if ok and has_arc:
            ok = arc[y - oy + height - 1, x - ox + width - 1]
        if ok and has_smoke:
            ok = not smoke[y, x]
        if ok:
            out[y, x] = True


@njit(cache=True, nogil=True)
def cut_field_words(
    cells: BoolArray,
    words: NDArray[np.uint64],
    masks: NDArray[np.uint64],
    arc: BoolArray,
    has_arc: bool,
    ox: int,
    oy: int,
    smoke: BoolArray,
    has_smoke: bool,
    out: BoolArray,
) -> None:
    """``cut_field`` on libtcod's interleaved buffer (``cells``, fov in channel 2), skipping
    eight unseen cells at a time: ``words`` views the buffer's first whole groups of 24
    bytes as three 64-bit words each, and a group whose fov bytes are all zero is passed
    over (a field of view is mostly small next to its level)."""
    height, width = out.shape
    groups = words.shape[0] // 3
    m0, m1, m2 = masks[0], masks[1], masks[2]
    for g in range(groups):
        if (words[3 * g] & m0) | (words[3 * g + 1] & m1) | (words[3 * g + 2] & m2):
            _cut_cells(cells, 8 * g, 8 * g + 8, arc, has_arc, ox, oy, smoke, has_smoke, out)
    # the tail past the last whole group of eight
    _cut_cells(cells, 8 * groups, height * width, arc, has_arc, ox, oy, smoke, has_smoke, out)
