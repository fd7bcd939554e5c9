"""Counted lists of actions made when read: a listing a random draw reads once need not make
the rest (the kit's ``Legal`` reads one group, and a group's sequence one index)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from killhouse.rulesets.base import Action


class MadeWhenRead(Sequence[Action]):
    """A counted list of actions, each made by ``_make_at`` when first read and kept: a
    listing that a random draw reads once need not make the rest."""

    __slots__ = ("_made",)

    def __init__(self, count: int) -> None:
        self._made: list[Action | None] = [None] * count

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._made)))]
        found = self._made[index]
        if found is None:
            found = self._made[index] = self._make_at(index)
        return found

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self._made)):
            yield self[i]

    def _make_at(self, index: int) -> Action:
        raise NotImplementedError
