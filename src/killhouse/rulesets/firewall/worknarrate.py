"""Lines for doors worked (rulings F-230 … F-234); any side's redacted copy narrates."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _who(value: Any) -> str:
    return str(value) if value else "someone unseen"


def _at(cell: Any) -> str:
    if not cell:
        return "?"
    level, x, y = cell
    return f"({x},{y})" if level == 0 else f"({x},{y} level {level})"


def narrate_work(kind: str, d: Mapping[str, Any]) -> str | None:
    """The line for a door event, or ``None`` for any other kind."""
    if kind == "door":
        if d.get("forced"):
            got = f" ({d['result']})" if d.get("result") else ""
            return (f"{_who(d.get('figure'))} tries to break down the door at {_at(d['at'])}"
                    f"{got}: it is {d['state']}.")
        how = " going through" if d.get("by") == "move" else ""
        return f"{_who(d.get('figure'))} leaves the door at {_at(d['at'])} {d['state']}{how}."
    return None
