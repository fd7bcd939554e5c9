"""Step 1, orders (section 4.1): the actions a side may give, and their checks.

A side orders its figures one at a time (ruling G-48), each order in up to three small
steps so that the list of legal actions stays short: ``order`` (posture, destination or
task), then ``target`` (a THROW's square), then ``face`` (the final facing, G-6).
``follow`` (FOLLOW_ME, G-25) and ``speak`` (G-34) may be added any time, and ``commit``
ends the side's orders: figures left without one HOLD, facing as before. Everything is
checked on the side's own map (doors it knows open, G-44), never on secrets.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from killhouse.core.bounded import bounded_field, cost_at, padded_squeeze, route
from killhouse.core.cells import COMPASS, COMPASS_ORDER, Cell, cell_json
from killhouse.core.geometry import cells_on_segment, chebyshev, euclidean_sq, los_from
from killhouse.core.paths import DistanceField
from killhouse.core.steps import Steps
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo import dice
from killhouse.rulesets.gogogo.movement import (
    RULES,
    cost_of,
    enter_costs,
    enterable,
    field_from,
    squeeze_masks,
)
from killhouse.rulesets.gogogo.state import (
    AIM,
    CT,
    DESTRUCTION,
    HIDE,
    HOLD,
    HOSTAGE,
    MOVE,
    MOVING,
    OPERATIVE,
    POSTURES,
    STEALTH,
    Figure,
    GoState,
    Order,
    T,
    as_posture,
)
from killhouse.rulesets.gogogo.tables import allowance as move_allowance
from killhouse.rulesets.gogogo.tables import tables
from killhouse.rulesets.gogogo.vision import leader_team
from killhouse.rulesets.kit.lazy import MadeWhenRead

BoolArray = NDArray[np.bool_]
TASKS = ("throw", "plant", "defuse")


def illegal(message: str) -> IllegalActionError:
    return IllegalActionError(message)


def allowance(fig: Figure, posture: str) -> int:
    """Movement allowance (table 3.5), halved when stunned (G-22)."""
    return move_allowance(posture, fig.stunned)


def as_cell(value: Any, what: str) -> Cell:
    """A ``[level, x, y]`` argument as a Cell, or an IllegalActionError saying what is wrong."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return Cell(int(value[0]), int(value[1]), int(value[2]))
    raise illegal(f"{what} must be [level, x, y], got {value!r}")


# -- the side's own map --------------------------------------------------------------------


def side_opaque(state: GoState, side: str, level: int) -> BoolArray:
    """Walls and the doors the side does not know to be open (G-44): what stops its throws.

    Kept for the step (the side's map changes only when a step resolves); never written to."""
    key = ("opaque", side, level)
    found: BoolArray | None = state.cache.get(key)
    if found is None:
        # and across steps while the side's known doors and the terrain stand (``memo``)
        lasting = ("opaque", level, *side_map_key(state, side))
        found = memo_get(state, lasting)
        if found is None:
            found = _side_opaque(state, side, level)
            memo_put(state, lasting, found)
        state.cache[key] = found
    return found


def _walkable(state: GoState, level: int) -> BoolArray:
    """``enterable`` on the true board, kept for the step."""
    key = ("enterable", level)
    found: BoolArray | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = enterable(state.board, level)
    return found


def _side_opaque(state: GoState, side: str, level: int) -> BoolArray:
    terrain = state.board.levels[level].terrain
    door = (terrain == Terrain.DOOR_CLOSED) | (terrain == Terrain.DOOR_OPEN)
    known = np.zeros(terrain.shape, dtype=bool)
    for cell in state.know[side].open_doors:
        if cell.level == level:
            known[cell.y, cell.x] = True
    result: BoolArray = (
        (terrain == Terrain.WALL) | (terrain == Terrain.DOOR_LOCKED) | (door & ~known)
    )
    return result


def side_opening(state: GoState, side: str, level: int) -> BoolArray:
    """Windows and the doors the side knows to be open: throwing through them costs 1 (G-18)."""
    terrain = state.board.levels[level].terrain
    mask: BoolArray = terrain == Terrain.WINDOW
    for cell in state.know[side].open_doors:
        if cell.level == level:
            mask[cell.y, cell.x] = True
    return mask


def move_field(state: GoState, side: str, fig: Figure) -> DistanceField:
    """Cheapest costs from the figure on its side's map, up to the longest allowance.

    Bounded: squares no order can reach read as unreachable (``full_move_field`` has their
    costs). Cached for the step, and across steps while the square, the side's known doors
    and the map are the same (``memo``): a figure that holds still costs no new search."""
    key = ("field", state.turn, state.phase, fig.id)
    found: DistanceField | None = state.cache.get(key)
    if found is None:
        assert fig.pos is not None
        doors, terrain = side_map_key(state, side)
        lasting = ("field", fig.pos, doors, terrain)
        found = memo_get(state, lasting)
        if found is None:
            # field_from(board, pos, doors, max_cost=...) on the side's kept step model, by
            # one compiled search (bounded.bounded_field: the same field as field_on's)
            steps, padded = step_model(state, side)
            found = bounded_field(state.board, steps, padded, fig.pos, longest_move())
            memo_put(state, lasting, found)
        state.cache[key] = found
    return found


