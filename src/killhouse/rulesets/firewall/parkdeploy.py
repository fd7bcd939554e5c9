"""The deployment of "A Walk in the Park" made in set-up (§18.1; rulings F-215 … F-218).

``options: {hidden_deploy: SIDE}``: that side deploys in secret before Turn 1, figure by figure
in the file's order, with ``deploy(figure, at)``: on a free square of Light or Medium cover,
where it starts Hidden (§21.5), or with no ``at`` off the table, to enter later by a move
over any edge. ``options: {path_end: TEAM}``: then the team's player chooses the end of the
path it starts at with ``path-end(end)``: the file's squares are one end (west or east), the
other end is their mirror image across the table. Only the deciding side hears either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.terrain import Cover
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState, _occupied
from killhouse.rulesets.firewall.teams import Figure, Status
from killhouse.scenario.model import Issue, Scenario

#: §18.1 "anywhere in Light/Medium cover"
DEPLOY_COVER = (Cover.LIGHT, Cover.MEDIUM)
#: the options list every STRIDE-th cover square in reading order (any legal one is accepted)
STRIDE = 3
ENDS = ("w", "e")


@dataclass(frozen=True)
class DeployPlan:
    """Which side deploys in secret and which team starts at the path end its player
    chooses (either may be ``None``)."""

    side: str | None = None
    end_team: str | None = None


def read_deploy(scenario: Scenario, players: Sequence[str], teams: Iterable[str],
                issues: list[Issue]) -> DeployPlan | None:
    """The ``hidden_deploy`` and ``path_end`` options, or ``None`` without either."""
    side = scenario.options.get("hidden_deploy")
    team = scenario.options.get("path_end")
    if side is None and team is None:
        return None
    if side is not None and side not in players:
        issues.append(Issue("options.hidden_deploy", f"no player side {side!r}",
                            "the side that deploys in secret"))
        side = None
    if team is not None and team not in set(teams):
        issues.append(Issue("options.path_end", f"no team {team!r}",
                            "the team that starts at the end of the path its player chooses"))
        team = None
    return DeployPlan(None if side is None else str(side), None if team is None else str(team))


def begin(state: FirewallState) -> None:
    """Set-up: the secret side's figures (those placed in the file) and the team whose end
    is still to be chosen wait off the table, seen by nobody (ruling F-218)."""
    plan = state.deploy_plan
    if plan is None:
        return
    for f in state.figures.values():
        if plan.side is not None and f.side == plan.side and f.status is Status.ACTIVE:
            f.status = Status.RESERVE
            f.hidden = False
            state.deploying.append(f.id)
        elif f.team == plan.end_team and f.status is Status.ACTIVE:
            f.status = Status.RESERVE


# -- the secret deployment (§18.1, rulings F-215, F-216) ------------------------------------

def deploy_deciders(state: FirewallState) -> list[str]:
    plan = state.deploy_plan
    if state.kitting:  # ruling F-270: the kit is picked before the deployment
        return []
    return [plan.side] if plan is not None and plan.side and state.deploying else []


def square_problem(state: FirewallState, f: Figure, level: int,
                   cell: tuple[int, int]) -> str | None:
    """Why ``f`` may not deploy on ``cell`` (ruling F-215), or ``None``."""
    where = Cell(level, *cell)
    if not 0 <= level < len(state.board.levels) or not state.board.in_bounds(where):
        return f"square {list(cell)} is off the table"
    if not state.board.passable(where):
        return f"square {list(cell)} is not passable"
    if state.board.cover(where) not in DEPLOY_COVER:
        return (f"square {list(cell)} is not in Light or Medium cover: the squad deploys "
                "there, Hidden, or off the table (§18.1)")
    if cell in _occupied(state, level):
        return f"square {list(cell)} is held by a figure"
    return None


def _next(state: FirewallState) -> Figure | None:
    return state.figures[state.deploying[0]] if state.deploying else None


def check_deploy(state: FirewallState, action: Action) -> None:
    if action.side not in deploy_deciders(state):
        raise IllegalActionError("only the secret side deploys now")
    f = _next(state)
    if f is None or action.get("figure") != f.id:
        raise IllegalActionError(f"figures deploy in the scenario's order: next is "
                                 f"{f.id if f else 'none'}")
    at = action.get("at")
    if at is None:
        return  # off the table, to enter by a move later (ruling F-216)
    problem = square_problem(state, f, int(at[0]), (int(at[1]), int(at[2])))
    if problem is not None:
        raise IllegalActionError(problem)


def deploy_options(state: FirewallState, side: str) -> Iterable[Action]:
    """The file's square first (a suggestion), every third cover square, off the table."""
    f = _next(state)
    if f is None or side not in deploy_deciders(state):
        return []
    out = []
    if square_problem(state, f, f.level, f.cell) is None:
        out.append(Action.make(side, "deploy", figure=f.id, at=[f.level, *f.cell],
                               hint={"role": "setup", "to": [f.level, *f.cell],
                                     "scenario": True}))
    n = 0
    for level, lv in enumerate(state.board.levels):
        for y in range(lv.height):
            for x in range(lv.width):
                if (level, (x, y)) == (f.level, f.cell) \
                        or square_problem(state, f, level, (x, y)) is not None:
                    continue
                n += 1
                if n % STRIDE == 1:
                    out.append(Action.make(side, "deploy", figure=f.id, at=[level, x, y],
                                           hint={"role": "setup", "to": [level, x, y]}))
    out.append(Action.make(side, "deploy", figure=f.id, hint={"role": "setup", "off": True}))
    return out


