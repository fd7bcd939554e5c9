"""Squares in narration: one context for the level names of the game being narrated.

Events carry a square as ``[level, x, y]``; a transcript writes it for people. The protocol's
``narrate(event)`` sees one event at a time, so the level names of the game being narrated
live in a context variable: a ruleset sets them from the opening event that lists them
(``note_levels``), or a driver wraps a transcript in ``level_names(...)``. Each ruleset keeps
its own way of writing a square, through the helpers here:

* ``square([1, 4, 2])`` → ``upper:4,2``, as scenario files write cells (``L1:4,2`` when the
  names are not known);
* ``coordinates([1, 4, 2])`` → ``(4,2 level 1)``, and ``(4,2)`` on the ground level;
* ``as_carried([1, 4, 2])`` → ``[1, 4, 2]``, the square as the event carries it.

New narration should write ``square``: it is what a player reads in the scenario file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

#: the level names of the game being narrated (index = level number)
LEVEL_NAMES: ContextVar[tuple[str, ...]] = ContextVar("killhouse_level_names", default=())


def note_levels(names: Iterable[Any]) -> None:
    """Remember the level names of the game now being narrated (from its opening event)."""
    LEVEL_NAMES.set(tuple(str(n) for n in names))


@contextmanager
def level_names(names: Iterable[Any]) -> Iterator[None]:
    """Narrate with these level names inside the block; the previous names come back after."""
    token = LEVEL_NAMES.set(tuple(str(n) for n in names))
    try:
        yield
    finally:
        LEVEL_NAMES.reset(token)


def level_name(level: int) -> str:
    """The name of a level in the game being narrated, ``L<n>`` when it is not known."""
    names = LEVEL_NAMES.get()
    return names[level] if 0 <= level < len(names) else f"L{level}"


def square(value: Any, off_map: str = "off-map") -> str:
    """A square as scenario files write it, ``name:x,y``; ``off_map`` for no square."""
    if value is None:
        return off_map
    level, x, y = value
    return f"{level_name(level)}:{x},{y}"


def coordinates(value: Any, missing: str = "?") -> str:
    """A square as ``(x,y)`` on the ground level and ``(x,y level n)`` above it."""
    if not value:
        return missing
    level, x, y = value
    return f"({x},{y})" if level == 0 else f"({x},{y} level {level})"


def as_carried(value: Any) -> str:
    """A square as the event carries it, ``[level, x, y]`` (commando's transcripts)."""
    return str(value)
