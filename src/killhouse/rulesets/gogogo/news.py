"""Who hears of what: audiences for events and dice, and this turn's news per side.

Every event and die names its audience: the sides (and, in per-player mode, the figure
seats, ruling G-35) allowed to know it. An audience holding every side is public; an
empty one is the umpire's alone (spotting dice, whose mere existence would betray a
figure in a peripheral arc). An event may carry a redacted copy per side (``views``):
the umpire's data keeps every number, each side reads only what it may know (G-36).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from killhouse.core.cells import Cell
from killhouse.core.events import Audience, EventLog
from killhouse.rulesets.gogogo.state import GoState

UMPIRE: Audience = frozenset()


def place(state: GoState, cell: Cell | None) -> str | None:
    """A square as the scenario writes it (``ground:15,14``): events and narration use it."""
    if cell is None:
        return None
    return f"{state.board.levels[cell.level].name}:{cell.x},{cell.y}"


def audience(
    state: GoState, sides: Iterable[str | None], seats: Iterable[str | None] = ()
) -> Audience:
    """The audience of ``sides`` (plus ``seats`` in per-player mode); None if it is everyone."""
    chosen = {s for s in sides if s is not None}
    if set(state.sides) <= chosen:
        return None
    if state.per_player:
        chosen |= {s for s in seats if s is not None}
    return frozenset(chosen)


def team_seats(state: GoState, side: str) -> list[str]:
    """Every figure seat of a side (per-player mode): news for the whole team."""
    return [f.id for f in state.side_figures(side)]


def tell(
    state: GoState,
    log: EventLog,
    kind: str,
    data: Mapping[str, Any],
    sides: Iterable[str | None],
    seats: Iterable[str | None] = (),
    views: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Emit an event for ``sides`` (and ``seats``) and keep it as this turn's news.

    ``views`` gives a side (or a seat) its own redacted copy; a seat without one reads its
    side's copy. An event
    with copies is never public: a spectator would read the umpire's data.
    """
    side_list = list(sides)
    seat_list = list(seats)
    if views:
        chosen = {s for s in side_list if s is not None}
        if state.per_player:
            chosen |= {s for s in seat_list if s is not None}
        aud: Audience = frozenset(chosen)
        copies: dict[str, dict[str, Any]] = {}
        for who in sorted(chosen):
            owner = who if who in state.sides else state.fig(who).side
            if who in views:
                copies[who] = dict(views[who])  # a seat's own copy
            elif owner is not None and owner in views:
                copies[who] = dict(views[owner])
    else:
        aud = audience(state, side_list, seat_list)
        copies = {}
    log.emit(kind, dict(data), aud, copies)
    state.reports.append(
        {
            "audience": None if aud is None else sorted(aud),
            "kind": kind,
            "data": dict(data),
            "views": copies,
        }
    )


def public(state: GoState, log: EventLog, kind: str, data: Mapping[str, Any]) -> None:
    """An announcement to everyone (ruling G-36), kept for the views too."""
    tell(state, log, kind, data, state.sides)
    state.announcements.append({"turn": state.turn, "kind": kind, **dict(data)})


def visible(report: Mapping[str, Any], who: str) -> bool:
    aud = report.get("audience")
    return aud is None or who in aud


def report_for(report: Mapping[str, Any], who: str) -> dict[str, Any]:
    """One of this turn's news as ``who`` reads it (its redacted copy if it has one)."""
    data = report["views"].get(who, report["data"])
    return {"kind": report["kind"], **data}
