"""Every action a figure may take (section 5): its legal options, its checks and its steps.

Moves and fires run step by step (a cell, a shot) so that interrupts (section 14 I) can cut in
between steps; ``step``/``more`` are called by the turn (``turn.py``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import los_from
from killhouse.core.paths import DistanceField, distance_field, path_cost
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.cqb.fire import factors, fire_more, fire_next, may_fire, start_fire
from killhouse.rulesets.cqb.grenade_effects import (
    cs_test,
    deploy_cs,
    detonate_stun,
    fire_smoke,
    in_room,
    room_is_gassed,
    stun,
)
from killhouse.rulesets.cqb.resolve import (
    action_tn,
    actor_copies,
    difficulty_tn,
    margin_outcome,
    shot_tn,
    test,
    throw_difficulty,
    throw_landing,
)
from killhouse.rulesets.cqb.state import EXTRACTION, HOSTAGES, MODES, CqbState, Device, Figure
from killhouse.rulesets.cqb.tables import tables
from killhouse.rulesets.cqb.world import (
    STEPS,
    enter_costs,
    hear,
    inches,
    observers,
    occupied,
    refresh,
    rooms_of,
    set_window,
    window_state,
)

T = TypeVar("T")

CALLS = ("torso", "head", "brain-stem", "strong-arm", "weak-arm", "leg")
ORTHO = ((0, -1), (1, 0), (0, 1), (-1, 0))
KING = (*ORTHO, (1, -1), (1, 1), (-1, 1), (-1, -1))


def cell_of(value: Any) -> Cell:
    return Cell(int(value[0]), int(value[1]), int(value[2]))


# -- movement (section 7) -------------------------------------------------------------------


def allowed_modes(fig: Figure) -> list[str]:
    """Leg OOA: crawl only; prone: crawl, or stand up out of a Normal or Fast move (Q-20);
    overcome by gas: Normal or Fast only (section 13)."""
    if fig.legs_ooa:
        return ["crawl"]
    if fig.overcome:
        return ["normal", "fast"]
    return list(MODES)


def budget(fig: Figure, mode: str) -> int:
    """The move's allowance in half inches, less 3" to stand up from prone (section 7)."""
    mv = tables().tests["movement"]
    half = 2 * int(mv[mode])
    if fig.posture == "prone" and mode in ("normal", "fast"):
        half -= 2 * int(mv["stand_up"])
    return half


#: move options by everything they depend on (a pure function of the key), most recent last
_MOVES: OrderedDict[tuple[Any, ...], tuple[Action, ...]] = OrderedDict()
#: the cells offered per mode and the field they are reached on, by the same key
_PLANS: OrderedDict[tuple[Any, ...], tuple[DistanceField, list[tuple[str, Cell]]]] = (
    OrderedDict())


def _move_key(state: CqbState, fig: Figure) -> tuple[Any, ...]:
    """Everything a figure's moves depend on: its place, side, posture, legs and gas, where
    every figure stands, the terrain and the stairs."""
    return (fig.id, fig.side, fig.at, fig.posture, fig.legs_ooa, fig.overcome,
            tuple((f.at, f.side, f.extracted) for f in state.figures.values()),
            tuple((lv.terrain.shape, lv.terrain.tobytes()) for lv in state.board.levels),
            tuple(sorted(state.board.stairs.items())))


def _remember(cache: OrderedDict[tuple[Any, ...], T], key: tuple[Any, ...], value: T) -> T:
    cache[key] = value
    if len(cache) > 64:
        cache.popitem(last=False)
    return value


def move_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    """A sample of moves per mode (every cell for Crawl and Stealthy, every second or fourth
    cell for Normal and Fast, doorways always), each along the field's cheapest path.

    They depend only on ``_move_key``, so a side asked again before anything moved gets them
    again."""
    key = _move_key(state, fig)
    found = _MOVES.get(key)
    if found is None:
        made = tuple(_move_options(state, fig, _move_plan(state, fig, key)))
        found = _remember(_MOVES, key, made)
    else:
        _MOVES.move_to_end(key)
    yield from found


def move_count(state: CqbState, fig: Figure) -> int:
    """How many moves ``move_options`` lists, without making them (no paths are walked)."""
    key = _move_key(state, fig)
    found = _MOVES.get(key)
    if found is not None:
        return len(found)
    return len(_move_plan(state, fig, key)[1])


