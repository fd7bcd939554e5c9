"""What each side is shown (6.3), the umpire's snapshot, and the state's invariants."""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import Any, cast

from killhouse.core.cells import Cell, cell_json
from killhouse.core.terrain import Terrain, passable_mask
from killhouse.rulesets.execute.state import (
    ACTIVE,
    AGENT,
    DEAD,
    HOSTAGE,
    INCAPACITATED,
    REMOVED,
    ExecuteState,
    Figure,
)
from killhouse.rulesets.execute.vision import MEMO_LIMIT, bomb_info, seen_info, visible_ids
from killhouse.rulesets.kit.view import viewer

DOOR_STATES = {
    int(Terrain.DOOR_CLOSED): "closed",
    int(Terrain.DOOR_OPEN): "open",
    int(Terrain.DOOR_LOCKED): "locked",
}


def role(state: ExecuteState, side: str) -> str:
    return "fbi" if side == state.fbi else "terrorists"


@lru_cache(maxsize=64)
def _cells(cells: frozenset[Cell]) -> list[list[int]]:
    """A zone's squares as ``cell_json`` writes them, in order: made once per zone and shared
    by every view (a view is read, never written; the zones hold hundreds of squares)."""
    return list(map(list, _sorted(cells)))


def _kept(state: ExecuteState, key: tuple[Any, ...], made_from: Any, make: Any) -> Any:
    """The view part named ``key``, made by ``make()`` and kept in ``state.memo`` under
    ``made_from`` (everything it is made from): the same inputs give the part made before,
    shared by the views that show it (a view is read, never written). A figure's entry is
    kept under its ``written`` number, a memory under the memory itself (a sight refresh
    makes a new one for any change), the doors and devices under what they show."""
    found = state.memo.get(key)
    if found is not None and (found[0] is made_from or found[0] == made_from):
        return found[1]
    part = make()
    if len(state.memo) >= MEMO_LIMIT:
        state.memo.clear()
    state.memo[key] = (made_from, part)
    return part


@lru_cache(maxsize=64)
def _sorted(cells: frozenset[Cell]) -> tuple[Cell, ...]:
    """A zone's squares in order (the entry and extraction zones, asked for at every view)."""
    return tuple(sorted(cells))


def _devices(state: ExecuteState, side: str) -> list[dict[str, Any]]:
    """Every building device with its level (E-20); lock states as the side last saw them
    (kept while the devices and the side's doors read the same)."""
    doors = state.doors.get(side, {})
    # the devices are built whole with the state and only ever switched off (``working``)
    shown = (state.devices, tuple([d.working for d in state.devices.values()]))
    locks = (
        ()
        if side == state.fbi
        else tuple(doors.get(d.at) for d in state.devices.values() if d.type == "lock")
    )
    return cast(
        "list[dict[str, Any]]",
        _kept(state, ("view-devices", side), (shown, locks), lambda: _make_devices(state, side)),
    )


def _make_devices(state: ExecuteState, side: str) -> list[dict[str, Any]]:
    out = []
    doors = state.doors.get(side, {})
    for d in sorted(state.devices.values(), key=lambda d: d.id):
        info = d.to_json()
        if d.type == "lock" and side != state.fbi:
            info["working"] = doors.get(d.at) == int(Terrain.DOOR_LOCKED)
        out.append(info)
    return out


def _goals(
    state: ExecuteState, side: str, seen: list[dict[str, Any]], remembered: list[dict[str, Any]]
) -> list[list[int]]:
    """Cells the side's mission draws it to (FBI: hostages, bombs, the way out; terrorists:
    the hostages they guard and the ways in)."""
    goals: list[list[int]] = []
    hostages = [
        x
        for x in [*seen, *remembered]
        if x.get("kind") == HOSTAGE
        and x.get("status") in (ACTIVE, INCAPACITATED)
        and x.get("at") is not None
    ]
    zone: frozenset[Cell] = frozenset()
    if side == state.fbi:
        goals += [x["at"] for x in hostages if x.get("leader") is None]
        goals += [
            [b.at.level, b.at.x, b.at.y]
            for b in state.bombs.values()
            if b.seen_by_fbi and b.state == "armed"
        ]
        if any(h.leader is not None and h.active for h in state.hostages()):
            zone = state.extraction
    else:
        goals += [x["at"] for x in hostages]
        zone = state.entry
    unique: list[list[int]] = []
    met: set[tuple[int, ...]] = set()
    for g in goals:
        key = tuple(g)
        if key not in met:
            met.add(key)
            unique.append(g)
    # the zone's squares last, each once (a zone holds hundreds, the goals before it a few)
    cells = _sorted(zone)
    if met.isdisjoint(cells):
        unique += _cells(zone)  # the zone's kept lists (``_cells``), shared as views share them
    else:
        unique += [list(c) for c in cells if c not in met]
    return unique


