"""Events: the record of everything that happened, each with who may know of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: ``audience=None`` means every side (and spectators) may see the event.
Audience = frozenset[str] | None


@dataclass(frozen=True)
class Event:
    """One thing that happened: a kind, JSON data, and the sides allowed to see it."""

    seq: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: Audience = None

    def visible_to(self, side: str) -> bool:
        return self.audience is None or side in self.audience

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "kind": self.kind, **self.data}
        if self.audience is not None:
            out["audience"] = sorted(self.audience)
        return out


class EventLog:
    """An append-only list of events with consecutive sequence numbers."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(
        self, kind: str, data: Mapping[str, Any] | None = None, audience: Audience = None
    ) -> Event:
        event = Event(len(self.events), kind, dict(data or {}), audience)
        self.events.append(event)
        return event

    def since(self, seq: int) -> list[Event]:
        return self.events[seq:]

    def __len__(self) -> int:
        return len(self.events)
