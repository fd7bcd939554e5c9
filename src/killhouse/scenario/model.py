"""The parsed scenario: plain values the rulesets read, with a way back to file lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from killhouse.core.board import Board
from killhouse.core.cells import Cell


@dataclass(frozen=True)
class Issue:
    """A problem a ruleset finds, named by field path (``figures[2].card``).

    The loader turns it into a ``Problem`` on the line that field is written on.
    """

    path: str
    message: str
    hint: str = ""


@dataclass(frozen=True)
class SideSpec:
    id: str
    name: str
    controller: str
    path: str
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: "player", or "umpire" for a game master's side (``umpire: true``; it never wins)
    role: str = "player"


@dataclass(frozen=True)
class FigureSpec:
    """One figure as written: a stat card id or explicit stats, a place (or none: off-map)."""

    id: str
    side: str | None
    kind: str
    path: str
    card: str | None = None
    stats: Mapping[str, Any] | None = None
    at: Cell | None = None
    facing: str | None = None
    equipment: tuple[str, ...] = ()
    hidden: bool = False
    name: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ObjectSpec:
    """A bomb, lock, camera … placed by the scenario; ``extra`` holds the ruleset's own keys."""

    id: str
    type: str
    path: str
    at: Cell | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


def _no_line(path: str) -> int:
    return 0


@dataclass
class Scenario:
    """A whole scenario; ``board`` is the pristine map each game copies."""

    name: str
    ruleset: str
    board: Board
    sides: list[SideSpec]
    figures: list[FigureSpec]
    objects: list[ObjectSpec] = field(default_factory=list)
    objectives: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    turn_limit: int | None = None
    seed: int | None = None
    file: str = "<scenario>"
    content_hash: str = ""
    #: the file's text, as read: a game log carries it, so a log replays from any folder
    source_text: str = field(default="", repr=False)
    #: the text of the roster file its figures drew men from ("" without one): logged with
    #: the game, so the replay draws the same men after the roster moves on (ruling K-16)
    roster_text: str = field(default="", repr=False)
    #: maps a field path such as ``figures[2].card`` to its line in the file (0 if unknown)
    line_of: Callable[[str], int] = field(default=_no_line, repr=False)

    def side_ids(self) -> list[str]:
        return [s.id for s in self.sides]

    def player_sides(self) -> list[str]:
        """The sides that can win: every side but an umpire's."""
        return [s.id for s in self.sides if s.role != "umpire"]

    def figure(self, figure_id: str) -> FigureSpec:
        for f in self.figures:
            if f.id == figure_id:
                return f
        raise KeyError(figure_id)

    def cell_name(self, cell: Cell) -> str:
        """``level:x,y`` as scenarios write it."""
        return f"{self.board.levels[cell.level].name}:{cell.x},{cell.y}"
