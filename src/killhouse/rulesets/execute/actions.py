"""What a side may do at each decision point, with hints for bots (TN and odds shown first, E-13).

Every action of a combat slot names one figure and what it does in this phase (ruling E-10:
one action per figure per phase); ``done`` ends the side's slot. Hints follow the engine's
convention: ``role``, ``to`` for moves, ``p``/``target``/``tn`` for attacks and tasks. Hints
carry facts the side may know (odds from its own view), never a bot's scoring: what an action
is worth is the bot's business (``ai/roles/execute/``).
"""

from __future__ import annotations

from itertools import groupby
from operator import attrgetter
from typing import Any, cast

from killhouse.core.cells import Cell, cell_json
from killhouse.core.geometry import chebyshev, los_pairs
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute.movement import claimable, stops, within_reach
from killhouse.rulesets.execute.rolls import (
    device_tn,
    grenade_tn,
    shot_tn,
    success_chance,
)
from killhouse.rulesets.execute.state import (
    ACTIVE,
    AGENT,
    FIRING,
    GRENADES,
    INCAPACITATED,
    MOVEMENT,
    NEGOTIATION,
    PLANNING,
    REMOVED,
    SETUP,
    TASKS,
    TERRORIST,
    TURN_START,
    ExecuteState,
    Figure,
)
from killhouse.rulesets.execute.tables import STATS, tables
from killhouse.rulesets.execute.tasks import adjacent
from killhouse.rulesets.execute.vision import MEMO_LIMIT, visible_ids
from killhouse.rulesets.kit import Group

MAX_TEXT = 500
MAX_NOTES = 10
#: the standard terrorist's card (E-33), offered as the starting point of a custom agent
DEFAULT_STATS: tuple[int, ...] = tuple(
    tables().terrorist_cards["standard_terrorist"].stat(s) for s in STATS
)


def _act(side: str, kind: str, hint: dict[str, Any], **args: Any) -> Action:
    return Action.make(side, kind, hint, **args)


def legal(state: ExecuteState, side: str) -> list[Action]:
    """Every action ``side`` may take now (cached until the state changes)."""
    if state.result is not None:
        return []
    key = ("legal", side)
    cached = state.cache.get(key)
    if cached is not None:
        out: list[Action] = cached
        return list(out)
    out = _legal(state, side)
    state.cache[key] = out
    return list(out)


def legal_args(state: ExecuteState, side: str, kind: str) -> frozenset[tuple[Any, ...]]:
    """The arguments of ``side``'s legal actions of ``kind`` (cached until the state changes).

    Every action of ``legal(state, side)`` is ``side``'s, so an action of that side and kind
    is legal exactly when its arguments are here (actions are equal by side, kind and
    arguments); a set of argument tuples is made far faster than a set of actions, whose
    hash is computed in Python each time, and a movement phase lists thousands of moves.
    """
    key = ("legal-args", side, kind)
    found: frozenset[tuple[Any, ...]] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = frozenset(
            [a.args for a in legal_by_kind(state, side).get(kind, ())]
        )
    return found


def figure_args(state: ExecuteState, side: str, kind: str, figure: object) -> frozenset[
    tuple[Any, ...]
]:
    """The arguments of ``side``'s legal actions of ``kind`` by ``figure`` (cached until the
    state changes): ``legal_args`` cut to one figure's. A kind listed figure by figure (moves,
    loadouts) has each figure's run recorded as the list is made (``_record_run``), so a check
    reads a few hundred arguments, not the list's thousands; for any other kind, the whole
    set (an action is legal exactly when its arguments are in either)."""
    legal_by_kind(state, side)  # the list, made once per state, records the runs
    runs: dict[str, list[Action]] | None = state.cache.get(("runs", side, kind))
    if runs is None:
        return legal_args(state, side, kind)
    key = ("figure-args", side, kind, figure)
    found: frozenset[tuple[Any, ...]] | None = state.cache.get(key)
    if found is None:
        run = runs.get(figure) if isinstance(figure, str) else None
        found = state.cache[key] = frozenset([a.args for a in run or ()])
    return found


