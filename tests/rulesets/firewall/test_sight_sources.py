"""Item 4 of issue 16: the audiences of moves, shots and close combat, and who a side may
attack, use the same sight as the views: a figure seen only by a vehicle crew counts."""

from __future__ import annotations

from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState, side_known, side_sees
from killhouse.rulesets.firewall.teams import Status
from tests.rulesets.firewall.test_vehicles import _ash, _bring


def _only_the_uav_looks() -> tuple[object, FirewallState]:
    """Ash End with the mayor's UAV in the northern street and none of the mayor's figures
    looking (the bodyguards held off the table, the Mayor helpless)."""
    game = _ash()
    state: FirewallState = game.state
    _bring(state, "uav", (25, 8), "n")
    for fid in ("guard-a", "guard-b"):
        state.figures[fid].status = Status.RESERVE
    for t in state.teams.values():
        t.aware = True
    return game, state


def test_a_move_seen_only_by_a_vehicle_crew_is_told_to_its_side() -> None:
    game, state = _only_the_uav_looks()
    mildred = state.figures["mildred"]
    mildred.cell = (17, 1)
    assert "mildred" in side_sees(state, "mayor")  # the view's sight: the crew sees her
    assert "mildred" in side_known(state)["mayor"]
    state.active_team = None
    state.order, state.step = ("gang", "mayor"), 0
    state.teams["gaea"].activated_this_turn = False
    game.apply(Action.make("gang", "activate", team="gaea"))  # type: ignore[attr-defined]
    game.apply(Action.make("gang", "move", figure="mildred", speed="walk",  # type: ignore
                           path=[[0, 19, 2]]))
    move = [e for e in game.log.events if e.kind == "move"][-1]  # type: ignore[attr-defined]
    assert move.audience is not None and "mayor" in move.audience
    assert "mildred" in {s["id"] for s in game.view("mayor")["seen"]}  # type: ignore


def test_a_figure_out_of_the_crew_s_sight_is_not_told() -> None:
    _, state = _only_the_uav_looks()
    # behind the north-west building's walls, out of the UAV's sight
    state.figures["mildred"].cell = (8, 6)
    assert "mildred" not in side_sees(state, "mayor")
    assert "mildred" not in side_known(state)["mayor"]