def deploy(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-216: in cover it stands Hidden; off the table it waits to enter over any
    edge. Told to its own side only."""
    f = state.figures[str(action.get("figure"))]
    state.deploying.remove(f.id)
    at = action.get("at")
    if at is None:
        state.entering.add(f.id)
        state.any_edge.add(f.id)
        log.emit("deployed", {"figure": f.id, "at": None}, frozenset({f.side}))
        return
    f.level, f.cell = int(at[0]), (int(at[1]), int(at[2]))
    f.status, f.hidden = Status.ACTIVE, True
    log.emit("deployed", {"figure": f.id, "at": [f.level, *f.cell]}, frozenset({f.side}))


def deploy_prompt(state: FirewallState) -> str:
    return ("deploy your next figure in secret: a free square of Light or Medium cover "
            "(Hidden), or off the table to enter later over any edge (§18.1)")


# -- the end of the path (§18.1 "at one end (Anfield player's choice)", ruling F-217) -------

def end_deciders(state: FirewallState) -> list[str]:
    plan = state.deploy_plan
    if plan is None or state.end_team is None or state.deploying or state.kitting:
        return []
    return [state.teams[state.end_team].side]


def written_end(state: FirewallState) -> str:
    """The end the file places the team at: west when its figures stand left of centre."""
    team = state.teams[str(state.end_team)]
    xs = [state.figures[m].cell[0] for m in team.members]
    width = state.board.levels[0].width
    return "w" if sum(xs) * 2 < len(xs) * (width - 1) else "e"


def end_options(state: FirewallState, side: str) -> Iterable[Action]:
    if side not in end_deciders(state):
        return []
    return [Action.make(side, "path-end", end=e, hint={"role": "setup", "end": e})
            for e in ENDS]


def choose_end(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """The team stands at the chosen end: as written, or mirrored east-west (ruling F-217).
    Only its side hears of it; the others see the team when their figures do."""
    team = state.teams[str(state.end_team)]
    end = str(action.get("end"))
    mirror = end != written_end(state)
    for m in team.members:
        f = state.figures[m]
        f.status = Status.ACTIVE
        if mirror:
            width = state.board.levels[f.level].width
            f.cell = (width - 1 - f.cell[0], f.cell[1])
            f.facing = (-f.facing[0], f.facing[1])
    state.end_team = None
    log.emit("path-end", {"team": team.id, "end": end}, frozenset({team.side}))


def end_prompt(state: FirewallState) -> str:
    return "choose the end of the path your team starts at: w (west) or e (east) (§18.1)"


def deploy_done(state: FirewallState) -> bool:
    return not state.deploying and state.end_team is None