def _record_run(state: ExecuteState, side: str, kind: str, figure: str,
                run: list[Action]) -> None:
    """Note ``figure``'s actions of ``kind`` as listed for this state (``figure_args``)."""
    runs: dict[str, list[Action]] | None = state.cache.get(("runs", side, kind))
    if runs is None:
        runs = state.cache[("runs", side, kind)] = {}
    runs[figure] = run


def legal_by_kind(state: ExecuteState, side: str) -> dict[str, list[Action]]:
    """``legal(state, side)`` grouped by kind, each in list order (cached until the state
    changes): the flow asks for each active kind's options in turn."""
    key = ("legal-kinds", side)
    found: dict[str, list[Action]] | None = state.cache.get(key)
    if found is None:
        found = {}
        if state.phase == PLANNING and state.result is None:
            if side == state.fbi:
                found = planning_by_kind(state)
        else:
            # a list holds long runs of one kind (the moves, a figure's loadouts): a run at
            # a time
            for kind, run in groupby(legal(state, side), _KIND):
                listed = found.get(kind)
                if listed is None:
                    found[kind] = list(run)
                else:
                    listed.extend(run)
        state.cache[key] = found
    return found


def legal_groups(state: ExecuteState, side: str) -> dict[str, tuple[Group, ...]]:
    """``legal_by_kind`` as one counted group per kind over each kept list (cached until the
    state changes): the flow's ``listing``, read in one call at every listing."""
    key = ("legal-groups", side)
    found: dict[str, tuple[Group, ...]] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = {
            kind: (_group(listed),) for kind, listed in legal_by_kind(state, side).items()
            if listed
        }
    return found


def _group(listed: list[Action]) -> Group:
    """One counted group over a kept list (no copy is made)."""
    return Group(len(listed), lambda: listed)


_KIND = attrgetter("kind")


def _legal(state: ExecuteState, side: str) -> list[Action]:
    phase = state.phase
    if phase == SETUP:
        return setup_actions(state, side) if side == state.terrorists else []
    if phase == NEGOTIATION:
        return negotiation_actions(state, side) if side not in state.negotiation_ended else []
    if phase == PLANNING:
        return planning_actions(state) if side == state.fbi else []
    if phase == TURN_START:
        if side != state.fbi:
            return []
        return [_act(side, "continue", {"role": "pass"}), _act(side, "concede", {"role": "other"})]
    if phase in (GRENADES, TASKS, MOVEMENT, FIRING):
        if side != state.acting_side():
            return []
        acts = {
            GRENADES: grenade_actions,
            TASKS: task_actions,
            MOVEMENT: move_actions,
            FIRING: fire_actions,
        }[phase](state, side)
        return [*acts, _act(side, "done", {"role": "pass"})]
    return []


# -- pre-game -------------------------------------------------------------------------------


def setup_actions(state: ExecuteState, side: str) -> list[Action]:
    """Pre-game step 2 (ruling E-43): the terrorists set each bomb's mode (E-23), then ready.

    The list reads only the bombs, the active terrorists and the timer's bounds, none of
    which setting a bomb changes: kept in ``state.memo`` under them, as every setup step
    lists it again."""
    holders = sorted(f.id for f in state.terrorist_figures() if f.active)
    bombs = sorted(state.bombs)
    key = ("setup", side, tuple(bombs), tuple(holders), state.options.min_timer,
           state.options.turn_limit)
    found: list[Action] | None = state.memo.get(key)
    if found is None:
        found = _setup_actions(state, side, holders)
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return list(found)


def _setup_actions(state: ExecuteState, side: str, holders: list[str]) -> list[Action]:
    out: list[Action] = []
    for bomb in sorted(state.bombs.values(), key=lambda b: b.id):
        for turn in range(state.options.min_timer, state.options.turn_limit + 1):
            out.append(_act(side, "bomb_timer", {"role": "setup"}, bomb=bomb.id, turn=turn))
        for holder in holders:
            out.append(_act(side, "bomb_remote", {"role": "setup"}, bomb=bomb.id, holder=holder))
    out.append(_act(side, "ready", {"role": "pass"}))
    return out


