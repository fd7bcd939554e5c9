"""What each side (or, in per-player mode, each figure's player) knows (5.2, G-35, G-36).

A side sees its own figures in full; enemies and hostages seen at the latest spotting
(position and facing only, gone once out of action); the hostages it leads; its sound
markers; the doors it knows open; all smoke; the public announcements; and this turn's
news addressed to it. Nothing is remembered of unseen enemies (G-36). The CT never learn
the bomb's fuse (G-30).
"""

from __future__ import annotations

from typing import Any

from killhouse.core.cells import Cell, cell_json
from killhouse.core.terrain import Terrain
from killhouse.rulesets.gogogo.movement import enterable
from killhouse.rulesets.gogogo.news import report_for, visible
from killhouse.rulesets.gogogo.orders import known_hostages
from killhouse.rulesets.gogogo.state import (
    ACTIVE,
    ASSASSINATION,
    CT,
    DESTRUCTION,
    FIRE,
    HOSTAGE,
    HOSTAGE_MISSION,
    OOA,
    ORDERS,
    RESCUED,
    SETUP,
    Figure,
    GoState,
    Knowledge,
    T,
    id_key,
)
from killhouse.rulesets.gogogo.tables import tables
from killhouse.rulesets.gogogo.vision import leader_team
from killhouse.rulesets.kit.view import Status, viewer

#: the kit's shared status names for gogogo's own (out of action, 3.9)
VIEW_STATUS = {OOA: Status.OUT_OF_ACTION.value}

OWN_KEYS = (
    "id",
    "kind",
    "side",
    "at",
    "facing",
    "status",
    "wounds",
    "stunned_until",
    "weapon",
    "loaded",
    "aim_turns",
    "grenades",
    "posture",
    "hiding",
    "plant_progress",
    "defuse_progress",
    "has_bomb",
)


def resolve_viewer(state: GoState, who: str) -> tuple[str | None, str | None]:
    """(side, seat) for a side id, or for a figure seat in per-player mode (G-35)."""
    if who in state.sides:
        return who, None
    if state.per_player and who in state.figures:
        fig = state.figures[who]
        if fig.fighter and fig.side is not None:
            return fig.side, who
    return None, None


def knowledge(state: GoState, side: str, seat: str | None) -> Knowledge:
    if seat is None:
        return state.know[side]
    return state.seat_know.setdefault(seat, Knowledge())


def led_hostages(state: GoState, side: str) -> list[Figure]:
    """Hostages the side leads or led to safety: it always knows where they are (G-9)."""
    team = state.team(side)
    return [h for h in state.ordered() if h.kind == HOSTAGE and leader_team(state, h) == team]


def known_ids(state: GoState, who: str) -> frozenset[str]:
    side, seat = resolve_viewer(state, who)
    if side is None:
        return frozenset()
    ids = {f.id for f in state.side_figures(side)}
    ids |= knowledge(state, side, seat).seen
    ids |= {h.id for h in led_hostages(state, side)}
    if state.team(side) == T:
        # ruling G-73: the hostages are the terrorists' prisoners (they place them at a
        # secret setup, G-32): T knows who they are, though not where they go once freed
        ids |= {f.id for f in state.figures.values() if f.kind == HOSTAGE}
    bomb = state.bomb
    if bomb is not None and (
        state.team(side) == T or knowledge(state, side, seat).bomb_at is not None
    ):
        ids.add(bomb.id)
    return frozenset(ids)


def secret_ids(state: GoState, who: str) -> frozenset[str]:
    """Enemy figures, hostages, and (for the CT) the bomb: named only once known."""
    side, _seat = resolve_viewer(state, who)
    ids = {f.id for f in state.figures.values() if f.side != side}
    if state.bomb is not None and (side is None or state.team(side) == CT):
        ids.add(state.bomb.id)
    return frozenset(ids)


def _seen_entry(state: GoState, fig: Figure, side: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": fig.id,
        "kind": fig.kind,
        "side": fig.side,
        "at": cell_json(fig.pos),
    }
    if fig.kind == HOSTAGE:
        leader = fig.leader if leader_team(state, fig) == state.team(side) else None
        entry["led_by"] = leader
    else:
        entry["facing"] = fig.facing
    return entry