def _move_plan(state: CqbState, fig: Figure, key: tuple[Any, ...]
               ) -> tuple[DistanceField, list[tuple[str, Cell]]]:
    """The field from the figure and the (mode, cell) pairs its moves go to, in order: every
    cell within the mode's allowance for Crawl and Stealthy, every second or fourth cell
    for Normal and Fast, doorways always; never the figure's own cell nor one taken."""
    found = _PLANS.get(key)
    if found is not None:
        _PLANS.move_to_end(key)
        return found
    return _remember(_PLANS, key, _build_plan(state, fig))


def _build_plan(state: CqbState, fig: Figure) -> tuple[DistanceField, list[tuple[str, Cell]]]:
    modes = allowed_modes(fig)
    costs = enter_costs(state, fig)
    field = distance_field(state.board, [fig.at], costs, STEPS,
                           max_cost=max(budget(fig, m) for m in modes))
    taken = {f.at for f in state.figures.values() if not f.extracted}
    doors = [(lv.terrain == Terrain.DOOR_OPEN) | (lv.terrain == Terrain.DOOR_CLOSED)
             for lv in state.board.levels]
    # in (level, y, x) order per mode, as ``field.reachable`` lists them
    offered: list[tuple[str, Cell]] = []
    for mode in modes:
        limit = budget(fig, mode)
        spacing = {"crawl": 1, "stealthy": 1, "normal": 2, "fast": 4}[mode]
        for level, mask in enumerate(field.within(limit)):
            if spacing > 1:
                height, width = mask.shape
                grid = np.zeros((height, width), dtype=bool)
                grid[::spacing, ::spacing] = True
                mask = mask & (grid | doors[level])
            ys, xs = np.nonzero(mask)
            for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
                cell = Cell(level, x, y)
                if cell != fig.at and cell not in taken:
                    offered.append((mode, cell))
    return field, offered


def _move_options(state: CqbState, fig: Figure,
                  plan: tuple[DistanceField, list[tuple[str, Cell]]] | None = None,
                  ) -> Iterator[Action]:
    """The moves of ``plan`` (made afresh without one)."""
    field, offered = plan if plan is not None else _build_plan(state, fig)
    # each path as ``Action.make`` freezes it (a tuple of (level, x, y)), built once per cell
    paths = field.path_tuples(dict.fromkeys(c for _, c in offered))
    for mode, cell in offered:
        # the arguments of Action.make(side, "move", hint, figure=, mode=, path=), by name
        args = (("figure", fig.id), ("mode", mode), ("path", paths[cell]))
        hint = {"role": "move", "to": cell_json(cell), "mode": mode}
        yield Action.frozen(fig.side, "move", args, hint)


def check_move(state: CqbState, fig: Figure, action: Action) -> None:
    mode = action.get("mode")
    if mode not in allowed_modes(fig):
        raise IllegalActionError(f"{fig.id} may not move {mode} now "
                                 f"(may: {', '.join(allowed_modes(fig))})")
    path = [cell_of(c) for c in action.get("path")]
    if not path:
        raise IllegalActionError("a move needs at least one cell")
    cost = path_cost(state.board, [fig.at, *path], enter_costs(state, fig), STEPS)
    if cost is None:
        raise IllegalActionError("the path is not a chain of open neighbouring cells "
                                 "(walls, windows, locked doors and enemies block it)")
    if cost > budget(fig, mode):
        raise IllegalActionError(f"the path costs {cost / 2:g}\"; a {mode} move allows "
                                 f"{budget(fig, mode) / 2:g}\"")
    if occupied(state, path[-1], fig.id):
        raise IllegalActionError("a move must end in an empty cell (section 1)")


def start_move(fig: Figure, action: Action) -> dict[str, Any]:
    return {"kind": "move", "figure": fig.id, "mode": action.get("mode"),
            "path": [list(c) for c in action.get("path")], "i": 0, "from": list(fig.at)}


