"""Small values and helpers the gogogo role bot's modules share."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from killhouse.core.cells import Cell
from killhouse.core.geometry import chebyshev, euclidean_sq
from killhouse.rulesets.gogogo.facts import HOLD, id_key


@dataclass
class FigurePlan:
    """One figure's intended order for the turn."""

    posture: str = HOLD
    to: Cell | None = None
    task: str | None = None
    grenade: str | None = None
    target: Cell | None = None
    facing: str | None = None
    follows: list[str] = field(default_factory=list)


@dataclass
class Seen:
    """A figure the side sees (or a hostage it remembers), as the view gives it."""

    id: str
    kind: str
    at: Cell
    led_by: str | None = None


#: a figure's goal cells, its posture, and whether it must keep out of sight
Goal = tuple[frozenset[Cell], str, bool]


def id_order(ident: str) -> tuple[tuple[int, int | str], ...]:
    """Natural id order (t2 before t10), as the rules sort figures (G-52)."""
    return id_key(ident)


def cheb(a: Cell, b: Cell) -> int:
    """Squares between two cells as a king walks (99 across levels)."""
    return chebyshev(a, b) if a.level == b.level else 99


def d2(a: Cell, b: Cell) -> int:
    """Squared Euclidean distance (the rules' ranges, G-2)."""
    return euclidean_sq(a, b)


def around(cells: Iterable[Cell], r: int = 1) -> set[Cell]:
    """Every cell within ``r`` king steps of ``cells``."""
    out: set[Cell] = set()
    for c in cells:
        for dx in range(-r, r + 1):
            for dy in range(-r, r + 1):
                out.add(c.step(dx, dy))
    return out


def ring(cells: Iterable[Cell], r: int = 1) -> frozenset[Cell]:
    """``frozenset(around(cells, r))``, kept: goals ask it of the same zones turn after turn.

    Keyed on the cells in the order they are given, so a kept answer is the very set a fresh
    build would make (same members, same iteration order)."""
    return _ring(tuple(cells), r)


@lru_cache(maxsize=1024)
def _ring(cells: tuple[Cell, ...], r: int) -> frozenset[Cell]:
    return frozenset(around(cells, r))


def centre(cells: Iterable[Cell]) -> Cell | None:
    """The median cell of a zone."""
    cells = list(cells)
    if not cells:
        return None
    xs = sorted(c.x for c in cells)
    ys = sorted(c.y for c in cells)
    return Cell(cells[0].level, xs[len(xs) // 2], ys[len(ys) // 2])
