"""One readable line per event of a game of "Go! Go! Go!"."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from killhouse.core.events import Event


def _at(cell: Any) -> str:
    """A square as the scenario writes it; events already carry that form (``ground:15,14``)."""
    if not cell:
        return "?"
    if isinstance(cell, str):
        return cell
    level, x, y = cell
    return f"{x},{y}" if level == 0 else f"level {level}:{x},{y}"


def _seen(data: Mapping[str, Any]) -> str:
    seen = data.get("seen", [])
    parts = [f"{s['id']} at {_at(s.get('at'))}" for s in seen]
    heard: dict[str, int] = {}
    for m in data.get("sounds", []):  # one marker per source: say each kind once, with a count
        key = f"{m['kind']} {m['direction'].upper()} of {m['listener']}"
        heard[key] = heard.get(key, 0) + 1
    sounds = [key if n == 1 else f"{key} (x{n})" for key, n in heard.items()]
    text = "sees " + (", ".join(parts) if parts else "nobody")
    if sounds:
        text += "; hears " + ", ".join(sounds)
    return text


def _order(o: Mapping[str, Any]) -> str:
    text = f"{o['figure']} {o['posture'].upper()}"
    if o.get("to"):
        text += f" to {o['to']}"
    if o.get("task") == "throw":
        text += f", throws {o.get('grenade')} at {_at(o.get('at'))}"
    elif o.get("task"):
        text += f", {o['task']}s"
    if o.get("follow"):
        text += f", calls {' and '.join(o['follow'])}"
    return text + f", facing {str(o.get('facing')).upper()}"


def _shot(d: Mapping[str, Any]) -> str:
    """A shot: the umpire's line says who, why the need and what came of it; a side's copy
    (G-67, G-68) holds only what that side may know, and its line says no more."""
    if "need" not in d:
        firer = d.get("firer") or "an unseen shooter"
        tier = f" (tier {d['tier']})" if "tier" in d else ""
        return f"{firer} fires at {d.get('target')}{tier}: {d.get('result')}."
    why = [f"{d['range']} range", f"{d['posture']}"]
    if d.get("target_moving"):
        why.append("target moving")
    if d.get("target_hiding"):
        why.append("target hiding")
    return (
        f"{d['firer']} fires at {d['target']} (tier {d['tier']}, {', '.join(why)}; "
        f"needs {d['need']}+): {d['result']}."
    )


def _deployed(d: Mapping[str, Any]) -> str:
    """A side's secret setup, for its own record and the umpire."""
    parts = [", ".join(f"{k} at {_at(v)}" for k, v in d.get("placed", {}).items())]
    for k, w in d.get("weapons", {}).items():
        parts.append(f"{k} takes {'a sniper rifle' if w == 'sniper' else 'an automatic weapon'}")
    for k, g in d.get("loadouts", {}).items():
        parts.append(f"{k} takes {'an HE' if g == 'he' else 'a ' + g} grenade")
    if d.get("carrier"):
        parts.append(f"{d['carrier']} carries the bomb")
    text = "; ".join(p for p in parts if p)
    return f"Deployed: {text or 'nobody to place'}."


def _throw(d: Mapping[str, Any]) -> str:
    head = f"{d['thrower']} throws a {d['grenade']} grenade at {_at(d['target'])}"
    if d.get("on_target"):
        return f"{head}: on target"
    return f"{head}: scatters {d.get('scatter')} {d.get('distance')}, lands at {_at(d['landed'])}"


_LINES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "mission": lambda d: f"Mission: {d['mission']}, {d['turn_limit']} turns.",
    "bomb-fuse": lambda d: f"The bomb's fuse is {d['fuse_turns']} turns.",
    "turn": lambda d: f"--- Turn {d['turn']} ---",
    "setup-committed": lambda d: f"{d['side']} has deployed.",
    "deployed": _deployed,
    "orders": lambda d: f"{d['side']} orders: " + "; ".join(_order(o) for o in d["orders"]) + ".",
    "throw": _throw,
    "burst": lambda d: f"A {d['grenade']} grenade bursts at {_at(d['at'])}.",
    "smoke": lambda d: f"Smoke fills {len(d['cells'])} squares.",
    "grenade-effect": lambda d: (
        f"{d['figure']} is caught by the {d['grenade']} grenade"
        + (f" at {_at(d['at'])}" if d.get("at") else "")
        + f": {d['result']}."
    ),
    "path-cut": lambda d: f"{d['figure']} is stunned: its move now ends at {_at(d['to'])}.",
    "moved": lambda d: (
        f"{d['figure']} moves {_at(d['from'])} -> {_at(d['to'])}"
        + (" (blocked)." if d.get("blocked") else ".")
    ),
    "hostage-follows": lambda d: f"Hostage {d['hostage']} now follows {d['leader']}.",
    "hostage-moved": lambda d: f"Hostage {d['hostage']} follows to {_at(d['to'])}.",
    "bomb-picked-up": lambda d: f"{d['carrier']} picks up the bomb.",
    "bomb-dropped": lambda d: f"The bomb is dropped at {_at(d['at'])}.",
    "rescued": lambda d: f"Hostage {d['hostage']} is rescued.",
    "hostage-rescued": lambda d: f"A hostage is rescued ({d['rescued']} of {d['total']}).",
    "vip-escaped": lambda d: "The VIP has escaped!",
    "hostage-killed": lambda d: f"A hostage has been killed (by {d.get('by') or 'unknown'}).",
    "vip-killed": lambda d: "The VIP has been killed!",
    "spotted": lambda d: f"{d.get('seat') or d.get('side') or 'a side'} " + _seen(d),
    "shot": _shot,
    "shot-lost": lambda d: f"{d['firer']}'s target {d['target']} is already down: shot lost.",
    "plant-progress": lambda d: f"{d['figure']} works on the bomb ({d['turns']} turns).",
    "bomb-planted": lambda d: "The bomb has been planted!",
    "bomb-armed": lambda d: (
        f"Bomb armed at {_at(d['at'])}: it goes off at the end of turn {d['detonates']}."
    ),
    "defuse-progress": lambda d: f"{d['figure']} works on defusing ({d['turns']} turns).",
    "bomb-defused": lambda d: "The bomb has been defused!",
    "bomb-detonated": lambda d: "The bomb goes off!",
    "stun-ends": lambda d: f"{d['figure']} is no longer stunned.",
    "game-over": lambda d: (
        f"Game over on turn {d['turn']} ({d['step']}): "
        + (f"{d['winner']} wins" if d.get("winner") else "a draw")
        + f" - {d['reason']}."
    ),
    "roll": lambda d: f"  [{d.get('die')} = {d.get('result')}: {d.get('purpose')}]",
}


#: news that the next line says anyway: a side's commit is followed by its orders or its shots
_QUIET = frozenset({"orders-committed", "fire-committed"})


def narrate(event: Event) -> str | None:
    if event.kind in _QUIET:
        return None
    line = _LINES.get(event.kind)
    if line is None:
        fields = " ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind} {fields}".rstrip()
    return line(event.data)
