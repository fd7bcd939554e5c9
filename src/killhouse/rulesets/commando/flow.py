"""The turn of digest §4/§15 on the flow kit.

Phase 0 (allotment) and phase 1 (observation) run automatically; phase 2 is the secret,
simultaneous opportunity-fire plot; phase 6 is alternating activation: the side to act picks
one man, who spends his Task Points task by task; after every task the other side is asked,
as a kit reaction window, whether a plotted man opportunity-fires at him. The Bookkeeping ends
the turn and checks who has won.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import Audience, EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, Result
from killhouse.rulesets.commando import (
    aid,
    basic_tasks,
    delivery,
    explosions,
    fire,
    firing,
    ground,
    h2hflow,
    hostages,
    inspire,
    lightfire,
    lights,
    maptasks,
    morale,
    observation,
    ordnance,
    outcomes,
    overwatch,
    pickup,
    rightplace,
    surroundings,
    tasks,
    trees,
    turn,
    wire,
    withdrawal,
)
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.men import ManState, Posture
from killhouse.rulesets.commando.state import ACTIVATE, OVER, PLOT, CommandoState
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.kit import Arg, Flow, Move, Phase, Reaction, Window
from killhouse.rulesets.kit.flow import Check

#: the compass steps, in the order C-80 breaks ties
COMPASS = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1),
           "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}


# -- the map as the rules read it ---------------------------------------------------------


def rng_between(a: Cell, b: Cell) -> int:
    """C-1's range between two squares."""
    return distance(b.x - a.x, b.y - a.y, b.level - a.level)


def has_los(state: CommandoState, a: Cell, b: Cell) -> bool:
    """Line of sight by C-10 over the map's terrain and elevation, between storeys along
    stair links (K-7; ruling C-120 replaces C-83); smoke blocks it (ruling C-35)."""
    # ruling C-188: a man up a tree sees and is seen one elevation level higher (C-10, C-53)
    lifted = frozenset(state.pos[m.id] for m in state.men.values() if m.aloft and m.active())
    return ground.sees(state.board, a, b, lifted)


def in_view(state: CommandoState, observer: str, target: str) -> bool:
    """LOS within the observation range of the scenario's weather and light (C-11)."""
    a, b = state.pos[observer], state.pos[target]
    rng = rng_between(a, b)
    light = surroundings.light_at(state, b)  # ruling C-35: illumination gives Day range
    # ruling C-13: a target in a searchlight's lit block is observed at the Day range
    if state.lights and b in lights.lit_cells(state):
        light = "day"
    return observation.in_range(rng, state.weather, light) and has_los(state, a, b)


def audience_of(state: CommandoState, man: str) -> Audience:
    """Who may see what ``man`` does: his side, and the enemy while it observes him."""
    side = state.men[man].side
    enemy = state.enemy(side)
    return None if man in state.observed[enemy] else frozenset({side})


def note_sightings(state: CommandoState) -> None:
    """Keep observation while LOS holds (C-11); record what each side last saw and when."""
    for side in state.sides:
        watchers = [m.id for m in state.up(side)]
        enemies = {m.id for m in state.side_men(state.enemy(side))}
        kept = observation.kept(frozenset(state.observed[side] & enemies), watchers,
                                lambda o, t: in_view(state, o, t))
        # ruling C-11: an enemy in LOS at range 1 is observed without a roll
        near = {t for t in enemies for o in watchers
                if observation.automatically_observed(
                    rng_between(state.pos[o], state.pos[t]),
                    has_los(state, state.pos[o], state.pos[t]))}
        state.observed[side] = set(kept) | near
        if side == defending_side(state) and state.observed[side] and state.alarm_turn is None:
            state.alarm_turn = state.turn  # ruling C-122
        for t in state.observed[side]:
            state.ever_seen[side].add(t)
            state.last_seen[side][t] = (state.pos[t], state.turn)
    if state.hostages:
        hostages.note(state)  # ruling C-171


