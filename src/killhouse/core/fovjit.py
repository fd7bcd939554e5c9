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
