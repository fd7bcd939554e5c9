"""The turn sequence of section 5.2 (ruling G-11), run by the engine once both sides commit.

Orders (both sides, secret) → 2 grenades → 3 movement → 4 spotting and sound, giving the
mid-turn view → 5 fire declaration (both sides, secret) → 6 fire in three tiers → 7 end of
turn. The end check runs after steps 2 and 3, after each tier and at the end of the turn.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import chebyshev
from killhouse.core.terrain import Terrain
from killhouse.rulesets.gogogo.fire import resolve_fire
from killhouse.rulesets.gogogo.grenades import grenade_step
from killhouse.rulesets.gogogo.movement import follow_path, lockstep
from killhouse.rulesets.gogogo.news import place, public, team_seats, tell
from killhouse.rulesets.gogogo.state import (
    AIM,
    CT,
    ESCAPED,
    FIRE,
    HIDE,
    HOLD,
    HOSTAGE,
    MOVE,
    MOVING,
    OPERATIVE,
    ORDERS,
    RESCUED,
    STEALTH,
    VIP,
    Draft,
    Figure,
    GoState,
    Order,
    T,
    id_key,
)
from killhouse.rulesets.gogogo.tables import follow_allowance, tables
from killhouse.rulesets.gogogo.victory import end_check
from killhouse.rulesets.gogogo.vision import leader_team, sound, spotting

# -- setup -------------------------------------------------------------------------------------


def finish_setup(state: GoState, chance: Chance, log: EventLog) -> None:
    """Setup spotting with everyone stationary (5.1), then turn 1's orders."""
    state.reports = []
    spotting(state, chance, initial=True)
    report_sightings(state, log)
    state.turn = 1
    begin_orders(state, log)


def begin_orders(state: GoState, log: EventLog) -> None:
    state.phase = ORDERS
    state.drafts = {side: Draft() for side in state.sides}
    state.cache.clear()
    public(state, log, "turn", {"turn": state.turn})


# -- step 1 → 4 ------------------------------------------------------------------------------


def resolve_orders(state: GoState, chance: Chance, log: EventLog) -> None:
    """Both sides committed their orders: steps 2, 3 and 4, leaving the fire decision."""
    state.cache.clear()
    state.reports = []
    state.orders = {}
    follows: dict[str, list[str]] = {}
    speakers: list[str] = []
    for side in state.sides:
        draft = state.drafts[side]
        for fig in state.active_fighters(side):
            order = draft.orders.get(fig.id) or Order(HOLD, facing=fig.facing)
            if order.facing is None:
                order.facing = fig.facing
            state.orders[fig.id] = order
        for ident, hs in draft.follows.items():
            follows[ident] = list(hs)
        speakers.extend(draft.speak)
    for fig in state.figures.values():
        fig.fired = False
        fig.threw = False
        fig.moved_as = None
        fig.in_danger = False
    for ident, order in state.orders.items():
        fig = state.fig(ident)
        fig.posture = order.posture
        assert order.facing is not None
        fig.facing = order.facing
        fig.hiding = order.posture == HIDE
    report_orders(state, log, follows)
    # step 2
    grenade_step(state, chance, log)
    if end_check(state, log, "grenades"):
        return
    # step 3
    join_followers(state, log, follows)
    movement_step(state, log)
    if end_check(state, log, "movement"):
        return
    # step 4
    spotting(state, chance)
    sound(state, state.orders, speakers)
    report_sightings(state, log)
    state.phase = FIRE
    state.drafts = {side: Draft() for side in state.sides}


def report_orders(state: GoState, log: EventLog, follows: dict[str, list[str]]) -> None:
    """Each side's own orders as given, for its record and the umpire's transcript."""
    for side in state.sides:
        given = []
        for fig in state.active_fighters(side):
            order = state.orders[fig.id]
            entry: dict[str, Any] = {"figure": fig.id, "posture": order.posture}
            if order.path:
                entry["to"] = place(state, order.path[-1])
            entry["facing"] = order.facing
            if order.task is not None:
                entry["task"] = order.task
            if order.grenade is not None:
                entry["grenade"] = order.grenade
                entry["at"] = place(state, order.target)
            if follows.get(fig.id):
                entry["follow"] = list(follows[fig.id])
            given.append(entry)
        tell(state, log, "orders", {"side": side, "orders": given}, [side], team_seats(state, side))