def back_off(state: CqbState, fig: Figure, ctx: dict[str, Any], log: EventLog) -> None:
    """Ruling Q-59: a move may pass through friends (1) but must end in an empty cell; one
    cut short in a friend's cell (an interrupt's shot knocked the mover down, a stun) ends in
    the last empty cell it walked through, or where it started."""
    if not fig.active or not occupied(state, fig.at, fig.id):
        return
    path = [cell_of(c) for c in ctx["path"][: ctx["i"]]]
    walked = path[: path.index(fig.at)] if fig.at in path else []  # the cells before this one
    for cell in reversed([cell_of(ctx["from"]), *walked]):
        if not occupied(state, cell, fig.id):
            fig.at = cell
            refresh(state)
            log.emit("step", {"figure": fig.id, "at": cell_json(cell)}, observers(state, fig))
            return


def move_more(state: CqbState, ctx: dict[str, Any]) -> bool:
    fig = state.figures[ctx["figure"]]
    return fig.can_act() and not fig.knocked and ctx["i"] < len(ctx["path"])


def move_next(state: CqbState, ctx: dict[str, Any], log: EventLog) -> None:
    """Enter the next cell: open a closed door, pay its cost, make noise (sections 7, 14)."""
    fig = state.figures[ctx["figure"]]
    cell = cell_of(ctx["path"][ctx["i"]])
    cost = path_cost(state.board, [fig.at, cell], enter_costs(state, fig), STEPS)
    if ctx["i"] == 0 and fig.posture == "prone" and ctx["mode"] in ("normal", "fast"):
        fig.posture = "standing"
        fig.moved_now += tables().tests["movement"]["stand_up"]
    if ctx["mode"] == "crawl":
        fig.posture = "prone"
    ctx["i"] += 1
    if cost is None or (occupied(state, cell, fig.id) and ctx["i"] == len(ctx["path"])):
        ctx["i"] = len(ctx["path"])  # the way is blocked now (a door shut, a body fell)
        return
    if state.board.terrain(cell) == Terrain.DOOR_CLOSED:
        state.board.set_terrain(cell, Terrain.DOOR_OPEN)
        log.emit("door", {"at": cell_json(cell), "state": "open"}, observers(state, fig))
    fig.at = cell
    fig.moved_now += cost / 2
    fig.mode_now = ctx["mode"]
    if ctx["mode"] in ("normal", "fast"):  # ruling Q-29: heard within 6"
        m = tables().tests["noise"]["movement"]
        hear(state, cell, "movement", m, 0, fig)
    refresh(state)
    log.emit("step", {"figure": fig.id, "at": cell_json(cell)}, observers(state, fig))


def follow(state: CqbState, rescuer: Figure, log: EventLog) -> None:
    """Ruling Q-30: a secured hostage follows its rescuer at Normal pace."""
    for h in state.figures.values():
        if h.secured_by != rescuer.id or not h.can_act():
            continue
        costs = enter_costs(state, h)
        field = distance_field(state.board, [h.at], costs, STEPS)
        spots = [rescuer.at.step(dx, dy) for dx, dy in KING]
        best = [c for c in spots if state.board.in_bounds(c) and not occupied(state, c)
                and (field.cost(c) or 99) <= 12]
        if best:
            h.at = min(best, key=lambda c: (field.cost(c) or 0, c))
            h.moved_now = 6
            log.emit("follows", {"hostage": h.id, "at": cell_json(h.at)}, observers(state, h))
        extract(state, h, log)


def extract(state: CqbState, h: Figure, log: EventLog) -> None:
    """Ruling Q-66: a secured hostage in the extraction zone is led out: off the map, safe,
    counted as rescued."""
    if h.secured_by is None or not h.active or not state.board.in_zone(h.at, EXTRACTION):
        return
    audience = observers(state, h)
    h.extracted = True
    h.secured_by = None
    refresh(state)
    log.emit("extracted", {"hostage": h.id, "at": cell_json(h.at)}, audience)


# -- fire -------------------------------------------------------------------------------


def targets(state: CqbState, fig: Figure) -> list[Figure]:
    """Opposing operatives it sees now (hostages are never chosen targets)."""
    return [state.figures[i] for i in sorted(state.visible.get(fig.id, frozenset()))
            if state.figures[i].side not in (fig.side, HOSTAGES) and state.figures[i].active]


