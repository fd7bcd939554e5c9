"""Step 2, grenades (section 4.8, rulings G-18 … G-22, dice order G-42).

All throws resolve together before movement: accuracy and scatter for each thrower in
id order, then effect dice burst by burst and figure by figure; every result (stun,
wound, out of action, smoke) applies together at the end of the step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.core.areas import blast_area
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import line_of_sight
from killhouse.core.terrain import Terrain
from killhouse.rulesets.gogogo import dice
from killhouse.rulesets.gogogo.geom import SIGHT, scatter_point, throw_line, trace_stop
from killhouse.rulesets.gogogo.harm import take_out, wound
from killhouse.rulesets.gogogo.movement import longest_prefix
from killhouse.rulesets.gogogo.news import audience, place, public, tell
from killhouse.rulesets.gogogo.state import HOSTAGE, MOVE, STEALTH, Figure, GoState
from killhouse.rulesets.gogogo.tables import allowance as move_allowance
from killhouse.rulesets.gogogo.tables import tables
from killhouse.rulesets.gogogo.vision import leader_team

BoolArray = NDArray[np.bool_]

#: what a grenade can pass over but a scatter cannot cross (G-19): walls, doors shut, windows
_SCATTER_STOP = np.zeros(16, dtype=bool)
_SCATTER_STOP[
    [Terrain.WALL, Terrain.DOOR_CLOSED, Terrain.DOOR_LOCKED, Terrain.WINDOW, Terrain.OUTSIDE]
] = True
#: squares a throw passes "through a doorway or window" (G-18)
_OPENING = np.zeros(16, dtype=bool)
_OPENING[[Terrain.DOOR_OPEN, Terrain.WINDOW]] = True
#: squares smoke fills (ruling G-46): anything a figure or a line of sight can pass
_SMOKEABLE = np.zeros(16, dtype=bool)
_SMOKEABLE[
    [
        Terrain.FLOOR,
        Terrain.DOOR_OPEN,
        Terrain.WINDOW,
        Terrain.STAIRS_UP,
        Terrain.STAIRS_DOWN,
        Terrain.WATER,
    ]
] = True


def scatter_blocks(board_terrain: NDArray[np.uint8]) -> BoolArray:
    result: BoolArray = _SCATTER_STOP[board_terrain]
    return result


def opening_mask(board_terrain: NDArray[np.uint8]) -> BoolArray:
    result: BoolArray = _OPENING[board_terrain]
    return result


def landing(
    terrain: NDArray[np.uint8],
    thrower: tuple[int, int],
    target: tuple[int, int],
    direction: str,
    k: int,
) -> tuple[int, int]:
    """Where a missed throw comes down (G-19): the scatter point, stopped by walls and edges."""
    point = scatter_point(thrower, target, direction, k)
    return trace_stop(scatter_blocks(terrain), target, point)


@dataclass
class Burst:
    thrower: Figure
    grenade: str
    target: Cell
    at: Cell
    area: BoolArray
    detail: dict[str, Any]


def grenade_step(state: GoState, chance: Chance, log: EventLog) -> None:
    """Resolve every THROW order of this turn."""
    t = tables()
    board = state.board
    throwers = [
        f
        for f in state.ordered()
        if f.active and f.id in state.orders and state.orders[f.id].task == "throw"
    ]
    if not throwers:
        return
    bursts: list[Burst] = []
    for f in throwers:
        order = state.orders[f.id]
        assert f.pos is not None and order.target is not None and order.grenade is not None
        level = f.pos.level
        terrain = board.levels[level].terrain
        s, tg = (f.pos.x, f.pos.y), (order.target.x, order.target.y)
        _clear, through = throw_line(board.opaque(level), opening_mask(terrain), s, tg)
        need = dice.grenade_need(through, f.wounds, f.stunned)
        aud = audience(state, [f.side], [f.id])
        detail: dict[str, Any] = {
            "thrower": f.id,
            "grenade": order.grenade,
            "target": place(state, order.target),
            "need": need,
            "through_opening": through,
        }
        if dice.grenade_accuracy(chance, need, f"grenade {f.id}: accuracy", aud):
            at = tg
            detail["on_target"] = True
        else:
            direction, k = dice.scatter(chance, f"grenade {f.id}: scatter", aud)
            at = landing(terrain, s, tg, direction, k)
            detail.update(on_target=False, scatter=direction, distance=k)
        cell = Cell(level, at[0], at[1])
        detail["landed"] = place(state, cell)
        area = blast_area(board, cell, t.radius, "euclidean", board.opaque(level))
        bursts.append(Burst(f, order.grenade, order.target, cell, area, detail))
        f.grenades[order.grenade] = f.grenades.get(order.grenade, 0) - 1
        f.threw = True
        f.hiding = False  # G-10: a thrower counts as not hiding for the whole turn
    # who learns of each burst: sight before this step's smoke, or a figure in the radius
    sight_before = {lv: board.smoke(lv).copy() for lv in range(len(board.levels))}
    effects: list[tuple[Burst, Figure, str]] = []
    for burst in bursts:
        if burst.grenade in ("he", "stun"):
            for fig in state.ordered():
                if not fig.active or fig.pos is None or fig.pos.level != burst.at.level:
                    continue
                if not burst.area[fig.pos.y, fig.pos.x]:
                    continue
                owner = leader_team(state, fig) if fig.kind == HOSTAGE else fig.team
                owner_side = state.side_of[owner] if owner is not None else None
                aud = audience(state, [owner_side], [fig.id])
                purpose = f"{burst.grenade} on {fig.id}"  # never the thrower: it may be unseen
                if burst.grenade == "he":
                    outcome = dice.he_effect(chance, purpose, aud)
                else:
                    outcome = dice.stun_effect(chance, purpose, aud)
                effects.append((burst, fig, outcome))
    # reports (before the results apply, so sight is as the bursts happened)
    for burst in bursts:
        thrower_side = burst.thrower.side
        tell(state, log, "throw", burst.detail, [thrower_side], [burst.thrower.id])
        for side in state.sides:
            if side == thrower_side:
                continue
            if _side_notices(state, side, burst, sight_before):
                tell(
                    state,
                    log,
                    "burst",
                    {"grenade": burst.grenade, "at": place(state, burst.at)},
                    [side],
                )
    # apply everything together
    stun_until = state.turn + t.stun_turns
    stunned_before = {f.id: f.stunned for f in state.figures.values()}
    new_smoke: list[Cell] = []
    for burst in bursts:
        if burst.grenade == "smoke":
            lv = board.levels[burst.at.level]
            fill = burst.area & _SMOKEABLE[lv.terrain] & ~lv.smoke
            lv.smoke |= fill
            ys, xs = np.nonzero(fill)
            new_smoke.extend(
                Cell(burst.at.level, int(x), int(y))
                for y, x in zip(ys.tolist(), xs.tolist(), strict=True)
            )
        for fig in state.ordered():
            if (
                fig.kind == HOSTAGE
                and fig.active
                and fig.leader is None
                and fig.pos is not None
                and burst.grenade in ("he", "stun")
                and fig.pos.level == burst.at.level
                and burst.area[fig.pos.y, fig.pos.x]
            ):
                fig.in_danger = True  # G-26: a hostage in a burst takes cover
    if new_smoke:
        public(state, log, "smoke", {"cells": sorted([c.level, c.x, c.y] for c in new_smoke)})
    for burst, fig, outcome in effects:
        owner = leader_team(state, fig) if fig.kind == HOSTAGE else fig.team
        owner_side = state.side_of[owner] if owner is not None else None
        tell(
            state,
            log,
            "grenade-effect",
            {
                "figure": fig.id,
                "grenade": burst.grenade,
                "at": place(state, burst.at),  # its side notices the burst anyway (G-56)
                "result": outcome,
            },
            [owner_side],
            [fig.id],
        )
        if not fig.active:
            continue
        if outcome == dice.STUNNED:
            fig.stunned_until = max(fig.stunned_until or 0, stun_until)  # G-22
        elif outcome == dice.WOUNDED:
            wound(fig)
        elif outcome == dice.OOA:
            take_out(state, log, fig, burst.thrower.team)
    # paths of the newly stunned are cut (G-22); OOA figures lose their orders
    for fig in state.ordered():
        if fig.id not in state.orders:
            continue
        order = state.orders[fig.id]
        if not fig.active:
            del state.orders[fig.id]
            continue
        if fig.stunned and not stunned_before.get(fig.id, False) and order.path:
            allowance = move_allowance(order.posture, True)
            assert fig.pos is not None and order.posture in (MOVE, STEALTH)
            cut = longest_prefix(fig.pos, order.path, allowance)
            if len(cut) < len(order.path):
                order.path = cut
                tell(
                    state,
                    log,
                    "path-cut",
                    {"figure": fig.id, "to": place(state, cut[-1] if cut else fig.pos)},
                    [fig.side],
                    [fig.id],
                )


def _side_notices(
    state: GoState, side: str, burst: Burst, smoke_before: dict[int, BoolArray]
) -> bool:
    """A burst is news to a side if one of its figures has sight of it or is in its radius."""
    level = burst.at.level
    for fig in state.active_fighters(side):
        if fig.pos is None or fig.pos.level != level:
            continue
        if burst.area[fig.pos.y, fig.pos.x]:
            return True
        if line_of_sight(
            state.board.opaque(level),
            (fig.pos.x, fig.pos.y),
            (burst.at.x, burst.at.y),
            smoke_before[level],
            mode=SIGHT,
        ):
            return True
    for fig in state.ordered():
        if fig.kind == HOSTAGE and fig.active and fig.pos is not None and fig.pos.level == level:
            team = leader_team(state, fig)
            if (
                team is not None
                and state.side_of[team] == side
                and burst.area[fig.pos.y, fig.pos.x]
            ):
                return True
    return False
