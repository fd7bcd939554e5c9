"""Dice given face by face, for the campaign's test vectors (digest 17)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from killhouse.core.chance import Chance
from killhouse.core.events import Audience


class Faces(Chance):
    """Every die (and pick) takes the next face given; running out is a test failure."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.rolled: list[tuple[str, int]] = []

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        if not self.faces:
            raise AssertionError(f"no face left for {purpose!r} (rolled: {self.rolled})")
        face = self.faces.pop(0)
        assert 1 <= face <= len(weights), f"face {face} for {what} ({purpose})"
        self.rolled.append((purpose, face))
        return face - 1