def surveillance(state: ExecuteState, side: str) -> dict[str, Any] | None:
    """The surveillance result as ``side`` was told it: the FBI's contacts by handle (E-65)."""
    if not state.surveillance:
        return None
    if side != state.fbi:
        return state.surveillance
    return {
        "roll": state.surveillance["roll"],
        "revealed": [
            {**r, "id": state.handle(side, r["id"])} for r in state.surveillance["revealed"]
        ],
    }


_ID = attrgetter("id")


def _seen(state: ExecuteState, figure: Figure, side: str) -> dict[str, Any]:
    """``seen_info``, kept under the figure's ``written`` number (and the side it is for)."""
    return cast(
        "dict[str, Any]",
        _kept(state, ("view-seen", figure.id, side), figure.written,
              lambda: seen_info(state, figure, side)),
    )


def view(state: ExecuteState, side: str) -> dict[str, Any]:
    """Everything ``side`` knows now, and nothing more (6.3, ruling E-7)."""
    now = visible_ids(state, side)
    figures = state.figures
    # each list kept whole under its figures' written numbers (a number belongs to one write
    # of one figure, so the numbers name the figures and what they were), each entry under
    # its own figure's or memory's
    ours = [f for f in figures.values() if f.side == side]
    own = _kept(state, ("view-own", side), tuple([f.written for f in ours]), lambda: [
        _kept(state, ("view-figure", f.id), f.written, f.to_json) for f in sorted(ours, key=_ID)
    ])
    in_sight = sorted(now)
    seen = _kept(state, ("view-seen", side), tuple([figures[i].written for i in in_sight]),
                 lambda: [_seen(state, figures[i], side) for i in in_sight])
    memory = state.memory.get(side, {})
    out_of_sight = tuple([(i, m) for i, m in sorted(memory.items()) if i not in now])
    remembered = _kept(state, ("view-remembered", side), out_of_sight, lambda: [
        _kept(state, ("view-memory", side, i), m, m.to_json) for i, m in out_of_sight
    ])
    sounds: list[dict[str, Any]] = [
        {"kind": "explosion", **e} for e in state.explosions if e["turn"] >= state.turn - 1
    ]
    if side == state.terrorists:
        sounds += [{"kind": "alert", **a} for a in state.alerts if a["turn"] >= state.turn - 1]
        bombs = []
        for bomb in sorted(state.bombs.values(), key=lambda b: b.id):
            info = bomb.to_json()
            info.pop("seen_by_fbi", None)
            if bomb.state == "disarmed" and bomb.terrorists_think_armed:
                info["state"] = "armed"  # nobody saw the disarm
            bombs.append(info)
    else:
        bombs = [
            {"id": b.id, **bomb_info(state, b)}
            for b in sorted(state.bombs.values(), key=lambda b: b.id)
            if b.seen_by_fbi
        ]
    known = state.doors.get(side, {})
    doors = _kept(state, ("view-doors", side), tuple(known.items()), lambda: [
        {"at": cell_json(c), "state": DOOR_STATES.get(t, "open")} for c, t in sorted(known.items())
    ])
    last = state.initiative[-1] if state.initiative else None
    out: dict[str, Any] = {
        "side": side,
        "viewer": viewer(side),  # the view contract (kit/view.py): a side, no seats
        "role": role(state, side),
        "turn": state.turn,
        "phase": state.phase,
        "acting": state.acting_side()
        if state.phase in ("grenades", "tasks", "movement", "firing")
        else None,
        "acted": sorted(
            i
            for i in state.acted
            if state.figures.get(i) is not None and state.figures[i].side == side
        ),
        "figures": own,
        "seen": seen,
        "remembered": remembered,
        "sounds": sounds,
        "goals": _goals(state, side, seen, remembered),
        "bombs": bombs,
        "doors": doors,
        "public": {
            "turn_limit": state.options.turn_limit,
            "hostages": state.hostage_count,
            "initiative": last if last and last["turn"] == state.turn else None,
            "devices": _devices(state, side),
            "entry": _cells(state.entry),
            "extraction": _cells(state.extraction),
            "explosions": list(state.explosions),
            "surveillance": surveillance(state, side),
            "released": list(state.released),
            "open_map": state.options.open_map,
        },
    }
    if side == state.fbi:
        out["pool"] = list(state.pool)
        out["notes"] = list(state.notes)
    if state.result is not None:
        out["result"] = state.result.to_json()
    return out


