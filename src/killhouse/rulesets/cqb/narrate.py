"""One line of plain text per CQB event, for transcripts and the seats' logs.

Every card turned is narrated with its value, the target number it was read against and what
came of it, from the copy of the event being narrated: a side's copy of another side's test
or shot carries no target number (ruling W-12), so its line names none, and a draw from an
ability deck reaches only the deck's side.
"""

from __future__ import annotations

from typing import Any

from killhouse.core.events import Event
from killhouse.rulesets.kit.narration import coordinates as _at  # "(x,y)", "(x,y level n)"


def _card(card: Any, value: Any) -> str:
    """A card with the value a test reads of it: ``8D (8)``; a joker has none."""
    if card == "joker" or value is None:
        return str(card)
    return f"{card} ({value})"


def _against(d: dict[str, Any] | Any) -> str:
    """``TN 10, 8D (8)`` for the acting side's copy, ``8D (8)`` for another side's."""
    card = _card(d["card"], d.get("value"))
    return f"TN {d['tn']}, {card}" if "tn" in d else card


def _deck(name: str) -> str:
    """An ability deck's name (``side:ability``, ``side:figure:id``) as words."""
    parts = name.split(":")
    if len(parts) == 2:
        return f"The {parts[1]} deck of {parts[0]}"
    if len(parts) == 3 and parts[1] == "figure":
        return f"The own deck of {parts[2]}"
    return f"The {name} deck"


def narrate(event: Event) -> str | None:
    d = event.data
    k = event.kind
    if k == "turn":
        return f"--- Turn {d['turn']} ---"
    if k == "scenario":
        return f"Scenario: {d['name']}, {d['turn_limit']} turns."
    if k == "luck":
        return f"{d['side']} rolls {d['die']} on the average die: {d['luck']} luck."
    if k == "draw":
        return f"{_deck(str(d['deck']))}: {d['card']} drawn ({d['purpose']})."
    if k == "roll":
        return f"{d['purpose'].capitalize()}: {d['die']} rolls {d['result']}."
    if k == "reshuffle":
        return f"{_deck(str(d['deck']))} is reshuffled from its discards."
    if k == "reaction-card":
        return f"{d['figure']} draws {_card(d['card'], d.get('value'))} for reaction."
    if k == "activates":
        together = " (simultaneously)" if d.get("together") else ""
        return f"{d['figure']} acts: {d['action']}{together}."
    if k == "step":
        return None
    if k == "shot":
        called = f" at the {d['called']}" if d.get("called") else ""
        return (f"{d['firer']} fires shot {d['shot']}{called} at {d['target']}: "
                f"{_against(d)}: {d['outcome']}.")
    if k == "hit":
        who = d.get("firer", "someone unseen")
        stray = " (a stray round)" if d.get("stray") else ""
        card = f" (location card {d['card']})" if d.get("card") else ""
        if d["effect"] == "equipment":  # section 13: a joker location card, no location
            return (f"{who} hits {d['target']}{stray}{card}: the round strikes equipment (a "
                    f"magazine, radio or pouch), no effect; {d['target']} is {d['condition']}.")
        return (f"{who} hits {d['target']}{stray}{card}: {d.get('location')}, {d['effect']}"
                f"{', knocked down' if d['knocked_down'] else ''}; {d['target']} is "
                f"{d['condition']}.")
    if k == "interrupt":
        # reaction values: a joker counts 0 here (ruling Q-2)
        mine = f"{d['card']}, {d['value']}" if "value" in d else d["card"]
        theirs = (f"{d['against_card']}, {d['against_value']}" if "against_value" in d
                  else d["against_card"])
        return f"{d['figure']} ({mine}) tries to interrupt {d['against']} ({theirs}): " \
               f"{d['outcome']}."
    if k == "task":
        return f"{d['figure']} tries {d['task']}: {_against(d)}: {d['outcome']}."
    if k == "throw":
        return (f"{d['figure']} throws a {d['grenade']} grenade at {_at(d['at'])}: "
                f"{_against(d)}: {d['landing']}.")
    if k in ("stun-test", "stun-recovery", "cs-test", "fire-test"):
        return f"{d['figure']} {k}: {_against(d)}: {'pass' if d['passed'] else 'fail'}."
    if k == "device":
        if d["state"] == "disarmed":
            return f"Device {d['device']} at {_at(d['at'])} is disarmed."
        return f"Device {d['device']} at {_at(d['at'])} goes off: {d['effect']}."
    if k == "reload":
        return f"{d['figure']} reloads."
    if k == "empty":
        return f"{d['figure']}'s magazine is empty."
    if k == "jam":
        return f"{d['firer']}'s weapon jams."
    if k == "misfire":
        return f"{d['firer']}'s weapon misfires."
    if k == "fate":  # ruling Q-21: a red hostage-deck card, dead; any other, alive
        return (f"Fate of {d['figure']}: {d['card']} "
                f"({'red: dead' if d['dead'] else 'not red: alive'}).")
    if k == "door":
        return f"The door at {_at(d['at'])} is {d['state']}."
    if k == "window":
        return f"{d['figure']}: the window at {_at(d['at'])} is {d['state']}."
    if k == "panic":
        return f"Hostage {d['hostage']} panics."
    if k == "runs":
        return f"Hostage {d['hostage']} runs."
    if k == "drops":
        return f"Hostage {d['hostage']} drops to the floor."
    if k == "follows":
        return f"Hostage {d['hostage']} follows to {_at(d['at'])}."
    if k == "extracted":
        return f"Hostage {d['hostage']} is extracted at {_at(d['at'])}."
    if k == "aim":
        what = d.get("target") or (_at(d["at"]) if d.get("at") else None)
        return f"{d['figure']} takes aim{f' at {what}' if what else ''}."
    if k in ("hold", "wait", "stands"):
        return f"{d['figure']} {'goes on Hold' if k == 'hold' else k.rstrip('s') + 's'}."
    if k == "asked":  # only the side asked receives it
        q = d.get("question")
        if q == "interrupt":
            return (f"{d['actor']} acts in sight: "
                    f"{', '.join(d.get('eligible') or [])} may interrupt.")
        if q == "together":
            return f"{d['figure']} may act together with the figure acting."
        return f"{d.get('figure', 'a figure')} may act now."
    if k == "no-interrupt":
        return "No interrupt."
    if k == "game-over":
        return f"Game over: {d.get('winner') or 'no winner'}: {d['reason']}."
    fields = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{k} {fields}".rstrip()