def _side_steps(
    state: GoState, doors: frozenset[Cell], terrain: tuple[bytes, ...]
) -> tuple[Steps, tuple[BoolArray, ...]]:
    """The step model of a side's map (``field_from``'s enter costs and squeeze masks) with
    its padded squeeze grids (``bounded.padded_squeeze``), kept under the doors the side knows
    open and the terrain: every figure's field reads the same."""
    key = ("steps", doors, terrain)
    found: tuple[Steps, tuple[BoolArray, ...]] | None = memo_get(state, key)
    if found is None:
        board = state.board
        steps = Steps(board, enter_costs(board), RULES, squeeze_masks(board, doors))
        found = (steps, padded_squeeze(steps))
        memo_put(state, key, found)
    return found


def step_model(state: GoState, side: str) -> tuple[Steps, tuple[BoolArray, ...]]:
    """``_side_steps`` of the side's map as it stands, kept for the step (the orders
    decision's every field and route read it; the map stands still until the step resolves)."""
    key = ("model", side)
    found: tuple[Steps, tuple[BoolArray, ...]] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = _side_steps(state, *side_map_key(state, side))
    return found


def full_move_field(state: GoState, side: str, fig: Figure) -> DistanceField:
    """``move_field`` without its bound: the cost of any square, for a refusal's message."""
    assert fig.pos is not None
    return field_from(state.board, fig.pos, state.know[side].open_doors)


@cache
def longest_move() -> int:
    """The largest movement allowance of any posture, stunned or not (table 3.5, G-22); the
    tables never change, so it is worked out once."""
    t = tables()
    return max(t.move, t.stealth, t.stunned_move, t.stunned_stealth)


def side_map_key(state: GoState, side: str) -> tuple[frozenset[Cell], tuple[bytes, ...]]:
    """The doors the side knows open and ``terrain_key``: what the side's map is made of, as
    memo keys read it. Kept for the step: only the orders decision asks, and the map stands
    still until its step resolves (a resolution clears the cache before any door opens)."""
    key = ("map", side)
    found: tuple[frozenset[Cell], tuple[bytes, ...]] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = (frozenset(state.know[side].open_doors), terrain_key(state))
    return found


def terrain_key(state: GoState) -> tuple[bytes, ...]:
    """The map's terrain as bytes (doors open and break during play): part of a memo key."""
    return tuple(lv.terrain.tobytes() for lv in state.board.levels)


#: entries a state's lasting memo holds before it starts afresh (a bound on memory only)
MEMO_SIZE = 2048


def memo_get(state: GoState, key: Any) -> Any:
    """What ``memo_put`` stored under ``key``, or None."""
    return state.memo.get(key)


def memo_put(state: GoState, key: Any, value: Any) -> None:
    """Remember ``value`` for as long as its key describes every input it was built from."""
    if len(state.memo) >= MEMO_SIZE:
        state.memo.clear()
    state.memo[key] = value


def _throw_candidates(state: GoState, side: str, fig: Figure) -> tuple[BoolArray, BoolArray]:
    """The side's opaque cells and the squares a throw could aim at before the line test."""
    assert fig.pos is not None
    level = fig.pos.level
    opaque = side_opaque(state, side, level)
    h, w = opaque.shape
    ys, xs = np.indices((h, w))
    d2 = (xs - fig.pos.x) ** 2 + (ys - fig.pos.y) ** 2
    candidates = (d2 >= 1) & (d2 <= tables().max_throw_sq)
    candidates &= _walkable(state, level) & ~opaque
    return opaque, candidates


def can_throw(state: GoState, side: str, fig: Figure) -> bool:
    """Whether ``throw_targets`` is not empty, without the sight test where it is not needed.

    A square beside the thrower (same row or column) has nothing between the two: its throw
    line is clear whenever the square itself may be aimed at. Only a figure with no such
    square runs the full line test (G-18)."""
    key = ("throw", state.turn, state.phase, fig.id)
    if key in state.cache:
        return bool(state.cache[key])
    assert fig.pos is not None
    opaque = side_opaque(state, side, fig.pos.level)
    walk = _walkable(state, fig.pos.level)
    h, w = opaque.shape
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        x, y = fig.pos.x + dx, fig.pos.y + dy
        if 0 <= x < w and 0 <= y < h and walk[y, x] and not opaque[y, x]:
            return True  # 1 <= d2 = 1 <= the longest throw
    return bool(throw_targets(state, side, fig))


def throw_targets(state: GoState, side: str, fig: Figure) -> list[Cell]:
    """Squares at distance 1-10 with a clear throw line on the side's map (G-18)."""
    key = ("throw", state.turn, state.phase, fig.id)
    if key not in state.cache:
        assert fig.pos is not None
        level = fig.pos.level
        opaque, candidates = _throw_candidates(state, side, fig)
        clear = los_from(opaque, (fig.pos.x, fig.pos.y), candidates)
        ty, tx = np.nonzero(clear)
        state.cache[key] = [
            Cell(level, int(x), int(y)) for y, x in zip(ty.tolist(), tx.tolist(), strict=True)
        ]
    found: list[Cell] = state.cache[key]
    return found


def through_opening(state: GoState, side: str, fig: Figure, target: Cell) -> bool:
    """Whether the throw line from ``fig`` to ``target`` crosses an opening (G-18)."""
    assert fig.pos is not None
    return _crosses(_openings(state, side, target.level), fig.pos, target)


#: a level's openings on a side's map (``side_opening``) and their 2-D prefix sums
Openings = tuple[BoolArray, list[list[int]]]


def _openings(state: GoState, side: str, level: int) -> Openings:
    """``side_opening`` with its prefix sums, kept for the step (the side's map stands still
    within a step)."""
    key = ("opening", side, level)
    cached: Openings | None = state.cache.get(key)
    if cached is None:
        mask = side_opening(state, side, level)
        sums = np.zeros((mask.shape[0] + 1, mask.shape[1] + 1), dtype=np.int64)
        sums[1:, 1:] = mask.cumsum(axis=0).cumsum(axis=1)
        cached = state.cache[key] = (mask, sums.tolist())
    return cached