def phase_one_chance(state: CommandoState, o: str, t: str) -> int:
    """One phase-1 roll's chance: the observer's code and every 6.3 modifier the map gives
    (target terrain and building, ruling C-120), the searchlight's (C-13, C-123) and the
    defending side's −20 (C-12, C-122)."""
    man, target = state.men[o], state.men[t]
    leader = state.men.get(man.leader) if man.leader else None
    at, there = state.pos[o], state.pos[t]
    inside = ground.building(state.board, there)
    lit = lights.lit_cells(state)
    return observation.observation_chance(observation.Sighting(
        man.obs_code(leader), rng_between(at, there),
        target_prone=target.posture is Posture.PRONE,
        terrain=ground.cell_kind(state.board, there),
        target_in_building=inside is not None and ground.building(state.board, at) is None,
        large_building=inside == "large",
        target_moving=target.moved_last_turn,
        target_in_searchlight=there in lit and lights.near_light(state, at, there),
        observer_in_searchlight=at in lit and there not in lit,
        defending=defending(state, man.side),
        move_swiftly="move_swiftly" in target.ratings.abilities))


def defending_side(state: CommandoState) -> str | None:
    """Ruling C-12/C-122: the scenario's ``options.defending`` (a side id, or ``none``); by
    default the second side."""
    named = state.scenario.options.get("defending", state.sides[1])
    return str(named) if named in state.sides else None


def defending(state: CommandoState, side: str) -> bool:
    """Ruling C-12/C-122: the defending side's −20 lasts until the turn after the one in which
    it first observed a man of the attacking side."""
    if side != defending_side(state):
        return False
    return state.alarm_turn is None or state.turn <= state.alarm_turn


def observation_phase(state: CommandoState, chance: Chance) -> None:
    """Phase 1: each side rolls for the enemies in LOS and range it does not yet observe."""

    def pct(o: str, t: str) -> int:
        return phase_one_chance(state, o, t)

    for side in state.sides:
        watchers = [m.id for m in state.up(side)]
        targets = [m.id for m in state.side_men(state.enemy(side))]
        seen = observation.observation_phase(
            chance, watchers, targets, frozenset(state.observed[side]),
            lambda o, t: in_view(state, o, t), pct,
            lambda o, t: observation.automatically_observed(
                rng_between(state.pos[o], state.pos[t]),
                has_los(state, state.pos[o], state.pos[t])),
            audience=frozenset({side}))
        state.observed[side] = set(seen)
    note_sightings(state)


# -- the turn's automatic steps ------------------------------------------------------------


