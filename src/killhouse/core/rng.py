"""The seeded random generator every game carries in its state.

SplitMix64 written out here rather than borrowed, so that no library upgrade can
ever change the numbers an old game log was played with; ``tests/test_rng.py``
pins its output. Draws below ``n`` use rejection, so every face is exactly equally likely.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


@dataclass
class Rng:
    """A SplitMix64 generator whose whole state is one integer (easy to save and copy)."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK)

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, unbiased."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = ((1 << 64) // n) * n
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def copy(self) -> Rng:
        return Rng(self.state)


def derive_seed(base: int, index: int) -> int:
    """The seed of game ``index`` of a batch started with ``base``, whatever the worker count."""
    digest = hashlib.sha256(f"killhouse:{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
