"""The sequence of play (digest section 6): pre-game steps, then phased combat turns.

Decision points: the terrorists' setup, negotiation (both sides at once), the FBI's
planning, the FBI's start-of-turn choice (continue or concede, X1), and one slot per side
in each combat phase, initiative side first (ruling E-9). Automatic steps (surveillance,
initiative, timer bombs, the end-of-game check) run inside ``apply`` between them.
"""

from __future__ import annotations

from typing import Any

from killhouse.core.cells import cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Decision
from killhouse.rulesets.execute import victory
from killhouse.rulesets.execute.combat import explode
from killhouse.rulesets.execute.rolls import roll_initiative, roll_surveillance, surveillance_counts
from killhouse.rulesets.execute.state import (
    COMBAT_PHASES,
    FIRING,
    GRENADES,
    HOSTAGE,
    NEGOTIATION,
    OVER,
    PLANNING,
    SETUP,
    TASKS,
    TURN_START,
    ExecuteState,
    Memory,
)
from killhouse.rulesets.execute.vision import refresh

PROMPTS = {
    SETUP: "set each bomb's mode and timer or trigger holder, then ready",
    NEGOTIATION: "talk, release hostages or meet the demands; end_negotiation when done",
    PLANNING: "choose the roster and loadouts, then ready",
    TURN_START: "continue the assault, or concede (meet the demands)",
    GRENADES: "throw grenades (terrorists: remote detonations first); done ends your slot",
    TASKS: "pick locks, shut off devices, disarm bombs; done ends your slot",
    "movement": "move figures (FBI agents enter by the entry squares); done ends your slot",
    FIRING: "fire; done ends your slot",
}


def pending(state: ExecuteState) -> tuple[Decision, ...]:
    """Who must decide now: none once the game is over."""
    if state.result is not None or state.phase == OVER:
        return ()
    if state.phase == SETUP:
        return (Decision(state.terrorists, "setup", PROMPTS[SETUP]),)
    if state.phase == NEGOTIATION:
        return tuple(
            Decision(s, "negotiate", PROMPTS[NEGOTIATION])
            for s in state.side_ids()
            if s not in state.negotiation_ended
        )
    if state.phase == PLANNING:
        return (Decision(state.fbi, "plan", PROMPTS[PLANNING]),)
    if state.phase == TURN_START:
        return (Decision(state.fbi, "turn-start", f"turn {state.turn}: {PROMPTS[TURN_START]}"),)
    return (
        Decision(
            state.acting_side(),
            state.phase,
            f"turn {state.turn}, {state.phase}: {PROMPTS[state.phase]}",
        ),
    )


# -- pre-game -------------------------------------------------------------------------------


def finish_setup(state: ExecuteState, chance: Chance, log: EventLog) -> None:
    """After the terrorists' setup: surveillance (pre-game step 3), then negotiation or planning."""
    surveillance(state, chance, log)
    if state.options.negotiation:
        state.phase = NEGOTIATION
        log.emit("phase", {"phase": NEGOTIATION}, None)
    else:
        state.phase = PLANNING
    state.touch()


def surveillance(state: ExecuteState, chance: Chance, log: EventLog) -> None:
    """Roll d12 and reveal setup squares of random terrorists and hostages (5.10, E-29)."""
    roll = roll_surveillance(chance, None)
    terrorists = sorted(f.id for f in state.terrorist_figures())
    hostages = sorted(f.id for f in state.hostages() if f.status not in ("released",))
    n_t, n_h = surveillance_counts(roll, len(terrorists), len(hostages))
    secret = frozenset({state.terrorists})  # ruling E-54: the pool sizes are their secret
    shown_t = chance.sample(terrorists, n_t, "surveillance-terrorists", secret) if n_t else []
    shown_h = chance.sample(hostages, n_h, "surveillance-hostages", secret) if n_h else []
    revealed = []
    told = []
    fbi_memory = state.memory.setdefault(state.fbi, {})
    for fid in [*shown_t, *shown_h]:
        f = state.figures[fid]
        info: dict[str, Any] = {"kind": f.kind, "side": f.side, "status": f.status}
        if f.kind == HOSTAGE:  # the card type; a point-buy card is named after its figure
            info["card"] = ({"id": "custom", "name": "custom hostage card"} if f.custom
                            else {"id": f.card.id, "name": f.card.name})
        # ruling E-65: the FBI knows a contact by an opaque handle, never by its id
        handle = state.handle(state.fbi, fid)
        revealed.append({"id": fid, "at": cell_json(f.pos), **info})
        told.append({"id": handle, "at": cell_json(f.pos), **info})
        fbi_memory[fid] = Memory(fid, cell_json(f.pos), 0, "surveillance", info, handle)
    state.surveillance = {"roll": roll, "revealed": revealed}
    # ruling E-29: both sides are told the roll and exactly which figures were revealed
    log.emit("surveillance", {"roll": roll, "revealed": revealed}, None,
             {state.fbi: {"roll": roll, "revealed": told}})


