"""What each side knows (digest §21.4, ruling F-60), in the view contract of ``kit.view``.

Own figures in full (Gutz, CP, grenades, weapon states). An enemy is shown only while an
active friendly figure sees it (``vision``), and then only its position, facing, standing,
prone / suppressed state and the weapons in hand — never its Gutz, CP, drugs, grenades or
ammunition, never a concealed pistol, Mono-Weave or cyberware.
"""

from __future__ import annotations

from typing import Any

from killhouse.rulesets.firewall.flow import FirewallState
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status
from killhouse.rulesets.firewall.vision import seen_by_side
from killhouse.rulesets.kit.view import Status as ViewStatus
from killhouse.rulesets.kit.view import viewer

#: firewall standings in the shared view vocabulary
VIEW_STATUS: dict[Status, ViewStatus] = {
    Status.ACTIVE: ViewStatus.ACTIVE,
    Status.INCAPACITATED: ViewStatus.INCAPACITATED,
    Status.KILLED: ViewStatus.DEAD,
    Status.ROUTED: ViewStatus.OUT_OF_ACTION,
    Status.EXITED: ViewStatus.OFF_MAP,
}


def _at(f: Figure) -> list[int] | None:
    if f.status in (Status.ROUTED, Status.EXITED):
        return None
    return [f.level, *f.cell]


def own_figure(f: Figure) -> dict[str, Any]:
    """Everything about a figure of the viewing side."""
    return {
        "id": f.id, "team": f.team, "at": _at(f), "facing": list(f.facing),
        "status": VIEW_STATUS[f.status].value, "leader": f.is_leader, "gutz": f.gutz,
        "start_gutz": f.start_gutz, "experience": f.experience, "prone": f.prone,
        "suppressed": f.suppressed, "armour": f.armour, "weapons": list(f.weapons),
        "weapon_state": dict(sorted(f.weapon_state.items())),
        "grenades": dict(sorted(f.grenades.items())), "cp": f.cp,
        "cyber": sorted(f.cyber), "skills": dict(sorted(f.skills.items())),
        "move_used": f.move_used, "combat_used": f.combat_used,
        "failed": f.failed_this_turn,
    }


def _in_hand(f: Figure) -> list[str]:
    """Weapons an enemy can see: not concealed pistols (F-60: pistols are the concealable
    firearms of the scenarios)."""
    return [tables().weapons[w].name for w in f.weapons if tables().weapons[w].group != "pistol"]


def seen_figure(f: Figure) -> dict[str, Any]:
    """What a side may know of an enemy it sees (§21.4)."""
    return {
        "id": f.id, "at": _at(f), "facing": list(f.facing),
        "status": VIEW_STATUS[f.status].value, "prone": f.prone, "suppressed": f.suppressed,
        "weapons": _in_hand(f),
    }


def view(state: FirewallState, side: str) -> dict[str, Any]:
    """The side's view: its own figures, the enemies it sees now, the public Turn facts."""
    seen = seen_by_side(state.board, state.figures, side)
    own = [own_figure(f) for f in state.figures.values() if f.side == side]
    active = state.teams[state.active_team] if state.active_team else None
    return {
        "side": side,
        "viewer": viewer(side),
        "turn": state.turn,
        "phase": state.phase,
        "figures": own,
        "seen": [seen_figure(state.figures[i]) for i in sorted(seen)],
        "remembered": [],
        "sounds": [],
        "goals": [],
        "public": {
            "turn_limit": state.turn_limit,
            "initiative": list(state.order),
            "acting_side": active.side if active else None,
            "teams": {t.id: {"side": t.side, "aware": t.aware} for t in state.teams.values()
                      if t.side == side},
        },
    }


def known_ids(state: FirewallState, side: str) -> frozenset[str]:
    """Ids the side may name: its own figures and teams, and the enemies it sees now."""
    own = {f.id for f in state.figures.values() if f.side == side}
    teams = {t.id for t in state.teams.values() if t.side == side}
    return frozenset(own | teams | seen_by_side(state.board, state.figures, side))


def secret_ids(state: FirewallState, side: str) -> frozenset[str]:
    """Every other side's figures and teams (named only while ``known_ids`` allows)."""
    figures = {f.id for f in state.figures.values() if f.side != side}
    teams = {t.id for t in state.teams.values() if t.side != side}
    return frozenset(figures | teams)
