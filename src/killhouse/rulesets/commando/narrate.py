"""One line of text per Commando event for printed games and transcripts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from killhouse.core.events import Event


def narrate(event: Event) -> str | None:
    d = event.data
    k = event.kind
    if k == "turn":
        return f"-- turn {d['turn']} --"
    if k == "initiative":
        return f"{d['side']} wins the initiative"
    if k == "plotted":
        return f"{d['figure']} is plotted for opportunity fire"
    if k == "committed":
        return f"{d['side']} has plotted"
    if k == "activates":
        return f"{d['figure']} activates with {d['tp']} TP"
    if k == "step":
        return f"{d['figure']} steps to {d['to']}"
    if k == "posture":
        return f"{d['figure']} goes {d['to']}"
    if k == "fire":
        return (f"{d['figure']} fires his {d['weapon']} at {d['target']} (range {d['range']}):"
                f" {', '.join(d['results'])}; {d['target']} is {d['status']}"
                + ("; magazine empty" if d["emptied"] else ""))
    if k == "door":
        return f"{d['figure']} {'opens' if d['open'] else 'closes'} the door at {d['at']}"
    if k == "reload":
        return f"{d['figure']} reloads"
    if k == "activation-ends":
        return f"{d['figure']} ends his activation"
    line = narrate_map(k, d)
    if line is not None:
        return line
    if k == "end":
        return f"game over: {d.get('winner') or 'draw'} ({d.get('reason')})"
    fields = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{k} {fields}".rstrip()


def narrate_map(k: str, d: Mapping[str, Any]) -> str | None:
    """Lines for the map tasks, searchlights and morale (cmdmap's events)."""
    if k == "climb":
        return f"{d['figure']} takes the stairs to {d['to']}"
    if k == "force-door":
        return (f"{d['figure']} forces the locked door at {d['at']}: "
                + ("it gives" if d.get("opened") else "it holds"))
    if k == "pick-lock":
        opened = d.get("opened")
        state = ("picked" if opened else "not picked") if opened is not None else (
            f"{d.get('paid')} of 50 TP in")
        return f"{d['figure']} works the lock at {d['at']}: {state}"
    if k == "searchlight":
        return (f"searchlight {d['light']} goes out" if d["aim"] is None
                else f"searchlight {d['light']} swings to {d['aim']}")
    if k == "panic":
        what = {"prone": "drops prone", "fire": "fires wildly", "run": "runs away"}
        return f"{d['figure']} panics and {what.get(str(d['result']), d['result'])}"
    if k == "fire-in-air":
        return f"{d['figure']} fires his {d['weapon']} into the air"
    if k == "run":
        return f"{d['figure']} runs to {d['to']}"
    if k == "engaged":
        return f"hand-to-hand at {d['square']}: {', '.join(d['men'])}"
    if k == "disengage":
        freed = ", ".join(d["freed"]) or "nobody"
        return f"{', '.join(d['leaving'])} try to break away: {freed} gets away"
    if k == "h2h-declared":
        return f"{d['figure']} will {d['choice']}" + (
            f" {d['target']}" if d.get("target") else "")
    if k == "h2h-round":
        blows = "; ".join(f"{s} on {t}: {r}" + (f" ({n})" if n else "")
                          for s, t, r, n in d["blows"]) or "no blows"
        return f"hand-to-hand round {d['round']} at {d['square']}: {blows}"
    if k == "preserving":
        return f"{d['figure']} is preserving himself ({d['conditions']} conditions)"
    return None
