"""Lines for doors worked (rulings F-230 … F-234) and traps set, found, sprung and disarmed
(rulings F-235 … F-241); any side's redacted copy narrates."""

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
    """The line for a door or trap event, or ``None`` for any other kind."""
    if kind == "door":
        if d.get("picked"):
            got = f" ({d['result']})" if d.get("result") else ""
            return (f"{_who(d.get('figure'))} works at the lock of the door at {_at(d['at'])}"
                    f"{got}: it is {d['state']}.")
        if d.get("forced"):
            got = f" ({d['result']})" if d.get("result") else ""
            return (f"{_who(d.get('figure'))} tries to break down the door at {_at(d['at'])}"
                    f"{got}: it is {d['state']}.")
        how = " going through" if d.get("by") == "move" else ""
        return f"{_who(d.get('figure'))} leaves the door at {_at(d['at'])} {d['state']}{how}."
    if kind == "trap-set":
        if d.get("result") is None:
            return f"{_who(d.get('figure'))} rigs a trap at {_at(d['at'])}."
        done = "sets" if d.get("set") else "fails to set"
        return f"{d['figure']} {done} a trap at {_at(d['at'])} ({d['result']})."
    if kind == "trap-found":
        return f"{_who(d.get('by'))}'s search finds a trap at {_at(d['at'])}."
    if kind == "trap-off":
        status = f"; {d['status']}" if d.get("status") else ""
        return (f"a trap at {_at(d['at'])} goes off on {_who(d.get('figure'))} "
                f"({d.get('result')}){status}.")
    if kind == "trap-disarm":
        return (f"{_who(d.get('figure'))} tries to disarm the trap at {_at(d['at'])}: "
                f"{d.get('result')}.")
    return None