def fire_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    if may_fire(state, fig):
        return
    weapon = fig.weapon_in_hand()
    assert weapon is not None
    rate = rate_of(weapon)
    for target in targets(state, fig):
        calls: list[str | None] = [None, "torso"]
        if weapon.firing in ("slow-single", "rapid-single") or weapon.scope:
            calls += ["head", "brain-stem"]
        for called in calls:
            for count in sorted({1, rate}):
                tn = shot_tn(factors(state, fig, target, called, True, weapon))
                p = max(0, min(10, tables().lowest[fig.ability] + 10 - tn)) * 4 / 42
                value = 3.0 if called in ("head", "brain-stem") else 1.0
                yield Action.make(fig.side, "fire", {"role": "attack", "p": p, "value": value,
                                                     "tn": tn, "count": count},
                                  figure=fig.id, target=target.id, called=called, count=count)


def rate_of(weapon: Any) -> int:
    rate = tables().rates[weapon.firing]
    return int(rate.get("shots", rate.get("bursts", 1)))


def check_fire(state: CqbState, fig: Figure, action: Action) -> None:
    why = may_fire(state, fig)
    if why:
        raise IllegalActionError(why)
    weapon = fig.weapon_in_hand()
    assert weapon is not None
    seen = {t.id for t in targets(state, fig)}
    for key in ("target", "second"):
        tid = action.get(key)
        if tid is not None and tid not in seen:
            raise IllegalActionError(f"{fig.id} sees no opposing figure {tid!r} to fire at")
    if action.get("second") == action.get("target"):
        raise IllegalActionError("the second target must differ from the first")
    total = int(action.get("count") or 1) + int(action.get("second_count") or 0)
    if action.get("second") is None and action.get("second_count"):
        raise IllegalActionError("second_count needs a second target")
    if total > rate_of(weapon):
        raise IllegalActionError(f"a {weapon.name} fires at most {rate_of(weapon)} "
                                 f"{'bursts' if weapon.automatic else 'shots'} a turn (4.2)")


# -- other actions (sections 7, 12) ------------------------------------------------------------


def neighbours(cell: Cell, ortho: bool = False) -> list[Cell]:
    return [cell.step(dx, dy) for dx, dy in (ORTHO if ortho else KING)]


def beyond(fig: Figure, window: Cell) -> Cell:
    return Cell(window.level, 2 * window.x - fig.at.x, 2 * window.y - fig.at.y)


def task_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    """Other actions that make sense here, less those a complication took away (section 13)."""
    for action in _task_options(state, fig):
        if action.get("task") not in fig.lost_tasks:
            yield action


def _task_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    """Other actions that make sense here: locks, windows, hostages, jams, a dropped weapon."""
    b = state.board
    for cell in neighbours(fig.at, ortho=True):
        if not b.in_bounds(cell):
            continue
        t = b.terrain(cell)
        if t == Terrain.DOOR_LOCKED:
            kinds = ["kick"]
            if cell not in state.jammed_locks:
                kinds.append("pick")
            if fig.charges:
                kinds.append("charge")
            w = fig.weapon_in_hand()
            if w is not None and w.round == "shotgun" and not fig.jammed:
                kinds.append("shotgun-breach")
            for k in kinds:
                yield _task(state, fig, k, at=cell)
        elif t == Terrain.WINDOW and window_state(state, cell) != "closed":  # ruling Q-65
            out = beyond(fig, cell)
            if b.in_bounds(out) and b.passable(out) and not occupied(state, out):
                yield _task(state, fig, "climb", at=cell)
    if fig.jammed:
        yield _task(state, fig, "clear-jam")
    if fig.dropped and not (fig.strong_arm_ooa and fig.weak_arm_ooa):
        yield _task(state, fig, "pick-up")
    for other in state.figures.values():
        if not adjacent(fig.at, other.at):
            continue
        if (other.side == HOSTAGES and other.active and other.secured_by is None
                and fig.side == state.rescuers):
            yield _task(state, fig, "secure", target=other.id)
        elif (other.side not in (fig.side, HOSTAGES) and other.condition == "incapacitated"
              and other.restrained_by is None):  # ruling Q-63
            yield _task(state, fig, "restrain", target=other.id)
    if fig.side == state.rescuers:
        for device in sorted(state.devices.values(), key=lambda d: d.id):
            if device.state == "armed" and (device.at == fig.at or adjacent(fig.at, device.at)):
                yield _task(state, fig, "disarm", at=device.at)


