"""Narration of the set-up decisions made in play (fwsetup: entry edges, the game master's
counters, the loadout and deployment of "A Walk in the Park")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from killhouse.rulesets.firewall.tables import tables

NAMES = {"n": "north", "e": "east", "s": "south", "w": "west"}


def _square(cell: Any) -> str:
    """``[level, x, y]`` as ``(x,y)``, with the level above the ground (as ``narrate``)."""
    level, x, y = cell
    return f"({x},{y})" if level == 0 else f"({x},{y} level {level})"


def narrate_setup(k: str, d: Mapping[str, Any]) -> str | None:
    """One line for a set-up event; else ``None``."""
    if k == "edge-order":
        rounds = "; then ".join(", ".join(f"{s} {v}" for s, v in r.items())
                                for r in d.get("rolls", []))
        dice = f" (1d6: {rounds})" if rounds else ""
        return f"entry edges are chosen in the order {', '.join(d['order'])}{dice}."
    if k == "edge-chosen":
        how = {"chose": "chooses", "opposite": "takes the opposite edge,",
               "last": "takes the edge left,"}.get(str(d.get("how")), "takes")
        return f"{d['side']} {how} the {NAMES.get(d['edge'], d['edge'])} edge."
    if k == "kit":
        return f"{d['figure']} takes {_item(d)}."
    if k == "equipped":
        return f"{d['figure']} is equipped: {_kit(d)}."
    if k == "deployed":
        if d.get("at") is None:
            return f"{d['figure']} waits off the table, to come on over any edge."
        return f"{d['figure']} deploys hidden at {_square(d['at'])}."
    if k == "path-end":
        side = {"w": "west", "e": "east"}.get(str(d["end"]), d["end"])
        return f"{d['team']} starts at the {side} end of the path."
    if k == "counter-placed":
        return f"the game master places counter {d['number']} at {_square(d['at'])}."
    return None


def _item(d: Mapping[str, Any]) -> str:
    """One kit step's item by its printed name (ruling F-270)."""
    t = tables()
    if "weapon" in d:
        return _a(t.weapons[d['weapon']].name)
    if "grenade" in d:
        return _a(f"{t.grenades[d['grenade']].name} grenade")
    return f"{t.armour[d['armour']].name} to wear"


def _kit(d: Mapping[str, Any]) -> str:
    t = tables()
    items = [t.weapons[w].name for w in d.get("weapons", [])] + list(d.get("melee", []))
    items += [f"{n} {t.grenades[g].name}" for g, n in d.get("grenades", {}).items()]
    carried = ", ".join(items) or "no weapons"
    return f"{carried}; {t.armour[d['armour']].name}"


def _a(name: str) -> str:
    return f"{'an' if name[:1].upper() in 'AEIOU' else 'a'} {name}"
