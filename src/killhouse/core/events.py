"""Events: the record of everything that happened, each with who may know of it.

The umpire's log numbers every event (``seq``). A side's copies are numbered densely in the
order it receives them (0, 1, 2, … with no gaps), so the numbers a side holds count only
the events it may see and never the hidden events between them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: ``audience=None`` means every side (and spectators) may see the event.
Audience = frozenset[str] | None


@dataclass(frozen=True)
class Event:
    """One thing that happened: a kind, JSON data, and the sides allowed to see it.

    ``views`` holds a redacted copy of ``data`` for a side that may know the event but not
    all of it (a hit on a figure whose shooter it cannot see); ``data`` is the umpire's.
    ``public_before`` and ``named_before`` count the events logged before this one that
    every side saw and that named each side in their audience: a side's own number for the
    event is their sum. An event made outside a log (``public_before=None``) numbers itself.
    ``whole_before`` counts the earlier events every side saw whole (the spectators' log).
    """

    seq: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: Audience = None
    views: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    public_before: int | None = None
    named_before: Mapping[str, int] = field(default_factory=dict)
    whole_before: int | None = None

    def visible_to(self, side: str) -> bool:
        return self.audience is None or side in self.audience

    @property
    def whole(self) -> bool:
        """Every side sees this event, and sees all of it (no redacted copies)."""
        return self.audience is None and not self.views

    def side_seq(self, side: str) -> int:
        """``side``'s own number for this event: how many events it saw before it."""
        if self.public_before is None:
            return self.seq
        return self.public_before + self.named_before.get(side, 0)

    def public_seq(self) -> int:
        """The spectators' number for this event: how many whole public events came before."""
        return self.seq if self.whole_before is None else self.whole_before

    def for_side(self, side: str) -> dict[str, Any] | None:
        """The event as ``side`` receives it (its redacted copy, numbered in the side's own
        dense sequence), or ``None`` if hidden from it."""
        if not self.visible_to(side):
            return None
        return {"seq": self.side_seq(side), "kind": self.kind, **self.views.get(side, self.data)}

    def for_public(self) -> dict[str, Any] | None:
        """The event as a spectator receives it (numbered among the whole public events), or
        ``None`` if some side may not see it whole."""
        if not self.whole:
            return None
        return {"seq": self.public_seq(), "kind": self.kind, **self.data}

    def to_json(self) -> dict[str, Any]:
        """The umpire's full record, with the audience and any per-side copies."""
        out: dict[str, Any] = {"seq": self.seq, "kind": self.kind, **self.data}
        if self.audience is not None:
            out["audience"] = sorted(self.audience)
        if self.views:
            out["views"] = {side: dict(data) for side, data in sorted(self.views.items())}
        return out


class EventLog:
    """An append-only list of events with consecutive sequence numbers.

    Each event carries the counts a side's dense numbering needs, derived from the event
    before it, so cutting the list back (an illegal action's rollback) needs no bookkeeping.
    """

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(
        self,
        kind: str,
        data: Mapping[str, Any] | None = None,
        audience: Audience = None,
        views: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> Event:
        public, named, whole = 0, {}, 0
        if self.events:
            last = self.events[-1]
            public = (last.public_before or 0) + (last.audience is None)
            named = dict(last.named_before)
            for side in last.audience or ():
                named[side] = named.get(side, 0) + 1
            whole = (last.whole_before or 0) + last.whole
        # the frozen dataclass's own ``__init__`` writes field by field through
        # ``object.__setattr__``; a log's events are made here, all fields at once (a game
        # logs thousands)
        event = object.__new__(Event)
        event.__dict__.update(
            seq=len(self.events), kind=kind, data=dict(data or {}), audience=audience,
            views=dict(views or {}), public_before=public, named_before=named,
            whole_before=whole,
        )
        self.events.append(event)
        return event

    def since(self, seq: int) -> list[Event]:
        return self.events[seq:]

    def count_for(self, side: str) -> int:
        """How many events ``side`` may see: the next number of its dense sequence."""
        if not self.events:
            return 0
        last = self.events[-1]
        return last.side_seq(side) + last.visible_to(side)

    def public_count(self) -> int:
        """How many events every side saw whole: the next number of the spectators' sequence."""
        if not self.events:
            return 0
        last = self.events[-1]
        return last.public_seq() + last.whole

    def for_side(self, side: str, since: int = 0) -> list[dict[str, Any]]:
        """``side``'s copies numbered ``since`` on (``since`` is a number of its own sequence)."""
        start = bisect_left(self.events, since, key=lambda e: e.side_seq(side))
        copies = (e.for_side(side) for e in self.events[start:])
        return [c for c in copies if c is not None]

    def for_public(self, since: int = 0) -> list[dict[str, Any]]:
        """The spectators' copies numbered ``since`` on."""
        start = bisect_left(self.events, since, key=lambda e: e.public_seq())
        copies = (e.for_public() for e in self.events[start:])
        return [c for c in copies if c is not None]

    def events_for_side(self, side: str, since: int = 0) -> list[Event]:
        """The events ``side`` sees, from its own number ``since`` on (umpire's records)."""
        start = bisect_left(self.events, since, key=lambda e: e.side_seq(side))
        return [e for e in self.events[start:] if e.visible_to(side)]

    def events_for_public(self, since: int = 0) -> list[Event]:
        """The events every side sees whole, from the spectators' number ``since`` on."""
        start = bisect_left(self.events, since, key=lambda e: e.public_seq())
        return [e for e in self.events[start:] if e.whole]

    def __len__(self) -> int:
        return len(self.events)
