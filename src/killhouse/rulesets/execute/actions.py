"""What a side may do at each decision point, with hints for bots (TN and odds shown first, E-13).

Every action of a combat slot names one figure and what it does in this phase (ruling E-10:
one action per figure per phase); ``done`` ends the side's slot. Hints follow the engine's
convention: ``role``, ``to`` for moves, ``p``/``target``/``tn`` for attacks and tasks. Hints
carry facts the side may know (odds from its own view), never a bot's scoring: what an action
is worth is the bot's business (``ai/roles/execute/``).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterator
from itertools import groupby
from operator import attrgetter
from typing import Any, cast

from killhouse.core.cells import Cell, cell_json
from killhouse.core.geometry import chebyshev, los_pairs
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute.movement import (
    Squares,
    barred_arrays,
    claimable,
    stops,
    within_reach,
)
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
from killhouse.rulesets.kit import Group, MadeWhenRead

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
    state changes): the flow's ``listing``, read in one call at every listing. In planning
    and movement, counted groups made only when read (``planning_groups``,
    ``movement_groups``): a random draw makes one, a check none."""
    key = ("legal-groups", side)
    found: dict[str, tuple[Group, ...]] | None = state.cache.get(key)
    if found is None:
        if state.phase == SETUP and state.result is None:
            found = setup_groups(state, side) if side == state.terrorists else {}
        elif state.phase == PLANNING and state.result is None:
            found = planning_groups(state) if side == state.fbi else {}
        elif state.phase == MOVEMENT and state.result is None and side == state.acting_side():
            found = movement_groups(state, side)
        else:
            found = {
                kind: (_group(listed),) for kind, listed in legal_by_kind(state, side).items()
                if listed
            }
        state.cache[key] = found
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
        return [_kept(side, "continue", "pass"), _kept(side, "concede", "other")]
    if phase in (GRENADES, TASKS, MOVEMENT, FIRING):
        if side != state.acting_side():
            return []
        acts = {
            GRENADES: grenade_actions,
            TASKS: task_actions,
            MOVEMENT: move_actions,
            FIRING: fire_actions,
        }[phase](state, side)
        return [*acts, _kept(side, "done", "pass")]
    return []


# -- pre-game -------------------------------------------------------------------------------


def setup_actions(state: ExecuteState, side: str) -> list[Action]:
    """Pre-game step 2 (ruling E-43): the terrorists set each bomb's mode (E-23), then ready."""
    return list(_setup(state, side)[0])


def setup_groups(state: ExecuteState, side: str) -> dict[str, tuple[Group, ...]]:
    """``setup_actions`` as the flow lists them: one group per kind, in list order."""
    return _setup(state, side)[1]


def _setup(state: ExecuteState, side: str) -> tuple[list[Action], dict[str, tuple[Group, ...]]]:
    """The setup list and its groups by kind. The list reads only the bombs, the active
    terrorists and the timer's bounds, none of which setting a bomb changes: kept in
    ``state.memo`` under them, as every setup step lists it again."""
    holders = sorted(f.id for f in state.terrorist_figures() if f.active)
    key = ("setup", side, tuple(sorted(state.bombs)), tuple(holders), state.options.min_timer,
           state.options.turn_limit)
    found: tuple[list[Action], dict[str, tuple[Group, ...]]] | None = state.memo.get(key)
    if found is None:
        listed = _setup_actions(state, side, holders)
        by_kind: dict[str, list[Action]] = {}
        for action in listed:
            by_kind.setdefault(action.kind, []).append(action)
        found = (listed, {kind: (_group(run),) for kind, run in by_kind.items()})
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return found


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
    """An action whose arguments are scalars and whose hint is its ``role``, made once:
    planning lists the same recruits, dismissals, note and ready at every step, and every
    combat slot its ``done``."""
    key = (side, kind, role, tuple(sorted(args.items())))
    found = _KEPT.get(key)
    if found is None:
        if len(_KEPT) >= 4096:
            _KEPT.clear()
        found = _KEPT[key] = _act(side, kind, {"role": role}, **args)
    return found


