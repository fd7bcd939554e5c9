"""What each side knows (digest §21.4, ruling F-60), in the view contract of ``kit.view``.

Own figures in full (Gutz, CP, grenades, weapon states). An enemy is shown only while an
active friendly figure sees it (``vision``), and then only its position, facing, standing,
prone / suppressed state and the weapons in hand — never its Gutz, CP, drugs, grenades or
ammunition, never a concealed pistol, Mono-Weave or cyberware.
"""

from __future__ import annotations

from typing import Any

from killhouse.rulesets.firewall.doors import doors_view  # fwdoors hook (F-233)
from killhouse.rulesets.firewall.entryedges import edges_view
from killhouse.rulesets.firewall.objectives import HOSTAGES
from killhouse.rulesets.firewall.state import FirewallState, side_sees
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status
from killhouse.rulesets.firewall.trapplay import traps_view  # fwdoors hook (F-237)
from killhouse.rulesets.kit.flow import own_question, windows_json
from killhouse.rulesets.kit.view import Status as ViewStatus
from killhouse.rulesets.kit.view import viewer

#: firewall standings in the shared view vocabulary
VIEW_STATUS: dict[Status, ViewStatus] = {
    Status.ACTIVE: ViewStatus.ACTIVE,
    Status.INCAPACITATED: ViewStatus.INCAPACITATED,
    Status.KILLED: ViewStatus.DEAD,
    Status.ROUTED: ViewStatus.OUT_OF_ACTION,
    Status.EXITED: ViewStatus.OFF_MAP,
    Status.RESERVE: ViewStatus.OFF_MAP,
    Status.ABOARD: ViewStatus.ACTIVE,  # vehicles: inside a vehicle (own side only)
}


def _at(f: Figure) -> list[int] | None:
    if f.status in (Status.ROUTED, Status.EXITED, Status.RESERVE, Status.ABOARD):
        return None  # ABOARD: inside a vehicle, at its place (vehicles hook)
    return [f.level, *f.cell]


def own_figure(f: Figure) -> dict[str, Any]:
    """Everything about a figure of the viewing side."""
    return {
        "id": f.id, "team": f.team, "at": _at(f), "facing": list(f.facing),
        "status": VIEW_STATUS[f.status].value, "leader": f.is_leader, "gutz": f.gutz,
        "start_gutz": f.start_gutz, "experience": f.experience, "prone": f.prone,
        "suppressed": f.suppressed, "armour": f.armour, "weapons": list(f.weapons),
        "melee": list(f.melee),
        "drugs": dict(sorted(f.drugs.items())),
        "drug_effects": dict(sorted(f.drug_effects.items())),
        "weapon_state": dict(sorted(f.weapon_state.items())),
        "grenades": dict(sorted(f.grenades.items())), "cp": f.cp,
        "cyber": sorted(f.cyber), "skills": dict(sorted(f.skills.items())),
        "move_used": f.move_used, "combat_used": f.combat_used,
        "failed": f.failed_this_turn, "hidden": f.hidden, "carrying": f.carrying,
        "alarm": f.alarm,
        # vehicles hook (§17): the vehicle it sits in and its personal transport, when any
        **({"aboard": f.aboard} if f.aboard else {}),
        **({"transport": f.transport, "riding": f.riding} if f.transport else {}),
        **_climbing(f),  # fwskill hook: a figure hanging on a face (§6.6)
    }


def _climbing(f: Figure) -> dict[str, Any]:
    """Where a climber hangs (§6.6, F-181): public like its position, shown only when so."""
    if f.climb_to is None:
        return {}
    level = f.level if f.climb_level is None else f.climb_level  # F-251: to the storey above
    return {"climbing": {"to": [level, *f.climb_to], "height": float(f.hang)}}


def _in_hand(f: Figure) -> list[str]:
    """Weapons an enemy can see: not concealed pistols (F-60: pistols are the concealable
    firearms of the scenarios) nor knives (F-109); swords, hammers and the like are seen."""
    hidden = set(tables().melee["concealed_items"])
    return [tables().weapons[w].name for w in f.weapons if tables().weapons[w].group != "pistol"
            ] + [m.replace("_", " ") for m in f.melee if m not in hidden]


def seen_figure(f: Figure) -> dict[str, Any]:
    """What a side may know of an enemy it sees (§21.4)."""
    return {
        "id": f.id, "at": _at(f), "facing": list(f.facing),
        "side": f.side, "status": VIEW_STATUS[f.status].value, "prone": f.prone,
        "suppressed": f.suppressed, "weapons": _in_hand(f), "captured": f.captured,
        **_climbing(f),
    }


