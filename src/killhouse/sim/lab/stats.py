"""Binomial proportions with 95% Wilson score intervals, and how many games narrow them."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: the two-sided 95% normal quantile
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    """``k`` successes in ``n`` trials, with the Wilson interval ``low``–``high``."""

    k: int
    n: int
    rate: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low

    def to_json(self) -> dict[str, float | int]:
        return {
            "count": self.k,
            "games": self.n,
            "rate": round(self.rate, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
        }


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` in ``n`` (Wilson 1927); ``(0, 1)`` when ``n`` is 0.

    Unlike the normal (Wald) interval it stays inside [0, 1] and is not empty at 0 or ``n``.
    """
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, found k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def rate(k: int, n: int) -> Rate:
    low, high = wilson(k, n)
    return Rate(k, n, k / n if n else 0.0, low, high)


def games_for_width(p: float, width: float, z: float = Z95) -> int:
    """About how many games make the interval of a rate near ``p`` ``width`` wide.

    The normal approximation; ``p`` is kept away from 0 and 1 so a first batch with no wins
    does not promise an interval it cannot yet know.
    """
    q = min(max(p, 0.05), 0.95)
    return math.ceil((2 * z) ** 2 * q * (1 - q) / (width * width))