def start_turn(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """Phases 0 and 1, then the plot."""
    for man in state.men.values():
        man.start_turn()
    morale.start_turn(state)
    # ruling C-161: a view lists the sounds of this turn and the last (the Bookkeeping's too)
    state.sounds = {side: [x for x in heard if x["turn"] >= state.turn - 1]
                    for side, heard in state.sounds.items()}
    log.emit("turn", {"turn": state.turn})
    observation_phase(state, chance)
    state.phase = PLOT
    state.committed = set()


def plotted_all(state: CommandoState) -> bool:
    return state.phase == PLOT and state.committed >= set(state.sides)


def begin_activations(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """Phase 5: initiative (C-16) decides who activates first."""
    state.phase = ACTIVATE
    state.active_man = None
    winner = turn.initiative_winner(chance, list(state.sides))
    log.emit("initiative", {"side": winner})
    state.active_side = winner
    if not eligible(state, winner):
        pass_on(state, winner, log)


def eligible(state: CommandoState, side: str) -> list[ManState]:
    # ruling C-37: engaged men spend no TP in phases 5 and 6
    return [m for m in state.up(side) if not m.activated and not m.engaged]


def pass_on(state: CommandoState, just: str, log: EventLog) -> None:
    """§15 phase 5: the other side activates next if it has men left, else the same side."""
    counts = {s: len(eligible(state, s)) for s in state.sides}
    state.active_side = turn.next_side(just, list(state.sides), counts)


def activations_done(state: CommandoState) -> bool:
    return state.phase == ACTIVATE and state.active_side is None and not state.windows


def bookkeeping(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """The end of the turn: explosions and clouds (C-33, C-64), victory, the turn limit,
    else the next turn (ruling C-84)."""
    explosions.bookkeeping(state, chance, log)
    if check_victory(state, log):
        return
    held = outcomes.bookkeeping(state)  # ruling C-177
    if held is not None:
        finish(state, held, log)
        return
    morale.bookkeeping(state, chance, log)  # digest 7.2 (ruling C-15)
    if state.turn >= state.limit:
        finish(state, outcomes.time_out(state) or Result(state.sides[1],
                                                          time_out_reason(state)), log)
        return
    state.turn += 1
    start_turn(state, chance, log)


def time_out_reason(state: CommandoState) -> str:
    """Ruling C-152: the scenario's own words for the turn limit (``options.time_out``), else
    that the second side held out; the turn is always named."""
    text = state.scenario.options.get("time_out")
    if isinstance(text, str) and text.strip():
        return f"{text.strip()} (turn limit {state.turn})"
    name = next((s.name for s in state.scenario.sides if s.id == state.sides[1]),
                state.sides[1])
    return f"{name} held out to the end of turn {state.turn}"


def check_victory(state: CommandoState, log: EventLog) -> bool:
    """Ruling C-84: a side wins when every man of the other side is out of action."""
    if state.result is not None:
        return True
    rescue = outcomes.after_task(state, log)  # rulings C-174, C-175
    if rescue is not None:
        finish(state, rescue, log)
        return True
    mission = state.mission
    if mission is not None and mission.kind == "demolish" and mission.targets and \
            set(mission.targets) <= state.destroyed:
        # ruling C-155: the first side wins when every target is blown up
        names = " and ".join(sorted(mission.targets))
        verb = "is" if len(mission.targets) == 1 else "are"
        finish(state, Result(state.sides[0], f"the {names} {verb} destroyed"), log)
        return True
    down = [s for s in state.sides if not state.up(s)]
    if not down or (down == [state.sides[1]] and outcomes.rescuing(state)):
        return False  # ruling C-175: with the captors down the hostages must still come out
    winner = None if len(down) == 2 else state.enemy(down[0])
    reason = "both sides are out of action" if winner is None else (
        f"every man of {down[0]} is out of action")
    finish(state, Result(winner, reason), log)
    return True


def finish(state: CommandoState, result: Result, log: EventLog) -> None:
    state.result = result
    state.phase = OVER
    state.windows.clear()
    state.active_side = state.active_man = None
    log.emit("end", result.to_json())


# -- phase 2: the secret plot ---------------------------------------------------------------


def plot_options(state: CommandoState, side: str) -> Iterable[Action]:
    """The men who may still be plotted (the ``commit`` move lists the commit itself)."""
    for man in state.up(side):
        if tasks.can_plot(man) and not man.plotted:
            yield Action.make(side, "plot", figure=man.id)


def do_plot(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    man = state.men[action.get("figure")]
    man.plotted = True
    log.emit("plotted", {"figure": man.id}, frozenset({action.side}))


def do_commit(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    state.committed.add(action.side)
    log.emit("committed", {"side": action.side})


# -- phase 6: activations, task by task -----------------------------------------------------


def current(state: CommandoState) -> ManState:
    assert state.active_man is not None
    return state.men[state.active_man]


def activate_options(state: CommandoState, side: str) -> Iterable[Action]:
    if state.active_man is None:
        for man in eligible(state, side):
            yield Action.make(side, "activate", figure=man.id)


def do_activate(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    man = state.men[action.get("figure")]
    state.active_man, state.tasks_done = man.id, 0
    man.activated = True
    tasks.pay_op_fire_fee(man)  # ruling C-26: at his first op fire or his phase-6 start
    log.emit("activates", {"figure": man.id, "tp": man.tp}, audience_of(state, man.id))
    # ruling C-14: a Grunt or Doofus checks panic before he first spends TP this turn
    result = morale.check_panic(state, man, chance, log, ask=True)
    if inspire.pending_panic(state) is not None:
        return  # ruling C-185: the side answers first (inspire or panic)
    if result != "steady":
        morale.play_out(state, man, result, chance, log)
        if state.result is None:
            end_activation(state, log)
        return
    withdrawal.begin(state, man, log)  # ruling C-186


def after_activation_check(state: CommandoState, man: ManState, log: EventLog) -> None:
    """His panic was cancelled (C-185): the forced move of a Preserving man comes next
    (C-186); his activation ends at once if he has no TP."""
    withdrawal.begin(state, man, log)
    if man.tp + man.move_tp <= 0:
        end_activation(state, log)


def end_options(state: CommandoState, side: str) -> Iterable[Action]:
    if state.active_man is not None:
        yield Action.make(side, "end")


def do_end(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    end_activation(state, log)


def end_activation(state: CommandoState, log: EventLog) -> None:
    man = state.active_man
    if man is None:
        return
    log.emit("activation-ends", {"figure": man}, audience_of(state, man))
    state.forced.pop(withdrawal.KEY, None)
    state.active_man = None
    side = state.men[man].side
    if not check_victory(state, log):
        pass_on(state, side, log)


def standable(state: CommandoState, cell: Cell, mover: str) -> bool:
    # C-62: a closed door is opened as its own 5 TP task; windows and fences are entered (C-1)
    if not ground.enterable(state.board, cell):
        return False
    # ruling C-83: no hand-to-hand yet, so a square holds men of one side only
    side = state.men[mover].side
    return not any(p == cell and state.men[m].side != side and state.men[m].active()
                   for m, p in state.pos.items())


def targets(state: CommandoState, man: ManState, only: str | None = None) -> list[str]:
    """Enemies his side observes that he sees and his weapon may fire at (C-27)."""
    weapon = man.in_hand or "pistol"
    out = []
    for t in sorted(state.observed[man.side]):
        if only is not None and t != only:
            continue
        if not state.men[t].active():
            continue
        a, b = state.pos[man.id], state.pos[t]
        if has_los(state, a, b) and fire.base_chance(weapon, rng_between(a, b)) is not None \
                and morale.fire_allowed(state, man, t):
            out.append(t)
    return out


def can_fire(man: ManState) -> bool:
    weapon = man.in_hand or "pistol"
    return (man.active() and not man.engaged and weapon not in man.empty
            and man.tp >= fire.fire_cost(weapon))


def shoot(state: CommandoState, firer: ManState, target: str, chance: Chance,
          log: EventLog) -> None:
    """One plain fire task (digest 8.7); the firer is observed by the enemy (ruling C-86)."""
    enemy = state.enemy(firer.side)
    state.observed[enemy].add(firer.id)
    if enemy == defending_side(state) and state.alarm_turn is None:
        state.alarm_turn = state.turn  # ruling C-122
    state.ever_seen[enemy].add(firer.id)
    state.last_seen[enemy][firer.id] = (state.pos[firer.id], state.turn)
    state.fired_at.add(target)
    weapon = firer.in_hand or "pistol"
    # ruling C-22 terrain, C-37 into hand-to-hand: a random victim
    aim = firing.aim_for(state, firer, target)
    report = tasks.fire_task(chance, firer, weapon, [aim], state.men)
    hostages.stray(state, report.shots, weapon, log)  # ruling C-191
    data = {"figure": firer.id, "target": target, "weapon": weapon, "range": aim.rng,
            "results": [s.result for _, s in report.shots],
            "rolls": [s.roll for _, s in report.shots],
            "damage": [s.damage for _, s in report.shots],
            "status": state.men[target].wound().value, "emptied": report.emptied}
    if aim.crowd:  # ruling C-37, C-191: whom each fire drawn in the square went at
        data["victims"] = [v for v, _ in report.shots]
    # ruling C-99: the chance to hit and to kill go to the firer's side only (C-153)
    own = {**data, "chance": report.chances[0], "kill": fire.kill_chance(report.chances[0])}
    log.emit("fire", own, None, {enemy: data})


def run_declared(state: CommandoState, firer: ManState, kind: str, args: dict[str, Any],
                 chance: Chance, log: EventLog) -> None:
    """Resolve a fire task or launch declared before the Mobile Overwatch question (C-128);
    the caller goes on with ``after_task``."""
    if kind == "fire":
        shoot(state, firer, str(args["target"]), chance, log)
    elif kind == "launch":
        delivery.run_launch(state, firer, args, chance, log)
    else:
        firing.run_fire(state, firer, kind, args, chance, log)


def after_task(state: CommandoState, log: EventLog) -> None:
    """After every task the other side is asked about opportunity fire (ruling C-85: always,
    so the question itself tells the acting side nothing)."""
    man = current(state)
    state.tasks_done += 1
    if check_victory(state, log):
        return
    enemy = state.enemy(man.side)
    if state.up(enemy):
        FLOW.open(state, "opfire", [enemy], {"mover": man.id})
        return
    continue_activation(state, log)


def continue_activation(state: CommandoState, log: EventLog) -> None:
    """His activation ends when he is out of action or has no TP left."""
    man = current(state)
    if not man.active() or man.tp + man.move_tp <= 0:
        state.forced.pop(withdrawal.KEY, None)
        end_activation(state, log)
        return
    withdrawal.review(state, man, log)  # ruling C-186: is his forced move done?


def opfire_options(state: CommandoState, side: str) -> Iterable[Action]:
    window = state.windows[-1] if state.windows else None
    if window is None:
        return
    mover = window.context["mover"]
    for man in state.up(side):
        if man.plotted and not man.engaged and op_fire_affordable(man) and can_fire_plain(man):
            for t in targets(state, man, only=mover):
                yield Action.make(side, "opfire", figure=man.id, target=t)
    yield Action.make(side, "hold")


def can_fire_plain(man: ManState) -> bool:
    weapon = man.in_hand or "pistol"
    return man.active() and weapon not in man.empty


def op_fire_affordable(man: ManState) -> bool:
    fee = 0 if man.fee_paid else tables().extra["opportunity_fire"]
    return man.tp >= fire.fire_cost(man.in_hand or "pistol") + fee


def resume_opfire(state: CommandoState, window: Window, chance: Chance, log: EventLog) -> None:
    answer = window.answers[window.asked[0]]
    if answer.kind == "opfire":
        firer = state.men[answer.get("figure")]
        tasks.pay_op_fire_fee(firer)
        # ruling C-125: a man whose first TP this turn is an op fire checks panic first; a
        # panic costs the op fire, and its result is played out at once
        result = morale.check_panic(state, firer, chance, log)
        if result == "steady":
            shoot(state, firer, answer.get("target"), chance, log)
        else:
            morale.play_out(state, firer, result, chance, log)
        if check_victory(state, log):
            return
    if state.active_man is not None:
        continue_activation(state, log)


#: what a man up a tree may do (ruling C-188): fire, throw, launch, reload, come down
ALOFT_MOVES = frozenset({"fire", "aim", "semi", "spray", "snipe", "reload", "exchange",
                         "prepare", "throw", "launch", "load", "detonate", "end", "tree",
                         "inspire", "panic", "activate",
                         # ruling C-196: the fire tasks at a light or a hostage, not pickup/lead
                         "shoot_light", "execute"})


def forced_reason(state: CommandoState, kind: str) -> str | None:
    """Why a task of the activation phase is not possible now, when something comes first:
    a panic waiting for Inspire (C-185), a Preserving man's forced move (C-186), a man up a
    tree (C-188)."""
    if kind in ("inspire", "panic"):
        return None
    if inspire.pending_panic(state) is not None:
        return "a panic waits for the side's answer first: inspire or panic (C-185)"
    if withdrawal.allowed(state) is not None and kind != "step":
        return ("a Preserving man must first step out of the LOS of every observed enemy "
                "(C-186)")
    man = state.men.get(state.active_man) if state.active_man else None
    if man is not None and man.aloft and kind not in ALOFT_MOVES:
        return f"{man.id} is up a tree: he must come down first (tree down, 20 TP; C-188)"
    return None


def _gated(move: Move[CommandoState]) -> Move[CommandoState]:
    """An activation move that yields to ``forced_reason``; a forced move's steps are only
    those toward cover (C-186)."""
    inner_options, inner_check = move.options, move.check

    def options(state: CommandoState, side: str) -> Iterable[Action]:
        if state.phase != ACTIVATE:
            return inner_options(state, side)
        if forced_reason(state, move.kind) is not None:
            return []
        found = inner_options(state, side)
        squares = withdrawal.allowed(state) if move.kind == "step" else None
        if squares is None:
            return found
        return [a for a in found if _landing_of(a) in squares]

    def why_not(state: CommandoState, action: Action) -> str:
        reason = forced_reason(state, move.kind) if state.phase == ACTIVATE else None
        if reason is None and move.kind == "step" and withdrawal.allowed(state) is not None:
            reason = ("a Preserving man's forced move goes only to squares from which he can "
                      "still get out of every observed enemy's LOS (C-186)")
        if reason is None and move.why_not is not None:
            reason = move.why_not(state, action)
        return reason or f"{action} is not a legal choice now"

    check: Check[CommandoState] | None = None
    if inner_check is not None:
        def check(state: CommandoState, action: Action) -> None:
            reason = forced_reason(state, move.kind) if state.phase == ACTIVATE else None
            if reason is not None:
                raise IllegalActionError(reason)
            inner_check(state, action)

    return replace(move, options=options, check=check, why_not=why_not)


def _landing_of(action: Action) -> Cell | None:
    to = action.hint.get("to") if action.hint else None
    return Cell(*to) if isinstance(to, list) else None


def _one(kind: str, options: Any, resolve: Any, args: tuple[Arg, ...] = (),
         help: str = "") -> Move[CommandoState]:
    return Move(kind, args, options, resolve, help=help)


FIGURE = Arg("figure", "figure", help="the man")
GATED = frozenset(("step", "posture", "fire", "door", "reload", "end", "climb", "force",
                   "pick", "operate", "destroy", "revive", "clip", "exchange", "tree",
                   # ruling C-196: the later tasks wait for a panic's answer and a forced move
                   "lead", "execute", "pickup", "shoot_light",
                   *firing.KINDS, *ordnance.KINDS))
FLOW: Flow[CommandoState] = Flow(
    phases=[
        Phase(PLOT, "simultaneous",
              lambda s: [x for x in s.sides if x not in s.committed],
              ("plot", "commit", "inspire"),
              "secret opportunity-fire plot: name the men who will hold fire, then commit",
              done=plotted_all, advance=h2hflow.after_plot),
        Phase(h2hflow.H2H, "simultaneous", h2hflow.deciders,
              ("leave", "strike", "grapple", "evade", "draw", "ready"),
              "hand-to-hand: secretly name who tries to leave, then each round one choice per "
              "engaged man; ready when done",
              done=h2hflow.done, advance=h2hflow.advance),
        Phase(ACTIVATE, "single",
              lambda s: [] if s.active_side is None else [s.active_side],
              ("activate", "step", "posture", "fire", "door", "reload", "end",
               "climb", "force", "pick", "operate", "destroy", "revive", "clip", "exchange",
               "lead", "execute", "pickup", "shoot_light",
               *firing.KINDS, *ordnance.KINDS, "inspire", "panic", "tree", "right_place"),
              "activate one man, then spend his Task Points task by task",
              done=activations_done, advance=bookkeeping),
    ],
    moves=[_gated(m) if m.kind in GATED else m for m in [
        _one("plot", plot_options, do_plot, (FIGURE,), "plot a man for opportunity fire"),
        _one("commit", lambda s, side: [Action.make(side, "commit")], do_commit,
             help="the plot is complete"),
        _one("activate", activate_options, do_activate, (FIGURE,), "activate a man"),
        _one("step", basic_tasks.step_options, basic_tasks.do_step,
             (FIGURE, Arg("dir", "enum", choices=tuple(COMPASS))), "one step (5 or 7 TP)"),
        _one("posture", basic_tasks.posture_options, basic_tasks.do_posture,
             (FIGURE, Arg("to", "enum", choices=("standing", "prone"))), "stand up or go prone"),
        _one("fire", basic_tasks.fire_options, basic_tasks.do_fire,
             (FIGURE, Arg("target", "id")), "a plain fire task at an observed enemy"),
        _one("door", basic_tasks.door_options, basic_tasks.do_door, (FIGURE, Arg("at", "cell")),
             "open or close an adjacent door (5 TP)"),
        _one("reload", basic_tasks.reload_options, basic_tasks.do_reload, (FIGURE,),
             "reload the weapon in hand (25 TP)"),
        _one("end", end_options, do_end, help="end this man's activation"),
        *firing.MOVES,
        *ordnance.MOVES,
        _one("climb", maptasks.climb_options, maptasks.do_climb, (FIGURE, Arg("to", "cell")),
             "climb or go down a stairway or ladder, one level (25 TP)"),
        _one("force", maptasks.force_options, maptasks.do_force, (FIGURE, Arg("at", "cell")),
             "force an adjacent locked door (25 TP, d100 <= 40 + St modifier)"),
        _one("pick", maptasks.pick_options, maptasks.do_pick, (FIGURE, Arg("at", "cell")),
             "pick an adjacent lock (Safe-Cracking x2, 50 TP over one or more turns)"),
        _one("operate", lights.operate_options, lights.do_operate,
             (FIGURE, Arg("light", "id"), Arg("to", "cell")),
             "aim an adjacent searchlight at a square (50 TP)"),
        _one("destroy", lights.destroy_options, lights.do_destroy, (FIGURE, Arg("light", "id")),
             "destroy an adjacent searchlight (5 TP)"),
        Move("shoot_light", (
            FIGURE, Arg("light", "id", help="a burning searchlight in his sight and reach"),
            Arg("mode", "enum", required=False, choices=lightfire.MODES,
                help="the fire task: plain fire when left out (C-181, C-194)"),
            Arg("split", "str", required=False, max_length=400,
                help="spray only: one light id per fire, the first the light named")),
            lightfire.options, lightfire.do_shoot_light, check=lightfire.check,
            help="a fire task at a burning searchlight (plain, aimed, semi-automatic, spray or "
                 "a sniper's): one hit puts it out (C-181, C-194)"),
        _one("revive", aid.revive_options, aid.do_revive,
             (FIGURE, Arg("patient", "id")),
             "revive an unconscious man of his side next to him (150 TP over activations)"),
        _one("exchange", basic_tasks.exchange_options, basic_tasks.do_exchange,
             (FIGURE, Arg("weapon", "id")), "take another carried firearm in hand (22 TP)"),
        _one("lead", hostages.lead_options, hostages.do_lead, (FIGURE, Arg("hostage", "id")),
             "take charge of a hostage on or next to his square (5 TP, C-172, C-192)"),
        _one("execute", hostages.execute_options, hostages.do_execute,
             (FIGURE, Arg("hostage", "id")),
             "fire at a held hostage on or next to him, or the one he leads (C-173, C-192)"),
        _one("right_place", rightplace.options, rightplace.do_right_place, (FIGURE,),
             "Right Place at Right Time: once a mission his side learns where a hidden "
             "hostage is (no TP, C-193)"),
        _one("pickup", pickup.options, pickup.do_pickup,
             (FIGURE, Arg("fallen", "id"), Arg("weapon", "id")),
             "pick up a weapon lying on or next to his square (10 TP, C-178)"),
        _one("clip", wire.clip_options, wire.do_clip, (FIGURE, Arg("at", "cell")),
             "clip barbed wire next to him (50 TP; concertina 100, over activations)"),
        _one("leave", h2hflow.leave_options, h2hflow.do_leave, (FIGURE,),
             "an engaged man tries to disengage (20 TP, secret until both are ready)"),
        _one("strike", lambda s, side: [a for a in h2hflow.declare_options(s, side)
                                        if a.kind == "strike"],
             h2hflow.do_declare, (FIGURE, Arg("target", "id")), "strike an opponent"),
        _one("grapple", lambda s, side: [a for a in h2hflow.declare_options(s, side)
                                         if a.kind == "grapple"],
             h2hflow.do_declare, (FIGURE, Arg("target", "id")), "grapple an opponent"),
        _one("evade", lambda s, side: [a for a in h2hflow.declare_options(s, side)
                                       if a.kind == "evade"],
             h2hflow.do_declare, (FIGURE,), "evade (strikes at him -20; breaks a grapple)"),
        _one("draw", lambda s, side: [a for a in h2hflow.declare_options(s, side)
                                      if a.kind == "draw"],
             h2hflow.do_declare, (FIGURE, Arg("weapon", "id")), "draw a weapon"),
        Move("ready", (), h2hflow.ready_options, h2hflow.do_ready, why_not=h2hflow.why_not_ready,
             help="this side's hand-to-hand choices are made"),
        Move("opfire", (FIGURE, Arg("target", "id")), opfire_options, None,
             help="a plotted man fires at the man who just acted"),
        Move("hold", (), lambda s, side: [Action.make(side, "hold")], None,
             help="no opportunity fire (or no Mobile Overwatch)"),
        Move("overwatch", (FIGURE, Arg("target", "id")), overwatch.options, None,
             help="Mobile Overwatch: the man fired at fires back at once (fire cost + 9 TP)"),
        _one("tree", trees.tree_options, trees.do_tree,
             (FIGURE, Arg("to", "enum", choices=("up", "down"))),
             "climb a tree in his square (50 TP) or come down from it (20 TP)"),
        _one("inspire", inspire.inspire_options, inspire.do_inspire,
             (FIGURE, Arg("man", "id")),
             "Inspire Men in Battle: cancel a panic or Preserving of a man he leads (C-185)"),
        _one("panic", inspire.panic_options, inspire.do_panic, (FIGURE,),
             "let a panic stand (it is played out; C-185)"),
    ]],
    reactions=[Reaction("opfire", ("opfire", "hold"), resume_opfire,
                        "an enemy man has acted: opportunity fire?"),
               Reaction(overwatch.REACTION, ("overwatch", "hold"), overwatch.resume,
                        "an enemy man fires at one of yours: Mobile Overwatch?")],
    phase_of=lambda s: s.phase,
    over=lambda s: s.result is not None,
    windows=lambda s: s.windows,
)
