"""The role bots' move scores in one compiled call each (numba).

A decision lists hundreds of moves and most of them are scored the plain way (``FbiBot.
plain_scores``): how much nearer the goal the move goes, less 1 when the nearest teammate
ends far away, plus 1.5 per known gunman in sight of the square. ``plain`` scores them all in
one loop over flat arrays, with the same floating-point sums a move at a time gives (an
integer difference, ``10 / (1 + cost)``, then ``- 1.0`` and ``+ 1.5 * k``, in that order), so
the same moves tie and the generator breaks the same ties. ``lead`` scores the moves of
agents leading hostages out, and ``close_in`` the terrorists' moves, the same way.
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


@njit(cache=True, nogil=True, inline="always")
def _square(
    at: int, offsets: IntArray, widths: IntArray
) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
    """A packed square's level, row and column, and its index in the flat per-level arrays
    (level ``l`` from ``offsets[l]``, ``widths[l]`` squares a row)."""
    level = at >> 32
    y = (at >> 16) & 0xFFFF
    x = at & 0xFFFF
    return level, y, x, offsets[level] + y * widths[level] + x


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
        level, y, x, flat = _square(at, offsets, widths)
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


@njit(cache=True, nogil=True)
def lead(
    packed: IntArray,
    figures: IntArray,
    is_led: BoolArray,
    at_exit: BoolArray,
    now_cost: FloatArray,
    offsets: IntArray,
    widths: IntArray,
    costs: IntArray,
    hostages: IntArray,
    starts: IntArray,
    ends: IntArray,
) -> FloatArray:  # pragma: no cover - compiled; tests compare it with FbiBot.lead_score
    """Per move of a leader (``is_led``), ``FbiBot.lead_score`` on the way-out field
    ``costs`` (flat as in ``plain``); NaN for any other move. Per figure number: whether it
    stands on an extraction square (``at_exit``), its own cost (NaN off the map or out of
    reach), and its hostages' squares ``hostages[starts[k]:ends[k]]`` (packed)."""
    n = packed.shape[0]
    out = np.full(n, np.nan)
    for i in range(n):
        at = packed[i]
        k = figures[i]
        if at < 0 or not is_led[k]:
            continue
        level, y, x, flat = _square(at, offsets, widths)
        to = costs[flat]
        if to < 0:
            out[i] = -1.0
            continue
        now = now_cost[k]
        gain = 1.0 if np.isnan(now) else now - to
        # how far the farthest hostage on the level trails the square
        lag = 0
        for j in range(starts[k], ends[k]):
            h = hostages[j]
            if h >> 32 == level:
                d = max(abs(x - (h & 0xFFFF)), abs(y - ((h >> 16) & 0xFFFF)))
                if d > lag:
                    lag = d
        if at_exit[k]:
            out[i] = 5.0 - lag  # at the way out: shuffle closer so the hostages step out
        else:
            out[i] = gain - 0.3 * max(0, lag - 6) + 0.1
    return out


@njit(cache=True, nogil=True)
def close_in(
    packed: IntArray,
    figures: IntArray,
    movable: BoolArray,
    here_cost: IntArray,
    offsets: IntArray,
    widths: IntArray,
    costs: IntArray,
    shots: IntArray,
) -> FloatArray:  # pragma: no cover - compiled; tests compare it with a move at a time
    """The terrorists' move scores (``TerroristBot.movement``): per move of a figure that may
    move (``movable``: on the map, no guard, no shot at an agent where it stands), the cost
    it closes on the agents' field ``costs`` (from ``here_cost``, its own, -1 out of reach),
    +2 with a shot at exactly one agent from the square or -1 per agent with a shot, -3 on
    the agents' doorstep (a cost of 1 or less); NaN for a move gaining nothing or scoring 0
    or less. ``shots`` as in ``plain``."""
    n = packed.shape[0]
    out = np.full(n, np.nan)
    for i in range(n):
        at = packed[i]
        k = figures[i]
        if at < 0 or not movable[k]:
            continue
        flat = _square(at, offsets, widths)[3]
        to = costs[flat]
        now = here_cost[k]
        if to < 0 or now < 0 or now - to <= 0:
            continue
        exposure = shots[flat] if shots.shape[0] else 0
        score = float(now - to) + (2.0 if exposure == 1 else -1.0 * exposure)
        if to <= 1:
            score -= 3.0
        if score > 0:
            out[i] = score
    return out


@register
def warm() -> None:
    """Run the kernels once on two moves of a 2x2 level (``core.kernels``)."""
    ints = np.zeros(2, dtype=np.int64)
    flags = np.ones(1, dtype=np.bool_)
    lead(ints, ints, flags, flags, np.zeros(1), np.zeros(1, dtype=np.int64),
         np.full(1, 2, dtype=np.int64), np.zeros(4, dtype=np.int64), ints,
         np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64))
    for shots in (np.zeros(4, dtype=np.int64), np.zeros(0, dtype=np.int64)):
        close_in(ints, ints, flags, np.ones(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                 np.full(1, 2, dtype=np.int64), np.zeros(4, dtype=np.int64), shots)
    plain(ints, ints, flags, flags, np.full(1, -1, dtype=np.int64), np.zeros(1),
          np.zeros(1, dtype=np.int64), np.full(1, 2, dtype=np.int64),
          np.zeros(4, dtype=np.int64), ints, np.zeros(4, dtype=np.int64))
    plain(ints, ints, flags, flags, np.full(1, -1, dtype=np.int64), np.zeros(1),
          np.zeros(1, dtype=np.int64), np.full(1, 2, dtype=np.int64),
          np.zeros(4, dtype=np.int64), ints, np.zeros(0, dtype=np.int64))