def join_followers(state: GoState, log: EventLog, follows: dict[str, list[str]]) -> None:
    """FOLLOW_ME orders of this turn, with the conflict rules of G-25."""
    asked: dict[str, list[Figure]] = {}
    for ident in sorted(follows, key=id_key):
        fig = state.fig(ident)
        if not fig.active:
            continue  # OOA figures lose their orders
        for hostage_id in follows[ident]:
            asked.setdefault(hostage_id, []).append(fig)
    for hid in sorted(asked, key=id_key):
        h = state.fig(hid)
        if not h.active or h.pos is None:
            continue
        if h.leader is not None:
            current = state.fig(h.leader)
            if current.active and current.pos is not None and _adjacent(current.pos, h.pos):
                continue  # G-25: it stays with a leader still beside it
        callers = asked[hid]
        if len({c.team for c in callers}) > 1:
            continue  # called by both teams at once: it ignores them all
        leader = min(callers, key=lambda c: id_key(c.id))
        if h.leader == leader.id:
            continue
        h.leader = leader.id
        state.join_counter += 1
        h.join = state.join_counter
        h.covering = False  # G-26: cover ends once it follows someone
        tell(
            state,
            log,
            "hostage-follows",
            {"hostage": h.id, "leader": leader.id},
            [leader.side],
            [leader.id],
        )


def _adjacent(a: Cell, b: Cell) -> bool:
    return a.level == b.level and chebyshev(a, b) == 1


def _open_doors(state: GoState, cells: list[Cell], side: str | None) -> list[Cell]:
    opened = []
    levels = state.board.levels
    for cell in cells:
        # the terrain code read straight off the level's grid (a trail is mostly floor)
        code = int(levels[cell.level].terrain[cell.y, cell.x])
        if code == Terrain.DOOR_CLOSED:
            state.board.set_terrain(cell, Terrain.DOOR_OPEN)  # G-3: doors never close again
            opened.append(cell)
            code = Terrain.DOOR_OPEN
        if side is not None and code == Terrain.DOOR_OPEN:
            state.know[side].open_doors.add(cell)  # the mover's side saw the door it went through
    return opened


def movement_step(state: GoState, log: EventLog) -> None:
    """Step 3: lock-step (G-4), hostages following (G-25), bomb pick-up (G-29), removals (G-28)."""
    positions = {f.id: f.pos for f in state.figures.values() if f.active and f.pos is not None}
    paths = {
        ident: order.path
        for ident, order in state.orders.items()
        if order.posture in MOVING and order.path and state.fig(ident).active
    }
    result = lockstep(positions, paths)
    for ident in sorted(paths, key=id_key):
        fig = state.fig(ident)
        start = fig.pos
        trail = result.trail[ident]
        _open_doors(state, trail, fig.side)
        fig.pos = result.final[ident]
        tell(
            state,
            log,
            "moved",
            {
                "figure": ident,
                "from": place(state, start),
                "to": place(state, fig.pos),
                "blocked": ident in result.blocked_at,
            },
            [fig.side],
            [ident],
        )
    # hostages follow, in (leader id, join order) order
    led = [h for h in state.figures.values() if h.kind == HOSTAGE and h.active and h.leader]
    led.sort(key=lambda h: (id_key(h.leader or ""), h.join))
    for h in led:
        leader = state.fig(h.leader or "")
        if not leader.active or leader.pos is None or h.pos is None:
            h.leader = None
            continue
        # ruling G-71: a stunned leader's allowance is the stunned one (4.10)
        allowance = follow_allowance(leader.posture, h.stunned or leader.stunned)
        occupied = [f.pos for f in state.figures.values() if f.active and f.pos is not None]
        route = follow_path(state.board, h.pos, leader.pos, occupied, allowance)
        if not route:
            continue
        _open_doors(state, route, leader.side)
        h.pos = route[-1]
        h.moved_as = MOVE if leader.posture == MOVE else STEALTH
        tell(
            state,
            log,
            "hostage-moved",
            {"hostage": h.id, "to": place(state, h.pos)},
            [leader.side],
            [leader.id],
        )
    pick_up_bomb(state, log, positions, result.trail)
    removals(state, log)