def negotiation_actions(state: ExecuteState, side: str) -> list[Action]:
    """Pre-game step 3a (ruling E-35): talk, release hostages, meet the demands, or end."""
    out: list[Action] = []
    if state.messages.get(side, 0) < state.options.max_messages:
        out.append(_act(side, "talk", {"role": "other"}, text=""))
    if side == state.terrorists:
        for h in sorted(state.hostages(), key=lambda f: f.id):
            if h.alive and h.status not in REMOVED:
                out.append(_act(side, "release", {"role": "other", "target": h.id}, hostage=h.id))
    else:
        out.append(_act(side, "meet_demands", {"role": "other"}))
    out.append(_act(side, "end_negotiation", {"role": "pass"}))
    return out


_KEPT: dict[tuple[str, str, str, tuple[tuple[str, Any], ...]], Action] = {}


def _kept(side: str, kind: str, role: str = "setup", /, **args: Any) -> Action:
    """A planning action whose arguments are scalars and whose hint is its ``role``, made
    once: planning lists the same recruits, dismissals, note and ready at every step."""
    key = (side, kind, role, tuple(sorted(args.items())))
    found = _KEPT.get(key)
    if found is None:
        if len(_KEPT) >= 4096:
            _KEPT.clear()
        found = _KEPT[key] = _act(side, kind, {"role": role}, **args)
    return found


#: each side's recruits by the pool they are listed from (``_recruits``)
_RECRUITS: dict[tuple[str, tuple[str, ...]], list[Action]] = {}


def _recruits(side: str, pool: list[str]) -> list[Action]:
    """The recruit actions of ``pool``'s cards, then the custom card's, made once per pool:
    planning lists them again at every step until the roster is full."""
    key = (side, tuple(pool))
    found = _RECRUITS.get(key)
    if found is None:
        if len(_RECRUITS) >= 1024:
            _RECRUITS.clear()
        found = [_kept(side, "recruit", card=card) for card in pool]
        # E-33's default card offered to build on; any 25-point card is accepted
        found.append(_kept(side, "recruit_custom", **dict(zip(STATS, DEFAULT_STATS, strict=True))))
        _RECRUITS[key] = found
    return found


def planning_actions(state: ExecuteState) -> list[Action]:
    """Pre-game step 3b (rulings E-36, E-67): the FBI's roster, loadouts (weapon, armour,
    grenades) and custom agents, hidden from the terrorists."""
    recruits, agents, tail = _planning_parts(state)
    out = list(recruits)
    for dismiss, loadouts in agents:
        out.append(dismiss)
        out += loadouts
    return out + tail


def planning_by_kind(state: ExecuteState) -> dict[str, list[Action]]:
    """``planning_actions`` by kind, each kind in list order, made straight from its parts
    (the flow lists kinds in turn; a planning step asks after every loadout)."""
    recruits, agents, tail = _planning_parts(state)
    out: dict[str, list[Action]] = {}
    for action in recruits:
        out.setdefault(action.kind, []).append(action)
    if agents:
        out["dismiss"] = [dismiss for dismiss, _ in agents]
        loadouts: list[Action] = []
        for _, own in agents:
            loadouts += own
        if loadouts:
            out["loadout"] = loadouts
    for action in tail:
        out[action.kind] = [action]
    return out


def _planning_parts(
    state: ExecuteState,
) -> tuple[list[Action], list[tuple[Action, list[Action]]], list[Action]]:
    """Planning's actions in three parts: the recruits, each agent's dismissal with its
    loadouts (by id), and the note and ready at the end."""
    side = state.fbi
    roster = state.agents()
    recruits = _recruits(side, state.pool) if len(roster) < state.options.fbi_count else []
    supply = range(state.options.grenades_per_figure + 1)
    cap = state.options.armour_cap(side)
    agents: list[tuple[Action, list[Action]]] = []
    for agent in sorted(roster, key=lambda f: f.id):
        # every loadout but the agent's own; the whole list depends on nothing else: kept,
        # as every planning step asks, with each loadout's place in it
        key = ("loadouts", side, agent.id, cap, state.options.grenades_per_figure)
        every: tuple[list[Action], dict[tuple[Any, ...], int]] | None = state.memo.get(key)
        if every is None:
            combos = [
                (weapon, armour, grenades)
                for weapon in sorted(tables().weapons)
                for armour in range(cap + 1)
                for grenades in supply
            ]
            every = (
                [
                    _act(side, "loadout", {"role": "setup"}, figure=agent.id, weapon=weapon,
                         armour=armour, grenades=grenades)
                    for weapon, armour, grenades in combos
                ],
                {combo: i for i, combo in enumerate(combos)},
            )
            if len(state.memo) >= MEMO_LIMIT:
                state.memo.clear()
            state.memo[key] = every
        loadouts = every[0]
        own = every[1].get((agent.weapon, agent.armour, agent.grenades))
        if own is not None:
            loadouts = [*loadouts[:own], *loadouts[own + 1 :]]
        _record_run(state, side, "loadout", agent.id, loadouts)
        agents.append((_kept(side, "dismiss", figure=agent.id), loadouts))
    tail: list[Action] = []
    if len(state.notes) < MAX_NOTES:
        tail.append(_kept(side, "note", "other", text=""))
    if roster:
        tail.append(_kept(side, "ready", "pass"))
    return recruits, agents, tail