def finish_negotiation(state: ExecuteState, log: EventLog) -> None:
    state.phase = PLANNING
    state.touch()
    log.emit("phase", {"phase": PLANNING}, frozenset({state.fbi}))


def begin_combat(state: ExecuteState, log: EventLog) -> None:
    """Pre-game step 4: combat turns from t = 1, all agents off-map (E-34)."""
    state.turn = 1
    log.emit("combat", {"turn_limit": state.options.turn_limit}, None)
    start_turn(state, log)


# -- combat turns ---------------------------------------------------------------------------


def start_turn(state: ExecuteState, log: EventLog) -> None:
    """Step 0: armour works again (E-16); the FBI may concede at the start of any turn (X1)."""
    for f in state.figures.values():
        f.armour_used = False
    state.phase = TURN_START
    state.touch()
    log.emit("turn", {"turn": state.turn}, None)


def begin_phases(state: ExecuteState, chance: Chance, log: EventLog) -> None:
    """Step 1, initiative (E-8); then the first slot of the grenade phase."""
    fbi_won, fbi_die, terr_die = roll_initiative(chance, None)
    winner = state.fbi if fbi_won else state.terrorists
    state.order = (winner, state.other(winner))
    rolls = [fbi_die, terr_die]
    state.initiative.append({"turn": state.turn, "rolls": rolls, "winner": winner})
    log.emit("initiative", {"turn": state.turn, "rolls": rolls, "winner": winner}, None)
    enter_phase(state, GRENADES, 0, log)
    settle(state, chance, log)


def offered(state: ExecuteState, phase: str, side: str) -> bool:
    """Whether ``side`` gets a slot in ``phase`` (ruling E-51): while it has any active figure
    (off-map agents count), so the slot itself tells the other side nothing; the terrorists
    have no task slot (E-18)."""
    if phase == TASKS and side != state.fbi:
        return False
    return any(f.active for f in state.of_side(side))


def enter_phase(state: ExecuteState, phase: str, slot: int, log: EventLog) -> None:
    state.phase = phase
    state.slot = slot
    state.acted = set()
    state.threw_this_slot = False
    state.last_mover = None
    state.touch()


def settle(state: ExecuteState, chance: Chance, log: EventLog) -> None:
    """Skip slots a side does not get; after the last firing slot, end the turn."""
    while state.result is None and state.phase in COMBAT_PHASES:
        if state.slot < 2 and offered(state, state.phase, state.acting_side()):
            return
        if state.slot < 1:
            enter_phase(state, state.phase, state.slot + 1, log)
            continue
        index = COMBAT_PHASES.index(state.phase)
        if index + 1 < len(COMBAT_PHASES):
            enter_phase(state, COMBAT_PHASES[index + 1], 0, log)
            continue
        end_turn(state, chance, log)
        return


def end_slot(state: ExecuteState, chance: Chance, log: EventLog) -> None:
    """The acting side is done with this phase: move on to the next slot."""
    state.slot += 1
    state.acted = set()
    state.threw_this_slot = False
    state.last_mover = None
    state.touch()
    if state.slot >= 2:
        index = COMBAT_PHASES.index(state.phase)
        if index + 1 < len(COMBAT_PHASES):
            enter_phase(state, COMBAT_PHASES[index + 1], 0, log)
        else:
            end_turn(state, chance, log)
            return
    settle(state, chance, log)


def end_turn(state: ExecuteState, chance: Chance, log: EventLog) -> None:
    """Step 6: timer bombs due this turn explode (E-23), the end check runs, the turn advances."""
    for bomb in sorted(state.bombs.values(), key=lambda b: b.id):
        if bomb.state == "armed" and bomb.mode == "timer" and bomb.explode_turn == state.turn:
            explode(state, bomb.id, log)
            refresh(state, log)
            if after_explosion(state, log):
                return
    if victory.check(state, end_of_turn=True) is not None:
        finish(state, log)
        return
    state.turn += 1
    start_turn(state, log)


def after_explosion(state: ExecuteState, log: EventLog) -> bool:
    """Ruling E-22: the end check runs right after any bomb explosion. True if it ended."""
    if victory.check(state, end_of_turn=False) is not None:
        finish(state, log)
        return True
    return False


def finish(state: ExecuteState, log: EventLog) -> None:
    state.phase = OVER
    state.touch()
    result = state.result
    assert result is not None
    log.emit("game_over", result.to_json(), None)