def adjacent(a: Cell, b: Cell) -> bool:
    """Next to each other on one level (the eight neighbouring cells)."""
    return a.level == b.level and max(abs(a.x - b.x), abs(a.y - b.y)) == 1


def device_at(state: CqbState, cell: Cell | None) -> Device | None:
    return next((d for d in state.devices.values() if d.at == cell and d.state == "armed"),
                None)


def device_goes_off(state: CqbState, device: Device, chance: Chance, log: EventLog) -> None:
    """Ruling Q-64: the device's effect in its room (a stun grenade, CS gas or a fire)."""
    device.state = "exploded"
    log.emit("device", {"device": device.id, "at": cell_json(device.at), "state": "exploded",
                        "effect": device.effect})
    room = next(iter(sorted(rooms_of(state, device.at))), None)
    hear(state, device.at, "explosion", 48, 24, None)  # heard by everyone in earshot
    if room is None:
        return
    if device.effect == "stun":
        detonate_stun(state, room, chance, log)
    elif device.effect == "cs":
        deploy_cs(state, room, chance, log)
    elif room not in state.fires:
        state.fires[room] = state.turn
        log.emit("fire-starts", {"room": room})


def _task(state: CqbState, fig: Figure, kind: str, at: Cell | None = None,
          target: str | None = None) -> Action:
    spec = tables().tests["actions"][kind]
    tn = task_tn(fig, kind)
    p = max(0, min(10, tables().lowest[fig.ability] + 10 - tn)) * 4 / 42
    return Action.make(fig.side, "task", {"role": "task", "p": p, "value": 1.0, "tn": tn,
                                          "difficulty": spec["difficulty"]},
                       figure=fig.id, task=kind, at=cell_json(at) if at else None,
                       target=target)


def task_tn(fig: Figure, kind: str) -> int:
    spec = tables().tests["actions"][kind]
    return action_tn(spec["difficulty"], fig.wounds(), bool(spec["hand"]) and fig.strong_arm_ooa,
                     fig.cs)


def do_task(state: CqbState, fig: Figure, action: Action, chance: Chance, log: EventLog
            ) -> None:
    """An other action (section 12): a test with failure by margin (Q-25), jokers (13)."""
    kind = str(action.get("task"))
    at = cell_of(action.get("at")) if action.get("at") is not None else None
    audience = observers(state, fig)
    result = test(chance, state.deck_of(fig), task_tn(fig, kind), kind, audience,
                  state.options.draw_with_replacement)
    outcome = margin_outcome(result)
    data = {"figure": fig.id, "task": kind, **result.to_json(), "outcome": outcome}
    log.emit("task", data, audience, actor_copies(data, fig.side, audience))  # ruling W-12
    noise = tables().tests["kick_noise"]
    if kind in ("shotgun-breach", "charge"):  # noisy pass or fail (12.1)
        hear(state, fig.at, "breach", 48, 24, fig)
    if outcome == "joker":
        if kind == "charge":  # section 13: fire in the room beyond the door
            room = next(iter(rooms_of(state, beyond(fig, at)) if at else ()), None)
            if room is not None and room not in state.fires:
                state.fires[room] = state.turn
                log.emit("fire-starts", {"room": room})
        else:  # complication: this action is now impossible for the figure; position known
            fig.lost_tasks.append(kind)
            hear(state, fig.at, "complication", tables().tests["complication_reveal"], 0, fig)
            log.emit("complication", {"figure": fig.id, "task": kind}, audience)
        if kind == "charge":
            fig.charges -= 1
        return
    if kind == "charge":
        fig.charges -= 1
    if outcome == "setback":
        if kind == "kick":
            hear(state, fig.at, "kicking", noise, 0, fig)
        elif kind == "pick" and at is not None:
            state.jammed_locks.add(at)
            log.emit("lock-jams", {"at": cell_json(at)}, audience)
        elif kind == "climb":
            fig.posture = "prone"
        elif kind == "secure" and action.get("target"):
            state.figures[str(action.get("target"))].panic_from = fig.id
        elif kind == "disarm":  # section 12.1: the device goes off
            device = device_at(state, at)
            if device is not None:
                device_goes_off(state, device, chance, log)
    if outcome != "pass":
        return
    if kind in ("kick", "shotgun-breach", "charge", "pick") and at is not None:
        state.board.set_terrain(at, Terrain.DOOR_OPEN)
        log.emit("door", {"at": cell_json(at), "state": "open"}, audience)
    elif kind == "climb" and at is not None:
        fig.at = beyond(fig, at)
        fig.moved_now += 2
    elif kind == "clear-jam":
        fig.jammed = False
    elif kind == "pick-up":
        fig.dropped = False
    elif kind == "secure":
        hostage = state.figures[str(action.get("target"))]
        hostage.secured_by = fig.id
        hostage.panic_from = None
        extract(state, hostage, log)
    elif kind == "restrain":
        state.figures[str(action.get("target"))].restrained_by = fig.id
    elif kind == "disarm":
        device = device_at(state, at)
        if device is not None:
            device.state = "disarmed"
            log.emit("device", {"device": device.id, "at": cell_json(device.at),
                                "state": "disarmed"})


