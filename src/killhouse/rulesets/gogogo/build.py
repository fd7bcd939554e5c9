"""Building the state of a new game from a checked scenario (section 5.1, ruling G-32).

``start`` is the whole of ``new_state``: the plan the scenario gives, the state it builds,
the public announcements, and either the secret setup step (when the scenario leaves
placements, loadouts or the bomb's carrier open) or, at once, setup spotting and turn 1.
"""

from __future__ import annotations

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import Problem, ScenarioError
from killhouse.rulesets.gogogo import deploy
from killhouse.rulesets.gogogo.news import public, team_seats, tell
from killhouse.rulesets.gogogo.scenario import Plan, deploy_zone, plan_scenario
from killhouse.rulesets.gogogo.state import (
    DESTRUCTION,
    HOSTAGE,
    OPERATIVE,
    SETUP,
    Bomb,
    Draft,
    Figure,
    GoState,
    Knowledge,
    T,
    Zones,
    as_weapon,
)
from killhouse.rulesets.gogogo.tables import tables
from killhouse.rulesets.gogogo.turn import finish_setup
from killhouse.rulesets.gogogo.vision import open_door_cells
from killhouse.scenario.model import Scenario


def start(scenario: Scenario, chance: Chance, log: EventLog) -> GoState:
    """A new game: ``ScenarioError`` (each problem on its line) if the scenario does not suit."""
    plan = plan_scenario(scenario)
    if plan.issues:  # each problem with its file and line, as validate gives it
        raise ScenarioError(
            [
                Problem(scenario.file, scenario.line_of(i.path), i.path, i.message, i.hint)
                for i in plan.issues
            ]
        )
    state = build_state(scenario, plan)
    announce_start(state, log)
    if any(deploy.setup_needed(state, side) for side in state.sides):
        state.phase = SETUP
        for side in state.sides:
            state.drafts[side].committed = not deploy.setup_needed(state, side)
    else:
        finish_setup(state, chance, log)
    return state


def build_state(scenario: Scenario, plan: Plan) -> GoState:
    """The state before setup decisions: figures, loadouts, bomb, zones, public map knowledge."""
    board = scenario.board.copy()
    sides = tuple(s.id for s in scenario.sides)
    side_of = {team: side for side, team in plan.team_of.items()}
    figures: dict[str, Figure] = {}
    deploy = {}
    for spec in scenario.figures:
        team = plan.team_of.get(spec.side) if spec.side is not None else None
        fig = Figure(
            id=spec.id,
            kind=spec.kind,
            side=spec.side,
            team=team,
            pos=spec.at,
            facing=spec.facing or "n",
            weapon=as_weapon(plan.weapons.get(spec.id)) or "auto",
            grenades=dict(plan.grenades.get(spec.id, {})),
        )
        figures[spec.id] = fig
        if spec.at is None:
            deploy[spec.id] = deploy_zone(plan, spec)[0]
    bomb = None
    if plan.mission == DESTRUCTION:
        assert plan.bomb_id is not None
        bomb = Bomb(id=plan.bomb_id, carrier=plan.carrier, pos=plan.bomb_at)
        if plan.carrier is not None:
            figures[plan.carrier].has_bomb = True
    state = GoState(
        board=board,
        mission=plan.mission,
        sides=sides,
        team_of=dict(plan.team_of),
        side_of=side_of,
        figures=figures,
        zones=plan.zones if isinstance(plan.zones, Zones) else Zones(),
        turn_limit=scenario.turn_limit or tables().turn_limit,
        per_player=plan.per_player,
        bomb=bomb,
    )
    state.deploy = deploy
    state.hostages_total = sum(1 for f in figures.values() if f.kind == HOSTAGE)
    state.needs_grenade = [
        f.id for f in state.ordered() if f.team == T and f.kind == OPERATIVE and not f.grenades
    ]
    state.needs_weapon = [i for i in plan.open_weapons if i in figures]
    state.needs_carrier = bomb is not None and bomb.carrier is None and bomb.pos is None
    doors = set(open_door_cells(state))  # the map every side receives (5.1)
    for side in sides:
        state.know[side] = Knowledge(open_doors=set(doors))
    if state.per_player:
        for f in state.ordered():
            if f.fighter:
                state.seat_know[f.id] = Knowledge()
    state.drafts = {side: Draft() for side in sides}
    return state


def announce_start(state: GoState, log: EventLog) -> None:
    public(state, log, "mission", {"mission": state.mission, "turn_limit": state.turn_limit})
    if state.bomb is not None:
        t_side = state.side_of[T]
        tell(
            state,
            log,
            "bomb-fuse",
            {"fuse_turns": tables().fuse_turns},
            [t_side],
            team_seats(state, t_side),
        )  # 5.1: T alone knows the fuse