def pick_up_bomb(
    state: GoState, log: EventLog, start: dict[str, Cell], trail: dict[str, list[Cell]]
) -> None:
    """G-29: the first terrorist operative to stand on or enter the dropped bomb takes it."""
    bomb = state.bomb
    if bomb is None or bomb.planted or bomb.carrier is not None or bomb.pos is None:
        return
    best: tuple[int, tuple[tuple[int, int | str], ...], str] | None = None
    for fig in state.active_fighters(state.side_of[T]):
        if fig.kind != OPERATIVE:
            continue
        cells = [start.get(fig.id), *trail.get(fig.id, [])]
        for step, cell in enumerate(cells):
            if cell == bomb.pos:
                key = (step, id_key(fig.id), fig.id)
                if best is None or key < best:
                    best = key
                break
    if best is None:
        return
    carrier = state.fig(best[2])
    bomb.carrier = carrier.id
    bomb.pos = None
    carrier.has_bomb = True
    t_side = state.side_of[T]
    tell(state, log, "bomb-picked-up", {"carrier": carrier.id}, [t_side], team_seats(state, t_side))


def removals(state: GoState, log: EventLog) -> None:
    """G-28, G-37: hostages in the rescue zone are rescued; the VIP on an escape point escapes."""
    for fig in state.ordered():
        if not fig.active or fig.pos is None:
            continue
        if fig.kind == HOSTAGE and fig.pos in state.zones.rescue:
            fig.status = RESCUED
            rescued = sum(1 for h in state.figures.values() if h.status == RESCUED)
            team = leader_team(state, fig)
            if team is not None:
                side = state.side_of[team]
                tell(state, log, "rescued", {"hostage": fig.id}, [side], team_seats(state, side))
            public(
                state, log, "hostage-rescued", {"rescued": rescued, "total": state.hostages_total}
            )
        elif fig.kind == VIP and fig.pos in state.zones.escape:
            fig.status = ESCAPED
            public(state, log, "vip-escaped", {})


def _sightings(state: GoState, seen_ids: Collection[str]) -> list[dict[str, Any]]:
    """Position and facing (G-36: nothing more) of each active figure in ``seen_ids``."""
    return [
        {
            "id": f.id,
            "kind": f.kind,
            "at": place(state, f.pos),
            **({"facing": f.facing} if f.kind != HOSTAGE else {}),
        }
        for f in state.ordered()
        if f.id in seen_ids and f.active
    ]


def report_sightings(state: GoState, log: EventLog) -> None:
    """The mid-turn view's news: who each side sees, and what it hears (5.2 step 4)."""
    for side in state.sides:
        know = state.know[side]
        seen = _sightings(state, know.seen)
        tell(
            state,
            log,
            "spotted",
            {"side": side, "seen": seen, "sounds": [m.to_json() for m in know.markers]},
            [side],
        )
    if state.per_player:
        for ident, seat in sorted(state.seat_know.items(), key=lambda kv: id_key(kv[0])):
            seen = _sightings(state, seat.seen)
            tell(
                state,
                log,
                "spotted",
                {"seat": ident, "seen": seen, "sounds": [m.to_json() for m in seat.markers]},
                [],
                [ident],
            )


# -- steps 6 and 7 ---------------------------------------------------------------------------


def resolve_fire_phase(state: GoState, chance: Chance, log: EventLog) -> None:
    """Both sides committed their fire: the tiers, then the end of the turn."""
    state.cache.clear()
    declared: dict[str, str] = {}
    for side in state.sides:
        for ident, target in state.drafts[side].fire.items():
            if target is not None:
                declared[ident] = target
    resolve_fire(state, chance, log, declared)
    if state.over:
        return
    end_of_turn(state, log)