# -- grenades (sections 10, 11, 12.2) ------------------------------------------------------------


#: per rooms map (by identity; the map is kept so its id is not reused), each level's room
#: ids as an array (-1: no room): throw targets are found on arrays, not cell by cell
_ROOM_GRIDS: OrderedDict[int, tuple[dict[Cell, int], list[NDArray[np.int32]]]] = OrderedDict()


def room_grids(state: CqbState) -> list[NDArray[np.int32]]:
    """Each level's room id per cell (-1 outside every room), built once per rooms map."""
    found = _ROOM_GRIDS.get(id(state.rooms))
    if found is not None and found[0] is state.rooms:
        return found[1]
    grids = [np.full(lv.terrain.shape, -1, dtype=np.int32) for lv in state.board.levels]
    for cell, room in state.rooms.items():
        grids[cell.level][cell.y, cell.x] = room
    _ROOM_GRIDS[id(state.rooms)] = (state.rooms, grids)
    if len(_ROOM_GRIDS) > 16:
        _ROOM_GRIDS.popitem(last=False)
    return grids


def throw_targets(state: CqbState, fig: Figure) -> dict[int, Cell]:
    """One cell per room (other than the thrower's own) it sees within 12": the nearest."""
    mine = rooms_of(state, fig.at)
    far = tables().tests["grenade"]["far"]
    level, x0, y0 = fig.at
    lv = state.board.levels[level]
    grid = room_grids(state)[level]
    height, width = grid.shape
    far_sq = far * far  # within 12": the same test as inches() <= 12 on whole cells
    ys, xs = np.ogrid[:height, :width]
    mask = (grid >= 0) & ((xs - x0) ** 2 + (ys - y0) ** 2 <= far_sq)
    for room in mine:
        mask &= grid != room
    for f in state.figures.values():
        if not f.extracted and f.at.level == level:
            mask[f.at.y, f.at.x] = False
    if not mask.any():
        return {}
    sight = los_from(state.board.opaque(level), (fig.at.x, fig.at.y), mask, lv.smoke)
    ys_in, xs_in = np.nonzero(mask & sight)
    seen = [Cell(level, x, y) for y, x in zip(ys_in.tolist(), xs_in.tolist(), strict=True)]
    out: dict[int, Cell] = {}
    for cell in sorted(seen, key=lambda c: (inches(fig.at, c), c)):
        room = int(grid[cell.y, cell.x])
        if room not in out:
            out[room] = cell
    return out


def throw_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    if fig.weak_arm_ooa and fig.strong_arm_ooa:
        return
    targets: list[tuple[int, Cell]] | None = None  # the same for every grenade: found once
    for grenade, n in sorted(fig.grenades.items()):
        if n <= 0 or f"throw-{grenade}" in fig.lost_tasks:
            continue
        if targets is None:
            targets = sorted(throw_targets(state, fig).items())
        for room, cell in targets:
            enemies = sum(1 for f in state.figures.values() if f.side not in (fig.side, HOSTAGES)
                          and f.id in state.visible.get(fig.id, frozenset())
                          and room in rooms_of(state, f.at))
            yield Action.make(fig.side, "throw", {"role": "grenade", "enemies": enemies,
                                                  "to": cell_json(cell)},
                              figure=fig.id, grenade=grenade, at=cell_json(cell))