def own_entry(fig: Figure) -> dict[str, Any]:
    """One of the side's own figures as its view shows it: the ``OWN_KEYS`` of the figure's
    record (in that order, status in the kit's words), then whether it is stunned and active.

    Written out rather than picked from ``Figure.to_json``: every view of every decision
    lists every own figure."""
    status = fig.status
    return {
        "id": fig.id,
        "kind": fig.kind,
        "side": fig.side,
        "at": cell_json(fig.pos),
        "facing": fig.facing,
        "status": VIEW_STATUS.get(status, status),
        "wounds": fig.wounds,
        "stunned_until": fig.stunned_until,
        "weapon": fig.weapon,
        "loaded": fig.loaded,
        "aim_turns": fig.aim_turns,
        "grenades": dict(sorted(fig.grenades.items())),
        "posture": fig.posture,
        "hiding": fig.hiding,
        "plant_progress": fig.plant_progress,
        "defuse_progress": fig.defuse_progress,
        "has_bomb": fig.has_bomb,
        "stunned": fig.stunned,
        "active": fig.active,
    }


def goals(
    state: GoState, side: str, seen: list[Figure], know: Knowledge | None = None
) -> list[list[int]]:
    """Cells the mission draws the side to (for bots and players' eyes).

    ``seen`` and ``know`` are the viewer's: a side's, or one player's (G-35).
    """
    z = state.zones
    team = state.team(side)
    cells: frozenset[Cell] = frozenset()
    if state.mission == HOSTAGE_MISSION:
        if team == CT:
            if any(h.active for h in led_hostages(state, side)):
                cells = z.rescue
            else:
                cells = frozenset(
                    h.pos
                    for h in seen
                    if h.kind == HOSTAGE and h.pos is not None and leader_team(state, h) != CT
                ) or z.location
        else:
            cells = z.location
    elif state.mission == DESTRUCTION:
        bomb = state.bomb
        if team == T:
            if bomb is not None and bomb.pos is not None:
                cells = frozenset((bomb.pos,))
            elif bomb is not None and bomb.carrier is not None:
                cells = z.bomb_sites
        else:
            known = (know or state.know[side]).bomb_at
            cells = frozenset((known,)) if known is not None else z.bomb_sites
    elif state.mission == ASSASSINATION:
        cells = z.escape
    return [list(c) for c in _sorted_cells(cells)]


_SORTED: dict[frozenset[Cell], tuple[Cell, ...]] = {}


def _sorted_cells(cells: frozenset[Cell]) -> tuple[Cell, ...]:
    """``cells`` in (level, y, x) order, remembered: the goals are mostly a mission zone of
    hundreds of squares, and every view of every decision lists them."""
    found = _SORTED.get(cells)
    if found is None:
        if len(_SORTED) >= 4096:
            _SORTED.clear()  # a bound: zones are few, seen-hostage sets come and go
        found = tuple(sorted(cells, key=lambda c: (c.level, c.y, c.x)))
        _SORTED[cells] = found
    return found


def public_part(state: GoState) -> dict[str, Any]:
    smoke: list[list[int]] = []
    for level, lv in enumerate(state.board.levels):
        ys, xs = lv.smoke.nonzero()
        smoke.extend([level, int(x), int(y)] for y, x in zip(ys.tolist(), xs.tolist(), strict=True))
    hostages = [f for f in state.figures.values() if f.kind == HOSTAGE]
    bomb = state.bomb
    return {
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "phase": state.phase,
        "mission": state.mission,
        "smoke": sorted(smoke),
        "announcements": list(state.announcements),
        "hostages": {
            "total": state.hostages_total,
            "rescued": sum(1 for h in hostages if h.status == RESCUED),
            "killed": sum(1 for h in hostages if h.status == OOA),
        },
        "bomb_planted": bool(bomb is not None and bomb.planted),
        "bomb_defused": bool(bomb is not None and bomb.defused),
        "result": ({"winner": state.winner, "reason": state.reason} if state.over else None),
    }


