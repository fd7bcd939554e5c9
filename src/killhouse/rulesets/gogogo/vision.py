"""Spotting (section 4.4, rulings G-9, G-24), map knowledge (G-44, G-47) and sound (G-33, G-34).

Spotting runs once per turn from end-of-movement positions: exact line of sight with
smoke as a veil (G-8), then the facing arc (G-7): auto cone seen, periphery rolled on
table 3.1 (none while aiming), behind never. Dice go in (observer id, target id) order
and only the umpire sees them: even a failed roll would betray a figure.
"""

from __future__ import annotations

import numpy as np

from killhouse.core.cells import COMPASS, Cell
from killhouse.core.chance import Chance
from killhouse.core.geometry import euclidean_sq, los_pairs
from killhouse.core.terrain import Terrain
from killhouse.rulesets.gogogo import dice
from killhouse.rulesets.gogogo.geom import AUTO, PERIPHERAL, SIGHT, arc_zone, in_arc, sector
from killhouse.rulesets.gogogo.news import UMPIRE
from killhouse.rulesets.gogogo.state import (
    AIM,
    CT,
    HIDE,
    HOSTAGE,
    MOVE,
    MOVING,
    Figure,
    GoState,
    Knowledge,
    Marker,
    Order,
    id_key,
)
from killhouse.rulesets.gogogo.tables import tables


def leader_team(state: GoState, hostage: Figure) -> str | None:
    """The team leading a hostage, if any."""
    if hostage.leader is None:
        return None
    return state.fig(hostage.leader).team


def is_target(state: GoState, observer: Figure, target: Figure) -> bool:
    """Ruling G-9: enemy operatives, the enemy VIP, and hostages not led by the observer's team."""
    if not target.active or target.id == observer.id:
        return False
    if target.kind == HOSTAGE:
        return leader_team(state, target) != observer.team
    return target.fighter and target.team != observer.team


def target_pairs(
    state: GoState, observers: list[Figure], figures: list[Figure]
) -> list[tuple[Figure, Figure]]:
    """Every (observer, target) of active figures for which ``is_target`` holds, observers
    then targets in the order given: each figure's team (a hostage's: its leader's) read
    once, as a figure is a target of every other figure of another team (G-9)."""
    teams = [(t, leader_team(state, t) if t.kind == HOSTAGE else t.team) for t in figures]
    return [(o, t) for o in observers for t, team in teams if team != o.team and t is not o]


def observer_row(fig: Figure, initial: bool) -> str | None:
    """The observer's row of table 3.1, or None for a sniper aiming (no peripheral rolls, G-24)."""
    if initial:
        return "stationary"  # section 5.1: the setup spotting counts everyone as stationary
    if fig.posture == AIM:
        return None
    if fig.posture in MOVING:
        return "moving"
    if fig.posture == HIDE and fig.hiding:
        return "hiding"
    return "stationary"


def target_moving(fig: Figure) -> bool:
    """Whether a figure counts as moving this turn (G-5 for fighters, G-25 for hostages)."""
    if fig.kind == HOSTAGE:
        return fig.moved_as is not None
    return fig.posture in MOVING


def target_hiding(fig: Figure) -> bool:
    """Hiding for spotting: a HIDE figure that has not thrown (G-10), a hostage in cover (G-26)."""
    if fig.kind == HOSTAGE:
        return fig.covering
    return fig.hiding


def _los(state: GoState, pairs: list[tuple[Cell, Cell]]) -> list[bool]:
    """Exact sight (smoke veils) for many same-level cell pairs, batched per level."""
    out = [False] * len(pairs)
    by_level: dict[int, list[int]] = {}
    for i, (a, b) in enumerate(pairs):
        if a.level == b.level:
            by_level.setdefault(a.level, []).append(i)
    for level, idx in by_level.items():
        origins = [(pairs[i][0].x, pairs[i][0].y) for i in idx]
        targets = [(pairs[i][1].x, pairs[i][1].y) for i in idx]
        flags = los_pairs(
            state.board.opaque(level), origins, targets, state.board.smoke(level), mode=SIGHT
        )
        for i, flag in zip(idx, flags.tolist(), strict=True):
            out[i] = bool(flag)
    return out


