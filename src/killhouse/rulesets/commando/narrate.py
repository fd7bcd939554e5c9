"""One line of text per Commando event for printed games and transcripts."""

from __future__ import annotations

from killhouse.core.events import Event
from killhouse.rulesets.kit.narration import as_carried as _at  # "[level, x, y]"


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
        return f"{d['figure']} steps to {_at(d['to'])}"
    if k == "posture":
        return f"{d['figure']} goes {d['to']}"
    if k == "fire":
        return (f"{d['figure']} fires his {d['weapon']} at {d['target']} (range {d['range']}):"
                f" {', '.join(d['results'])}; {d['target']} is {d['status']}"
                + ("; magazine empty" if d["emptied"] else ""))
    if k == "door":
        return f"{d['figure']} {'opens' if d['open'] else 'closes'} the door at {_at(d['at'])}"
    if k == "reload":
        return f"{d['figure']} reloads"
    if k == "activation-ends":
        return f"{d['figure']} ends his activation"
    if k == "end":
        return f"game over: {d.get('winner') or 'draw'} ({d.get('reason')})"
    fields = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{k} {fields}".rstrip()