def _carrying(state: FirewallState, f: Figure, known: set[str]) -> dict[str, Any]:
    """A seen figure, with what it carries when the viewer may name that figure."""
    out = seen_figure(f)
    if f.carrying is not None and f.carrying in known:
        out["carrying"] = f.carrying
    return out


def view(state: FirewallState, side: str) -> dict[str, Any]:
    """The side's view: its own figures, the enemies it sees now, the public Turn facts."""
    from killhouse.rulesets.firewall.setupphase import setup_view  # fwsetup
    from killhouse.rulesets.firewall.vehicles.views import vehicles_view
    seen = side_sees(state, side)  # vehicle crews' sight; a GM sees all (F-196)
    own = [own_figure(f) for f in state.figures.values() if f.side == side]
    known = seen | {f.id for f in state.figures.values() if f.side == side}
    for f in own:
        if f["carrying"] is not None and f["carrying"] not in known:
            f["carrying"] = None  # never: a carried figure is always seen with its carrier
    active = state.teams[state.active_team] if state.active_team else None
    umpire = side not in state.players
    return {
        "side": side,
        "viewer": viewer(side),
        "turn": state.turn,
        "phase": state.phase,
        "figures": own,
        "seen": [_carrying(state, state.figures[i], known) for i in sorted(seen)],
        "remembered": [
            {"id": fid, "side": state.figures[fid].side, "at": [lv, x, y], "turn": turn}
            for fid, (lv, x, y, turn) in sorted(state.last_seen.get(side, {}).items())
            if fid not in seen
        ],
        "sounds": [],
        "goals": _goals(state, side),
        "counters": [
            {"id": c.id, "number": c.number, "at": [c.level, *c.cell],
             **({"is": "spike" if c.id == state.spike else "trap"} if umpire else {})}
            for c in sorted(state.counters.values(), key=lambda c: c.number) if not c.resolved
            and c.id not in state.unplaced  # fwsetup: not yet on the table (F-214)
        ],
        "spike": _spike(state, side, known),
        "lonnie_says": state.intel.get(side),
        "alarm": ({"raised": state.alarm_raised, "count": state.alarm_count}
                  if state.objective.alarm_team in state.teams
                  and state.teams[state.objective.alarm_team].side == side else None),
        # vehicles hook (§17, §21.4): only in games with vehicles
        **({"vehicles": vehicles_view(state, side)} if state.vehicles else {}),
        # fwdoors hook (F-233): the map's doors as the side last saw them, on maps with doors
        **({"doors": d} if (d := doors_view(state, side)) else {}),
        # fwdoors hook (F-237): the traps the side knows of, once there are any
        **({"traps": t} if (t := traps_view(state, side)) else {}),
        **setup_view(state, side),  # fwsetup: what this side still decides in set-up
        # ruling F-197: the question put to this side in mid-resolution (the GM's lie)
        **({"question": q} if (q := own_question(state.windows, side)) else {}),
        "public": {
            "clouds": _clouds(state),
            "sections": [{"id": x.id, "destroyed": x.destroyed}
                         for x in sorted(state.sections.values(), key=lambda x: x.id)],
            "scenario": state.objective.kind,
            "entry": dict(sorted(state.entry.items())),
            **edges_view(state),  # fwsetup: who chooses an edge next, which are free (F-211)
            "turn_limit": state.turn_limit,
            "initiative": list(state.order),
            "acting_side": active.side if active else None,
            "teams": {t.id: {"side": t.side, "aware": t.aware} for t in state.teams.values()
                      if t.side == side},
        },
    }


def _clouds(state: FirewallState) -> list[dict[str, Any]]:
    """Clouds on the table are public (§9: they are seen by everyone)."""
    return [{"id": c.id, "grenade": c.grenade, "level": c.level,
             "squares": [list(sq) for sq in c.squares], "until": c.until}
            for c in state.clouds]


def _spike(state: FirewallState, side: str, known: set[str]) -> dict[str, Any] | None:
    """Where the data-spike is, as far as the side knows: held by a figure it may name, or
    lying dropped where it sees (ruling F-83: a dropped spike is seen like a counter)."""
    if state.spike_holder is not None and state.spike_holder in known:
        return {"holder": state.spike_holder}
    if state.spike_at is not None:
        return {"at": list(state.spike_at)}
    if side not in state.players and state.spike is not None:
        return {"counter": state.spike}
    return None