def view(state: GoState, who: str) -> dict[str, Any]:
    """What ``who`` (a side, or a figure's seat in per-player mode) knows now.

    Within one step of decisions the sides only fill their drafts and commit (which adds
    reports and announcements); everything else changes when a step resolves, and every
    resolution clears ``state.cache``. So the rest of the view is built once per step and
    viewer, kept in the cache, and each call fills in the draft, the reports and the
    announcements afresh (in the same key order as a view built whole)."""
    key = ("view", who)
    kept: dict[str, Any] | None = state.cache.get(key)
    if kept is None:
        kept = state.cache[key] = _view(state, who)
    result = dict(kept)
    public = dict(result["public"])
    public["announcements"] = list(state.announcements)
    result["public"] = public
    side = result["side"] if "draft" in result else None
    if side is not None:
        draft = state.drafts.get(side)
        result["draft"] = draft.to_json() if draft is not None else None
        result["reports"] = _reports(state, who)
    return result


def _reports(state: GoState, who: str) -> list[dict[str, Any]]:
    """The turn's reports ``who`` may read. Within a step reports are only appended to (a
    resolution starts a new list), so the copies made before are kept and only the new
    reports are read."""
    key = ("reports", who)
    kept: tuple[list[dict[str, Any]], int, list[dict[str, Any]]] | None = state.cache.get(key)
    reports = state.reports
    if kept is None or kept[0] is not reports or kept[1] > len(reports):
        kept = (reports, 0, [])
    _, done, out = kept
    out = out + [report_for(r, who) for r in reports[done:] if visible(r, who)]
    state.cache[key] = (reports, len(reports), out)
    return list(out)


def _view(state: GoState, who: str) -> dict[str, Any]:
    side, seat = resolve_viewer(state, who)
    if side is None:
        return {
            "side": who,
            "viewer": viewer(who),
            "turn": state.turn,
            "phase": state.phase,
            "figures": [],
            "seen": [],
            "remembered": [],
            "sounds": [],
            "goals": [],
            "public": public_part(state),
        }
    know = knowledge(state, side, seat)
    own = []
    for fig in state.side_figures(side):
        own.append(own_entry(fig))
    seen_figs = [f for f in state.ordered() if f.id in know.seen and f.active]
    seen = [_seen_entry(state, f, side) for f in seen_figs]
    for h in led_hostages(state, side):
        if h.active and h.id not in know.seen:
            seen.append(_seen_entry(state, h, side))
    draft = state.drafts.get(side)
    own_ids = {f.id for f in state.side_figures(side)}
    bomb_view: dict[str, Any] | None = None
    bomb = state.bomb
    if bomb is not None:
        if state.team(side) == T:
            bomb_view = bomb.to_json()
        else:
            bomb_view = {
                "planted": bomb.planted,
                "defused": bomb.defused,
                "at": cell_json(know.bomb_at),  # the player's own in per-player views (G-35)
                "in_sight": know.bomb_seen,
            }
    result: dict[str, Any] = {
        "side": side,
        "viewer": viewer(side, seat),
        "seat": seat,
        "team": state.team(side),
        "turn": state.turn,
        "phase": state.phase,
        "figures": own,
        "seen": seen,
        "remembered": [],  # G-36: no memory of unseen enemies
        "sounds": [m.to_json() for m in know.markers],
        "goals": goals(state, side, seen_figs, know),
        "public": public_part(state),
        "map": {"open_doors": sorted([c.level, c.x, c.y] for c in state.know[side].open_doors)},
        "explosive": bomb_view,
        "hostages": [h.id for h in known_hostages(state, side, know.seen)],
        "draft": draft.to_json() if draft is not None else None,
        "orders": {k: v.to_json() for k, v in sorted(state.orders.items()) if k in own_ids},
        "reports": [report_for(r, who) for r in state.reports if visible(r, who)],
    }
    if state.per_player:
        result["seats"] = sorted((f.id for f in state.side_figures(side) if f.fighter), key=id_key)
    return result