#: each side's recruits by the pool they are listed from, as groups by kind (``_recruits``)
_RECRUITS: dict[tuple[str, tuple[str, ...]], dict[str, tuple[Group, ...]]] = {}


def _recruits(side: str, pool: list[str]) -> dict[str, tuple[Group, ...]]:
    """The recruit actions of ``pool``'s cards, and the custom card's, as one group each
    by kind, made once per pool: planning lists them again at every step until the roster is
    full."""
    key = (side, tuple(pool))
    found = _RECRUITS.get(key)
    if found is None:
        if len(_RECRUITS) >= 1024:
            _RECRUITS.clear()
        found = {}
        if pool:
            found["recruit"] = (_group([_kept(side, "recruit", card=card) for card in pool]),)
        # E-33's default card offered to build on; any 25-point card is accepted
        found["recruit_custom"] = (
            _group([_kept(side, "recruit_custom", **dict(zip(STATS, DEFAULT_STATS, strict=True)))]),
        )
        _RECRUITS[key] = found
    return found


#: every loadout of an agent (each weapon, armour up to the cap, grenades up to the supply),
#: and each one's place in that list by (weapon, armour, grenades)
_Loadouts = tuple[list[Action], dict[tuple[Any, ...], int]]


#: every agent's loadouts by (side, agent, armour cap, grenade supply), kept for the whole
#: process: a loadout is a value of those and the weapons table alone (like ``_MOVE_POOLS``),
#: and a batch of games on one scenario plans the same agents game after game
_LOADOUTS: dict[tuple[str, str, int, int], _Loadouts] = {}


def _loadouts(state: ExecuteState, agent: Figure) -> _Loadouts:
    """Every loadout ``agent`` could take, its own included (``_Loadouts``), made once per
    side, agent, armour cap and grenade supply (``_LOADOUTS``)."""
    side = state.fbi
    cap = state.options.armour_cap(side)
    supply = state.options.grenades_per_figure
    key = (side, agent.id, cap, supply)
    found = _LOADOUTS.get(key)
    if found is None:
        combos = [
            (weapon, armour, grenades)
            for weapon in sorted(tables().weapons)
            for armour in range(cap + 1)
            for grenades in range(supply + 1)
        ]
        found = (
            [
                _act(side, "loadout", {"role": "setup"}, figure=agent.id, weapon=weapon,
                     armour=armour, grenades=grenades)
                for weapon, armour, grenades in combos
            ],
            {combo: i for i, combo in enumerate(combos)},
        )
        if len(_LOADOUTS) >= 1024:
            _LOADOUTS.clear()
        _LOADOUTS[key] = found
    return found


def _loadout_group(state: ExecuteState, agent: Figure) -> Group:
    """``agent``'s loadouts but its own as one counted group, made into a list only when
    read; kept in ``state.memo`` under the agent's loadout, the cap and the supply (a
    planning step changes one agent's loadout at most: the others' groups stand)."""
    options = state.options
    key = ("loadout-group", agent.id, agent.weapon, agent.armour, agent.grenades,
           options.armour_cap(state.fbi), options.grenades_per_figure)
    found: Group | None = state.memo.get(key)
    if found is None:
        every, index = _loadouts(state, agent)
        own = index.get((agent.weapon, agent.armour, agent.grenades))
        if own is None:
            found = Group(len(every), lambda: every, {"figure": agent.id})
        else:
            at = own
            found = Group(len(every) - 1, lambda: [*every[:at], *every[at + 1 :]],
                          {"figure": agent.id})
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return found


def loadout_listed(state: ExecuteState, args: tuple[tuple[str, Any], ...]) -> bool:
    """Whether a loadout with these (frozen, grenades filled in) arguments is one
    ``planning_groups`` lists now, read from the agent's loadouts without a list."""
    if state.phase != PLANNING or state.result is not None:
        return False
    if [k for k, _ in args] != ["armour", "figure", "grenades", "weapon"]:
        return False
    (_, armour), (_, fid), (_, grenades), (_, weapon) = args
    agent = state.figures.get(fid) if isinstance(fid, str) else None
    if agent is None or agent.side != state.fbi or agent.kind != AGENT:
        return False
    _, index = _loadouts(state, agent)
    combo = (weapon, armour, grenades)
    try:
        return combo in index and combo != (agent.weapon, agent.armour, agent.grenades)
    except TypeError:  # an unhashable value: no loadout has it
        return False