def _goals(state: FirewallState, side: str) -> list[list[int]]:
    """Cells the scenario draws the side to (public facts only): unresolved counters, a
    dropped spike, its entry edge's middle once it holds the spike."""
    goals = [[c.level, *c.cell] for c in state.counters.values() if not c.resolved
             and c.id not in state.unplaced]
    if state.spike_at is not None:
        goals.append(list(state.spike_at))
    return goals


def snapshot(state: FirewallState) -> dict[str, Any]:
    """The full true state as JSON (umpire view and state hashes)."""
    from killhouse.rulesets.firewall.vehicles.views import vehicles_snapshot
    return {
        "sides": list(state.sides),
        "players": list(state.players),
        "turn": state.turn,
        "phase": state.phase,
        "order": list(state.order),
        "step": state.step,
        "active_team": state.active_team,
        "figures": [
            {**own_figure(f), "side": f.side, "carried_by": f.carried_by,
             "captured": f.captured, "kind": f.kind,
             "status_detail": f.status.value}
            for f in state.figures.values()
        ],
        "teams": [
            {"id": t.id, "side": t.side, "members": list(t.members), "leader": t.leader,
             "aware": t.aware, "activated": t.activated_this_turn, "leader_lost": t.leader_lost}
            for t in state.teams.values()
        ],
        "counters": [
            {"id": c.id, "number": c.number, "at": [c.level, *c.cell], "resolved": c.resolved}
            for c in state.counters.values()
        ],
        "spike": state.spike, "spike_holder": state.spike_holder,
        "spike_at": list(state.spike_at) if state.spike_at else None,
        "spike_out": state.spike_out,
        "alarm": {"raised": state.alarm_raised, "count": state.alarm_count},
        "arrival": dict(sorted(state.arrival.items())),
        "combat_happened": state.combat_happened,
        "intel": dict(sorted(state.intel.items())),
        "last_seen": {side: {fid: list(v) for fid, v in sorted(notes.items())}
                      for side, notes in sorted(state.last_seen.items())},
        "sections": [{"id": x.id, "level": x.level, "squares": [list(q) for q in x.squares],
                      "armour": x.armour, "gutz": x.gutz, "destroyed": x.destroyed}
                     for x in state.sections.values()],
        "brownie": dict(sorted(state.brownie.items())),
        "entry": dict(sorted(state.entry.items())),
        "clouds": [{**c, "gutz": cl.gutz, "attacked": dict(sorted(cl.attacked.items()))}
                   for c, cl in zip(_clouds(state), state.clouds, strict=True)],
        "result": state.result.to_json() if state.result else None,
        **vehicles_snapshot(state),  # vehicles hook
        **({"windows": windows_json(state.windows)} if state.windows else {}),
        **({"entering": sorted(state.entering)} if state.entering else {}),
        **({"traps": [{"id": t.id, "side": t.side, "at": list(t.spot), "result": t.result,
                       "known": sorted(t.known)} for t in state.traps],
            "traps_set": state.traps_set} if state.traps_set else {}),  # fwdoors hook
        **({"doors": {s: sorted([*k, v] for k, v in notes.items())  # fwdoors hook (F-233)
                      for s, notes in sorted(state.doors.items())}} if state.doors else {}),
        # fwsetup: set-up in play (F-210, F-214)
        **({"edge_order": list(state.edge_order)} if state.edge_order else {}),
        **({"unplaced": list(state.unplaced)} if state.unplaced else {}),
        **({"deploying": list(state.deploying)} if state.deploying else {}),
        **({"any_edge": sorted(state.any_edge)} if state.any_edge else {}),
        **({"end_team": state.end_team} if state.end_team else {}),
    }


def known_ids(state: FirewallState, side: str) -> frozenset[str]:
    """Ids the side may name: its own figures and teams, and the others it sees now or has
    seen before."""
    from killhouse.rulesets.firewall.vehicles.views import known_vehicle_ids
    own = {f.id for f in state.figures.values() if f.side == side}
    teams = {t.id for t in state.teams.values() if t.side == side}
    return frozenset(own | teams | side_sees(state, side)
                     | set(state.last_seen.get(side, {}))
                     | known_vehicle_ids(state, side))  # vehicles hook


def secret_ids(state: FirewallState, side: str) -> frozenset[str]:
    """Every other side's figures and teams (named only while ``known_ids`` allows); the
    hostages' one team is named after their side, which is public."""
    figures = {f.id for f in state.figures.values() if f.side != side}
    teams = {t.id for t in state.teams.values() if t.side not in (side, HOSTAGES)}
    cars = {v.id for v in state.vehicles.values() if v.side != side}  # vehicles hook
    return frozenset(figures | teams | cars)
