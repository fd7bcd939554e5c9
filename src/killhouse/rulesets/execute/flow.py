"""Execute's sequence of play declared on the flow kit (digest section 6).

Decision points are phases: the terrorists' hidden setup, negotiation (both sides at once),
the FBI's planning, the FBI's choice at the start of each turn (continue or concede, X1),
and the four combat phases, in each of which the initiative side has the first slot and the
other side the second (ruling E-9). Every kind of action is a move with typed arguments;
where every legal choice is listed (``actions.py``) the kit accepts exactly those, and where
choices are too many to list (a grenade's square, a route, free text, a custom card) a check
gives the reason for a refusal. The automatic steps between decision points are in
``turns.py``; after every action each side's sight is refreshed.
"""

from __future__ import annotations

from collections.abc import Callable

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute import play
from killhouse.rulesets.execute.actions import MAX_NOTES, MAX_TEXT, legal_by_kind, legal_groups
from killhouse.rulesets.execute.build import MAX_NAME
from killhouse.rulesets.execute.movement import MAX_WAYPOINTS
from killhouse.rulesets.execute.state import (
    FIRING,
    GRENADES,
    MOVEMENT,
    NEGOTIATION,
    OVER,
    PLANNING,
    SETUP,
    TASKS,
    TURN_START,
    ExecuteState,
)
from killhouse.rulesets.execute.tables import STATS, tables
from killhouse.rulesets.execute.vision import refresh
from killhouse.rulesets.kit import Arg, Flow, Group, Move, Phase

ExecuteMove = Move[ExecuteState]


def listed(kind: str) -> Callable[[ExecuteState, str], list[Action]]:
    """The options of one move kind: the listed legal actions of that kind, in list order."""

    def options(state: ExecuteState, side: str) -> list[Action]:
        return list(legal_by_kind(state, side).get(kind, ()))

    return options


def grouped(kind: str) -> Callable[[ExecuteState, str], tuple[Group, ...]]:
    """The same options as one counted group over the listed actions themselves: the kit
    reads them where they are kept for the state, instead of copying the kind's list twice
    (``options``'s copy, the kit's eager group) at every listing and check."""

    def groups(state: ExecuteState, side: str) -> tuple[Group, ...]:
        return legal_groups(state, side).get(kind, ())

    return groups


# -- arguments ------------------------------------------------------------------------------

FIGURE = Arg("figure", "figure", help="the acting figure's id")
BOMB = Arg("bomb", "id", help="a bomb's id")
TEXT = Arg("text", "str", max_length=MAX_TEXT, help="free text")
STAT_ARGS = tuple(
    Arg(s, "int", minimum=tables().stat_bounds[s][0], maximum=tables().stat_bounds[s][1],
        help=f"{s} of the card (E-33)")
    for s in STATS
)


def move(kind: str, args: tuple[Arg, ...], resolve: play.Resolve, help: str,
         check: play.Check | None = None) -> ExecuteMove:
    return Move(kind, args, listed(kind), resolve, check=check, why_not=play.why_not, help=help,
                groups=grouped(kind))