def _crosses(openings: Openings, start: Cell, target: Cell) -> bool:
    """``through_opening`` on a level's kept openings."""
    opening, sums_ = openings
    # the segment's squares lie in the box its ends span: no opening there, none crossed
    x0, x1 = sorted((start.x, target.x))
    y0, y1 = sorted((start.y, target.y))
    inside = sums_[y1 + 1][x1 + 1] - sums_[y0][x1 + 1] - sums_[y1 + 1][x0] + sums_[y0][x0]
    if not inside:
        return False
    between = cells_on_segment((start.x, start.y), (target.x, target.y))[1:-1]
    return any(bool(opening[y, x]) for x, y in between)


# -- what the figure may do ------------------------------------------------------------------


def can_plant(state: GoState, fig: Figure) -> bool:
    bomb = state.bomb
    return (
        state.mission == DESTRUCTION
        and fig.team == T
        and fig.kind == OPERATIVE
        and fig.has_bomb
        and bomb is not None
        and not bomb.planted
        and fig.pos in state.zones.bomb_sites
    )


def can_defuse(state: GoState, fig: Figure) -> bool:
    """G-30: a CT operative next to or on the planted bomb, which the CT must know of."""
    bomb = state.bomb
    if not (fig.team == CT and fig.kind == OPERATIVE and bomb is not None and bomb.planted):
        return False
    if bomb.defused or fig.side is None:
        return False
    known = state.know[fig.side].bomb_at
    if known is None or fig.pos is None or known.level != fig.pos.level:
        return False
    return chebyshev(known, fig.pos) <= 1


def known_hostages(state: GoState, side: str, seen: set[str] | None = None) -> list[Figure]:
    """Hostages the side may name: seen at the latest spotting or led by one of its figures.

    ``seen`` narrows the spotting to one player's figure (per-player views, G-35).
    """
    team = state.team(side)
    if seen is None:
        seen = state.know[side].seen
    return [
        h
        for h in state.ordered()
        if h.kind == HOSTAGE and h.active and (h.id in seen or leader_team(state, h) == team)
    ]


def follow_choices(
    state: GoState, side: str, fig: Figure, known: list[Figure] | None = None
) -> list[Figure]:
    """Hostages ``fig`` may tell FOLLOW_ME: known to its side and next to it now (G-25).

    ``known`` is ``known_hostages(state, side)`` when the caller has it already (listing
    every figure's choices would otherwise ask it once per figure)."""
    already = state.drafts[side].follows.get(fig.id, [])
    found = _follow_candidates(fig, known_hostages(state, side) if known is None else known)
    return [h for h in found if h.id not in already]


def _follow_candidates(fig: Figure, known: list[Figure]) -> list[Figure]:
    """``follow_choices`` before the hostages the draft already names are taken out."""
    if fig.kind != OPERATIVE or not fig.active or fig.pos is None:
        return []
    out = []
    for h in known:
        assert h.pos is not None
        if h.leader == fig.id or h.pos.level != fig.pos.level:
            continue
        if chebyshev(h.pos, fig.pos) == 1:
            out.append(h)
    return out


def seen_enemy_cells(state: GoState, side: str) -> list[Cell]:
    """The squares of the active enemies the side saw at the latest spotting, by id; kept for
    the step (spotting and the figures change only when a step resolves). Not to be changed."""
    key = ("seen-enemies", side)
    found: list[Cell] | None = state.cache.get(key)
    if found is None:
        found = []
        for ident in sorted(state.know[side].seen):
            seen = state.fig(ident)
            if seen.active and seen.kind != HOSTAGE:
                assert seen.pos is not None  # active: on the map
                found.append(seen.pos)
        state.cache[key] = found
    return found


# -- legal actions ------------------------------------------------------------------------


def _act(side: str, kind: str, hint: Mapping[str, Any], **args: Any) -> Action:
    return Action.make(side, kind, hint=hint, **args)


def order_options(state: GoState, side: str) -> dict[str, list[Action]]:
    """Every action of the orders decision for ``side``, by kind (``order_parts`` joined)."""
    return {
        kind: [action for part in parts for action in part]
        for kind, parts in order_parts(state, side).items()
    }


def order_parts(state: GoState, side: str) -> dict[str, list[Sequence[Action]]]:
    """``order_options`` by kind, each kind in parts listed one after another: each figure's
    ``order`` actions are one part, the very sequence kept for the step (``figure_orders``).

    Nothing is joined or sorted into kinds: the flow lists each part as a counted group, so
    a listing after each action of the draft reads the figures' kept lists as they are
    instead of copying hundreds of actions."""
    draft = state.drafts[side]
    if draft.committed:
        return {}
    if draft.pending is not None:
        kind, staged = stage_part(
            state, side, state.fig(draft.pending), draft.orders[draft.pending]
        )
        return {kind: [staged]} if staged else {}
    given = [part for ident, part in figure_parts(state, side) if ident not in draft.orders]
    out: dict[str, list[Sequence[Action]]] = {}
    if any(given):
        out["order"] = given
    out.update((kind, [listed]) for kind, listed in other_parts(state, side).items())
    return out


