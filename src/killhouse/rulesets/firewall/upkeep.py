"""The Turn around the moves (§21.2): upkeep (arrivals, the alarm), initiative, the end of an
activation, what happens after every action, and the victory check (§18)."""

from __future__ import annotations

from killhouse.core.board import Board
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Result
from killhouse.rulesets.firewall.clouds import smoke_layer
from killhouse.rulesets.firewall.cyberplay import after_cyber
from killhouse.rulesets.firewall.doors import remember_doors  # fwdoors hook (F-233)
from killhouse.rulesets.firewall.fireorders import gas
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.objectives import (
    ALARM_TARGET,
    NEAR_CM,
    alarm_roll,
    surrender,
    time_result,
    victory,
)
from killhouse.rulesets.firewall.state import (
    ACT,
    OVER,
    SETUP,
    FirewallState,
    _can_act,
    _free_square_near,
    _live_team,
    _who_sees,
    deciding_side,
    side_sees,
)
from killhouse.rulesets.firewall.teams import (
    Figure,
    Status,
    Team,
    active_members,
    start_turn,
    team_stopped,
)
from killhouse.rulesets.firewall.trapplay import spring_near  # fwdoors hook (F-238)
from killhouse.rulesets.firewall.turn import initiative
from killhouse.rulesets.firewall.vision import update_awareness


