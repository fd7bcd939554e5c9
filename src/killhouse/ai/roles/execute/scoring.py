"""The FBI bot's plain move scores in one compiled call (numba).

A decision lists hundreds of moves and most of them are scored the plain way (``FbiBot.
plain_scores``): how much nearer the goal the move goes, less 1 when the nearest teammate
ends far away, plus 1.5 per known gunman in sight of the square. ``plain`` scores them all in
one loop over flat arrays, with the same floating-point sums a move at a time gives (an
integer difference, ``10 / (1 + cost)``, then ``- 1.0`` and ``+ 1.5 * k``, in that order), so
the same moves tie and the generator breaks the same ties.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from killhouse.core.kernels import register

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: the most squares a move's end may be from the nearest teammate before it costs 1
STACK_RANGE = 5
#: farther than any square of a map: no teammate on the level
_FAR = 1 << 20


@njit(cache=True, nogil=True)
def plain(
    packed: IntArray,
    figures: IntArray,
    is_plain: BoolArray,
    off_map: BoolArray,
    here_at: IntArray,
    now_cost: FloatArray,
    offsets: IntArray,
    widths: IntArray,
    costs: IntArray,
    mates: IntArray,
    shots: IntArray,
) -> FloatArray:  # pragma: no cover - compiled; tests compare it with a move at a time
    """Per move (its square ``packed`` as ``common.pack`` does, -1 for none, and its figure's
    number), the plain score, NaN for a move of a figure not scored plainly (``is_plain``),
    out of reach on ``costs`` (-1) or not worth making (a score of 0 or less).

    Per figure number: ``off_map``, its square ``here_at`` (packed, -1 off the map) and its
    own cost to the goal ``now_cost`` (NaN out of reach). ``costs`` and ``shots`` (how many
    known gunmen see each square; empty with none known) are flat over the plan's levels:
    level ``l`` from ``offsets[l]``, ``widths[l]`` squares a row. ``mates``: the team's
    squares (packed), the mover's own left out by ``here_at``."""
    n = packed.shape[0]
    out = np.full(n, np.nan)
    for i in range(n):
        at = packed[i]
        k = figures[i]
        if at < 0 or not is_plain[k]:
            continue
        level = at >> 32
        y = (at >> 16) & 0xFFFF
        x = at & 0xFFFF
        flat = offsets[level] + y * widths[level] + x
        to = costs[flat]
        if to < 0:
            continue
        if off_map[k]:
            value = 10.0 / (1 + to)  # coming in off the street: the nearest entry to the goal
        else:
            now = now_cost[k]
            value = 1.0 if np.isnan(now) else now - to
        if value <= 0:
            continue
        # stack up: stay near the team
        nearest = _FAR
        here = here_at[k]
        for mate in mates:
            if mate >> 32 == level and mate != here:
                d = max(abs(x - (mate & 0xFFFF)), abs(y - ((mate >> 16) & 0xFFFF)))
                if d < nearest:
                    nearest = d
        if STACK_RANGE < nearest < _FAR:
            value -= 1.0
        # look for a shot at a known gunman
        if shots.shape[0]:
            value += 1.5 * min(2, shots[flat])
        out[i] = value
    return out


@register
def warm() -> None:
    """Run the kernel once on two moves of a 2x2 level (``core.kernels``)."""
    ints = np.zeros(2, dtype=np.int64)
    flags = np.ones(1, dtype=np.bool_)
    plain(ints, ints, flags, flags, np.full(1, -1, dtype=np.int64), np.zeros(1),
          np.zeros(1, dtype=np.int64), np.full(1, 2, dtype=np.int64),
          np.zeros(4, dtype=np.int64), ints, np.zeros(4, dtype=np.int64))
    plain(ints, ints, flags, flags, np.full(1, -1, dtype=np.int64), np.zeros(1),
          np.zeros(1, dtype=np.int64), np.full(1, 2, dtype=np.int64),
          np.zeros(4, dtype=np.int64), ints, np.zeros(0, dtype=np.int64))