def figure_parts(state: GoState, side: str) -> tuple[tuple[str, Sequence[Action]], ...]:
    """Each of the side's active fighters with its ``order`` actions (``figure_orders``), in
    order; kept for the step, as the figures and their orders stand still until it resolves."""
    key = ("figure-parts", side)
    found: tuple[tuple[str, Sequence[Action]], ...] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = tuple(
            (fig.id, figure_orders(state, side, fig)) for fig, _ in _listing(state, side)
        )
    return found


def other_parts(state: GoState, side: str) -> dict[str, list[Action]]:
    """The orders decision's ``follow``, ``speak`` and ``commit`` actions by kind (a figure's
    orders aside), with what the draft has already said taken out."""
    draft = state.drafts[side]
    follows: list[Action] = []
    speaks: list[Action] = []
    for fig, follow_actions in _listing(state, side):
        if follow_actions:
            already = draft.follows.get(fig.id, ())
            follows.extend(a for hid, a in follow_actions if hid not in already)
        if state.per_player and fig.id not in draft.speak:
            speaks.append(_act(side, "speak", {"role": "other"}, figure=fig.id))
    out: dict[str, list[Action]] = {}
    if follows:
        out["follow"] = follows
    if speaks:
        out["speak"] = speaks
    out["commit"] = [commit_action(side)]
    return out


def commit_action(side: str) -> Action:
    """The side's ``commit`` (made once and kept, as every listing ends with it)."""
    key = ("commit", side)
    found: Action | None = _MADE.get(key)
    if found is None:
        found = _act(side, "commit", {"role": "pass"})
        _remember(key, found)
    return found


def _listing(
    state: GoState, side: str
) -> tuple[tuple[Figure, tuple[tuple[str, Action], ...]], ...]:
    """The side's active fighters, each with its ``follow`` actions (by hostage id) before
    the draft's own follows are taken out.

    Kept for the step (``state.cache``): who is active, where everyone stands and which
    hostages the side knows change only when a step resolves, while ``order_options`` runs
    again after every action of the side's draft."""
    key = ("listing", side)
    found: tuple[tuple[Figure, tuple[tuple[str, Action], ...]], ...] | None = state.cache.get(key)
    if found is None:
        known = known_hostages(state, side)
        listing = []
        for fig in state.active_fighters(side):
            acts = []
            for h in _follow_candidates(fig, known):
                role = "task" if fig.team == CT else "other"
                hint = {"role": role, "p": 1.0, "target": cell_json(h.pos)}
                acts.append((h.id, _act(side, "follow", hint, figure=fig.id, hostage=h.id)))
            listing.append((fig, tuple(acts)))
        found = state.cache[key] = tuple(listing)
    return found


def figure_orders(state: GoState, side: str, fig: Figure) -> Sequence[Action]:
    """The ``order`` actions of one figure, built once per step.

    They read only the true state and the side's knowledge, which change when a step
    resolves, never while the side fills its draft (and a resolution clears the cache); so
    one list serves every decision of the step instead of being rebuilt at each."""
    key = ("orders", state.turn, state.phase, fig.id)
    cached: FigureOrders | None = state.cache.get(key)
    if cached is None:
        facts = _figure_facts(state, side, fig)
        lasting = _orders_key(state, side, fig, facts)
        cached = memo_get(state, lasting)
        if cached is None:
            cached = _figure_orders(state, side, fig, facts)
            memo_put(state, lasting, cached)
        state.cache[key] = cached
    return cached


#: what a figure's orders read of the rules beyond its own record: its grenades in stock (by
#: name), whether it may plant and defuse, and the seen enemies within a throw of it
Facts = tuple[tuple[str, ...], bool, bool, tuple[Cell, ...]]


def _figure_facts(state: GoState, side: str, fig: Figure) -> Facts:
    """The ``Facts`` of ``fig``, read once for its memo key and its orders."""
    assert fig.pos is not None
    here = fig.pos
    stock = tuple(sorted(g for g, n in fig.grenades.items() if n > 0))
    near: tuple[Cell, ...] = ()
    if fig.kind == OPERATIVE and stock:
        reach_sq = tables().max_throw_sq
        near = tuple(
            c
            for c in seen_enemy_cells(state, side)
            if c.level == here.level and euclidean_sq(c, here) <= reach_sq
        )
    return stock, can_plant(state, fig), can_defuse(state, fig), near


def _orders_key(state: GoState, side: str, fig: Figure, facts: Facts) -> tuple[Any, ...]:
    """Everything ``_figure_orders`` reads, as a key: the same key lists the same orders.

    The figure (square, weapon, wounds, stun, grenades), its ``Facts``, the side's known
    doors and the map's terrain."""
    return (
        "orders",
        side,
        fig.id,
        fig.kind,
        fig.pos,
        fig.weapon,
        fig.wounds,
        fig.stunned,
        tuple(sorted(fig.grenades.items())),
        facts,
        *side_map_key(state, side),
    )


def _stay_orders(side: str, ident: str, at: Cell, sniper: bool) -> tuple[Action, ...]:
    """A figure's HOLD and HIDE orders where it stands (and AIM with a sniper rifle), made
    once per square (``_MADE``): a figure that moved needs them anew, not its whole list."""
    key = ("stay", side, ident, at, sniper)
    found: tuple[Action, ...] | None = _MADE.get(key)
    if found is None:
        here = cell_json(at)
        postures = (HOLD, HIDE, AIM) if sniper else (HOLD, HIDE)
        found = tuple(
            _act(side, "order", {"role": "move", "to": here, "posture": p}, figure=ident, posture=p)
            for p in postures
        )
        _remember(key, found)
    return found