# -- combat ---------------------------------------------------------------------------------


def ready(state: ExecuteState, side: str, on_map: bool = True) -> list[Figure]:
    """The side's active figures that have not yet acted in this phase (E-10), by id."""
    return sorted(
        (
            f
            for f in state.figures.values()
            if f.side == side
            and f.active
            and f.id not in state.acted
            and (f.pos is not None or not on_map)
        ),
        key=lambda f: f.id,
    )


def throw_targets(state: ExecuteState, thrower: Figure) -> list[Cell]:
    """Squares listed for a throw (ruling E-52): seen enemies in range and in sight (E-25).

    ``apply`` accepts any other square E-25 allows; listing every square would swamp bots.
    """
    assert thrower.side is not None
    pos = thrower.pos
    if pos is None:
        return []
    seen = visible_ids(state, thrower.side)
    cells = sorted(
        {
            f.pos
            for f in state.figures.values()
            if f.id in seen
            and f.side == state.other(thrower.side)
            and f.pos is not None
            and f.status in (ACTIVE, INCAPACITATED)
        }
    )
    g = tables().grenade
    cells = [
        c
        for c in cells
        if c.level == pos.level and g["min_distance"] <= chebyshev(pos, c) <= g["max_distance"]
    ]
    if not cells:
        return []
    ok = los_pairs(
        state.board.opaque(pos.level), [(pos.x, pos.y)] * len(cells), [(c.x, c.y) for c in cells]
    )
    return [c for c, fine in zip(cells, ok, strict=True) if fine]


def throw_hint(state: ExecuteState, thrower: Figure, target: Cell) -> dict[str, Any]:
    assert thrower.pos is not None
    d = chebyshev(thrower.pos, target)
    tn = grenade_tn(d, thrower.card.grenades, thrower.damage)
    aimed = next(
        (
            f.id
            for f in sorted(state.figures.values(), key=lambda f: (f.status, f.id))
            if f.pos == target and f.status in (ACTIVE, INCAPACITATED)
        ),
        None,
    )
    return {
        "role": "attack",
        "tn": tn,
        "distance": d,
        "target": aimed,
        "p": float(success_chance(tables().grenade["die"], tn)),
    }


def grenade_actions(state: ExecuteState, side: str) -> list[Action]:
    """Combat step 2: remote detonations first (terrorists, E-23), then one throw per figure."""
    out: list[Action] = []
    if side == state.terrorists and not state.threw_this_slot:
        for bomb in sorted(state.bombs.values(), key=lambda b: b.id):
            holder = state.figures.get(bomb.holder or "")
            if (
                bomb.mode == "remote"
                and bomb.terrorists_think_armed
                and holder is not None
                and holder.active
                and holder.pos is not None
            ):
                out.append(
                    _act(
                        side,
                        "detonate",
                        {"role": "attack", "p": 1.0, "target": bomb.id},
                        bomb=bomb.id,
                    )
                )
    for f in ready(state, side):
        if f.grenades <= 0:
            continue
        for cell in throw_targets(state, f):
            out.append(
                _act(side, "throw", throw_hint(state, f, cell), figure=f.id, at=cell_json(cell))
            )
    return out