def secret_ids(state: ExecuteState, side: str) -> frozenset[str]:
    """Ids placed hidden from ``side``: the terrorists' figures, hostages and bombs for the FBI;
    the FBI's roster (chosen in secret, E-36) for the terrorists."""
    if side == state.fbi:
        ids = {f.id for f in state.figures.values() if f.side == state.terrorists}
        ids |= {f.id for f in state.hostages()}
        ids |= set(state.bombs)
        return frozenset(ids)
    ids = {f.id for f in state.agents()} | set(state.benched)
    return frozenset(ids)


def snapshot(state: ExecuteState) -> dict[str, Any]:
    """The full true state as JSON (umpire view, state hashes)."""
    return {
        "sides": [state.fbi, state.terrorists],
        "phase": state.phase,
        "turn": state.turn,
        "order": list(state.order),
        "slot": state.slot,
        "acted": sorted(state.acted),
        "threw_this_slot": state.threw_this_slot,
        "last_mover": state.last_mover,
        "figures": [f.to_json() for f in sorted(state.figures.values(), key=lambda f: f.id)],
        "benched": sorted(state.benched),
        "pool": list(state.pool),
        "devices": [d.to_json() for d in sorted(state.devices.values(), key=lambda d: d.id)],
        "bombs": [
            b.to_json() | {"terrorists_think_armed": b.terrorists_think_armed}
            for b in sorted(state.bombs.values(), key=lambda b: b.id)
        ],
        "board": state.board.fingerprint(),
        "known": {s: sorted(v) for s, v in sorted(state.known.items())},
        "seen": {s: sorted(v) for s, v in sorted(state.seen.items())},
        "memory": {
            s: [m.to_json() for _, m in sorted(v.items())] for s, v in sorted(state.memory.items())
        },
        "doors": {
            s: [[cell_json(c), t] for c, t in sorted(v.items())]
            for s, v in sorted(state.doors.items())
        },
        "alerts": list(state.alerts),
        "explosions": list(state.explosions),
        "initiative": list(state.initiative),
        "surveillance": state.surveillance,
        "handles": {s: dict(sorted(v.items())) for s, v in sorted(state.handles.items())},
        "released": list(state.released),
        "negotiation_ended": sorted(state.negotiation_ended),
        "messages": dict(sorted(state.messages.items())),
        "notes": list(state.notes),
        "claim_counter": state.claim_counter,
        "conceded": state.conceded,
        "result": state.result.to_json() if state.result else None,
    }


def invariants(state: ExecuteState) -> list[str]:
    """Broken rules of the state: occupancy (E-4), statuses (5.5), leaders (E-30), places."""
    problems: list[str] = []
    where: dict[Cell, str] = {}
    for f in state.figures.values():
        if f.damage < 0 or f.grenades < 0:
            problems.append(f"{f.id} has negative damage or grenades")
        if f.status in REMOVED:
            if f.pos is not None:
                problems.append(f"{f.id} is {f.status} but still on the map")
            continue
        left = f.vitality_left
        expect = DEAD if left <= 0 else INCAPACITATED if left == 1 else ACTIVE
        if f.status != expect:
            problems.append(f"{f.id} is {f.status} with {left} vitality left (expected {expect})")
        if f.pos is None:
            if f.kind != AGENT or f.status != ACTIVE:
                problems.append(f"{f.id} ({f.kind}, {f.status}) is off the map")
            continue
        if not state.board.in_bounds(f.pos):
            problems.append(f"{f.id} is off the board at {f.pos}")
            continue
        if f.status == ACTIVE:
            if not bool(passable_mask(state.board.levels[f.pos.level].terrain)[f.pos.y, f.pos.x]):
                problems.append(f"{f.id} stands on an impassable square {f.pos}")
            if f.pos in where:
                problems.append(f"{f.id} and {where[f.pos]} share {f.pos} (E-4)")
            where[f.pos] = f.id
        if f.leader is not None:
            leader = state.figures.get(f.leader)
            if f.kind != HOSTAGE or not f.active or leader is None or not leader.active:
                problems.append(f"{f.id} has a leader {f.leader} it cannot follow (E-30)")
    for b in state.bombs.values():
        if b.state not in ("armed", "disarmed", "exploded"):
            problems.append(f"bomb {b.id} in unknown state {b.state}")
    return problems
