"""Who hears of what: audiences for events and dice, and this turn's news per side.

Every event and die names its audience: the sides (and, in per-player mode, the figure
seats, ruling G-35) allowed to know it. An audience holding every side is public; an
empty one is the umpire's alone (spotting dice, whose mere existence would betray a
figure in a peripheral arc).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from killhouse.core.events import Audience, EventLog
from killhouse.rulesets.gogogo.state import GoState

UMPIRE: Audience = frozenset()


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
) -> None:
    """Emit an event for ``sides`` (and ``seats``) and keep it as this turn's news."""
    aud = audience(state, sides, seats)
    log.emit(kind, dict(data), aud)
    state.reports.append(
        {"audience": None if aud is None else sorted(aud), "kind": kind, **dict(data)}
    )


def public(state: GoState, log: EventLog, kind: str, data: Mapping[str, Any]) -> None:
    """An announcement to everyone (ruling G-36), kept for the views too."""
    tell(state, log, kind, data, state.sides)
    state.announcements.append({"turn": state.turn, "kind": kind, **dict(data)})


def visible(report: Mapping[str, Any], who: str) -> bool:
    aud = report.get("audience")
    return aud is None or who in aud