def _figure_orders(state: GoState, side: str, fig: Figure, facts: Facts) -> FigureOrders:
    assert fig.pos is not None
    stock, plant, defuse, near = facts
    out = list(_stay_orders(side, fig.id, fig.pos, fig.weapon == "sniper"))
    if fig.kind == OPERATIVE:
        for task, allowed in (("plant", plant), ("defuse", defuse)):
            if allowed:
                task_hint = {"role": "task", "p": 1.0, "to": cell_json(fig.pos)}
                out.append(_act(side, "order", task_hint, figure=fig.id, posture=HOLD, task=task))
        if stock and can_throw(state, side, fig):
            here_cell = fig.pos
            # the chance of landing on target in the open (4.8); the bot values the rest
            p_throw = dice.chance_of(dice.grenade_need(False, fig.wounds, fig.stunned))
            closest = min(near, key=lambda c: euclidean_sq(c, here_cell)) if near else None
            out.extend(_throw_orders(side, fig.id, stock, p_throw, closest))
    field = move_field(state, side, fig)
    # every square within the MOVE allowance in (level, y, x) order, as ``field.reachable``
    # lists them: STEALTH first where its allowance reaches too, then MOVE. ``field.within``
    # read straight off the raw totals: UNREACHABLE lies above every allowance's bound
    divisor = field.rules.divisor
    move_bound = (allowance(fig, MOVE) + 1) * divisor - 1  # raw // divisor <= allowance
    stealth_bound = (allowance(fig, STEALTH) + 1) * divisor - 1
    start = fig.pos.y * state.board.levels[fig.pos.level].width + fig.pos.x
    moves = []
    for level, raw in enumerate(field.raw):
        flat = np.flatnonzero(raw <= move_bound)
        if level == fig.pos.level:
            flat = flat[flat != start]  # a move ends somewhere else
        if flat.size:
            moves.append(LevelMoves(level, raw.shape, flat, raw.ravel()[flat] <= stealth_bound))
    return FigureOrders(side, fig.id, tuple(out), tuple(moves))


def _throw_orders(
    side: str, ident: str, stock: tuple[str, ...], p_throw: float, closest: Cell | None
) -> tuple[Action, ...]:
    """A figure's throw orders: each grenade it holds from HOLD and from HIDE, hinted at the
    closest seen enemy for HE and stun, made once per value and kept (``_MADE``): one look-up
    per figure instead of one per throw."""
    key = ("throws", side, ident, stock, p_throw, closest)
    found: tuple[Action, ...] | None = _MADE.get(key)
    if found is None:
        out = []
        for grenade in stock:
            for posture in (HOLD, HIDE):
                hint: dict[str, Any] = {"role": "other", "grenade": grenade}
                if closest is not None and grenade in ("he", "stun"):
                    hint = {
                        "role": "attack",
                        "p": p_throw,
                        "grenade": grenade,
                        "target": cell_json(closest),
                    }
                out.append(_throw_order(side, ident, posture, grenade, hint))
        found = tuple(out)
        _remember(key, found)
    return found


def _throw_order(side: str, ident: str, posture: str, grenade: str, hint: dict[str, Any]) -> Action:
    """``order(figure, posture, task=throw, grenade)`` with its hint, made once per value and
    kept (``_MADE``): a figure lists its throws again at every step it can throw."""
    advice = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(hint.items()))
    key = ("throw", side, ident, posture, grenade, advice)
    found: Action | None = _MADE.get(key)
    if found is None:
        found = _act(
            side, "order", hint, figure=ident, posture=posture, task="throw", grenade=grenade
        )
        _remember(key, found)
    return found


class _MoveTable:
    """One figure's ``order`` actions of one posture to every square of one level, made when
    first asked (a flat object array, ``made`` marks the squares done)."""

    __slots__ = ("actions", "made")

    def __init__(self, size: int) -> None:
        self.actions: NDArray[np.object_] = np.empty(size, dtype=object)
        self.made: BoolArray = np.zeros(size, dtype=bool)

    def fill(self, side: str, ident: str, posture: str, level: int, width: int, flat: Any) -> None:
        """Make the actions of the squares ``flat`` (flat indices) not made yet."""
        missing = flat[~self.made[flat]]
        for index in missing.tolist():
            y, x = divmod(index, width)
            self.actions[index] = _move_order(side, ident, posture, level, x, y)
        self.made[missing] = True


#: move tables by (side, figure, posture, level, height, width): an action is a value, and a
#: figure's orders to the same squares come back turn after turn and game after game
_TABLES: dict[tuple[Any, ...], _MoveTable] = {}
#: tables ``_TABLES`` holds before it starts afresh (a bound on memory only)
TABLES_SIZE = 1024


def _table(side: str, ident: str, posture: str, level: int, shape: tuple[int, ...]) -> _MoveTable:
    key = (side, ident, posture, level, shape)
    found = _TABLES.get(key)
    if found is None:
        if len(_TABLES) >= TABLES_SIZE:
            _TABLES.clear()
        found = _TABLES[key] = _MoveTable(shape[0] * shape[1])
    return found


def _move_orders(
    side: str, ident: str, level: int, reach: BoolArray, quiet: BoolArray
) -> list[Action]:
    """The MOVE and STEALTH orders to the squares of ``reach`` on one level, in (y, x) order,
    each square's STEALTH order first where ``quiet`` holds."""
    flat = np.flatnonzero(reach)
    if not flat.size:
        return []
    return _listed_moves(side, ident, LevelMoves(level, reach.shape, flat, quiet.ravel()[flat]))


