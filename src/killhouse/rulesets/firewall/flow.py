"""The Turn of digest §5 / §21.2 on the flow kit: initiative, team activations alternating
between sides (rotating for three or more, a GM side included), each figure one Movement and
one Combat action interleaved freely, a failure ending that figure's Turn and the 1/3 rule
ending the team's; the scenarios' upkeep (alarm, arrivals) and victory conditions (§18).

Actions: ``activate(team)``, ``move(figure, speed, path, facing, carry, exit)`` (a Rally when
suppressed), ``shoot(figure, weapon, target, fire, grenade)``, ``close-combat(figure,
target)``, ``unjam(figure, weapon)``, ``task(figure, task, counter)`` (alarm bleeper, grab a
counter), ``drop(figure, to)`` and ``end``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, Result
from killhouse.rulesets.firewall.buildings import (
    Section,
    collapse,
    damage,
    section_effect,
    section_modifier,
    section_problem,
)
from killhouse.rulesets.firewall.closecombat import melee_problem, resolve_melee
from killhouse.rulesets.firewall.clouds import (
    Cloud,
    cloud_modifier,
    cloud_problem,
    gas_attack,
    smoke_layer,
    throw_cloud,
)
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import change_gutz, gutz_roll, roller_change
from killhouse.rulesets.firewall.jams import unjam_effect
from killhouse.rulesets.firewall.moving import (
    FACINGS,
    MoveOrder,
    move_problem,
    noncombat_problem,
    resolve_move,
    resolve_noncombat_move,
)
from killhouse.rulesets.firewall.objectives import (
    ALARM_TARGET,
    HOSTAGES,
    NEAR_CM,
    Counter,
    Objective,
    alarm_roll,
    on_edge,
    surrender,
    time_result,
    trap_attack,
    victory,
)
from killhouse.rulesets.firewall.shooting import HAND_GRENADE, Shot, resolve_shot, shot_problem
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import (
    Figure,
    Status,
    Team,
    active_members,
    bonus_for,
    start_turn,
    team_stopped,
)
from killhouse.rulesets.firewall.turn import initiative
from killhouse.rulesets.firewall.vision import seen_by_side, update_awareness
from killhouse.rulesets.kit import Arg, Flow, Move, Phase

ACT, OVER = "act", "over"
SPEEDS = ("crawl", "walk", "run")
TASKS = ("alarm", "grab", "disarm", "talk", "swim")
#: tasks that take the figure's whole Turn (§18.3)
WHOLE_TURN = ("disarm", "talk")


@dataclass
class FirewallState:
    """The whole game: board, figures, teams, the Turn, whose activation it is, and the
    scenario's own state (objective, counters, the alarm, arrivals)."""

    board: Board
    figures: dict[str, Figure]
    teams: dict[str, Team]
    sides: tuple[str, ...]
    turn_limit: int = 15
    turn: int = 0
    order: tuple[str, ...] = ()
    step: int = 0
    active_team: str | None = None
    phase: str = ACT
    result: Result | None = None
    night: bool = False
    #: sides that can win (a GM side never does)
    players: tuple[str, ...] = ()
    objective: Objective = field(default_factory=Objective)
    #: side -> the table edge it entered by (Triple-Cross, ruling F-56)
    entry: dict[str, str] = field(default_factory=dict)
    counters: dict[str, Counter] = field(default_factory=dict)
    #: the counter that is the data-spike (a GM secret), and who holds it once grabbed
    spike: str | None = None
    spike_holder: str | None = None
    #: a dropped spike's square, or None while held or unresolved
    spike_at: tuple[int, int, int] | None = None
    spike_out: str | None = None
    #: the alarm (§18.1): the Turn it was raised, the running count, the Turn help arrives
    alarm_raised: int | None = None
    alarm_count: int = 0
    arrival: dict[str, int] = field(default_factory=dict)
    combat_happened: bool = False
    brownie: dict[str, int] = field(default_factory=dict)
    #: side -> the counter number Lonnie named to it as the spike (§18.3, his talk)
    intel: dict[str, int] = field(default_factory=dict)
    #: the latest action, for the hidden-figure reveals of §21.5: (figure, kind, speed)
    last: tuple[str, str, str] | None = None
    #: smoke and gas clouds standing (§9, F-25), and how many were ever placed (their ids)
    clouds: list[Cloud] = field(default_factory=list)
    clouds_placed: int = 0
    #: building sections by id (§12)
    sections: dict[str, Section] = field(default_factory=dict)
    #: side -> figure -> (level, x, y, Turn) where the side last saw it (§21.4: shown stale)
    last_seen: dict[str, dict[str, tuple[int, int, int, int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.players:
            self.players = self.sides


def _side_teams_left(state: FirewallState, side: str) -> list[Team]:
    return [t for t in state.teams.values() if t.side == side and not t.activated_this_turn]


def _live_team(team: Team, state: FirewallState) -> bool:
    return bool(active_members(team, state.figures))


def deciding_side(state: FirewallState) -> str | None:
    """The side that acts now: the active team's side, or the next side in rotation that still
    has an unactivated team (§5 item 2, §21.2)."""
    if state.result is not None:
        return None
    if state.active_team is not None:
        return state.teams[state.active_team].side
    for k in range(len(state.order)):
        side = state.order[(state.step + k) % len(state.order)]
        if _side_teams_left(state, side):
            return side
    return None


def upkeep(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Scenario start-of-Turn events (§21.2 step 1): arrivals that are due, the alarm dice."""
    for tid, due in sorted(state.arrival.items()):
        if due != state.turn:
            continue
        team = state.teams[tid]
        for fid in team.members:
            f = state.figures[fid]
            if f.status is Status.RESERVE:
                f.cell = _arrival_square(state, f)
                f.status = Status.ACTIVE
        team.aware = True
        log.emit("arrive", {"side": team.side, "team": tid}, frozenset({team.side}))
        del state.arrival[tid]
    objective = state.objective
    if (state.alarm_raised is not None and state.turn > state.alarm_raised
            and objective.alarm_team in state.teams
            and objective.alarm_team not in state.arrival
            and state.alarm_count < ALARM_TARGET):
        side = state.teams[objective.alarm_team].side
        state.alarm_count = alarm_roll(chance, state.alarm_count, frozenset({side}))
        log.emit("alarm-count", {"count": state.alarm_count}, frozenset({side}))
        if state.alarm_count >= ALARM_TARGET:
            state.arrival[objective.alarm_team] = state.turn + 1  # §18.1: the following Turn


def _arrival_square(state: FirewallState, f: Figure) -> tuple[int, int]:
    """Ruling F-86: an arriving figure takes its listed square, or when another figure holds
    it the nearest free passable square (by rings, in reading order)."""
    taken = _occupied(state, f.level)
    level = state.board.levels[f.level]
    for r in range(max(level.width, level.height)):
        ring = [(f.cell[0] + dx, f.cell[1] + dy) for dy in range(-r, r + 1)
                for dx in range(-r, r + 1) if max(abs(dx), abs(dy)) == r]
        for cell in sorted(ring, key=lambda c: (c[1], c[0])):
            where = Cell(f.level, *cell)
            if cell not in taken and state.board.in_bounds(where) and state.board.passable(where):
                return cell
    return f.cell


def begin_turn(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Upkeep and initiative (§21.2 steps 1-2); teams with no active member are spent."""
    state.turn += 1
    gone = [c.id for c in state.clouds if c.until < state.turn]
    if gone:
        # ruling F-25: a cloud placed in Turn t with 1d6+1 = D is removed at the end of t + D
        state.clouds = [c for c in state.clouds if c.until >= state.turn]
        smoke_layer(state.board, state.clouds)
        log.emit("clouds-gone", {"clouds": gone})
    upkeep(state, chance, log)
    start_turn(state.figures, state.teams)
    for team in state.teams.values():
        if not _live_team(team, state):
            team.activated_this_turn = True
    live = [s for s in state.sides if any(
        _live_team(t, state) for t in state.teams.values() if t.side == s)]
    state.order = tuple(initiative(chance, live, {}))
    state.step = 0
    state.active_team = None
    log.emit("turn", {"turn": state.turn, "order": list(state.order)})


def check_over(state: FirewallState) -> bool:
    """The scenario's victory condition (§18), checked after every action."""
    if state.result is None:
        state.result = victory(state.objective, state.figures, state.sides, state.players,
                               spike_out=state.spike_out)
    if state.result is not None:
        state.phase = OVER
    return state.result is not None


def _finish_activation(state: FirewallState, chance: Chance, log: EventLog) -> None:
    team = state.active_team
    state.active_team = None
    if team is not None:
        side = state.teams[team].side
        if side in state.order:
            state.step = state.order.index(side) + 1
    if check_over(state):
        return
    while deciding_side(state) is None:
        if state.turn >= state.turn_limit:
            state.result = time_result(state.objective, state.figures, state.turn_limit,
                                       state.brownie)
            state.phase = OVER
            return
        begin_turn(state, chance, log)
        if check_over(state):
            return
        if deciding_side(state) is None and not state.arrival and state.alarm_raised is None:
            state.result = Result(None, "no team can act")
            state.phase = OVER
            return


def activation_done(state: FirewallState) -> bool:
    """The active team's activation ends when the 1/3 rule stops it (F-7) or it has nobody
    left who can act; ``end`` ends it by choice."""
    if state.result is not None:
        return False
    if state.active_team is None:
        return deciding_side(state) is None
    team = state.teams[state.active_team]
    if team_stopped(team, state.figures):
        return True
    return not any(_can_act(state, f) for f in active_members(team, state.figures))


def _can_act(state: FirewallState, f: Figure) -> bool:
    return f.active and not f.failed_this_turn and not (f.move_used and f.combat_used)


def _team_figures(state: FirewallState, side: str) -> list[Figure]:
    if state.active_team is None or state.teams[state.active_team].side != side:
        return []
    team = state.teams[state.active_team]
    if team_stopped(team, state.figures):
        return []
    return [f for f in active_members(team, state.figures) if _can_act(state, f)]


def new_game(
    board: Board, figures: dict[str, Figure], teams: dict[str, Team], sides: tuple[str, ...],
    chance: Chance, log: EventLog, turn_limit: int = 15, **scenario: object,
) -> FirewallState:
    """A game at its first decision: Turn 1's upkeep and initiative are rolled."""
    state = FirewallState(board, figures, teams, sides, turn_limit=turn_limit,
                          **scenario)  # type: ignore[arg-type]
    begin_turn(state, chance, log)
    after_action(state, chance, log)
    if deciding_side(state) is None and state.result is None:
        _finish_activation(state, chance, log)
    return state


def awareness(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Teams that now see an enemy become aware (F-16); each side learns of its own teams
    only."""
    for tid in update_awareness(state.board, state.figures, state.teams):
        log.emit("aware", {"team": tid}, frozenset({state.teams[tid].side}))


def reveal(state: FirewallState, log: EventLog) -> None:
    """§21.5: a Hidden figure is revealed when it makes a Combat action or a Walk or Run move,
    or when it and an enemy stand within 2 cm of each other at the end of an action."""
    actor = state.figures.get(state.last[0]) if state.last else None
    if actor is not None and actor.hidden and state.last is not None:
        _, kind, speed = state.last
        if kind in ("shoot", "close-combat") or (kind == "move" and speed in ("walk", "run")):
            actor.hidden = False
            log.emit("revealed", {"figure": actor.id}, None)
    for f in state.figures.values():
        if not f.hidden or f.status not in (Status.ACTIVE, Status.INCAPACITATED):
            continue
        if any(o.active and o.side != f.side and o.level == f.level
               and within(o.cell, f.cell, NEAR_CM)
               for o in state.figures.values()):
            f.hidden = False
            log.emit("revealed", {"figure": f.id}, None)


def after_action(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """After every action (§21.2): reveals, surrender, carried figures dropped by a fallen
    carrier, awareness, scenario triggers, the victory check."""
    if state.last is not None and state.last[1] == "move" and state.last[0] in state.figures:
        _gas(state, state.figures[state.last[0]], chance, log)  # F-26: entering a cloud
    reveal(state, log)
    _drop_from_fallen(state, log)
    surrender(state.figures, state.objective, log)
    if state.last is not None:
        actor = state.figures.get(state.last[0])
        if actor is not None:
            for tid, side in state.objective.wake_on_action.items():
                team = state.teams.get(tid)
                if team is not None and actor.side == side and not team.aware:
                    team.aware = True  # §18.1: Kewell's team wakes at the squad's first action
                    log.emit("aware", {"team": tid}, frozenset({team.side}))
    awareness(state, chance, log)
    state.last = None
    remember(state)
    if state.result is None:
        check_over(state)


def remember(state: FirewallState) -> None:
    """Each side notes where it sees every other figure now (§21.4: the last seen position
    of an enemy that left view may be shown as stale)."""
    for side in state.sides:
        notes = state.last_seen.setdefault(side, {})
        for fid in seen_by_side(state.board, state.figures, side):
            f = state.figures[fid]
            notes[fid] = (f.level, *f.cell, state.turn)


def _drop_from_fallen(state: FirewallState, log: EventLog) -> None:
    """Ruling F-54: a carrier removed or helpless drops its load where it stood; the load
    takes the first free square around (ruling F-81); a holder of the spike drops it."""
    for f in state.figures.values():
        if f.carrying is not None and not f.active:
            load = state.figures[f.carrying]
            if load.status is not Status.EXITED:
                load.cell = _free_square_near(state, f)
                load.carried_by = None
            f.carrying = None
            log.emit("dropped", {"figure": load.id, "to": [load.level, *load.cell]},
                     _who_sees(state, load))
        if state.spike_holder == f.id and not f.active and f.status is not Status.EXITED:
            state.spike_holder = None
            state.spike_at = (f.level, *f.cell)
            log.emit("spike-dropped", {"at": [f.level, *f.cell]}, _who_sees(state, f))


def _who_sees(state: FirewallState, f: Figure) -> frozenset[str]:
    return frozenset(s for s in state.sides
                     if s == f.side or f.id in seen_by_side(state.board, state.figures, s))


def _occupied(state: FirewallState, level: int) -> set[tuple[int, int]]:
    return {g.cell for g in state.figures.values() if g.level == level
            and g.status in (Status.ACTIVE, Status.INCAPACITATED, Status.KILLED)}


def _free_square_near(state: FirewallState, f: Figure) -> tuple[int, int]:
    taken = _occupied(state, f.level)
    for dx, dy in ((0, 0), *FACINGS):
        cell = (f.cell[0] + dx, f.cell[1] + dy)
        where = Cell(f.level, *cell)
        if (dx, dy) != (0, 0) and cell in taken:
            continue
        if (dx, dy) == (0, 0) and f.status is not Status.ROUTED and f.status is not Status.EXITED:
            continue
        if state.board.in_bounds(where) and state.board.passable(where):
            return cell
    return f.cell


def _aware(state: FirewallState, figure: Figure) -> bool:
    return state.teams[figure.team].aware


# -- moves ---------------------------------------------------------------------------------

def activate_options(state: FirewallState, side: str) -> Iterable[Action]:
    if state.active_team is not None or deciding_side(state) != side:
        return []
    return [Action.make(side, "activate", team=t.id) for t in _side_teams_left(state, side)]


def activate(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    team = state.teams[str(action.get("team"))]
    team.activated_this_turn = True
    state.active_team = team.id
    # §21.4: the others learn that the side acts, not which of its teams
    others = {s: {"side": team.side, "team": None} for s in state.sides if s != team.side}
    log.emit("activate", {"side": team.side, "team": team.id}, None, others)
    # §21.2: gas-cloud attacks on its members inside clouds at the start of the activation
    for fid in team.members:
        _gas(state, state.figures[fid], chance, log)


def end_options(state: FirewallState, side: str) -> Iterable[Action]:
    if state.active_team is not None and state.teams[state.active_team].side == side:
        return [Action.make(side, "end", hint={"role": "pass"})]
    return []


def end(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    team = state.active_team
    side = state.teams[team].side if team else None
    others = {s: {"team": None} for s in state.sides if s != side}
    log.emit("end-activation", {"team": team}, None, others)
    _finish_activation(state, chance, log)


def _order(action: Action) -> MoveOrder:
    path = tuple((int(c[1]), int(c[2])) for c in action.get("path") or ())
    facing = action.get("facing")
    face = FACINGS[int(facing)] if facing is not None else None
    return MoveOrder(str(action.get("figure")), str(action.get("speed")), path, face)


def _mine(state: FirewallState, action: Action) -> Figure:
    fid = str(action.get("figure"))
    figure = state.figures.get(fid)
    if figure is None or figure not in _team_figures(state, action.side):
        raise IllegalActionError(f"{fid} is not a figure of the active team that may act")
    return figure


def _with_load(state: FirewallState, f: Figure, load: str | None) -> dict[str, Figure]:
    """The figures as they stand once ``f`` has picked up ``load`` (for the route checks)."""
    if load is None:
        return state.figures
    figures = dict(state.figures)
    figures[f.id] = dataclasses.replace(f, carrying=load)
    figures[load] = dataclasses.replace(state.figures[load], cell=f.cell, carried_by=f.id)
    return figures


def _load_problem(state: FirewallState, f: Figure, load: str | None) -> str | None:
    """Why ``f`` may not pick up ``load`` with this move (ruling F-54), or ``None``."""
    if load is None:
        return None
    if f.carrying is not None:
        return f"{f.id} already carries {f.carrying}"
    other = state.figures.get(load)
    if other is None or other.status is not Status.INCAPACITATED or other.carried_by:
        return "only a helpless figure nobody carries can be picked up (F-54)"
    if other.side != f.side and other.id not in seen_by_side(state.board, state.figures, f.side):
        return "no such figure"
    if other.level != f.level or not within(f.cell, other.cell, NEAR_CM):
        return f"{load} is not within 2 cm of {f.id}"
    return None


def _still(state: FirewallState, f: Figure) -> bool:
    """§18.3: Lonnie may not move until he sees an enemy or a Combat action has occurred."""
    return f.id in state.objective.still and not _aware(state, f) and not state.combat_happened


def move_options(state: FirewallState, side: str) -> Iterable[Action]:
    """A useful subset: a run, walk or crawl in each of the eight directions; exits from
    edge squares; picking up a helpless figure alongside."""
    out = []
    for f in _team_figures(state, side):
        if f.move_used or _still(state, f):
            continue
        aware = _aware(state, f)
        problem = move_problem if aware else noncombat_problem
        loads: list[str | None] = [None]
        if f.carrying is None:
            loads += [g.id for g in state.figures.values()
                      if g.status is Status.INCAPACITATED and _load_problem(state, f, g.id) is None]
        speeds = (("run", 10), ("walk", 7), ("walk", 3), ("walk", 1), ("crawl", 2)) if aware \
            else (("walk", 7), ("walk", 3), ("walk", 1))
        for load in loads:
            figures = _with_load(state, f, load)
            for i, (dx, dy) in enumerate(FACINGS):
                for speed, n in speeds:
                    if f.suppressed and speed != "crawl":
                        continue
                    to = (f.cell[0] + dx * n, f.cell[1] + dy * n)
                    act = Action.make(side, "move", figure=f.id, speed=speed,
                                      path=[[f.level, *to]], facing=i, carry=load,
                                      hint={"role": "move", "to": [f.level, *to]})
                    if problem(state.board, figures, _order(act)) is None:
                        out.append(act)
                        if on_edge(state.board, f.level, to) and _exit_problem(
                                state, f, load) is None:
                            out.append(Action.make(
                                side, "move", figure=f.id, speed=speed, path=[[f.level, *to]],
                                facing=i, carry=load, exit=True,
                                hint={"role": "exit", "to": [f.level, *to]}))
            if on_edge(state.board, f.level, f.cell) and _exit_problem(state, f, load) is None:
                out.append(Action.make(side, "move", figure=f.id,
                                       speed="crawl" if aware else "walk", path=[],
                                       carry=load, exit=True, hint={"role": "exit"}))
    return out


def _exit_problem(state: FirewallState, f: Figure, load: str | None) -> str | None:
    """Triple-Cross (ruling F-82): the spike leaves the table only over its side's entry edge.
    A Walk in the Park (ruling F-87): Kewell leaves only carried by the snatch squad."""
    objective = state.objective
    if objective.kind == "snatch" and (
        f.id == objective.target or (load == objective.target and f.side != objective.taker)
    ):
        return (f"{objective.target} leaves the table only carried off by the "
                f"{objective.taker} (F-87)")
    if state.spike_holder == f.id and f.side in state.entry:
        edge = on_edge(state.board, f.level, f.cell)
        if edge is not None and edge != state.entry[f.side]:
            return "the data-spike leaves only over the side's own entry edge (F-82)"
    return None


def check_move(state: FirewallState, action: Action) -> None:
    f = _mine(state, action)
    if any(c[0] != f.level for c in action.get("path") or ()):
        raise IllegalActionError("a move stays on its level")
    if _still(state, f):
        raise IllegalActionError(f"{f.id} may not move until he sees an enemy or a Combat "
                                 "action has occurred (§18.3)")
    load = action.get("carry")
    problem = _load_problem(state, f, None if load is None else str(load))
    if problem is None:
        check = move_problem if _aware(state, f) else noncombat_problem
        problem = check(state.board, _with_load(state, f, None if load is None else str(load)),
                        _order(action))
    if problem is None and action.get("exit"):
        problem = _exit_problem(state, f, load)
    if problem is not None:
        raise IllegalActionError(problem)


def move(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    order = _order(action)
    f = state.figures[order.figure]
    load = action.get("carry")
    origin = state.figures[str(load)].cell if load is not None else None
    if load is not None:
        carried = state.figures[str(load)]
        f.carrying, carried.carried_by, carried.cell = carried.id, f.id, f.cell
        log.emit("pick-up", {"figure": f.id, "carried": carried.id}, _who_sees(state, f))
    # §21.4: a figure that leaves the table is watched only by those who saw it before
    before = _who_sees(state, f) if action.get("exit") else None
    if _aware(state, f):
        report = resolve_move(state.board, state.figures, state.teams, order, chance, log,
                              watchers_only=before)
        moved = report.result != "CF"
        if load is not None and not moved and origin is not None:
            # ruling F-80: on a CF the pick-up fails and the figure stays where it lay
            carried = state.figures[str(load)]
            f.carrying = carried.carried_by = None
            carried.cell = origin
    else:
        resolve_noncombat_move(state.board, state.figures, order, log)
        moved = True
    if f.carrying is not None:
        state.figures[f.carrying].cell = f.cell
    state.last = (f.id, "move", order.speed)
    if action.get("exit") and moved and f.active and on_edge(state.board, f.level, f.cell):
        _exit(state, f, log, before)


def _exit(state: FirewallState, f: Figure, log: EventLog,
          before: frozenset[str] | None = None) -> None:
    """Rulings F-55, F-58: a figure ending a Movement action on an edge square leaves the
    table, with whatever it carries; the sides that see it go see it leave (§21.4)."""
    audience = _who_sees(state, f) & (before if before is not None else frozenset(state.sides))
    f.status = Status.EXITED
    edge = on_edge(state.board, f.level, f.cell)
    if f.carrying is not None:
        state.figures[f.carrying].status = Status.EXITED
    if state.spike_holder == f.id and state.entry.get(f.side) == edge:
        state.spike_out = f.side
    log.emit("exit", {"figure": f.id, "edge": edge,
                      "carrying": f.carrying, "spike": state.spike_holder == f.id}, audience)


def _shot(action: Action) -> Shot:
    fire = action.get("fire")
    grenade = action.get("grenade")
    return Shot(str(action.get("figure")), str(action.get("weapon")), str(action.get("target")),
                None if fire is None else str(fire), None if grenade is None else str(grenade))


def _launchers(f: Figure) -> list[tuple[str, str | None]]:
    """(weapon, grenade) pairs a figure may fire: every weapon, and each grenade it carries
    thrown by hand or from each launcher it carries."""
    pairs: list[tuple[str, str | None]] = [
        (w, None) for w in f.weapons if not tables().weapons[w].launcher
    ]
    rows = [HAND_GRENADE] + [w for w in f.weapons if tables().weapons[w].launcher]
    for grenade, count in sorted(f.grenades.items()):
        if count > 0:
            pairs.extend((row, grenade) for row in rows)
    return pairs


def _chance_of_success(gutz: int, modifier: int) -> Fraction:
    """P(S or CS) of a plain Gutz roll (§3), for bots' hints."""
    from killhouse.rulesets.firewall.gutz import classify
    wins = sum(1 for a in range(1, 7) for b in range(1, 7)
               if classify(gutz, modifier, a, b) in ("S", "CS"))
    return Fraction(wins, 36)


def shoot_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.fire import fire_modifier
    from killhouse.rulesets.firewall.shooting import shot_situation
    out = []
    seen = None
    for f in _team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        if seen is None:
            seen = seen_by_side(state.board, state.figures, side)
        for wid, grenade in _launchers(f):
            for target in state.figures.values():
                if target.id not in seen or target.side == side:
                    continue
                act = Action.make(side, "shoot", figure=f.id, weapon=wid, target=target.id,
                                  grenade=grenade)
                if shot_problem(state.board, state.figures, _shot(act)) is None:
                    mod = fire_modifier(shot_situation(state.board, state.figures, state.teams,
                                                       _shot(act), night=state.night))
                    p = _chance_of_success(f.gutz, mod)
                    out.append(dataclasses.replace(act, hint={
                        "role": "attack", "p": float(p), "to": [target.level, *target.cell],
                        "helpless": target.status is Status.INCAPACITATED,
                        "hostage": target.side == HOSTAGES,
                        "nonlethal": tables().weapons[wid].nonlethal or bool(
                            grenade and tables().grenade(grenade).nonlethal),
                        "grenade": grenade is not None}))
    return out


def _combat_allowed(state: FirewallState, action: Action) -> None:
    f = _mine(state, action)
    if not _aware(state, f):
        raise IllegalActionError("a team not yet aware of the enemy takes no Combat actions (F-16)")
    if f.carrying is not None:
        raise IllegalActionError("a carrier cannot shoot or fight in close combat (F-54)")
    target = str(action.get("target"))
    if target not in seen_by_side(state.board, state.figures, action.side):
        raise IllegalActionError(f"{target} is not a figure the side sees")


def check_shoot(state: FirewallState, action: Action) -> None:
    _combat_allowed(state, action)
    problem = shot_problem(state.board, state.figures, _shot(action))
    if problem is not None:
        raise IllegalActionError(problem)


def shoot(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_shot(state.board, state.figures, state.teams, _shot(action), chance, log,
                 night=state.night, sides=state.sides)
    state.combat_happened = True
    state.last = (str(action.get("figure")), "shoot", "")


def melee_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.closecombat import melee_situation
    from killhouse.rulesets.firewall.melee import melee_modifier
    out = []
    seen = None
    for f in _team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        for target in state.figures.values():
            if target.side != side and melee_problem(state.figures, f.id, target.id) is None:
                if seen is None:
                    seen = seen_by_side(state.board, state.figures, side)
                if target.id not in seen:
                    continue
                mod = melee_modifier(melee_situation(state.board, state.figures, state.teams,
                                                     f.id, target.id))
                out.append(Action.make(side, "close-combat", figure=f.id, target=target.id,
                                       hint={"role": "attack",
                                             "p": float(_chance_of_success(f.gutz, mod)),
                                             "helpless": target.status is Status.INCAPACITATED,
                                             "hostage": target.side == HOSTAGES}))
    return out


def check_melee(state: FirewallState, action: Action) -> None:
    _combat_allowed(state, action)
    problem = melee_problem(state.figures, str(action.get("figure")), str(action.get("target")))
    if problem is not None:
        raise IllegalActionError(problem)


def melee(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_melee(state.board, state.figures, state.teams, str(action.get("figure")),
                  str(action.get("target")), chance, log, sides=state.sides)
    state.combat_happened = True
    state.last = (str(action.get("figure")), "close-combat", "")


def unjam_options(state: FirewallState, side: str) -> Iterable[Action]:
    return [
        Action.make(side, "unjam", figure=f.id, weapon=w, hint={"role": "task", "p": 0.5})
        for f in _team_figures(state, side) if not f.move_used
        for w, s in sorted(f.weapon_state.items()) if s == "jammed"
    ]


def unjam(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§11.2: a Movement action; leader bonus only (F-30)."""
    f = state.figures[str(action.get("figure"))]
    weapon = str(action.get("weapon"))
    f.move_used = True
    own = frozenset({f.side})
    roll = gutz_roll(chance, f.gutz, bonus_for(f, state.teams[f.team], state.figures),
                     f"{f.id} un-jams {weapon}", own)
    weapon_state, change = unjam_effect(roll.result)
    f.weapon_state[weapon] = weapon_state
    f.gutz = change_gutz(f.gutz, change).gutz
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
    log.emit("unjam", {"figure": f.id, "dice": list(roll.dice), "result": roll.result}, own)
    state.last = (f.id, "unjam", "")


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
    for f in _team_figures(state, side):
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
    f = _mine(state, action)
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
    roll = gutz_roll(chance, f.gutz, bonus_for(f, state.teams[f.team], state.figures),
                     f"{f.id} task {what}", own)
    change = change_gutz(f.gutz, roller_change(roll.result))
    f.gutz = change.gutz
    if change.status != "active":
        f.status = Status(change.status)
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
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
    level = max(0, min(3, int(f.skills.get("technical", 0))))
    audience = frozenset({f.side}) | _gm(state)
    roll = gutz_roll(chance, f.gutz, 0, f"{f.id} disarms {cid}", audience,
                     skill_level=level)  # type: ignore[arg-type]
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
    drawn among the unresolved ones. Only the figure's side and the GM hear it."""
    audience = frozenset({f.side}) | _gm(state)
    roll = gutz_roll(chance, f.gutz, 0, f"{f.id} makes the captive talk", audience)
    named: int | None = None
    if roll.result == "CS" and state.spike is not None:
        named = state.counters[state.spike].number
    elif roll.result == "S":
        named = chance.roll(6, "the counter Lonnie names", audience)
    elif roll.result == "CF":
        traps = sorted(c.number for c in state.counters.values()
                       if c.id != state.spike and not c.resolved)
        if traps:
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


def _gm(state: FirewallState) -> frozenset[str]:
    return frozenset(s for s in state.sides if s not in state.players)


def drop_options(state: FirewallState, side: str) -> Iterable[Action]:
    out = []
    for f in _team_figures(state, side):
        if f.carrying is None:
            continue
        taken = _occupied(state, f.level) - {f.cell}
        for dx, dy in FACINGS:
            cell = (f.cell[0] + dx, f.cell[1] + dy)
            where = Cell(f.level, *cell)
            if cell not in taken and state.board.in_bounds(where) and state.board.passable(where):
                out.append(Action.make(side, "drop", figure=f.id, to=[f.level, *cell],
                                       hint={"role": "other"}))
    return out


def drop(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-54: dropping is free during the carrier's activation; the load goes to a free
    square beside the carrier (ruling F-81)."""
    f = state.figures[str(action.get("figure"))]
    load = state.figures[str(f.carrying)]
    to = action.get("to")
    load.cell = (int(to[1]), int(to[2]))
    load.carried_by = None
    f.carrying = None
    log.emit("dropped", {"figure": load.id, "to": [load.level, *load.cell]}, _who_sees(state, f))


def _gas(state: FirewallState, f: Figure, chance: Chance, log: EventLog) -> None:
    """Each gas cloud the figure stands in attacks it, at most once a Turn (F-26)."""
    from killhouse.rulesets.firewall.teams import resolve_leader_loss
    hit = False
    for cloud in state.clouds:
        if not cloud.covers(f.level, f.cell):
            continue
        audience = _who_sees(state, f)
        result = gas_attack(cloud, f, state.turn, chance, audience)
        if result is None:
            continue
        hit = True
        state.teams[f.team].aware = True  # F-16: inside an area effect
        log.emit("gas", {"cloud": cloud.id, "figure": f.id, "result": result,
                         "status": f.status.value}, audience)
    if hit:
        for team in state.teams.values():
            resolve_leader_loss(team, state.figures, chance)


def _at(action: Action) -> tuple[int, int]:
    at = action.get("at")
    return (int(at[1]), int(at[2]))


def cloud_options(state: FirewallState, side: str) -> Iterable[Action]:
    """Smoke and gas grenades at squares: the squares of the enemies the side sees, and the
    square in front of each of them (a useful subset; any legal square is accepted)."""
    out = []
    seen = None
    for f in _team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        kinds = [g for g, n in sorted(f.grenades.items()) if n > 0 and tables().grenade(g).cloud]
        if not kinds:
            continue
        if seen is None:
            seen = seen_by_side(state.board, state.figures, side)
        rows = [HAND_GRENADE] + [w for w in f.weapons if tables().weapons[w].launcher]
        squares = sorted({state.figures[i].cell for i in seen
                          if state.figures[i].level == f.level})
        for grenade in kinds:
            for weapon in rows:
                for at in squares:
                    if cloud_problem(state.board, state.figures, f.id, weapon, grenade, at,
                                     f.level) is None:
                        mod = cloud_modifier(f, state.teams[f.team], state.figures, weapon, at,
                                             state.night)
                        out.append(Action.make(side, "cloud", figure=f.id, weapon=weapon,
                                               grenade=grenade, at=[f.level, *at],
                                               hint={"role": "cloud", "to": [f.level, *at],
                                                     "p": float(_chance_of_success(f.gutz,
                                                                                   mod))}))
    return out


def check_cloud(state: FirewallState, action: Action) -> None:
    f = _mine(state, action)
    if not _aware(state, f):
        raise IllegalActionError("a team not yet aware of the enemy takes no Combat actions (F-16)")
    if f.carrying is not None:
        raise IllegalActionError("a carrier cannot shoot or fight in close combat (F-54)")
    at = action.get("at")
    problem = cloud_problem(state.board, state.figures, f.id, str(action.get("weapon")),
                            str(action.get("grenade")), _at(action), int(at[0]))
    if problem is not None:
        raise IllegalActionError(problem)


def cloud(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """A smoke or gas grenade at a square (§9, F-25 … F-27); gas attacks every unprotected
    figure inside when it is placed."""
    f = state.figures[str(action.get("figure"))]
    at = _at(action)
    audience = frozenset(s for s in state.sides if f.id in seen_by_side(
        state.board, state.figures, s)) | {f.side}
    state.clouds_placed += 1
    result, placed = throw_cloud(chance, f, state.teams[f.team], state.figures,
                                 str(action.get("weapon")), str(action.get("grenade")), at,
                                 state.turn, f"cloud-{state.clouds_placed}", audience,
                                 state.night)
    state.combat_happened = True
    state.last = (f.id, "cloud", "")
    log.emit("cloud", {"figure": f.id, "grenade": str(action.get("grenade")),
                       "at": [f.level, *at], "result": result,
                       "placed": placed is not None,
                       "until": placed.until if placed else None}, None,
             {s: {"figure": None, "grenade": str(action.get("grenade")),
                  "at": [f.level, *at], "result": None, "placed": placed is not None,
                  "until": placed.until if placed else None}
              for s in state.sides if s not in audience})
    if placed is None:
        return
    state.clouds.append(placed)
    smoke_layer(state.board, state.clouds)
    for g in state.figures.values():
        if placed.covers(g.level, g.cell):
            _gas(state, g, chance, log)


def _blast_pairs(f: Figure) -> list[tuple[str, str | None]]:
    """(weapon, grenade) pairs that can hurt a section: SS(A) weapons, Guns, the bombs, and
    HEAT grenades thrown or launched (§12)."""
    from killhouse.rulesets.firewall.buildings import BOMBS
    from killhouse.rulesets.firewall.buildings import attack_type as kind_of
    from killhouse.rulesets.firewall.tables import GUNS
    pairs: list[tuple[str, str | None]] = []
    for w in f.weapons:
        row = tables().weapons[w]
        if row.launcher:
            continue
        if w in BOMBS or kind_of(w, None) == "SS(A)" or kind_of(w, None) in GUNS:
            pairs.append((w, None))
    rows = [HAND_GRENADE] + [w for w in f.weapons if tables().weapons[w].launcher]
    for g, n in sorted(f.grenades.items()):
        if n > 0 and kind_of(HAND_GRENADE, g) == "SS(A)":
            pairs.extend((row, g) for row in rows)
    return pairs


def blast_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    if not state.sections:
        return out
    for f in _team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        for weapon, grenade in _blast_pairs(f):
            for sid in sorted(state.sections):
                if section_problem(state.board, state.figures, state.sections, f.id, weapon,
                                   sid, grenade) is None:
                    out.append(Action.make(side, "blast", figure=f.id, weapon=weapon,
                                           section=sid, grenade=grenade,
                                           hint={"role": "blast"}))
    return out


def check_blast(state: FirewallState, action: Action) -> None:
    f = _mine(state, action)
    if not _aware(state, f):
        raise IllegalActionError("a team not yet aware of the enemy takes no Combat actions (F-16)")
    if f.carrying is not None:
        raise IllegalActionError("a carrier cannot shoot or fight in close combat (F-54)")
    grenade = action.get("grenade")
    problem = section_problem(state.board, state.figures, state.sections, f.id,
                              str(action.get("weapon")), str(action.get("section")),
                              None if grenade is None else str(grenade))
    if problem is not None:
        raise IllegalActionError(problem)


def blast(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """An attack on a building section (§12): the roll, the section's loss or kill, the
    collapse with every figure inside losing 4 Gutz, then leader losses."""
    from killhouse.rulesets.firewall.jams import malfunction_roll
    from killhouse.rulesets.firewall.shooting import _apply_malfunction
    from killhouse.rulesets.firewall.teams import resolve_leader_loss
    f = state.figures[str(action.get("figure"))]
    weapon = str(action.get("weapon"))
    grenade = None if action.get("grenade") is None else str(action.get("grenade"))
    section = state.sections[str(action.get("section"))]
    seeing = _who_sees(state, f)
    mod = section_modifier(f, state.teams[f.team], state.figures, weapon, section, state.night)
    f.combat_used = True
    if grenade is not None:
        f.grenades[tables().grenade(grenade).id] -= 1
    roll = gutz_roll(chance, f.gutz, mod, f"{f.id} fires at section {section.id}", seeing)
    effect = section_effect(weapon, grenade, roll.result, section.armour)
    destroyed = damage(section, effect)
    hurt = collapse(state.board, state.figures, section) if destroyed else []
    _roller_result(f, roll.result)
    malfunction = None
    mode = tables().weapons[weapon].mode()
    if roll.result == "CF" and mode.malf is not None:
        w = tables().weapons[weapon]
        malfunction = malfunction_roll(chance, mode.malf, mode.fire, f.experience,
                                       w.grenade or w.launcher, audience=seeing)
        positions = {g.id: g.cell for g in state.figures.values() if g.level == f.level
                     and g.status in (Status.ACTIVE, Status.INCAPACITATED)}
        _apply_malfunction(state.figures, f, Shot(f.id, weapon, f.id, None, grenade),
                           malfunction, mode.fire, tables().weapons[weapon].armour, False,
                           positions)
    state.combat_happened = True
    state.last = (f.id, "shoot", "")
    data = {"figure": f.id, "section": section.id, "result": roll.result,
            "effect": effect, "destroyed": destroyed, "hurt": hurt, "malfunction": malfunction}
    # a section going up is seen by all; who fired, only by the sides that see the firer
    known = {s: {g.id for g in state.figures.values() if g.side == s}
             | seen_by_side(state.board, state.figures, s) for s in state.sides}
    log.emit("blast", data, None, {
        s: {**data, "figure": f.id if s in seeing else None,
            "hurt": [h for h in hurt if h in known[s]]}
        for s in state.sides})
    if destroyed:
        for team in state.teams.values():
            resolve_leader_loss(team, state.figures, chance)


def _figure_args() -> tuple[Arg, ...]:
    return (Arg("figure", "figure"),)


FLOW: Flow[FirewallState] = Flow(
    phases=[
        Phase(ACT, "single", lambda s: [d] if (d := deciding_side(s)) else [],
              ("activate", "move", "shoot", "cloud", "blast", "close-combat", "unjam", "task",
               "drop", "end"),
              "activate a Fire Team, or act with the active team's figures",
              done=activation_done, advance=_finish_activation),
    ],
    moves=[
        Move("activate", (Arg("team", "id"),), activate_options, activate,
             help="give a Fire Team that has not acted this Turn the initiative"),
        Move("move", (*_figure_args(), Arg("speed", "enum", choices=SPEEDS),
                      Arg("path", "cells"), Arg("facing", "int", required=False, minimum=0,
                                                maximum=7),
                      Arg("carry", "figure", required=False),
                      Arg("exit", "bool", required=False)),
             move_options, move, check=check_move,
             help="move along a route (a Rally when suppressed); pick up a helpless figure "
                  "within 2 cm; leave the table from an edge square"),
        Move("shoot", (*_figure_args(), Arg("weapon", "id"), Arg("target", "figure"),
                       Arg("fire", "str", required=False), Arg("grenade", "id", required=False)),
             shoot_options, shoot, check=check_shoot, help="a ranged attack"),
        Move("cloud", (*_figure_args(), Arg("weapon", "id"), Arg("grenade", "id"),
                       Arg("at", "cell")),
             cloud_options, cloud, check=check_cloud,
             help="a smoke or gas grenade at a square: a 4 × 4 cloud for 1d6+1 Turns"),
        Move("blast", (*_figure_args(), Arg("weapon", "id"), Arg("section", "id"),
                       Arg("grenade", "id", required=False)),
             blast_options, blast, check=check_blast,
             help="fire an SS(A) weapon, a Gun or a bomb at a building section (§12)"),
        Move("close-combat", (*_figure_args(), Arg("target", "figure")), melee_options, melee,
             check=check_melee, help="attack a figure within 2 cm"),
        Move("unjam", (*_figure_args(), Arg("weapon", "id")), unjam_options, unjam,
             help="clear a jammed weapon"),
        Move("task", (*_figure_args(), Arg("task", "enum", choices=TASKS),
                      Arg("counter", "id", required=False)),
             task_options, task, check=check_task,
             help="a task (§6.7): raise the alarm, grab a counter or a dropped data-spike"),
        Move("drop", (*_figure_args(), Arg("to", "cell")), drop_options, drop,
             help="put down a carried figure on a free square alongside"),
        Move("end", (), end_options, end, help="end the active team's activation"),
    ],
    phase_of=lambda s: s.phase,
    over=lambda s: s.result is not None,
    after=after_action,
)