def upkeep(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Scenario start-of-Turn events (§21.2 step 1): arrivals that are due, the alarm dice."""
    objective = state.objective
    for tid, due in sorted(state.arrival.items()):
        if due != state.turn:
            continue
        team = state.teams[tid]
        # ruling F-198: its figures enter by a move from the table edge, the player's choice
        state.entering.update(m for m in team.members
                              if state.figures[m].status is Status.RESERVE)
        if tid == objective.alarm_team:
            team.aware = True  # ruling F-86: the response team comes knowing of the enemy
        log.emit("arrive", {"side": team.side, "team": tid}, frozenset({team.side}))
        del state.arrival[tid]
    if (state.alarm_raised is not None and state.turn > state.alarm_raised
            and objective.alarm_team in state.teams
            and objective.alarm_team not in state.arrival
            and state.alarm_count < ALARM_TARGET):
        side = state.teams[objective.alarm_team].side
        state.alarm_count = alarm_roll(chance, state.alarm_count, frozenset({side}))
        log.emit("alarm-count", {"count": state.alarm_count}, frozenset({side}))
        if state.alarm_count >= ALARM_TARGET:
            state.arrival[objective.alarm_team] = state.turn + 1  # §18.1: the following Turn


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
    from killhouse.rulesets.firewall.skillplay import wake_revived  # fwskill hook (§16.2)
    wake_revived(state)
    from killhouse.rulesets.firewall.vehicles.crew import new_turn  # vehicles hook
    new_turn(state, log, chance)
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
    if state.result is None and state.objective.kind == "extract":  # vehicles hook
        from killhouse.rulesets.firewall.vehicles.scenario import extract_result
        state.result = extract_result(state)
    elif state.result is None:
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
    from killhouse.rulesets.firewall.vehicles.crew import vehicle_activation_done  # vehicles
    done = vehicle_activation_done(state, team)
    if done is not None:
        return done
    if team_stopped(team, state.figures):
        return True
    from killhouse.rulesets.firewall.entry import entering_figures
    return not any(_can_act(state, f) for f in active_members(team, state.figures)) \
        and not entering_figures(state, team.side)


def new_game(
    board: Board, figures: dict[str, Figure], teams: dict[str, Team], sides: tuple[str, ...],
    chance: Chance, log: EventLog, turn_limit: int = 15, **scenario: object,
) -> FirewallState:
    """A game at its first decision: Turn 1's upkeep and initiative are rolled."""
    state = FirewallState(board, figures, teams, sides, turn_limit=turn_limit,
                          **scenario)  # type: ignore[arg-type]
    from killhouse.rulesets.firewall.setupphase import (  # fwsetup
        next_step,
        prepare,
        setup_finished,
    )
    prepare(state)
    if not setup_finished(state):
        state.phase = SETUP  # rulings F-195, F-210: set-up decisions before Turn 1
        next_step(state, chance, log)
        if not setup_finished(state):
            return state
    start_play(state, chance, log)
    return state


def start_play(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Turn 1: its upkeep and initiative are rolled (after the GM's set-up, if any)."""
    state.phase = ACT
    begin_turn(state, chance, log)
    after_action(state, chance, log)
    if deciding_side(state) is None and state.result is None:
        _finish_activation(state, chance, log)


def awareness(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Teams that now see an enemy become aware (F-16); each side learns of its own teams
    only."""
    for tid in update_awareness(state.board, state.figures, state.teams):
        log.emit("aware", {"team": tid}, frozenset({state.teams[tid].side}))


def reveal(state: FirewallState, log: EventLog) -> None:
    """§21.5: a Hidden figure is revealed when it makes a Combat action or a Walk or Run move,
    or when it and an enemy stand within 2 cm of each other at the end of an action. Only
    the sides that now see it hear of it (its own and those with line of sight, §21.5)."""
    actor = state.figures.get(state.last[0]) if state.last else None
    if actor is not None and actor.hidden and state.last is not None:
        _, kind, speed = state.last
        if kind in ("shoot", "close-combat") or (kind == "move" and speed in ("walk", "run")):
            actor.hidden = False
            log.emit("revealed", {"figure": actor.id}, _who_sees(state, actor))
    for f in state.figures.values():
        if not f.hidden or f.status not in (Status.ACTIVE, Status.INCAPACITATED):
            continue
        if any(o.active and o.side != f.side and o.level == f.level
               and within(o.cell, f.cell, NEAR_CM)
               for o in state.figures.values()):
            f.hidden = False
            log.emit("revealed", {"figure": f.id}, _who_sees(state, f))


def after_action(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """After every action (§21.2): reveals, surrender, carried figures dropped by a fallen
    carrier, awareness, scenario triggers, the victory check. Not in set-up: nothing has
    happened on the table before Turn 1 (fwsetup: a figure deployed or turned there is seen
    from Turn 1, ruling F-218)."""
    if state.phase == SETUP:
        state.events_seen = len(log)
        return
    if state.last is not None and state.last[1] == "move" and state.last[0] in state.figures:
        gas(state, state.figures[state.last[0]], chance, log)  # F-26: entering a cloud
    reveal(state, log)
    spring_near(state, chance, log)  # fwdoors hook: set traps go off (F-238)
    _drop_from_fallen(state, log)
    from killhouse.rulesets.firewall.storeyclimb import let_go  # fwclimb hook: F-254
    let_go(state, chance, log)
    surrender(state.figures, state.objective, log)
    if state.last is not None:
        actor = state.figures.get(state.last[0])
        if actor is not None:
            for tid, side in state.objective.wake_on_action.items():
                team = state.teams.get(tid)
                if team is not None and actor.side == side and not team.aware:
                    team.aware = True  # §18.1: Kewell's team wakes at the squad's first action
                    log.emit("aware", {"team": tid}, frozenset({team.side}))
    after_cyber(state, chance, log, state.events_seen)  # §21.3 step 5 (F-40)
    awareness(state, chance, log)
    from killhouse.rulesets.firewall.vehicles.scenario import after_vehicle_action  # vehicles
    after_vehicle_action(state, log)
    state.last = None
    remember(state)
    remember_doors(state)  # fwdoors hook: doors as each side last saw them (F-233)
    if state.result is None:
        check_over(state)
    state.events_seen = len(log)


def remember(state: FirewallState) -> None:
    """Each side notes where it sees every other figure now (§21.4: the last seen position
    of an enemy that left view may be shown as stale)."""
    for side in state.sides:
        notes = state.last_seen.setdefault(side, {})
        for fid in side_sees(state, side):
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