MOVES: tuple[ExecuteMove, ...] = (
    # pre-game step 2, the terrorists' hidden setup (E-23, E-43)
    move("bomb_timer", (BOMB, Arg("turn", "int", minimum=1, help="the turn it explodes at the "
                                  "end of")), play.resolve_bomb_timer,
         "set a bomb to explode at the end of a turn (min_timer … turn_limit)"),
    move("bomb_remote", (BOMB, Arg("holder", "figure", help="the terrorist holding the "
                                   "trigger")), play.resolve_bomb_remote,
         "set a bomb to a remote trigger held by a terrorist"),
    move("ready", (), play.resolve_ready, "end the setup, or the planning"),
    # pre-game step 3a, negotiation (E-35, E-47)
    move("talk", (TEXT,), play.resolve_talk, "say something to the other side",
         check=play.check_text),
    move("release", (Arg("hostage", "figure"),), play.resolve_release,
         "release a hostage: it counts as rescued"),
    move("meet_demands", (), play.resolve_meet_demands,
         "the FBI meets the demands: a terrorist victory (X1)"),
    move("end_negotiation", (), play.resolve_end_negotiation, "end the negotiation"),
    # pre-game step 3b, planning (E-36, E-61, E-67)
    move("recruit", (Arg("card", "id", help="a printed card, or a benched agent"),),
         play.resolve_recruit, "put an agent on the roster"),
    move("recruit_custom", (*STAT_ARGS, Arg("name", "str", required=False,
                                            max_length=MAX_NAME)),
         play.resolve_recruit_custom, "build a custom agent: six stats summing to 25 (E-33)",
         check=play.check_custom),
    move("dismiss", (FIGURE,), play.resolve_dismiss, "take an agent off the roster"),
    move("loadout", (FIGURE, Arg("weapon", "enum", choices=tuple(sorted(tables().weapons))),
                     Arg("armour", "int", minimum=0, maximum=3),
                     Arg("grenades", "int", required=False, minimum=0)),
         play.resolve_loadout, "an agent's weapon, armour and grenades",
         check=play.check_loadout),
    move("note", (TEXT,), play.resolve_note, f"a plan note (at most {MAX_NOTES})",
         check=play.check_text),
    # the start of a turn (X1)
    move("continue", (), play.resolve_continue, "go on with the assault: roll initiative"),
    move("concede", (), play.resolve_concede, "meet the demands (X1)"),
    # combat step 2, grenades (E-23, E-24 … E-27)
    move("detonate", (BOMB,), play.resolve_detonate, "set off a remote bomb (E-23)"),
    move("throw", (FIGURE, Arg("at", "cell", help="the square aimed at")), play.resolve_throw,
         "throw a grenade at a square 1-15 away in sight (E-25)", check=play.check_throw),
    # combat step 3, skill tasks (E-18 … E-21)
    move("task", (FIGURE, Arg("device", "id")), play.resolve_task,
         "pick a lock or shut off a device (E-18, E-19)"),
    move("disarm", (FIGURE, BOMB), play.resolve_disarm, "try to disarm a bomb (5.8, E-21)"),
    # combat step 4, movement (5.2, 5.3, E-34, E-63)
    move("move", (FIGURE, Arg("to", "cell", help="where the move ends"),
                  Arg("via", "cells", required=False, max_length=MAX_WAYPOINTS,
                      help="waypoints, walked in order (E-63)")),
         play.resolve_move, "move a figure, by waypoints if given", check=play.check_move),
    move("claim", (FIGURE, Arg("hostage", "figure")), play.resolve_claim,
         "take charge of an adjacent hostage (E-30, E-46)"),
    # combat step 5, firing (E-12)
    move("fire", (FIGURE, Arg("target", "figure")), play.resolve_fire,
         "fire at a figure in sight (E-12)"),
    move("done", (), play.resolve_done, "end your slot of this phase"),
)

#: the decision a step asks for, where its name is not the step's own (``negotiate`` in the
#: negotiation step, ``plan`` in planning): the names faces and logs have always used
DECISIONS = {NEGOTIATION: "negotiate", PLANNING: "plan"}

PROMPTS = {
    SETUP: "set each bomb's mode and timer or trigger holder, then ready",
    NEGOTIATION: "talk, release hostages or meet the demands; end_negotiation when done",
    PLANNING: "choose the roster and loadouts, then ready",
    TURN_START: "continue the assault, or concede (meet the demands)",
    GRENADES: "throw grenades (terrorists: remote detonations first); done ends your slot",
    TASKS: "pick locks, shut off devices, disarm bombs; done ends your slot",
    MOVEMENT: "move figures (FBI agents enter by the entry squares); done ends your slot",
    FIRING: "fire; done ends your slot",
}


def combat_phase(name: str, moves: tuple[str, ...]) -> Phase[ExecuteState]:
    """One combat phase: the side whose slot it is decides (E-9, E-51)."""
    return Phase(
        name, "alternating", lambda s: (s.acting_side(),), (*moves, "done"),
        lambda s: f"turn {s.turn}, {s.phase}: {PROMPTS[s.phase]}",
    )


PHASES: tuple[Phase[ExecuteState], ...] = (
    Phase(SETUP, "single", lambda s: (s.terrorists,), ("bomb_timer", "bomb_remote", "ready"),
          PROMPTS[SETUP]),
    Phase(DECISIONS[NEGOTIATION], "simultaneous",
          lambda s: tuple(x for x in s.side_ids() if x not in s.negotiation_ended),
          ("talk", "release", "meet_demands", "end_negotiation"), PROMPTS[NEGOTIATION]),
    Phase(DECISIONS[PLANNING], "single", lambda s: (s.fbi,),
          ("recruit", "recruit_custom", "dismiss", "loadout", "note", "ready"),
          PROMPTS[PLANNING]),
    Phase(TURN_START, "single", lambda s: (s.fbi,), ("continue", "concede"),
          lambda s: f"turn {s.turn}: {PROMPTS[TURN_START]}"),
    combat_phase(GRENADES, ("detonate", "throw")),
    combat_phase(TASKS, ("task", "disarm")),
    combat_phase(MOVEMENT, ("move", "claim")),
    combat_phase(FIRING, ("fire",)),
)


def after(state: ExecuteState, chance: Chance, log: EventLog) -> None:
    """After every action: each side's sightings, memories and doors (6.3)."""
    refresh(state, log)


FLOW: Flow[ExecuteState] = Flow(
    phases=PHASES,
    moves=MOVES,
    phase_of=lambda s: DECISIONS.get(s.phase, s.phase),
    over=lambda s: s.result is not None or s.phase == OVER,
    after=after,
    listing=legal_groups,
)