def closed_windows_crossed(state: CqbState, a: Cell, b: Cell) -> list[Cell]:
    """The closed windows a throw from ``a`` to ``b`` goes through (12.2, ruling Q-65)."""
    from killhouse.rulesets.cqb.world import line_cells
    return [c for c in line_cells(a, b, 0) if state.board.in_bounds(c)
            and state.board.terrain(c) == Terrain.WINDOW and window_state(state, c) == "closed"]


def window_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    """Open, close or break a window next to the figure (ruling Q-65): closed ones open or
    break, open ones close or break; a broken window stays broken."""
    for cell in neighbours(fig.at, ortho=True):
        if not state.board.in_bounds(cell) or state.board.terrain(cell) != Terrain.WINDOW:
            continue
        now = window_state(state, cell)
        doings = {"closed": ("open", "break"), "open": ("close", "break")}.get(now, ())
        for do in doings:
            yield Action.make(fig.side, "window", {"role": "window", "state": now},
                              figure=fig.id, at=cell_json(cell), do=do)


def do_window(state: CqbState, fig: Figure, action: Action, log: EventLog) -> None:
    """Ruling Q-65: no test; breaking glass is heard within 24" like a kick."""
    cell = cell_of(action.get("at"))
    do = str(action.get("do"))
    now = window_state(state, cell)
    after = {"open": "open", "close": "closed", "break": "broken"}[do]
    if (now, do) not in (("closed", "open"), ("closed", "break"), ("open", "close"),
                         ("open", "break")):
        return  # changed meanwhile (a grenade broke it): nothing to do
    set_window(state, cell, after)
    log.emit("window", {"figure": fig.id, "at": cell_json(cell), "state": after},
             observers(state, fig))
    if do == "break":
        hear(state, cell, "glass", tables().tests["kick_noise"], 0, fig)


def check_throw(state: CqbState, fig: Figure, action: Action) -> None:
    grenade = str(action.get("grenade"))
    if fig.grenades.get(grenade, 0) <= 0:
        raise IllegalActionError(f"{fig.id} has no {grenade} grenade")
    at = cell_of(action.get("at"))
    if at not in throw_targets(state, fig).values():
        options = throw_targets(state, fig)
        if not state.board.in_bounds(at) or at not in state.rooms or (
                state.rooms[at] not in options) or inches(fig.at, at) > 12:
            raise IllegalActionError("a grenade goes through a doorway or window into another "
                                     "room the thrower sees, within 12\" (12.2)")


def do_throw(state: CqbState, fig: Figure, action: Action, chance: Chance, log: EventLog
             ) -> None:
    grenade = str(action.get("grenade"))
    at = cell_of(action.get("at"))
    fig.grenades[grenade] -= 1
    glass = closed_windows_crossed(state, fig.at, at)
    difficulty = throw_difficulty(inches(fig.at, at), bool(glass))
    assert difficulty is not None
    tn = action_tn(difficulty, fig.wounds(), fig.strong_arm_ooa, fig.cs)
    audience = observers(state, fig)
    result = test(chance, state.deck_of(fig), tn, f"throw {grenade}", audience,
                  state.options.draw_with_replacement)
    landing = throw_landing(result)
    data = {"figure": fig.id, "grenade": grenade, "at": cell_json(at), **result.to_json(),
            "landing": landing}
    log.emit("throw", data, audience, actor_copies(data, fig.side, audience))  # ruling W-12
    if landing == "lost":  # ruling Q-47
        fig.lost_tasks.append(f"throw-{grenade}")
        return
    for cell in glass:  # 12.2: the throw breaks the closed window (ruling Q-65)
        set_window(state, cell, "broken")
        log.emit("window", {"figure": fig.id, "at": cell_json(cell), "state": "broken"},
                 audience)
    room = state.rooms[at] if landing == "target" else next(iter(sorted(rooms_of(state, fig.at)
                                                                         )), None)
    if room is None:
        return
    hear(state, at, "explosion", 48, 24, fig)
    if grenade == "stun":
        detonate_stun(state, room, chance, log)
    else:
        deploy_cs(state, room, chance, log)


def difficulty_names() -> tuple[str, ...]:
    return tuple(tables().tests["difficulty"])


__all__ = [
    "cs_test",
    "deploy_cs",
    "detonate_stun",
    "difficulty_tn",
    "fire_more",
    "fire_next",
    "fire_smoke",
    "in_room",
    "room_is_gassed",
    "start_fire",
    "stun",
]
