"""What each side knows (the kit's view contract): its own men in full, the enemies it
observes now, where it last saw the others, and nothing of the enemy's plot (C-26)."""

from __future__ import annotations

from typing import Any

from killhouse.core.cells import cell_json
from killhouse.rulesets.commando import devices, hostages, missions, pickup
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.wounds import Wound
from killhouse.rulesets.kit.flow import own_question, windows_json
from killhouse.rulesets.kit.view import Status, viewer

STATUS = {
    Wound.UNWOUNDED: Status.ACTIVE, Wound.WOUNDED: Status.WOUNDED,
    Wound.SERIOUS: Status.WOUNDED, Wound.INCAPACITATED: Status.INCAPACITATED,
    Wound.DEAD: Status.DEAD,
}


def status(man: ManState) -> str:
    return STATUS.get(man.wound(), Status.ACTIVE).value


def own(state: CommandoState, man: ManState) -> dict[str, Any]:
    return {
        "id": man.id, "side": man.side, "at": cell_json(state.pos[man.id]),
        "status": status(man),
        "wound": man.wound().value, "tp": man.tp, "move_tp": man.move_tp,
        "posture": man.posture.value, "weapon": man.in_hand or "pistol",
        "empty": sorted(man.empty), "plotted": man.plotted, "activated": man.activated,
        "kind": man.ratings.kind.value,
        **({"aloft": True} if man.aloft else {}),  # up a tree (C-188)
    }


def view(state: CommandoState, side: str) -> dict[str, Any]:
    enemy = state.enemy(side)
    seen = [
        # the web table colours figures by side; an observed man's side is known (C-11)
        {"id": m.id, "side": m.side, "at": cell_json(state.pos[m.id]), "status": status(m),
         "posture": m.posture.value, **({"aloft": True} if m.aloft else {})}
        for m in state.side_men(enemy) if m.id in state.observed[side]
    ]
    remembered = [
        {"id": i, "side": enemy, "at": cell_json(at), "turn": when}
        for i, (at, when) in sorted(state.last_seen[side].items())
        if i not in state.observed[side]
    ]
    out = (Status.DEAD.value, Status.INCAPACITATED.value)
    goals = [e["at"] for e in seen if e["status"] not in out] + [r["at"] for r in remembered]
    mission = state.mission
    if mission is not None and side == state.sides[0]:
        # ruling C-155: the targets still standing draw the first side
        goals += [cell_json(c) for name, cells in sorted(mission.targets.items())
                  if name not in state.destroyed for c in sorted(cells)]
    known = hostages.view(state, side) if state.hostages else []
    if mission is not None and mission.kind == "rescue" and side == state.sides[0]:
        # ruling C-175: the hostages it knows of still held draw the rescuers, else where
        # they are said to be held
        goals += [h["at"] for h in known if h["status"] == hostages.HELD]
        if len(known) < len(state.hostages):  # some never seen: search where they are said
            goals += [cell_json(c) for c in sorted(mission.location)  # to be, out of sight
                      if not hostages.sees_cell(state, side, c)]
    return {
        "side": side,
        "viewer": viewer(side),
        "turn": state.turn,
        "phase": state.phase,
        "figures": [own(state, m) for m in state.side_men(side)],
        "seen": seen,
        "remembered": remembered,
        "sounds": list(state.sounds.get(side, [])),
        "goals": goals,
        "public": {
            "turn_limit": state.limit, "weather": state.weather, "light": state.light,
            "active_side": state.active_side,
            "waiting": [s for w in state.windows for s in w.waiting()],
            "committed": sorted(state.committed),
            # searchlights are seen by everyone (ruling C-123)
            "mission": None if mission is None else missions.public(mission, state.destroyed),
            "searchlights": {i: {"at": cell_json(lt.at),
                                 "aim": None if lt.aim is None else cell_json(lt.aim)}
                             for i, lt in sorted(state.lights.items())},
        },
        "active_man": state.active_man if state.active_side == side else None,
        "question": own_question(state.windows, side),
        "ordnance": devices.view(state, side),
        # rulings C-185, C-186: the acting side's own panic or forced move, while it waits
        **({"forced": state.forced} if state.forced and state.active_side == side else {}),
        # only where the scenario has hostages (ruling C-171), so other games' views keep
        # their shape
        **({"hostages": known} if state.hostages else {}),
        # ruling C-179: weapons lying where the side sees (only when there are some)
        **({"weapons": lying} if (lying := pickup.view(state, side)) else {}),
    }


def known_ids(state: CommandoState, side: str) -> frozenset[str]:
    return frozenset({m.id for m in state.side_men(side)} | state.ever_seen[side])


def secret_ids(state: CommandoState, side: str) -> frozenset[str]:
    return frozenset(m.id for m in state.side_men(state.enemy(side)))


def snapshot(state: CommandoState) -> dict[str, Any]:
    return {
        "sides": list(state.sides),
        "turn": state.turn,
        "phase": state.phase,
        "active_side": state.active_side,
        "active_man": state.active_man,
        "committed": sorted(state.committed),
        "figures": [
            {**own(state, m), "damage": m.damage}
            for _, m in sorted(state.men.items())
        ],
        "observed": {s: sorted(v) for s, v in sorted(state.observed.items())},
        "last_seen": {s: {i: [cell_json(c), t] for i, (c, t) in sorted(v.items())}
                      for s, v in sorted(state.last_seen.items())},
        "windows": windows_json(state.windows),
        "ordnance": devices.snapshot(state),
        "destroyed": sorted(state.destroyed),
        **({"hostages": [{"id": h.id, "at": cell_json(hostages.where(state, h)),
                          "status": h.status, "escort": h.escort}
                         for _, h in sorted(state.hostages.items())]}
           if state.hostages else {}),
        **({"held_turns": state.held_turns}
           if state.mission is not None and state.mission.kind == "hold" else {}),
        "result": None if state.result is None else state.result.to_json(),
        # rulings C-185, C-186: only while a panic or a forced move waits (old hashes stand)
        **({"forced": state.forced} if state.forced else {}),
    }
