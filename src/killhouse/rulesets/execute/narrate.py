"""One plain line per Execute event, for printing games turn by turn.

Squares are written as the scenario writes them, ``levelname:x,y``. The level names come
from the game's first event (``scenario``, which lists them); the engine's ``narrate`` hook
gets one event at a time, so the names of the game being narrated are kept in a context
variable until the protocol hands narration the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from killhouse.core.events import Event

Data = Mapping[str, Any]

#: the level names of the game being narrated, set by its ``scenario`` event
LEVEL_NAMES: ContextVar[tuple[str, ...]] = ContextVar("execute_level_names", default=())


def _at(value: Any) -> str:
    if value is None:
        return "off-map"
    level, x, y = value
    names = LEVEL_NAMES.get()
    name = names[level] if 0 <= level < len(names) else f"L{level}"
    return f"{name}:{x},{y}"


def _scenario(d: Data) -> str:
    LEVEL_NAMES.set(tuple(str(n) for n in d.get("levels", ())))
    return f"scenario {d.get('name')}: {d.get('hostages')} hostages, {d.get('turn_limit')} turns"


def _who(value: Any) -> str:
    return str(value) if value is not None else "someone unseen"


def _roll(d: Data) -> str:
    if d.get("roll") is None:
        outcome = "success" if d.get("success") else "failure"
        return f"TN {d.get('tn')} on {d.get('die')}: automatic {outcome}"
    return f"TN {d.get('tn')} on {d.get('die')}, rolled {d.get('roll')}"


def _shot(d: Data) -> str:
    outcome = "hit" if d.get("success") else "miss"
    return (f"{_who(d.get('firer'))} fires a {d.get('weapon')} at {_who(d.get('target'))} "
            f"({_roll(d)}): {outcome}")


def _grenade(d: Data) -> str:
    where = "on target" if not d.get("overshoot") else f"{d.get('overshoot')} squares long"
    return (f"{_who(d.get('thrower'))} throws a grenade {d.get('distance')} squares at "
            f"{_at(d.get('aim'))} ({_roll(d)}): {where}, lands at {_at(d.get('landed'))}")


def _damage(d: Data) -> str:
    if "taken" in d:
        return (f"{_who(d.get('figure'))} is hit by {d.get('raw')} VD ({d.get('cause')}); armour "
                f"stops {d.get('absorbed')}, takes {d.get('taken')}, {d.get('vitality_left')} "
                f"vitality left: {d.get('status')}")
    return (f"{_who(d.get('figure'))} is hit by {d.get('raw')} VD ({d.get('cause')}): "
            f"{d.get('status')}")


def _initiative(d: Data) -> str:
    fbi, terrorists = d.get("rolls", [0, 0])
    return f"initiative turn {d.get('turn')}: FBI {fbi} v {terrorists}; {d.get('winner')} act first"


def _surveillance(d: Data) -> str:
    shown = ", ".join(f"{r.get('id')} at {_at(r.get('at'))}" for r in d.get("revealed", []))
    return f"surveillance d12 = {d.get('roll')}: " + (f"reveals {shown}" if shown else "nothing")


def _moved(d: Data) -> str:
    if d.get("from") is None:
        return f"{d.get('figure')} enters the map at {_at(d.get('to'))} ({d.get('cost')} MP)"
    return (f"{d.get('figure')} moves {_at(d.get('from'))} -> {_at(d.get('to'))} "
            f"({d.get('cost')} MP)")


def _alert(d: Data) -> str:
    squares = d.get("squares") or [d.get("at")]
    where = _at(squares[0]) + (f" and {len(squares) - 1} more squares" if len(squares) > 1
                               else "")
    return f"ALERT: alarm {d.get('alarm')} trips at {where}"


def _task(d: Data) -> str:
    outcome = "success" if d.get("success") else "failure"
    return (f"{_who(d.get('agent'))} works on the {d.get('type')} {d.get('device')} "
            f"(level {d.get('level')}, {_roll(d)}): {outcome}")


def _disarm(d: Data) -> str:
    outcome = "disarmed" if d.get("success") else "it goes off"
    return (f"{_who(d.get('agent'))} tries to disarm bomb {d.get('bomb')} (level {d.get('level')}, "
            f"{_roll(d)}): {outcome}")


def _observed(d: Data) -> str:
    if d.get("from") == d.get("to"):
        return f"{d.get('observer')} sees {d.get('figure')} go down: {d.get('status')}"
    return f"{d.get('observer')} sees {d.get('figure')} move to {_at(d.get('to'))}"


LINES: dict[str, Callable[[Data], str]] = {
    "scenario": _scenario,
    "setup_done": lambda d: "the terrorists have set up",
    "bomb_set": lambda d: (f"bomb {d.get('bomb')} set to "
                           + (f"explode at the end of turn {d.get('turn')}"
                              if d.get("mode") == "timer"
                              else f"remote trigger held by {d.get('holder')}")),
    "surveillance": _surveillance,
    "phase": lambda d: f"-- {d.get('phase')} --",
    "message": lambda d: f"{d.get('side')} says: {d.get('text') or '...'}",
    "released": lambda d: f"the terrorists release {d.get('name')} ({d.get('hostage')})",
    "conceded": lambda d: "the FBI meets the demands",
    "negotiation_ended": lambda d: f"{d.get('side')} ends the negotiation",
    "recruited": lambda d: f"{d.get('figure')} joins the roster ({d.get('card')})",
    "dismissed": lambda d: f"{d.get('figure')} leaves the roster",
    "loadout": lambda d: (f"{d.get('figure')} takes a {d.get('weapon')} and armour "
                          f"{d.get('armour')}"),
    "note": lambda d: f"plan note: {d.get('text') or '...'}",
    "planned": lambda d: "the FBI roster: " + ", ".join(
        f"{r['id']} ({r['weapon']}, armour {r['armour']})" for r in d.get("roster", [])),
    "combat": lambda d: f"== insertion and combat (turn limit {d.get('turn_limit')}) ==",
    "turn": lambda d: f"== turn {d.get('turn')} ==",
    "initiative": _initiative,
    "shot": _shot,
    "grenade": _grenade,
    "explosion": lambda d: f"an explosion ({d.get('kind')}) at {_at(d.get('at'))}",
    "bomb_exploded": lambda d: f"bomb {_who(d.get('bomb'))} explodes at {_at(d.get('at'))}",
    "damage": _damage,
    "task": _task,
    "unlocked": lambda d: f"the lock {d.get('device')} at {_at(d.get('at'))} is picked",
    "devices_off": lambda d: "devices off: " + ", ".join(d.get("devices", [])),
    "disarm": _disarm,
    "dud": lambda d: f"bomb {d.get('bomb')} does not go off: it was disarmed",
    "moved": _moved,
    "door_opened": lambda d: f"{d.get('figure')} opens the door at {_at(d.get('at'))}",
    "alert": _alert,
    "claimed": lambda d: f"{d.get('agent')} takes charge of {d.get('hostage')}",
    "followed": lambda d: (f"{d.get('hostage')} follows {d.get('leader')} to {_at(d.get('to'))}"
                           + (" and is out" if d.get("extracted") else "")),
    "extracted": lambda d: f"{_who(d.get('hostage'))} is extracted at {_at(d.get('at'))}",
    "sighted": lambda d: (f"{d.get('observer')} sees {d.get('id')} ({d.get('name')}, "
                          f"{d.get('status')}) at {_at(d.get('at'))}"),
    "observed": _observed,
    "lost_sight": lambda d: f"{d.get('observer')} loses sight of {d.get('figure')}",
    "bomb_spotted": lambda d: (f"the FBI finds bomb {d.get('bomb')} at {_at(d.get('at'))} "
                               f"(level {d.get('level')}"
                               + (f", {d.get('turns_remaining')} turns left)"
                                  if d.get("mode") == "timer" else ", remote)")),
    "game_over": lambda d: (f"GAME OVER: {d.get('winner') or 'draw'} - {d.get('reason')}"),
}


#: events left out of the narration: dice (the shots and tasks show them) and the end of a
#: side's slot (a line per slot and phase said nothing the next line does not)
SILENT = frozenset({"roll", "sample", "pick", "draw", "reshuffle", "slot_done"})


def narrate(event: Event) -> str | None:
    """A readable line for an Execute event, or ``None`` for the events left out."""
    line = LINES.get(event.kind)
    if line is None:
        if event.kind in SILENT:
            return None
        fields = " ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind} {fields}".rstrip()
    return line(event.data)