# -- the umpire's snapshot and the state's invariants ----------------------------------------


def snapshot(state: GoState) -> dict[str, Any]:
    """The umpire's whole state as JSON (replay hashes it)."""
    return {
        "ruleset": "gogogo",
        "sides": list(state.sides),
        "teams": dict(sorted(state.team_of.items())),
        "mission": state.mission,
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "phase": state.phase,
        "per_player": state.per_player,
        "figures": [f.to_json() for f in state.ordered()],
        "bomb": state.bomb.to_json() if state.bomb is not None else None,
        "board": state.board.fingerprint(),
        "drafts": {s: d.to_json() for s, d in sorted(state.drafts.items())},
        "orders": {k: v.to_json() for k, v in sorted(state.orders.items())},
        "know": {s: k.to_json() for s, k in sorted(state.know.items())},
        "seat_know": {s: k.to_json() for s, k in sorted(state.seat_know.items())},
        "announcements": list(state.announcements),
        "reports": list(state.reports),
        "join_counter": state.join_counter,
        "hostages_total": state.hostages_total,
        "deploy": {
            k: sorted([c.level, c.x, c.y] for c in v) for k, v in sorted(state.deploy.items())
        },
        "needs_grenade": list(state.needs_grenade),
        "needs_weapon": list(state.needs_weapon),
        "needs_carrier": state.needs_carrier,
        "result": (
            {"winner": state.winner, "reason": state.reason, **state.details}
            if state.over
            else None
        ),
    }


def invariants(state: GoState) -> list[str]:
    """Broken invariants of the state (the conformance suite runs this after every action)."""
    problems: list[str] = []
    where: dict[Cell, str] = {}
    for f in state.ordered():
        if f.status != ACTIVE:
            continue
        if f.pos is None:
            if state.phase != SETUP:
                problems.append(f"{f.id} is active but off the map")
            continue
        if f.pos in where:
            problems.append(f"{f.id} and {where[f.pos]} share {list(f.pos)}")
        where[f.pos] = f.id
        if (
            not state.board.in_bounds(f.pos)
            or not enterable(state.board, f.pos.level)[f.pos.y, f.pos.x]
        ):
            problems.append(f"{f.id} stands where nobody can stand: {list(f.pos)}")
        elif state.board.terrain(f.pos) == Terrain.DOOR_CLOSED:
            problems.append(f"{f.id} stands in a closed door")
        if f.wounds < 0 or any(n < 0 for n in f.grenades.values()):
            problems.append(f"{f.id} has negative wounds or grenades")
        if f.team == CT and f.grenades.get("he", 0) > 0:
            problems.append(f"{f.id} is a CT with an HE grenade")
        if f.stunned_until is not None and f.stunned_until < state.turn and not state.over:
            problems.append(f"{f.id}'s stun should have worn off")
        if f.kind == HOSTAGE and f.leader is not None and not state.fig(f.leader).active:
            problems.append(f"hostage {f.id} follows {f.leader}, who is out of play")
    bomb = state.bomb
    holders = [f.id for f in state.figures.values() if f.has_bomb]
    if bomb is not None:
        if bomb.carrier is not None and bomb.pos is not None:
            problems.append("the bomb is both carried and on the ground")
        if bomb.carrier is not None:
            if holders != [bomb.carrier]:
                problems.append(f"bomb carrier {bomb.carrier} but holders {holders}")
            if state.fig(bomb.carrier).status != ACTIVE:
                problems.append("the bomb is carried by a figure out of play")
        elif holders:
            problems.append(f"{holders} hold a bomb nobody carries")
        if bomb.planted and bomb.detonates != (bomb.planted_turn or 0) + tables().fuse_turns:
            problems.append("the bomb's fuse is not planted turn + 8")
    elif holders:
        problems.append("a figure holds a bomb in a mission without one")
    if not state.over and state.phase not in (SETUP, ORDERS, FIRE):
        problems.append(f"unknown phase {state.phase!r}")
    return problems
