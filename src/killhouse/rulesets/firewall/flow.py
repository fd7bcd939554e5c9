"""The Turn of digest §5 / §21.2 on the flow kit: initiative, team activations alternating
between sides (rotating for three or more), each figure one Movement and one Combat action
interleaved freely, a failure ending that figure's Turn and the 1/3 rule ending the team's.

Actions: ``activate(team)``, ``move(figure, speed, path, facing)`` (a Rally when suppressed),
``shoot(figure, weapon, target, fire)``, ``close-combat(figure, target)``,
``unjam(figure, weapon)`` and ``end``. Not yet: non-combat movement of unaware teams, grenades'
clouds, climbing, tasks, drugs, skills in play, hidden figures, scenario victory conditions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from killhouse.core.board import Board
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, Result
from killhouse.rulesets.firewall.closecombat import melee_problem, resolve_melee
from killhouse.rulesets.firewall.gutz import change_gutz, gutz_roll
from killhouse.rulesets.firewall.jams import unjam_effect
from killhouse.rulesets.firewall.moving import (
    FACINGS,
    MoveOrder,
    move_problem,
    noncombat_problem,
    resolve_move,
    resolve_noncombat_move,
)
from killhouse.rulesets.firewall.shooting import HAND_GRENADE, Shot, resolve_shot, shot_problem
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import (
    Figure,
    Team,
    active_members,
    bonus_for,
    start_turn,
    team_stopped,
)
from killhouse.rulesets.firewall.turn import initiative
from killhouse.rulesets.firewall.vision import update_awareness
from killhouse.rulesets.kit import Arg, Flow, Move, Phase

ACT, OVER = "act", "over"
SPEEDS = ("crawl", "walk", "run")


@dataclass
class FirewallState:
    """The whole game: board, figures, teams, the Turn and whose activation it is."""

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


def begin_turn(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Upkeep and initiative (§21.2 steps 1-2); teams with no active member are spent."""
    state.turn += 1
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
    """Sides with active figures left; one left wins, none is a draw (scenario victory
    conditions are not built yet)."""
    standing = [s for s in state.sides if any(
        f.active for f in state.figures.values() if f.side == s)]
    if len(standing) == 1:
        state.result = Result(standing[0], "the only side with figures still fighting")
    elif not standing:
        state.result = Result(None, "no side has a figure still fighting")
    return state.result is not None


def _finish_activation(state: FirewallState, chance: Chance, log: EventLog) -> None:
    team = state.active_team
    state.active_team = None
    if team is not None:
        side = state.teams[team].side
        if side in state.order:
            state.step = state.order.index(side) + 1
    if check_over(state):
        state.phase = OVER
        return
    if deciding_side(state) is None:
        if state.turn >= state.turn_limit:
            state.result = Result(None, f"turn limit {state.turn_limit} reached")
            state.phase = OVER
            return
        begin_turn(state, chance, log)
        if deciding_side(state) is None:
            state.result = Result(None, "no team can act")
            state.phase = OVER


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
    chance: Chance, log: EventLog, turn_limit: int = 15,
) -> FirewallState:
    """A game at its first decision: Turn 1's upkeep and initiative are rolled."""
    state = FirewallState(board, figures, teams, sides, turn_limit=turn_limit)
    begin_turn(state, chance, log)
    awareness(state, chance, log)
    return state


