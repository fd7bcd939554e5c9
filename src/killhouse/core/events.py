"""Events: the record of everything that happened, each with who may know of it."""

from __future__ import annotations

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
    """

    seq: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: Audience = None
    views: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def visible_to(self, side: str) -> bool:
        return self.audience is None or side in self.audience

    def for_side(self, side: str) -> dict[str, Any] | None:
        """The event as ``side`` receives it (its redacted copy), or ``None`` if hidden from it."""
        if not self.visible_to(side):
            return None
        return {"seq": self.seq, "kind": self.kind, **self.views.get(side, self.data)}

    def to_json(self) -> dict[str, Any]:
        """The umpire's full record, with the audience and any per-side copies."""
        out: dict[str, Any] = {"seq": self.seq, "kind": self.kind, **self.data}
        if self.audience is not None:
            out["audience"] = sorted(self.audience)
        if self.views:
            out["views"] = {side: dict(data) for side, data in sorted(self.views.items())}
        return out


class EventLog:
    """An append-only list of events with consecutive sequence numbers."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(
        self,
        kind: str,
        data: Mapping[str, Any] | None = None,
        audience: Audience = None,
        views: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> Event:
        event = Event(len(self.events), kind, dict(data or {}), audience, dict(views or {}))
        self.events.append(event)
        return event

    def since(self, seq: int) -> list[Event]:
        return self.events[seq:]

    def __len__(self) -> int:
        return len(self.events)