def planning_groups(state: ExecuteState) -> dict[str, tuple[Group, ...]]:
    """Pre-game step 3b (rulings E-36, E-67) as the flow lists it: the FBI's recruits while
    the roster has room, each agent's dismissal and loadouts (weapon, armour, grenades) by
    id, a plan note, ready; hidden from the terrorists."""
    side = state.fbi
    roster = sorted(state.agents(), key=attrgetter("id"))
    out: dict[str, tuple[Group, ...]] = {}
    if len(roster) < state.options.fbi_count:
        out.update(_recruits(side, state.pool))
    if roster:
        ids = tuple(a.id for a in roster)
        key = ("dismiss", side, ids)
        dismiss: tuple[Group, ...] | None = state.memo.get(key)
        if dismiss is None:
            dismiss = (_group([_kept(side, "dismiss", figure=fid) for fid in ids]),)
            if len(state.memo) >= MEMO_LIMIT:
                state.memo.clear()
            state.memo[key] = dismiss
        out["dismiss"] = dismiss
        loadouts = tuple(g for g in (_loadout_group(state, a) for a in roster) if g.count)
        if loadouts:
            out["loadout"] = loadouts
    if len(state.notes) < MAX_NOTES:
        out["note"] = _one(side, "note", "other", text="")
    if roster:
        out["ready"] = _one(side, "ready", "pass")
    return out


#: single kept actions as groups, by side and kind (``_one``)
_ONE: dict[tuple[str, str], tuple[Group, ...]] = {}


def _one(side: str, kind: str, role: str, /, **args: Any) -> tuple[Group, ...]:
    """The group of one ``_kept`` action that is all of its kind (each side's ``note``,
    ``ready`` and ``done``), made once per side and kind."""
    found = _ONE.get((side, kind))
    if found is None:
        if len(_ONE) >= 1024:
            _ONE.clear()
        found = _ONE[(side, kind)] = (_group([_kept(side, kind, role, **args)]),)
    return found


def planning_by_kind(state: ExecuteState) -> dict[str, list[Action]]:
    """``planning_groups`` made into lists by kind, each kind in list order."""
    return {
        kind: [a for g in groups for a in g.make()]
        for kind, groups in planning_groups(state).items()
    }


def planning_actions(state: ExecuteState) -> list[Action]:
    """Every planning action, kind by kind in the flow's order (``planning_groups``)."""
    return [a for listed in planning_by_kind(state).values() for a in listed]


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


def _pooled_moves(side: str, figure: str, within: list[tuple[Cell, int]]) -> list[Action]:
    """A move to every square of ``within`` (``within_reach``'s list), in its order, each
    taken from the figure's pool or built there."""
    pool = _move_pool(side, figure)
    listed: list[Action | None] = list(map(pool.get, within))
    for i in [i for i, a in enumerate(listed) if a is None]:
        item = within[i]
        listed[i] = pool[item] = _move(side, figure, *item)
    return cast("list[Action]", listed)


def _move(side: str, figure: str, cell: Cell, cost: int) -> Action:
    """A move action, built directly (what ``Action.make`` gives: args sorted; the cell is a
    tuple, equal to and hashed as its frozen form, so bots read it without converting it
    back): a turn lists thousands of moves."""
    return Action.frozen(
        side,
        "move",
        (("figure", figure), ("to", cell)),
        {"role": "move", "to": list(cell), "cost": cost, "figure": figure},
    )


def _in_reach(state: ExecuteState, side: str, figure: Figure) -> Squares:
    """``figure``'s squares within reach (``within_reach``), kept in ``state.cache`` for the
    state, where the check of the move chosen from the listing reads them."""
    now = ("in-reach", side, figure.id)
    found: Squares | None = state.cache.get(now)
    if found is None:
        found = state.cache[now] = within_reach(state, figure)
    return found