def awareness(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """After every action: teams that now see an enemy become aware (F-16); each side learns
    of its own teams only."""
    for tid in update_awareness(state.board, state.figures, state.teams):
        log.emit("aware", {"team": tid}, frozenset({state.teams[tid].side}))


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
    log.emit("activate", {"side": team.side, "team": team.id})


def end_options(state: FirewallState, side: str) -> Iterable[Action]:
    if state.active_team is not None and state.teams[state.active_team].side == side:
        return [Action.make(side, "end")]
    return []


def end(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    log.emit("end-activation", {"team": state.active_team})
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


def move_options(state: FirewallState, side: str) -> Iterable[Action]:
    """A useful subset: a walk or crawl one to six squares in each of the eight directions."""
    out = []
    for f in _team_figures(state, side):
        if f.move_used:
            continue
        aware = _aware(state, f)
        problem = move_problem if aware else noncombat_problem
        for i, (dx, dy) in enumerate(FACINGS):
            for speed, n in (("walk", 6), ("walk", 3), ("crawl", 2)):
                to = (f.cell[0] + dx * n, f.cell[1] + dy * n)
                act = Action.make(side, "move", figure=f.id, speed=speed,
                                  path=[[f.level, *to]], facing=i)
                if problem(state.board, state.figures, _order(act)) is None:
                    out.append(act)
    return out


def check_move(state: FirewallState, action: Action) -> None:
    f = _mine(state, action)
    if any(c[0] != f.level for c in action.get("path") or ()):
        raise IllegalActionError("a move stays on its level")
    check = move_problem if _aware(state, f) else noncombat_problem
    problem = check(state.board, state.figures, _order(action))
    if problem is not None:
        raise IllegalActionError(problem)


def move(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    order = _order(action)
    if _aware(state, state.figures[order.figure]):
        resolve_move(state.board, state.figures, state.teams, order, chance, log)
    else:
        resolve_noncombat_move(state.board, state.figures, order, log)


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


def shoot_options(state: FirewallState, side: str) -> Iterable[Action]:
    out = []
    for f in _team_figures(state, side):
        if f.combat_used or not _aware(state, f):
            continue
        for wid, grenade in _launchers(f):
            for target in state.figures.values():
                act = Action.make(side, "shoot", figure=f.id, weapon=wid, target=target.id,
                                  grenade=grenade)
                if target.side != side and shot_problem(
                    state.board, state.figures, _shot(act)
                ) is None:
                    out.append(act)
    return out


def _combat_allowed(state: FirewallState, action: Action) -> None:
    if not _aware(state, _mine(state, action)):
        raise IllegalActionError("a team not yet aware of the enemy takes no Combat actions (F-16)")


def check_shoot(state: FirewallState, action: Action) -> None:
    _combat_allowed(state, action)
    problem = shot_problem(state.board, state.figures, _shot(action))
    if problem is not None:
        raise IllegalActionError(problem)


def shoot(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_shot(state.board, state.figures, state.teams, _shot(action), chance, log,
                 night=state.night)


def melee_options(state: FirewallState, side: str) -> Iterable[Action]:
    out = []
    for f in _team_figures(state, side):
        if f.combat_used or not _aware(state, f):
            continue
        for target in state.figures.values():
            if target.side != side and melee_problem(state.figures, f.id, target.id) is None:
                out.append(Action.make(side, "close-combat", figure=f.id, target=target.id))
    return out


def check_melee(state: FirewallState, action: Action) -> None:
    _combat_allowed(state, action)
    problem = melee_problem(state.figures, str(action.get("figure")), str(action.get("target")))
    if problem is not None:
        raise IllegalActionError(problem)


def melee(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_melee(state.board, state.figures, state.teams, str(action.get("figure")),
                  str(action.get("target")), chance, log)


def unjam_options(state: FirewallState, side: str) -> Iterable[Action]:
    return [
        Action.make(side, "unjam", figure=f.id, weapon=w)
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


def _figure_args() -> tuple[Arg, ...]:
    return (Arg("figure", "figure"),)


FLOW: Flow[FirewallState] = Flow(
    phases=[
        Phase(ACT, "single", lambda s: [d] if (d := deciding_side(s)) else [],
              ("activate", "move", "shoot", "close-combat", "unjam", "end"),
              "activate a Fire Team, or act with the active team's figures",
              done=activation_done, advance=_finish_activation),
    ],
    moves=[
        Move("activate", (Arg("team", "id"),), activate_options, activate,
             help="give a Fire Team that has not acted this Turn the initiative"),
        Move("move", (*_figure_args(), Arg("speed", "enum", choices=SPEEDS),
                      Arg("path", "cells"), Arg("facing", "int", required=False, minimum=0,
                                                maximum=7)),
             move_options, move, check=check_move,
             help="move along a route (a Rally when suppressed)"),
        Move("shoot", (*_figure_args(), Arg("weapon", "id"), Arg("target", "figure"),
                       Arg("fire", "str", required=False), Arg("grenade", "id", required=False)),
             shoot_options, shoot, check=check_shoot, help="a ranged attack"),
        Move("close-combat", (*_figure_args(), Arg("target", "figure")), melee_options, melee,
             check=check_melee, help="attack a figure within 2 cm"),
        Move("unjam", (*_figure_args(), Arg("weapon", "id")), unjam_options, unjam,
             help="clear a jammed weapon"),
        Move("end", (), end_options, end, help="end the active team's activation"),
    ],
    phase_of=lambda s: s.phase,
    over=lambda s: s.result is not None,
    after=awareness,
)