class LevelMoves:
    """A figure's move orders on one level: the squares reached (flat indices, in order) and
    which of them STEALTH reaches too. Each square lists its STEALTH order (where it has one)
    and then its MOVE order, so ``count`` is the squares plus the quiet ones."""

    __slots__ = ("_read", "count", "flat", "level", "shape", "stealthy")

    def __init__(
        self, level: int, shape: tuple[int, ...], flat: NDArray[np.intp], stealthy: BoolArray
    ) -> None:
        self.level = level
        self.shape = shape
        self.flat = flat
        self.stealthy = stealthy
        self.count = int(flat.size) + int(np.count_nonzero(stealthy))
        #: for single reads, made at the first: each square's first place in the list, the
        #: squares and their STEALTH flags as plain lists
        self._read: tuple[list[int], list[int], list[bool]] | None = None

    def action(self, side: str, ident: str, at: int) -> Action:
        """The ``at``-th move order of this level (0 <= at < count), from the move tables."""
        read = self._read
        if read is None:
            quiet = self.stealthy.astype(np.intp)
            places = np.arange(self.flat.size) + np.cumsum(quiet) - quiet
            read = self._read = (places.tolist(), self.flat.tolist(), self.stealthy.tolist())
        starts, flat, stealthy = read
        k = bisect_right(starts, at) - 1
        posture = STEALTH if stealthy[k] and starts[k] == at else MOVE
        table = _table(side, ident, posture, self.level, self.shape)
        index = flat[k]
        found: Action | None = table.actions[index]
        if found is None:
            y, x = divmod(index, self.shape[1])
            found = table.actions[index] = _move_order(side, ident, posture, self.level, x, y)
            table.made[index] = True
        return found


def _listed_moves(side: str, ident: str, moves: LevelMoves) -> list[Action]:
    """Every move order of ``moves`` in order, taken from the figure's move tables in a few
    array operations instead of a loop over the squares."""
    flat, stealthy, shape = moves.flat, moves.stealthy, moves.shape
    level, width = moves.level, shape[1]
    table = _table(side, ident, MOVE, level, shape)
    table.fill(side, ident, MOVE, level, width, flat)
    stealths = _table(side, ident, STEALTH, level, shape)
    stealths.fill(side, ident, STEALTH, level, width, flat[stealthy])
    pairs = np.empty((flat.size, 2), dtype=object)
    pairs[:, 0] = stealths.actions[flat]
    pairs[:, 1] = table.actions[flat]
    keep = np.ones((flat.size, 2), dtype=bool)
    keep[:, 0] = stealthy
    listed: list[Action] = pairs[keep].tolist()
    return listed