def task_actions(state: ExecuteState, side: str) -> list[Action]:
    """Combat step 3 (E-18): one device or disarm attempt per adjacent agent."""
    if side != state.fbi:
        return []
    out: list[Action] = []
    die = tables().device["die"]
    for agent in ready(state, side):
        for device in sorted(state.devices.values(), key=lambda d: d.id):
            if not device.working or not adjacent(agent, device.at):
                continue
            if device.type == "power" and not any(
                d.working for d in state.devices.values() if d.id in device.links
            ):
                continue
            tn = device_tn(device.level, agent.card.electronics, agent.damage)
            out.append(
                _act(
                    side,
                    "task",
                    {
                        "role": "task",
                        "tn": tn,
                        "target": device.id,
                        "p": float(success_chance(die, tn)),
                    },
                    figure=agent.id,
                    device=device.id,
                )
            )
        for bomb in sorted(state.bombs.values(), key=lambda b: b.id):
            if bomb.state != "armed" or not bomb.seen_by_fbi or not adjacent(agent, bomb.at):
                continue
            tn = device_tn(bomb.level, agent.card.electronics, agent.damage)
            p = float(success_chance(tables().bomb["die"], tn))
            out.append(
                _act(
                    side,
                    "disarm",
                    {
                        "role": "task",
                        "tn": tn,
                        "target": bomb.id,
                        "p": p,
                    },
                    figure=agent.id,
                    bomb=bomb.id,
                )
            )
    return out


#: moves one figure keeps by (square, cost) before it starts afresh
MOVE_POOL_LIMIT = 20_000
#: figures (side, id) the move pools are kept for before they start afresh
MOVE_POOLS_LIMIT = 256

#: each figure's move actions by (square, cost), kept for the whole process: a move is a
#: value of its side, figure, square and cost alone (like ``_SHOTS``), and a batch of games on
#: one scenario lists the same figures' moves to the same squares game after game
_MOVE_POOLS: dict[tuple[str, str], dict[tuple[Cell, int], Action]] = {}


def _move_pool(side: str, figure: str) -> dict[tuple[Cell, int], Action]:
    """The move pool of ``side``'s ``figure`` (``_MOVE_POOLS``), started afresh when full."""
    pool = _MOVE_POOLS.get((side, figure))
    if pool is None or len(pool) >= MOVE_POOL_LIMIT:
        if len(_MOVE_POOLS) >= MOVE_POOLS_LIMIT:
            _MOVE_POOLS.clear()
        pool = _MOVE_POOLS[(side, figure)] = {}
    return pool


def move_actions(state: ExecuteState, side: str) -> list[Action]:
    """Combat step 4: a destination per figure (E-34 insertion for off-map agents), and claims
    by agents that have not moved yet or made the last move (E-30: right before or after)."""
    out: list[Action] = []
    barred = stops(state)
    for f in ready(state, side, on_map=False):
        if f.pos is None and f.kind != AGENT:
            continue
        within = within_reach(state, f)
        # every move within reach is built once and kept beside the squares it is built from;
        # a list for the squares free now is a filter over it
        key = ("moves", side, f.id, id(within))
        found: tuple[list[tuple[Cell, int]], list[Action], dict[Cell, int]] | None = (
            state.memo.get(key)
        )
        if found is None or found[0] is not within:
            # every move the figure was offered is kept by (square, cost): a list worked out
            # again after an enemy's move, or in the next game, is mostly the same moves
            pool = _move_pool(side, f.id)
            listed: list[Action | None] = list(map(pool.get, within))
            for i in [i for i, a in enumerate(listed) if a is None]:
                item = within[i]
                cell, cost = item
                # built directly (what Action.make gives: args sorted; the cell is a tuple,
                # equal to and hashed as its frozen form, so bots read it without converting
                # it back); a turn lists thousands of moves
                listed[i] = pool[item] = Action.frozen(
                    side,
                    "move",
                    (("figure", f.id), ("to", cell)),
                    {"role": "move", "to": list(cell), "cost": cost, "figure": f.id},
                )
            found = (
                within,
                cast("list[Action]", listed),
                {cell: i for i, (cell, _) in enumerate(within)},
            )
            if len(state.memo) >= MEMO_LIMIT:
                state.memo.clear()
            state.memo[key] = found
        # the squares barred now are few next to those within reach: drop them by index
        index = found[2]
        drop = sorted({i for i in map(index.get, barred) if i is not None}, reverse=True)
        if f.pos is not None and f.pos in index and index[f.pos] not in drop:
            drop = sorted([*drop, index[f.pos]], reverse=True)
        moves = found[1]
        if drop:
            moves = list(moves)
            for i in drop:
                del moves[i]
        _record_run(state, side, "move", f.id, moves)
        out += moves
    if side != state.fbi:
        return out
    claimants = [f for f in ready(state, side) if f.kind == AGENT]
    last = state.figures.get(state.last_mover or "")
    if last is not None and last.active and last.pos is not None:
        claimants = sorted([*claimants, last], key=lambda f: f.id)
    for f in claimants:
        for h in sorted(state.hostages(), key=lambda x: x.id):
            if h.leader != f.id and claimable(state, f, h):
                out.append(
                    _act(side, "claim", {"role": "other", "target": h.id},
                         figure=f.id, hostage=h.id)
                )
    return out


