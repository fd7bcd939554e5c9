"""The Firewall game state and the helpers every move shares: whose decision it is, which
figures may act, who sees a figure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, Result
from killhouse.rulesets.firewall.buildings import Section
from killhouse.rulesets.firewall.clouds import Cloud
from killhouse.rulesets.firewall.moving import FACINGS
from killhouse.rulesets.firewall.objectives import Counter, Objective
from killhouse.rulesets.firewall.teams import Figure, Status, Team, active_members, team_stopped
from killhouse.rulesets.firewall.traps import Trap
from killhouse.rulesets.firewall.vehicles.model import Vehicle
from killhouse.rulesets.kit.flow import Window

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.entryedges import EdgePlan
    from killhouse.rulesets.firewall.loadout import Kit, LoadoutPlan
    from killhouse.rulesets.firewall.parkdeploy import DeployPlan

ACT, OVER = "act", "over"
#: the game master's set-up decisions before Turn 1 (ruling F-195)
SETUP = "setup"
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
    #: the optional skills rules are in use: Hide and Search (§16, §21.5, ruling F-104)
    skills: bool = False
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
    #: how many events the log held after the previous action (the CF checks of §21.3)
    events_seen: int = 0
    #: side -> figure -> (level, x, y, Turn) where the side last saw it (§21.4: shown stale)
    last_seen: dict[str, dict[str, tuple[int, int, int, int]]] = field(default_factory=dict)
    #: vehicles (§17, vehicles/) by id; each has a team of its own in ``teams``
    vehicles: dict[str, Vehicle] = field(default_factory=dict)
    #: open questions to a side in mid-resolution (the game master's lie, ruling F-197)
    windows: list[Window] = field(default_factory=list)
    #: figures off the table whose arrival is due: they enter by a move (ruling F-198)
    entering: set[str] = field(default_factory=set)
    #: team -> the edge it came on by, when its side has no fixed edge (ruling F-199)
    team_edge: dict[str, str] = field(default_factory=dict)
    #: side -> door square -> the door's terrain as the side last saw it (ruling F-233)
    doors: dict[str, dict[tuple[int, int, int], int]] = field(default_factory=dict)
    #: traps set in play (ruling F-235) and how many were ever set (their secret ids)
    traps: list[Trap] = field(default_factory=list)
    traps_set: int = 0
    #: the height of one storey in cm: level i's floor stands i storeys up (§1.2, F-250)
    storey_cm: int = 10
    #: set-up in play (fwsetup, rulings F-210 …): how entry edges are chosen, the sides yet
    #: to choose in roll order (None until rolled), the counters the GM has yet to place
    edge_plan: EdgePlan | None = None
    edge_order: list[str] | None = None
    unplaced: list[str] = field(default_factory=list)
    #: §18.1 (F-215 … F-217): the secret side's figures yet to deploy, those that may enter
    #: over any edge, and the team still to be given its end of the path
    deploy_plan: DeployPlan | None = None
    deploying: list[str] = field(default_factory=list)
    any_edge: set[str] = field(default_factory=set)
    end_team: str | None = None
    #: §18.1's loadout (F-270 …): the side picking its kit, its figures yet to be equipped
    #: (the first is being equipped), their file kits (the suggestion), and whether the
    #: figure being equipped has chosen its armour
    loadout_plan: LoadoutPlan | None = None
    kitting: list[str] = field(default_factory=list)
    file_kits: dict[str, Kit] = field(default_factory=dict)
    kit_worn: bool = False

    def __post_init__(self) -> None:
        if not self.players:
            self.players = self.sides


def _side_teams_left(state: FirewallState, side: str) -> list[Team]:
    return [t for t in state.teams.values() if t.side == side and not t.activated_this_turn]


def _live_team(team: Team, state: FirewallState) -> bool:
    from killhouse.rulesets.firewall.vehicles.crew import live_vehicle_team  # vehicles hook
    return (bool(active_members(team, state.figures)) or live_vehicle_team(state, team)
            or any(m in state.entering for m in team.members))  # F-198: yet to enter


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


def _can_act(state: FirewallState, f: Figure) -> bool:
    if not f.active or f.failed_this_turn or state.turn <= f.no_action_until:
        return False  # §14.2: a rebooting figure takes no actions
    # §14.1 (ruling F-113): Wired Reflexes give one more action a Turn
    spare = "wired_reflexes" in f.cyber and not f.extra_used
    return not (f.move_used and f.combat_used) or spare


def team_figures(state: FirewallState, side: str) -> list[Figure]:
    if state.active_team is None or state.teams[state.active_team].side != side:
        return []
    team = state.teams[state.active_team]
    if team_stopped(team, state.figures):
        return []
    return [f for f in active_members(team, state.figures) if _can_act(state, f)]


def sees_all(state: FirewallState, side: str) -> bool:
    """Ruling F-196: a game master's side (one that cannot win) sees the whole table."""
    return side not in state.players


def side_sees(state: FirewallState, side: str, *, table: bool = True) -> set[str]:
    """The other sides' figures ``side`` sees now: by its figures or its vehicle crews
    (§21.4); a game master sees every figure on the table (ruling F-196) unless ``table`` is
    false (what its own figures may target: never a Hidden one, F-96)."""
    if table and sees_all(state, side):
        return {f.id for f in state.figures.values() if f.side != side
                and f.status in (Status.ACTIVE, Status.INCAPACITATED, Status.KILLED)}
    from killhouse.rulesets.firewall.vehicles.sight import figures_seen  # vehicles hook
    return figures_seen(state.board, state.figures, state.vehicles, side)


def side_known(state: FirewallState) -> dict[str, set[str]]:
    """Per side, the figures it may name now: its own and those it sees (``side_sees``), for
    the audiences of shots and close combat (§21.4; vehicle crews' sight counts)."""
    return {s: {f.id for f in state.figures.values() if f.side == s} | side_sees(state, s)
            for s in state.sides}


def _who_sees(state: FirewallState, f: Figure) -> frozenset[str]:
    return frozenset(s for s in state.sides if s == f.side or f.id in side_sees(state, s))


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


def mine(state: FirewallState, action: Action) -> Figure:
    fid = str(action.get("figure"))
    figure = state.figures.get(fid)
    if figure is None or figure not in team_figures(state, action.side):
        raise IllegalActionError(f"{fid} is not a figure of the active team that may act")
    return figure


def combat_figure(state: FirewallState, action: Action) -> Figure:
    """The acting figure of a Combat action, refused while its team is unaware (F-16) or it
    carries someone (F-54)."""
    figure = mine(state, action)
    if not _aware(state, figure):
        raise IllegalActionError("a team not yet aware of the enemy takes no Combat actions (F-16)")
    if figure.carrying is not None:
        raise IllegalActionError("a carrier cannot shoot or fight in close combat (F-54)")
    return figure


def _gm(state: FirewallState) -> frozenset[str]:
    return frozenset(s for s in state.sides if s not in state.players)