class FigureMoves(MadeWhenRead):
    """A figure's moves in ``within_reach``'s order, but to the squares ``dropped`` (indexes
    into it, ascending), each made when first read from the figure's pool: a random draw
    reads one, and a figure reaches hundreds of squares. Read whole (a bot), it is made in
    one pass."""

    __slots__ = ("_dropped", "_figure", "_side", "_whole", "_within")

    def __init__(self, side: str, figure: str, within: Squares, dropped: list[int]) -> None:
        super().__init__(len(within) - len(dropped))
        self._side = side
        self._figure = figure
        self._within = within
        self._dropped = dropped
        self._whole = False

    def _make_at(self, index: int) -> Action:
        at = index
        for skipped in self._dropped:  # few: the squares held, and its own
            if skipped > at:
                break
            at += 1
        item = self._within.item(at)
        pool = _move_pool(self._side, self._figure)
        found = pool.get(item)
        if found is None:
            found = pool[item] = _move(self._side, self._figure, *item)
        return found

    def __iter__(self) -> Iterator[Action]:
        if not self._whole:
            every = _pooled_moves(self._side, self._figure, self._within.items())
            for at in reversed(self._dropped):
                del every[at]
            self._made[:] = every
            self._whole = True
        return iter(cast("list[Action]", self._made))


def movers(state: ExecuteState, side: str) -> list[Figure]:
    """The figures ``side`` may move now, by id: ready ones on the map, and agents off it
    (E-34 insertion)."""
    return [f for f in ready(state, side, on_map=False) if f.pos is not None or f.kind == AGENT]


def figure_moves(state: ExecuteState, side: str, figure: Figure) -> Group:
    """``figure``'s moves as one counted group, in ``within_reach``'s order: every square
    within reach but those no move may end on (``stops``) and its own. Counted from the squares
    alone; the group's sequence makes a move only when read (``FigureMoves``)."""
    within = _in_reach(state, side, figure)
    skip = within.positions(barred_arrays(state))
    pos = figure.pos
    if pos is not None and pos not in stops(state) and within.cost(pos) is not None:
        insort(skip, within.index(pos))  # its own square
    moves = FigureMoves(side, figure.id, within, skip)
    return Group(len(moves), lambda: moves, {"figure": figure.id})


def move_listed(state: ExecuteState, side: str, args: tuple[tuple[str, Any], ...]) -> bool:
    """Whether a move with these (frozen) arguments is one ``figure_moves`` lists now, read
    from the squares in reach without making the list."""
    if len(args) != 2 or args[0][0] != "figure" or args[1][0] != "to":
        return False
    fid, to = args[0][1], args[1][1]
    figure = state.figures.get(fid) if isinstance(fid, str) else None
    if figure is None or all(f is not figure for f in movers(state, side)):
        return False
    return (
        _in_reach(state, side, figure).cost(to) is not None
        and to not in stops(state)
        and to != figure.pos
    )


def claim_actions(state: ExecuteState, side: str) -> list[Action]:
    """Claims by agents that have not moved yet or made the last move (E-30: right before or
    after), the FBI's only."""
    if side != state.fbi:
        return []
    out: list[Action] = []
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


def move_actions(state: ExecuteState, side: str) -> list[Action]:
    """Combat step 4: a destination per figure (E-34 insertion for off-map agents), and claims
    (``claim_actions``)."""
    out: list[Action] = []
    for f in movers(state, side):
        out += figure_moves(state, side, f).make()
    return out + claim_actions(state, side)


def movement_groups(state: ExecuteState, side: str) -> dict[str, tuple[Group, ...]]:
    """The acting side's movement listing for the flow: a counted group of moves per figure
    (``figure_moves``), the claims, and ``done``, in ``move_actions``'s order."""
    out: dict[str, tuple[Group, ...]] = {
        "move": tuple(figure_moves(state, side, f) for f in movers(state, side))
    }
    claims = claim_actions(state, side)
    if claims:
        out["claim"] = (_group(claims),)
    out["done"] = _one(side, "done", "pass")
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