def spotting(state: GoState, chance: Chance, initial: bool = False) -> None:
    """Step 4 (or the setup spotting): fill every side's seen sets afresh (G-9, no carry-over)."""
    figures = [f for f in state.ordered() if f.active]
    observers = [f for f in figures if f.fighter]
    pairs = target_pairs(state, observers, figures)
    sight = _los(state, [(o.pos, t.pos) for o, t in pairs])  # type: ignore[misc]
    sees: dict[str, set[str]] = {o.id: set() for o in observers}
    for (o, t), los in zip(pairs, sight, strict=True):
        if not los:
            continue
        assert o.pos is not None and t.pos is not None
        zone = arc_zone(o.facing, t.pos.x - o.pos.x, t.pos.y - o.pos.y)
        if zone == AUTO:
            sees[o.id].add(t.id)  # seen automatically, even if hiding
        elif zone == PERIPHERAL:
            row = observer_row(o, initial)
            if row is None:
                continue
            column = "stationary" if initial else ("moving" if target_moving(t) else "stationary")
            hiding = False if initial else target_hiding(t)
            need = dice.spot_need(row, column, hiding, o.wounds, o.stunned)
            # the umpire's die: its mere existence would betray a figure in the arc
            if dice.need_roll(chance, need, f"spot {o.id} {t.id}: needs {need}", UMPIRE):
                sees[o.id].add(t.id)
    for side in state.sides:
        know = state.know[side]
        know.sees = {o.id: sees[o.id] for o in observers if o.side == side}
        know.seen = set().union(*know.sees.values()) if know.sees else set()
    if state.per_player:
        for f in state.ordered():
            if f.fighter:
                state.seat_know.setdefault(f.id, Knowledge()).seen = set(sees.get(f.id, set()))
    map_knowledge(state, initial)


def vision_half_angle(fig: Figure, initial: bool) -> float:
    """±90°, or ±22.5° for a sniper aiming (G-24)."""
    return 22.5 if (fig.posture == AIM and not initial) else 90.0


def sees_cells(state: GoState, fig: Figure, cells: list[Cell], initial: bool) -> list[bool]:
    """Which cells a figure sees with no roll: sight and within its vision arc (G-30, G-44)."""
    if fig.pos is None or not cells:
        return [False] * len(cells)
    sight = _los(state, [(fig.pos, c) for c in cells])
    half = vision_half_angle(fig, initial)
    out: list[bool] = []
    for cell, los in zip(cells, sight, strict=True):
        if not los:
            out.append(False)
            continue
        dx, dy = cell.x - fig.pos.x, cell.y - fig.pos.y
        out.append(in_arc(COMPASS[fig.facing], dx, dy, half))
    return out


def _sees_all(
    state: GoState, figs: list[Figure], cells: list[Cell], initial: bool
) -> list[list[bool]]:
    """``sees_cells`` of each figure for the same cells, with one sight batch for them all."""
    if not cells:
        return [[] for _ in figs]
    placed = [f for f in figs if f.pos is not None]
    sight = _los(state, [(f.pos, c) for f in placed for c in cells])  # type: ignore[misc]
    out: list[list[bool]] = []
    at = 0
    for fig in figs:
        if fig.pos is None:
            out.append([False] * len(cells))
            continue
        half = vision_half_angle(fig, initial)
        facing = COMPASS[fig.facing]
        row: list[bool] = []
        for cell, los in zip(cells, sight[at : at + len(cells)], strict=True):
            dx, dy = cell.x - fig.pos.x, cell.y - fig.pos.y
            row.append(bool(los) and in_arc(facing, dx, dy, half))
        at += len(cells)
        out.append(row)
    return out


def open_door_cells(state: GoState) -> list[Cell]:
    cells: list[Cell] = []
    for level, lv in enumerate(state.board.levels):
        ys, xs = np.nonzero(lv.terrain == Terrain.DOOR_OPEN)
        cells.extend(
            Cell(level, int(x), int(y)) for y, x in zip(ys.tolist(), xs.tolist(), strict=True)
        )
    return cells


