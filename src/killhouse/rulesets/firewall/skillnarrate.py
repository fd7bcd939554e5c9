"""Narration of the events of climbing, storeys, skills in play and drug criticals (fwskill)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def narrate_skills(k: str, d: Mapping[str, Any]) -> str | None:
    """One line for an event of ``heights``, ``storeys``, ``skillplay`` or ``frenzy``; else
    ``None``."""
    if k == "climb":
        hang = f", hanging at {d['height']} cm" if d.get("height") not in ("0", None) else ""
        return f"{d['figure']} climbs {d.get('dice')}: {d['result']}; at {d['to']}{hang}."
    if k == "jump":
        return f"{d['figure']} jumps {d.get('dice')}: {d['result']}; at {d['to']}."
    if k == "leap":
        return f"{d['figure']} leaps down to {d['to']}."
    if k == "fall":
        attacks = ", ".join(map(str, d["attacks"])) or "no attack"
        return f"{d['figure']} falls {d['height']} cm: {attacks}; {d['status']}."
    if k == "stairs":
        how = f" {d.get('dice')}: {d['result']};" if d.get("dice") else ""
        return f"{d['figure']} takes the stairs{how} at {d['to']}."
    if k == "repair":
        return (f"{d['figure']} works on {d['patient']}'s {d['system']} {d.get('dice')}: "
                f"{d['result']}.")
    if k == "treat":
        what = "revive" if d.get("revive") else "treat"
        return f"{d['figure']} tries to {what} {d['patient']} {d.get('dice')}: {d['result']}."
    if k == "revived":
        return f"{d['figure']} stirs: revived by a medic."
    if k == "treat-down":
        return f"{d['figure']} is {d['status']} by a botched treatment."
    return None