def _fire_candidates(state: ExecuteState, firer: Figure, pos: Cell) -> list[Figure]:
    """Figures ``firer`` at ``pos`` could shoot if in its LOS (E-12): not its own side,
    alive, on its level; by id."""
    return sorted(
        (
            f
            for f in state.figures.values()
            if f.side != firer.side
            and f.pos is not None
            and f.pos.level == pos.level
            and f.status in (ACTIVE, INCAPACITATED)
        ),
        key=lambda f: f.id,
    )


def fire_targets(state: ExecuteState, firer: Figure) -> list[Figure]:
    """Figures ``firer`` may shoot (E-12): in its LOS, not its own side, alive."""
    pos = firer.pos
    if pos is None:
        return []
    cands = _fire_candidates(state, firer, pos)
    if not cands:
        return []
    ok = los_pairs(
        state.board.opaque(pos.level),
        [(pos.x, pos.y)] * len(cands),
        [(f.pos.x, f.pos.y) for f in cands if f.pos is not None],
    )
    return [f for f, fine in zip(cands, ok, strict=True) if fine]


#: fire actions made once by (side, firer, target, TN, die): every firing slot lists the
#: same shots again, and the hint's odds are a fraction worked out per shot
_SHOTS: dict[tuple[str, str, str, int, int], Action] = {}


def _shot(side: str, firer: str, target: str, tn: int, die: int) -> Action:
    key = (side, firer, target, tn, die)
    found = _SHOTS.get(key)
    if found is None:
        if len(_SHOTS) >= 4096:
            _SHOTS.clear()
        found = _SHOTS[key] = _act(
            side,
            "fire",
            {"role": "attack", "tn": tn, "target": target, "p": float(success_chance(die, tn))},
            figure=firer,
            target=target,
        )
    return found


def fire_actions(state: ExecuteState, side: str) -> list[Action]:
    """Combat step 5 (E-12): each armed figure fires once at a figure in its sight.

    The targets are ``fire_targets``'s, with every firer's lines traced in one batch per
    level."""
    armed: list[tuple[Figure, list[Figure]]] = []
    lines: dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
    for f in ready(state, side):
        if f.weapon is None or f.kind not in (AGENT, TERRORIST) or f.pos is None:
            continue
        cands = _fire_candidates(state, f, f.pos)
        armed.append((f, cands))
        starts, ends = lines.setdefault(f.pos.level, ([], []))
        starts += [(f.pos.x, f.pos.y)] * len(cands)
        ends += [(t.pos.x, t.pos.y) for t in cands if t.pos is not None]
    clear = {
        level: iter(los_pairs(state.board.opaque(level), starts, ends).tolist())
        for level, (starts, ends) in lines.items()
        if starts
    }
    out: list[Action] = []
    for f, cands in armed:
        if not cands:
            continue
        assert f.weapon is not None and f.pos is not None
        die = tables().weapons[f.weapon].die
        seen = clear[f.pos.level]
        for target in cands:
            if next(seen):
                tn = shot_tn(target.card.evasion, f.card.firearms, f.damage)
                out.append(_shot(side, f.id, target.id, tn, die))
    return out