def map_knowledge(state: GoState, initial: bool) -> None:
    """Doors seen open (ruling G-44) and, for the CT, the bomb on the ground (G-30, G-47)."""
    doors = open_door_cells(state)
    bomb = state.bomb
    ground = bomb.pos if bomb is not None and bomb.carrier is None else None
    for side in state.sides:
        know = state.know[side]
        unknown = [c for c in doors if c not in know.open_doors]
        fighters = state.active_fighters(side)
        # every fighter's sight of every unknown door and of the bomb in one batch; the loop
        # below reads them in the order it always did (a door seen drops out for the rest)
        asked = unknown if ground is None else [*unknown, ground]
        sees = _sees_all(state, fighters, asked, initial)
        column = {c: i for i, c in enumerate(unknown)}
        seen_bomb = False
        for row in sees:
            if unknown:
                flags = [row[column[c]] for c in unknown]
                know.open_doors.update(c for c, f in zip(unknown, flags, strict=True) if f)
                unknown = [c for c, f in zip(unknown, flags, strict=True) if not f]
            if ground is not None and not seen_bomb:
                seen_bomb = row[-1]
        if state.team(side) == CT:
            know.bomb_seen = seen_bomb
            assert bomb is not None or ground is None
            if (
                ground is not None
                and bomb is not None
                and (seen_bomb or (bomb.planted and know.bomb_at == ground))
            ):
                know.bomb_at = ground  # a planted bomb, once found, stays known (G-47)
            else:
                know.bomb_at = None
    if state.per_player and bomb is not None:
        _seat_bomb(state, ground, initial)


def _seat_bomb(state: GoState, ground: Cell | None, initial: bool) -> None:
    """Per-player views (G-35): each CT player locates the bomb with its own figure's eyes."""
    bomb = state.bomb
    assert bomb is not None
    for fig in state.ordered():
        if not (fig.active and fig.fighter and fig.team == CT):
            continue
        seat = state.seat_know.setdefault(fig.id, Knowledge())
        seat.bomb_seen = ground is not None and sees_cells(state, fig, [ground], initial)[0]
        if seat.bomb_seen or (bomb.planted and seat.bomb_at == ground):
            seat.bomb_at = ground  # G-47, for this player
        else:
            seat.bomb_at = None


def sound(state: GoState, orders: dict[str, Order], speakers: list[str]) -> None:
    """FOOTSTEPS (G-33) and VOICES (G-34) markers; they replace the previous turn's."""
    hearing = tables().hearing_sq
    sources: list[tuple[Figure, str]] = []
    for f in state.ordered():
        if not f.active:
            continue
        if (f.fighter and f.posture == MOVE) or (f.kind == HOSTAGE and f.moved_as == MOVE):
            sources.append((f, "footsteps"))
    for ident in sorted(set(speakers), key=id_key):
        f = state.fig(ident)
        if f.active:
            sources.append((f, "voices"))
    for side in state.sides:
        state.know[side].markers = []
    if state.per_player:
        for k in state.seat_know.values():
            k.markers = []
    listeners = state.active_fighters()  # markers change nobody's status: listed once
    for source, kind in sources:
        owner = leader_team(state, source) if source.kind == HOSTAGE else source.team
        assert source.pos is not None
        for listener in listeners:
            if listener.team == owner or listener.pos is None:
                continue
            if kind == "voices" and listener.kind != "operative":
                continue  # G-34: voices reach enemy operatives
            if listener.pos.level != source.pos.level:
                continue  # ruling G-50: sound stays on its level
            dx, dy = source.pos.x - listener.pos.x, source.pos.y - listener.pos.y
            if euclidean_sq(source.pos, listener.pos) > hearing:  # G-33: within 10
                continue
            assert listener.side is not None
            marker = Marker(kind, listener.id, sector(dx, dy))
            if source.id not in state.know[listener.side].seen:
                state.know[listener.side].markers.append(marker)
            if state.per_player:
                seat = state.seat_know.setdefault(listener.id, Knowledge())
                if source.id not in seat.seen:
                    seat.markers.append(marker)