class FigureOrders(Sequence[Action]):
    """A figure's ``order`` actions: its stay, task and throw orders, then its move orders
    level by level; counted at once, a move order made only when read.

    A random draw reads one action of a listing, while a figure's moves are a hundred
    actions or more that change with its square at every step: a single read takes its one
    action from the move tables, and a full read (``legal_actions``) makes the whole list
    once and keeps it."""

    __slots__ = ("_all", "_count", "_head", "_ident", "_moves", "_side")

    def __init__(
        self, side: str, ident: str, head: tuple[Action, ...], moves: tuple[LevelMoves, ...]
    ) -> None:
        self._side = side
        self._ident = ident
        self._head = head
        self._moves = moves
        self._count = len(head) + sum(m.count for m in moves)
        self._all: tuple[Action, ...] | None = None

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if self._all is not None or isinstance(index, slice):
            return self.whole()[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("figure order index out of range")
        if index < len(self._head):
            return self._head[index]
        at = index - len(self._head)
        for moves in self._moves:
            if at < moves.count:
                return moves.action(self._side, self._ident, at)
            at -= moves.count
        raise AssertionError("the levels' counts add up to the figure's")

    def __iter__(self) -> Iterator[Action]:
        return iter(self.whole())

    def whole(self) -> tuple[Action, ...]:
        """Every action in order, made once and kept."""
        found = self._all
        if found is None:
            out = list(self._head)
            for moves in self._moves:
                out.extend(_listed_moves(self._side, self._ident, moves))
            found = self._all = tuple(out)
        return found


#: actions made before, by everything they are made from: an action is a value (its hint is
#: never changed after it is made), and figures ask for the same squares turn after turn
_MADE: dict[tuple[Any, ...], Any] = {}
#: entries ``_MADE`` holds before it starts afresh (a bound on memory only)
MADE_SIZE = 200_000


def _remember(key: tuple[Any, ...], value: Any) -> None:
    if len(_MADE) >= MADE_SIZE:
        _MADE.clear()
    _MADE[key] = value


def _move_order(side: str, ident: str, posture: str, level: int, x: int, y: int) -> Action:
    """``order(figure, posture, to)`` to the square (level, x, y), the same action
    ``Action.make`` builds, made directly (a figure has dozens of these at each step, and the
    arguments are already plain values)."""
    args = (("figure", ident), ("posture", posture), ("to", (level, x, y)))
    hint = {"role": "move", "to": [level, x, y], "posture": posture}
    return Action.frozen(side, "order", args, hint)


def stage_actions(state: GoState, side: str, fig: Figure, order: Order) -> list[Action]:
    """The second and third steps of one figure's order: throw target, then facing."""
    return list(stage_part(state, side, fig, order)[1])


def stage_part(
    state: GoState, side: str, fig: Figure, order: Order
) -> tuple[str, Sequence[Action]]:
    """``stage_actions`` as its kind and the kept or counted sequence of its actions."""
    if order.task == "throw" and order.target is None:
        return "target", target_actions(state, side, fig, order)
    end = order.destination or fig.pos
    assert end is not None
    return "face", _facings(state, side, fig.id, end)


def _facings(state: GoState, side: str, ident: str, end: Cell) -> Facings:
    """The eight ``face`` actions of a figure ending on ``end`` (kept per map shape)."""
    shapes = tuple(lv.terrain.shape for lv in state.board.levels)
    key = ("face", side, ident, end, shapes)
    found: Facings | None = _MADE.get(key)
    if found is None:
        found = Facings(side, ident, end, shapes)
        _remember(key, found)
    return found


class Facings(MadeWhenRead):
    """The eight ``face`` actions of a figure ending on ``end``, in compass order, each made
    when first read and kept: a random draw reads one of them, and a figure ends on a new
    square at nearly every step. A facing whose square ahead lies on the map hints it."""

    __slots__ = ("_end", "_ident", "_shapes", "_side")

    def __init__(
        self, side: str, ident: str, end: Cell, shapes: tuple[tuple[int, ...], ...]
    ) -> None:
        super().__init__(len(COMPASS_ORDER))
        self._side = side
        self._ident = ident
        self._end = end
        self._shapes = shapes

    def _make_at(self, index: int) -> Action:
        return self._make(COMPASS_ORDER[index])

    def _make(self, name: str) -> Action:
        dx, dy = COMPASS[name]
        level, x, y = self._end.level, self._end.x + dx, self._end.y + dy
        hint: dict[str, Any] = {"role": "other", "facing": name}
        if 0 <= level < len(self._shapes):  # board.in_bounds of the square ahead
            height, width = self._shapes[level][:2]
            if 0 <= x < width and 0 <= y < height:
                hint = {"role": "move", "to": [level, x, y], "facing": name}
        # Action.make(side, "face", hint, figure=, facing=), its arguments sorted by name
        return Action.frozen(self._side, "face", (("facing", name), ("figure", self._ident)), hint)


def target_actions(state: GoState, side: str, fig: Figure, order: Order) -> Sequence[Action]:
    """The ``target`` actions of a THROW order, one per square of ``throw_targets`` in its
    order, each made when first read (``Targets``)."""
    assert fig.pos is not None and order.grenade is not None
    # the chance of landing on target, through an opening or not (4.8)
    chance = (
        dice.chance_of(dice.grenade_need(False, fig.wounds, fig.stunned)),
        dice.chance_of(dice.grenade_need(True, fig.wounds, fig.stunned)),
    )
    cells = throw_targets(state, side, fig)
    openings = _openings(state, side, fig.pos.level) if cells else None
    return Targets(side, fig.id, fig.pos, order.grenade, chance, cells, openings)


class Targets(MadeWhenRead):
    """A THROW's ``target`` actions: counted at once, each made when first read.

    A throw has a hundred squares or more to aim at, and each action's hint needs its own
    line traced for openings (the chance differs through one), while a listing reads one
    of them or none (only a full read, ``legal_actions``, makes them all). Everything an
    action is made from is held here, none of it read from the state later."""

    __slots__ = ("_args", "_cells", "_chance", "_openings", "_role", "_start")

    def __init__(
        self,
        side: str,
        ident: str,
        start: Cell,
        grenade: str,
        chance: tuple[float, float],
        cells: list[Cell],
        openings: Openings | None,
    ) -> None:
        super().__init__(len(cells))
        self._args = (side, ident, grenade)
        self._start = start
        self._chance = chance
        self._cells = cells
        self._openings = openings
        # its worth (enemies and friends in the radius) is the bot's
        self._role = "attack" if grenade in ("he", "stun") else "other"

    def _make_at(self, index: int) -> Action:
        return self._make(self._cells[index])

    def _make(self, cell: Cell) -> Action:
        assert self._openings is not None
        side, ident, grenade = self._args
        through = _crosses(self._openings, self._start, cell)
        at = (cell.level, cell.x, cell.y)
        hint: dict[str, Any] = {
            "role": self._role,
            "p": self._chance[through],
            "target": list(at),
            "grenade": grenade,
        }
        # Action.make(side, "target", hint, figure=, at=), its arguments sorted by name:
        # made directly
        return Action.frozen(side, "target", (("at", at), ("figure", ident)), hint)


# -- checks ---------------------------------------------------------------------------------


def own_fighter(state: GoState, side: str, action: Action) -> Figure:
    ident = action.get("figure")
    if not isinstance(ident, str) or ident not in state.figures:
        raise illegal(f"no figure {ident!r}")
    fig = state.fig(ident)
    if fig.side != side:
        raise illegal(f"{ident} is not one of {side}'s figures")
    if not (fig.active and fig.fighter):
        raise illegal(f"{ident} cannot take orders ({fig.status})")
    return fig


def check_order(state: GoState, side: str, action: Action) -> Order:
    """Validate an ``order`` action and return the order it gives (no state change)."""
    draft = state.drafts[side]
    if draft.pending is not None:
        raise illegal(f"finish the order of {draft.pending} first")
    fig = own_fighter(state, side, action)
    assert fig.pos is not None
    if fig.id in draft.orders:
        raise illegal(f"{fig.id} already has its order for this turn")
    posture = as_posture(action.get("posture"))
    if posture is None:
        given = action.get("posture")
        raise illegal(f"posture must be one of {', '.join(POSTURES)}, got {given!r}")
    if posture == AIM and fig.weapon != "sniper":
        raise illegal("only a sniper rifle can AIM")
    task = action.get("task")
    if task is not None and task not in TASKS:
        raise illegal(f"task must be one of {', '.join(TASKS)}, got {task!r}")
    to_arg, path_arg = action.get("to"), action.get("path")
    path: list[Cell] = []
    if posture in MOVING:
        if task is not None:
            raise illegal(f"a moving figure cannot {task} (only fire)")
        limit = allowance(fig, posture)
        if path_arg is not None:
            if not isinstance(path_arg, list | tuple) or not path_arg:
                raise illegal("path must be a non-empty list of [level, x, y] cells")
            path = [as_cell(c, "each path cell") for c in path_arg]
            cost = cost_of(state.board, fig.pos, path, state.know[side].open_doors)
            if cost is None:
                raise illegal(f"path {path_arg!r} is not a chain of legal steps (G-3)")
            if cost > limit:
                raise illegal(f"path costs {cost}, more than the {posture} allowance of {limit}")
            if to_arg is not None and as_cell(to_arg, "to") != path[-1]:
                raise illegal("to must be the path's last cell")
        else:
            if to_arg is None:
                raise illegal(f"a {posture} order needs a destination (to) or a path")
            to = as_cell(to_arg, "to")
            if to == fig.pos:
                raise illegal("a move must end somewhere else; HOLD to stay")
            if not state.board.in_bounds(to):
                raise illegal(f"{list(to)} is off the map")
            field = move_field(state, side, fig)
            cost = cost_at(field, to)
            if cost is None:  # beyond the bounded field: the full one says why
                cost = full_move_field(state, side, fig).cost(to)
            if cost is None:
                raise illegal(f"{list(to)} cannot be reached")
            if cost > limit:
                raise illegal(
                    f"{list(to)} costs {cost}, more than the {posture} allowance of {limit}"
                )
            steps, padded = step_model(state, side)
            path = route(field, steps, padded, to)  # path_to's path, walked back alone
    else:
        if path_arg is not None:
            raise illegal(f"a {posture} order has no path")
        if to_arg is not None and as_cell(to_arg, "to") != fig.pos:
            raise illegal(f"a {posture} order stays where the figure is")
    grenade = action.get("grenade")
    if task == "throw":
        if posture not in (HOLD, HIDE):
            raise illegal("a grenade is thrown from HOLD or HIDE (G-18)")
        if fig.kind != OPERATIVE:
            raise illegal("the VIP has no grenades")
        if not isinstance(grenade, str) or fig.grenades.get(grenade, 0) < 1:
            raise illegal(f"{fig.id} has no {grenade!r} grenade")
        if not can_throw(state, side, fig):
            raise illegal(f"{fig.id} has no square it can throw to")
    elif grenade is not None:
        raise illegal("grenade goes with task throw")
    if task == "plant":
        if posture != HOLD:
            raise illegal("planting needs posture HOLD (G-29)")
        if not can_plant(state, fig):
            raise illegal(f"{fig.id} cannot plant: it must carry the bomb and stand on a bomb site")
    if task == "defuse":
        if posture != HOLD:
            raise illegal("defusing needs posture HOLD (G-30)")
        if not can_defuse(state, fig):
            raise illegal(f"{fig.id} cannot defuse: it must be a CT next to the known planted bomb")
    return Order(
        posture=posture, path=path, task=task, grenade=grenade if task == "throw" else None
    )


def check_target(state: GoState, side: str, action: Action) -> tuple[Figure, Cell]:
    draft = state.drafts[side]
    fig = own_fighter(state, side, action)
    order = draft.orders.get(fig.id)
    if (
        draft.pending != fig.id
        or order is None
        or order.task != "throw"
        or order.target is not None
    ):
        raise illegal(f"{fig.id} is not waiting for a throw target")
    cell = as_cell(action.get("at"), "at")
    if cell not in throw_targets(state, side, fig):
        raise illegal(
            f"{list(cell)} is not a square {fig.id} can throw to (distance 1-10, clear line)"
        )
    return fig, cell


def check_face(state: GoState, side: str, action: Action) -> tuple[Figure, str]:
    draft = state.drafts[side]
    fig = own_fighter(state, side, action)
    order = draft.orders.get(fig.id)
    if draft.pending != fig.id or order is None:
        raise illegal(f"{fig.id} is not waiting for a facing")
    if order.task == "throw" and order.target is None:
        raise illegal(f"{fig.id} needs its throw target first")
    facing = action.get("facing")
    if facing not in COMPASS:
        raise illegal(f"facing must be one of {', '.join(COMPASS_ORDER)}, got {facing!r}")
    return fig, str(facing)


def check_follow(state: GoState, side: str, action: Action) -> tuple[Figure, Figure]:
    draft = state.drafts[side]
    if draft.pending is not None:
        raise illegal(f"finish the order of {draft.pending} first")
    fig = own_fighter(state, side, action)
    ident = action.get("hostage")
    choices = {h.id: h for h in follow_choices(state, side, fig)}
    if not isinstance(ident, str) or ident not in choices:
        raise illegal(f"{fig.id} cannot tell {ident!r} to follow (an adjacent hostage you know of)")
    return fig, choices[ident]


def check_speak(state: GoState, side: str, action: Action) -> Figure:
    if not state.per_player:
        raise illegal("speech happens only with one player per figure (G-34)")
    draft = state.drafts[side]
    if draft.pending is not None:
        raise illegal(f"finish the order of {draft.pending} first")
    fig = own_fighter(state, side, action)
    if fig.id in draft.speak:
        raise illegal(f"{fig.id}'s player has already spoken this turn")
    return fig


def check_commit(state: GoState, side: str) -> None:
    draft = state.drafts[side]
    if draft.pending is not None:
        raise illegal(f"finish the order of {draft.pending} first")
