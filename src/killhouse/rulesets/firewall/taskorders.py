"""Tasks (§6.7): the alarm bleeper of §18.1, grabbing, disarming, talking, swimming (§18.3)."""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import change_gutz, gutz_roll, roller_change
from killhouse.rulesets.firewall.moving import FACINGS
from killhouse.rulesets.firewall.objectives import NEAR_CM, trap_attack
from killhouse.rulesets.firewall.skillroll import skill_level, task_roll
from killhouse.rulesets.firewall.state import (
    TASKS,
    WHOLE_TURN,
    FirewallState,
    _aware,
    _gm,
    _who_sees,
    mine,
    team_figures,
)
from killhouse.rulesets.firewall.teams import Figure, Status

# -- tasks (§6.7): the alarm bleeper of §18.1, grabbing a counter of §18.3 ------------------

def _counter_near(state: FirewallState, f: Figure, cid: str) -> bool:
    c = state.counters.get(cid)
    if c is None or c.resolved or c.level != f.level:
        return False
    return within(f.cell, c.cell, NEAR_CM)


def _spike_near(state: FirewallState, f: Figure) -> bool:
    at = state.spike_at
    return at is not None and at[0] == f.level and within(f.cell, (at[1], at[2]), NEAR_CM)


def _captive_near(state: FirewallState, f: Figure) -> Figure | None:
    """The captured figure (Lonnie) within 2 cm of ``f`` or carried by it, if any."""
    for g in state.figures.values():
        if g.captured and g.status is Status.INCAPACITATED and g.level == f.level and (
            g.carried_by == f.id or within(f.cell, g.cell, NEAR_CM)
        ):
            return g
    return None


def _by_the_river(state: FirewallState, f: Figure) -> bool:
    """Within 2 cm of the river edge: a square of the map's outside (K-4) beside it."""
    from killhouse.core.terrain import Terrain
    for dx, dy in FACINGS:
        where = Cell(f.level, f.cell[0] + dx, f.cell[1] + dy)
        if state.board.in_bounds(where) and state.board.terrain(where) == Terrain.OUTSIDE:
            return True
    return False


def task_problem(state: FirewallState, f: Figure, task: str, counter: str | None) -> str | None:
    """Why ``f`` may not attempt the task now, or ``None``."""
    if f.move_used:
        return f"{f.id} has no Movement action left this Turn"
    if not _aware(state, f):
        return "a team not yet aware of the enemy only walks (F-16)"
    if task in WHOLE_TURN and f.combat_used:
        return f"{task} takes {f.id}'s whole Turn (§18.3)"
    if task == "disarm":
        if counter is None or not _counter_near(state, f, counter):
            return f"no unresolved counter {counter!r} within 2 cm"
        return None
    if task == "talk":
        if _captive_near(state, f) is None:
            return "no captured figure within 2 cm to make talk"
        return None
    if task == "swim":
        captive = _captive_near(state, f)
        if captive is None:
            return "no captured figure within 2 cm to push in"
        if not _by_the_river(state, f):
            return f"{f.id} is not within 2 cm of the river edge"
        return None
    if task == "alarm":
        if not f.alarm:
            return f"{f.id} carries no alarm bleeper"
        if state.alarm_raised is not None:
            return "the alarm has already been raised"
        return None
    if task == "grab":
        if counter is None:
            return "name the counter to grab (or 'spike' for a dropped data-spike)"
        if counter == "spike":
            return None if _spike_near(state, f) else "no dropped data-spike within 2 cm"
        if not _counter_near(state, f, counter):
            return f"no unresolved counter {counter!r} within 2 cm"
        return None
    return f"unknown task {task!r} ({', '.join(TASKS)})"


def task_options(state: FirewallState, side: str) -> Iterable[Action]:
    out = []
    for f in team_figures(state, side):
        if f.alarm and task_problem(state, f, "alarm", None) is None:
            out.append(Action.make(side, "task", figure=f.id, task="alarm",
                                   hint={"role": "task", "task": "alarm"}))
        for cid in sorted(state.counters):
            if task_problem(state, f, "grab", cid) is None:
                out.append(Action.make(side, "task", figure=f.id, task="grab", counter=cid,
                                       hint={"role": "task", "task": "grab"}))
        for cid in sorted(state.counters):
            if task_problem(state, f, "disarm", cid) is None:
                out.append(Action.make(side, "task", figure=f.id, task="disarm", counter=cid,
                                       hint={"role": "task", "task": "disarm"}))
        for what in ("talk", "swim"):
            if state.counters and task_problem(state, f, what, None) is None:
                out.append(Action.make(side, "task", figure=f.id, task=what,
                                       hint={"role": "task", "task": what}))
        if state.spike_at is not None and task_problem(state, f, "grab", "spike") is None:
            out.append(Action.make(side, "task", figure=f.id, task="grab", counter="spike",
                                   hint={"role": "task", "task": "grab"}))
    return out


