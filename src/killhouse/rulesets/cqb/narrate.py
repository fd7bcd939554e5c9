"""One line of plain text per CQB event, for transcripts."""

from __future__ import annotations

from killhouse.core.events import Event
from killhouse.rulesets.kit.narration import coordinates as _at  # "(x,y)", "(x,y level n)"


def narrate(event: Event) -> str | None:
    d = event.data
    k = event.kind
    if k == "turn":
        return f"--- Turn {d['turn']} ---"
    if k == "scenario":
        return f"Scenario: {d['name']}, {d['turn_limit']} turns."
    if k == "luck":
        return f"{d['side']} rolls {d['die']} on the average die: {d['luck']} luck."
    if k == "reaction-card":
        return f"{d['figure']} draws {d['card']} for reaction."
    if k == "activates":
        together = " (simultaneously)" if d.get("together") else ""
        return f"{d['figure']} acts: {d['action']}{together}."
    if k == "step":
        return None
    if k == "shot":
        called = f" at the {d['called']}" if d.get("called") else ""
        return (f"{d['firer']} fires shot {d['shot']}{called} at {d['target']}: TN {d['tn']}, "
                f"{d['card']}: {d['outcome']}.")
    if k == "hit":
        who = d.get("firer", "someone unseen")
        stray = " (a stray round)" if d.get("stray") else ""
        if d["effect"] == "equipment":  # section 13: a joker location card, no location
            return (f"{who} hits {d['target']}{stray}: the round strikes equipment (a magazine,"
                    f" radio or pouch), no effect; {d['target']} is {d['condition']}.")
        return (f"{who} hits {d['target']}{stray}: {d.get('location')}, {d['effect']}"
                f"{', knocked down' if d['knocked_down'] else ''}; {d['target']} is "
                f"{d['condition']}.")
    if k == "interrupt":
        return (f"{d['figure']} ({d['card']}) tries to interrupt {d['against']} "
                f"({d['against_card']}): {d['outcome']}.")
    if k == "task":
        return f"{d['figure']} tries {d['task']}: TN {d['tn']}, {d['card']}: {d['outcome']}."
    if k == "throw":
        return (f"{d['figure']} throws a {d['grenade']} grenade at {_at(d['at'])}: TN {d['tn']},"
                f" {d['card']}: {d['landing']}.")
    if k in ("stun-test", "stun-recovery", "cs-test", "fire-test"):
        return f"{d['figure']} {k}: TN {d['tn']}, {d['card']}: {'pass' if d['passed'] else 'fail'}."
    if k == "device":
        if d["state"] == "disarmed":
            return f"Device {d['device']} at {_at(d['at'])} is disarmed."
        return f"Device {d['device']} at {_at(d['at'])} goes off: {d['effect']}."
    if k == "reload":
        return f"{d['figure']} reloads."
    if k == "empty":
        return f"{d['figure']}'s magazine is empty."
    if k in ("draw", "roll", "reshuffle", "asked", "no-interrupt"):
        return None
    if k == "game-over":
        return f"Game over: {d.get('winner') or 'no winner'}: {d['reason']}."
    fields = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{k} {fields}".rstrip()
