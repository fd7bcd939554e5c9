"""One line of text per vehicle event (each side's redacted copy narrates too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _who(value: Any) -> str:
    return str(value) if value else "someone unseen"


def _sq(cell: Any) -> str:
    if not cell:
        return "?"
    level, x, y = cell
    return f"({x},{y})" if level == 0 else f"({x},{y} level {level})"


def narrate_vehicle(kind: str, d: Mapping[str, Any]) -> str | None:
    """The line for a vehicle event, or ``None`` when ``kind`` is not one."""
    if kind == "vehicle-due":
        return f"{d['vehicle']} is due in Turn {d['turn']}."
    if kind == "vehicle-arrives":
        return f"{d['vehicle']} of {d['side']} arrives at {_sq(d['at'])} facing {d['facing']}."
    if kind == "drive":
        second = f", second roll {d['second']}" if d.get("second") else ""
        left = "; it leaves the table" if d.get("exited") else ""
        return (f"{d['vehicle']} drives at {d['speed']} {d.get('dice')}: {d['result']}{second}; "
                f"now at {_sq(d['to'])} facing {d['facing']}{left}.")
    if kind == "vehicle-hit":
        what = ("destroyed" if d.get("destroyed") else "no effect" if d.get("effect") == 0
                else f"−{d['effect']} Gutz" if d.get("effect") != "kill" else "destroyed")
        return (f"{_who(d.get('firer'))} fires {d['weapon']} at {_who(d.get('vehicle'))}: "
                f"{d['result']}; {what}.")
    if kind == "vehicle-caught":
        what = "destroyed" if d.get("destroyed") else f"effect {d.get('effect')}"
        return f"{d['vehicle']} is caught in the burst ({d['result']}): {what}."
    if kind == "gunner-hit":
        out = "the pintle gunner is down" if d.get("gunner_out") else "the gunner stays"
        return (f"{_who(d.get('firer'))} fires {d['weapon']} at {d['vehicle']}'s pintle gunner:"
                f" {d['result']}; {out}.")
    if kind == "vehicle-assault":
        end = "; the vehicle is destroyed" if d.get("destroyed") else ""
        return (f"{_who(d.get('figure'))} attacks {d['vehicle']} in close combat: "
                f"{d['result']}{end}.")
    if kind == "vehicle-unjam":
        end = "; the vehicle is lost" if d.get("destroyed") else ""
        return (f"{d['vehicle']}'s crew position {d['crew']} clears {d['mount']}: "
                f"{d['result']}, {d['state']}{end}.")
    if kind == "embark":
        got = "gets in" if d.get("inside") else "fails to get in"
        return f"{d['figure']} {got} {d['vehicle']} ({d['result']})."
    if kind == "disembark":
        got = f"gets out at {_sq(d['to'])}" if d.get("to") else "fails to get out"
        return f"{d['figure']} {got} of {d['vehicle']} ({d['result']})."
    if kind == "ride":
        on = "gets on" if d.get("on") else "gets off"
        return f"{d['figure']} {on} its transport: {d['result']}."
    return None