def end_of_turn(state: GoState, log: EventLog) -> None:
    """Step 7 (a)-(h)."""
    t = tables()
    turn = state.turn
    # (a) hiding lasts one turn (G-10)
    for fig in state.figures.values():
        fig.hiding = False
    # (b) hostages take cover (G-26)
    for h in state.figures.values():
        if h.kind == HOSTAGE and h.active and h.leader is None and h.in_danger:
            h.covering = True
        h.in_danger = False
    bomb = state.bomb
    t_side, ct_side = state.side_of[T], state.side_of[CT]
    # (c) planting (G-29)
    for fig in state.side_figures(t_side):
        order = state.orders.get(fig.id)
        planting = (
            fig.active
            and fig.has_bomb
            and order is not None
            and order.task == "plant"
            and order.posture == HOLD
            and fig.pos in state.zones.bomb_sites
            and bomb is not None
            and not bomb.planted
        )
        if not planting:
            fig.plant_progress = 0
            continue
        assert bomb is not None
        fig.plant_progress += 1
        tell(
            state,
            log,
            "plant-progress",
            {"figure": fig.id, "turns": fig.plant_progress},
            [t_side],
            team_seats(state, t_side),
        )
        if fig.plant_progress >= t.plant_turns:
            fig.plant_progress = 0
            fig.has_bomb = False
            bomb.carrier = None
            bomb.pos = fig.pos
            bomb.planted = True
            bomb.planted_turn = turn
            bomb.detonates = turn + t.fuse_turns  # G-30: the end of turn P + 8
            public(state, log, "bomb-planted", {})
            tell(
                state,
                log,
                "bomb-armed",
                {"at": place(state, bomb.pos), "detonates": bomb.detonates},
                [t_side],
                team_seats(state, t_side),
            )
    # (d) defusing (G-30), checked before detonation
    defused_now = False
    for fig in state.side_figures(ct_side):
        order = state.orders.get(fig.id)
        defusing = (
            fig.active
            and fig.kind == OPERATIVE
            and order is not None
            and order.task == "defuse"
            and order.posture == HOLD
            and bomb is not None
            and bomb.planted
            and not bomb.defused
            and bomb.pos is not None
            and fig.pos is not None
            and _near(fig.pos, bomb.pos)
        )
        if not defusing:
            fig.defuse_progress = 0
            continue
        fig.defuse_progress += 1
        tell(
            state,
            log,
            "defuse-progress",
            {"figure": fig.id, "turns": fig.defuse_progress},
            [ct_side],
            team_seats(state, ct_side),
        )
        if fig.defuse_progress >= t.defuse_turns and bomb is not None and not bomb.defused:
            bomb.defused = True
            defused_now = True
    if defused_now:
        public(state, log, "bomb-defused", {})
    # (e) detonation
    if (
        bomb is not None
        and bomb.planted
        and not bomb.defused
        and bomb.detonates is not None
        and turn >= bomb.detonates
    ):
        bomb.detonated = True
        public(state, log, "bomb-detonated", {})
    # (f) stun wears off at the end of turn stunned_until (G-22)
    for fig in state.ordered():
        if fig.stunned_until is not None and fig.stunned_until <= turn:
            fig.stunned_until = None
            if fig.active:
                owner = fig.side if fig.kind != HOSTAGE else _leader_side(state, fig)
                tell(state, log, "stun-ends", {"figure": fig.id}, [owner], [fig.id])
    # (g) sniper state (G-23)
    for fig in state.ordered():
        if fig.weapon != "sniper" or not fig.active:
            continue
        if fig.fired:
            fig.loaded = False
            fig.aim_turns = 0
        else:
            if not fig.loaded:
                fig.loaded = True  # turn t was the complete reload turn, moving or not
            fig.aim_turns = fig.aim_turns + 1 if fig.posture == AIM else 0
    # (h) the end check, with the time-out
    if end_check(state, log, "end of turn", end_of_turn=True):
        return
    state.turn += 1
    begin_orders(state, log)


def _near(a: Cell, b: Cell) -> bool:
    return a.level == b.level and chebyshev(a, b) <= 1


def _leader_side(state: GoState, h: Figure) -> str | None:
    team = leader_team(state, h)
    return state.side_of[team] if team is not None else None


__all__ = [
    "begin_orders",
    "finish_setup",
    "resolve_fire_phase",
    "resolve_orders",
]
