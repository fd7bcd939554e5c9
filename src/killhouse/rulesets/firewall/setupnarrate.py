"""Narration of the set-up decisions made in play (fwsetup: entry edges, the game master's
counters, the deployment of "A Walk in the Park")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NAMES = {"n": "north", "e": "east", "s": "south", "w": "west"}


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
    if k == "deployed":
        if d.get("at") is None:
            return f"{d['figure']} waits off the table, to come on over any edge."
        level, x, y = d["at"]
        return f"{d['figure']} deploys hidden at ({x},{y})."
    if k == "path-end":
        side = {"w": "west", "e": "east"}.get(str(d["end"]), d["end"])
        return f"{d['team']} starts at the {side} end of the path."
    if k == "counter-placed":
        level, x, y = d["at"]
        where = f"({x},{y})" if level == 0 else f"({x},{y} level {level})"
        return f"the game master places counter {d['number']} at {where}."
    return None