def check_task(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    counter = action.get("counter")
    problem = task_problem(state, f, str(action.get("task")),
                           None if counter is None else str(counter))
    if problem is not None:
        raise IllegalActionError(problem)


def task(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§6.7: a Movement-action Gutz roll without clutter (F-30); S or CS succeeds, CS +1,
    CF −1, F or CF ends the figure's Turn."""
    f = state.figures[str(action.get("figure"))]
    what = str(action.get("task"))
    counter = action.get("counter")
    f.move_used = True
    own = frozenset({f.side})
    if what == "swim":
        _swim(state, f, log)
        return
    if what in WHOLE_TURN:
        f.combat_used = True  # §18.3: the figure's whole Turn
    if what == "talk":
        _talk(state, f, chance, log)
        return
    if what == "disarm":
        _disarm(state, f, str(counter), chance, log)
        return
    roll = task_roll(state, f, chance, f"{f.id} task {what}", own)
    log.emit("task", {"figure": f.id, "task": what, "counter": counter,
                      "dice": list(roll.dice), "result": roll.result}, own)
    state.last = (f.id, "task", "")
    if roll.result not in ("S", "CS") or not f.active:
        return
    if what == "alarm":
        state.alarm_raised = state.turn
        log.emit("alarm", {"side": f.side}, own)
    elif counter == "spike":
        state.spike_at = None
        state.spike_holder = f.id
        log.emit("spike", {"figure": f.id}, _who_sees(state, f))
    else:
        _grab(state, f, str(counter), chance, log)


def _grab(state: FirewallState, f: Figure, cid: str, chance: Chance, log: EventLog) -> None:
    """§18.3 (ruling F-56): the counter is revealed to the grabber's side: the spike is
    picked up; a trap detonates on the grabber."""
    c = state.counters[cid]
    c.resolved = True
    if cid == state.spike:
        state.spike_holder = f.id
        log.emit("counter", {"counter": cid, "figure": f.id, "is": "spike"},
                 frozenset({f.side}) | _gm(state),
                 {s: {"counter": cid, "figure": None, "is": None}
                  for s in state.sides if s != f.side and s not in _gm(state)})
        return
    audience = _who_sees(state, f) | _gm(state)
    result = trap_attack(state.figures, f, chance, audience)
    state.teams[f.team].aware = True
    log.emit("counter", {"counter": cid, "figure": f.id, "is": "trap", "result": result,
                         "status": f.status.value}, audience)


def _roller_result(f: Figure, result: str) -> None:
    """The roller's own change and failure mark after a task roll (§6.7, §21.3)."""
    change = change_gutz(f.gutz, roller_change(result))  # type: ignore[arg-type]
    f.gutz = change.gutz
    if change.status != "active":
        f.status = Status(change.status)
    if result in ("F", "CF"):
        f.failed_this_turn = True


def _disarm(state: FirewallState, f: Figure, cid: str, chance: Chance, log: EventLog) -> None:
    """§18.3 disarm (ruling F-56): the whole Turn and a Technical skill roll (§16.1 levels,
    unlisted is 0; no modifiers, ruling F-101). Trap: CS safe and kept as an improvised AP
    bomb, S removed, F goes off, CF the trap's CS on the figure. Spike: S or CS picks it up,
    F nothing, CF nothing but the −1."""
    level = skill_level(f, "technical")
    audience = frozenset({f.side}) | _gm(state)
    roll = gutz_roll(chance, f.gutz, 0, f"{f.id} disarms {cid}", audience,
                     skill_level=level)
    c = state.counters[cid]
    spike = cid == state.spike
    data: dict[str, object] = {"figure": f.id, "counter": cid, "dice": list(roll.dice),
                               "result": roll.result}
    if spike:
        if roll.result in ("S", "CS"):
            c.resolved = True
            state.spike_holder = f.id
        data["is"] = "spike"
    else:
        data["is"] = "trap"
        if roll.result in ("S", "CS"):
            c.resolved = True
            if roll.result == "CS" and "improvised_bomb_ap" not in f.weapons:
                f.weapons = (*f.weapons, "improvised_bomb_ap")
        else:
            c.resolved = True
            trap_attack(state.figures, f, chance, _who_sees(state, f) | _gm(state),
                        "CS" if roll.result == "CF" else None)
            state.teams[f.team].aware = True
    if f.active:
        _roller_result(f, roll.result)
    state.last = (f.id, "task", "")
    log.emit("disarm", {**data, "status": f.status.value}, audience)


def _talk(state: FirewallState, f: Figure, chance: Chance, log: EventLog) -> None:
    """§18.3 "making Lonnie talk": the GM rolls the figure's plain Gutz: CS names the true
    spike counter, S a 1d6 counter number (right or wrong), F nothing, CF a trap counter
    among the unresolved ones, the GM's choice (F-197). Only the figure's side and the GM
    hear it."""
    audience = frozenset({f.side}) | _gm(state)
    roll = gutz_roll(chance, f.gutz, 0, f"{f.id} makes the captive talk", audience)
    named: int | None = None
    if roll.result == "CS" and state.spike is not None:
        named = state.counters[state.spike].number
    elif roll.result == "S":
        named = chance.roll(6, "the counter Lonnie names", audience)
    elif roll.result == "CF":
        from killhouse.rulesets.firewall.gmorders import lie_traps, open_lie
        traps = lie_traps(state)
        # ruling F-197: the GM chooses the trap he leads them to; drawn only without a GM
        if traps and not open_lie(state, f.id, f.side):
            named = chance.pick(traps, "the trap Lonnie names", audience)
    if named is not None:
        state.intel[f.side] = named
    _roller_result(f, roll.result)
    state.last = (f.id, "task", "")
    log.emit("talk", {"figure": f.id, "dice": list(roll.dice), "result": roll.result,
                      "names": named}, audience)


def _swim(state: FirewallState, f: Figure, log: EventLog) -> None:
    """§18.3 "going for a swim" (ruling F-67): a Movement action without a roll; the captive
    is removed and the side scores a brownie point (reported with the result only)."""
    captive = _captive_near(state, f)
    assert captive is not None
    audience = _who_sees(state, f) | _gm(state)
    if captive.carried_by is not None:
        state.figures[captive.carried_by].carrying = None
        captive.carried_by = None
    captive.status = Status.EXITED
    state.brownie[f.side] = state.brownie.get(f.side, 0) + 1
    state.last = (f.id, "task", "")
    log.emit("swim", {"figure": f.id, "captive": captive.id}, audience)
