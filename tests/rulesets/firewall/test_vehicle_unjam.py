"""Clearing a jammed vehicle weapon (§11.2 with §17.8, ruling F-170): which crew position may,
with which action, the roll as an event, and the refusals (a destroyed vehicle, a position
that has acted, a mount it does not fire)."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.core.events import EventLog
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status, Team
from killhouse.rulesets.firewall.vehicles.build import design_of, make_vehicle
from killhouse.rulesets.firewall.vehicles.driving import Drive, drive_problem
from killhouse.rulesets.firewall.vehicles.model import ACTIVE, DESTROYED
from killhouse.rulesets.firewall.vehicles.sight import stamp
from killhouse.rulesets.firewall.vehicles.unjam import (
    VUnjam,
    resolve_vunjam,
    unjam_problem,
    vunjam_options,
)
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.ashend import drawn_edges
from tests.rulesets.firewall.test_closecombat import Dice

ROOT = Path(__file__).resolve().parents[3]
ASH = ROOT / "scenarios" / "firewall" / "escape_from_ash_end.yaml"


def _uav_jammed(seed: int = 1) -> tuple[Game, FirewallState]:
    """The UAV (driver, copilot-gunner; m1 VMG turret, m2 AV(L) front) on the table, its
    crew the active team, the turret jammed."""
    game = drawn_edges(Game(load_scenario(ASH), seed))
    state: FirewallState = game.state
    v = state.vehicles["uav"]
    v.status, v.anchor, v.facing, v.arrives_roll = ACTIVE, (22, 36), "n", None
    for fid in v.passengers:
        state.figures[fid].cell = v.anchor
    stamp(state.board, v)
    team = state.teams[v.team]
    team.aware = team.activated_this_turn = True
    state.active_team = team.id
    v.mounts[0].state = "jammed"
    return game, state


def test_driver_and_gunner_may_clear_the_turret_and_the_legal_action_rolls_an_event() -> None:
    game, state = _uav_jammed()
    options = {(a.get("crew"), a.get("mount")) for a in game.legal_actions("mayor")
               if a.kind == "vehicle-unjam"}
    assert options == {(0, "m1"), (1, "m1")}  # the ready m2 is not offered
    events = game.apply(Action.make("mayor", "vehicle-unjam", vehicle="uav", crew=1,
                                    mount="m1"))
    kinds = [e.kind for e in events]
    assert "roll" in kinds and "vehicle-unjam" in kinds
    done = next(e for e in events if e.kind == "vehicle-unjam")
    # the roll and its outcome are the crew's own business (§21.4)
    assert done.audience == frozenset({"mayor"})
    v = state.vehicles["uav"]
    assert v.crew[1].combat_used  # a gunner spends his one action
    assert done.data["state"] == v.mounts[0].state


@pytest.mark.parametrize(("dice", "result", "state_after", "gutz", "failed"), [
    ([1, 1], "CS", "ready", 9, False),    # CS: cleared, crew +1
    ([3, 4], "S", "ready", 8, False),     # 7 ≤ 8: cleared
    ([4, 5], "F", "jammed", 8, True),     # 9 > 8: still jammed, the position failed
    ([5, 5], "CF", "useless", 7, True),   # CF: beyond repair, crew −1
])
def test_the_four_results(dice: list[int], result: str, state_after: str, gutz: int,
                          failed: bool) -> None:
    _, state = _uav_jammed()
    v = state.vehicles["uav"]
    assert v.gutz == 8
    assert resolve_vunjam(state, VUnjam("uav", 0, "m1"), Dice(dice), EventLog()) == result
    assert (v.mounts[0].state, v.gutz, v.crew[0].failed) == (state_after, gutz, failed)
    # the driver spent his Movement action: the vehicle does not drive on this Turn
    assert v.crew[0].move_used and not v.crew[0].combat_used
    assert "no Movement action" in str(drive_problem(state, Drive("uav", "slow", ((22, 34),))))


def test_a_cleared_mount_fires_in_the_same_turn_by_a_position_with_its_combat_action() -> None:
    from killhouse.rulesets.firewall.vehicles.gunnery import VFire, vfire_problem
    _, state = _uav_jammed()
    state.figures["mildred"].cell = (23, 30)
    assert "jammed" in str(vfire_problem(state, VFire("uav", 0, "m1", "mildred")))
    resolve_vunjam(state, VUnjam("uav", 0, "m1"), Dice([3, 4]), EventLog())
    assert vfire_problem(state, VFire("uav", 0, "m1", "mildred")) is None


def test_a_cf_at_crew_gutz_2_loses_the_vehicle() -> None:
    _, state = _uav_jammed()
    v = state.vehicles["uav"]
    v.gutz = 2
    log = EventLog()
    assert resolve_vunjam(state, VUnjam("uav", 1, "m1"), Dice([6, 6]), log) == "CF"
    assert v.status == DESTROYED
    assert state.figures["malone"].status is not Status.ABOARD  # put out beside the wreck
    assert log.events[-1].data["destroyed"] is True


def test_who_may_not_clear_it() -> None:
    game, state = _uav_jammed()
    v = state.vehicles["uav"]
    # a position that already acted: the gunner has fired, the driver has driven
    v.crew[1].combat_used = True
    assert "used its action" in str(unjam_problem(state, VUnjam("uav", 1, "m1")))
    v.crew[0].move_used = True
    assert "Movement action" in str(unjam_problem(state, VUnjam("uav", 0, "m1")))
    assert list(vunjam_options(state, "mayor")) == []
    # a driver who only fired still has his Movement action for it
    v.crew[0].move_used, v.crew[0].combat_used = False, True
    assert unjam_problem(state, VUnjam("uav", 0, "m1")) is None
    # a position that failed a roll this Turn is stopped
    v.crew[0].failed = True
    assert "no action left" in str(unjam_problem(state, VUnjam("uav", 0, "m1")))
    v.crew[0].failed = False
    # a mount that is not jammed
    assert "not jammed" in str(unjam_problem(state, VUnjam("uav", 0, "m2")))
    # not the active team: the other side, or the crew out of its activation
    state.active_team = "gaea"
    assert "not the active team" in str(unjam_problem(state, VUnjam("uav", 0, "m1")))
    state.active_team = v.team
    # a destroyed vehicle never acts again (F-146)
    v.status = DESTROYED
    assert "not a running vehicle" in str(unjam_problem(state, VUnjam("uav", 0, "m1")))
    before = (game.state_hash(), len(game.log.events))
    with pytest.raises(IllegalActionError, match="not a running vehicle"):
        game.apply(Action.make("mayor", "vehicle-unjam", vehicle="uav", crew=0, mount="m1"))
    assert (game.state_hash(), len(game.log.events)) == before


def test_a_pintle_is_cleared_by_its_own_gunner_and_a_plain_copilot_clears_nothing() -> None:
    _, state = _uav_jammed()
    d = design_of({"chassis": "pickup", "crew": ["driver", "copilot"], "passengers": 0,
                   "move": {"land": "fast"}, "armour": "light",
                   "mounts": [{"type": "VMG", "kind": "hardpoint", "arc": "front"},
                              {"type": "VMG", "kind": "pintle"}]})
    car = make_vehicle("pick", "mayor", d, gutz=8, experience="normal", drive=0,
                       anchor=(0, 40), facing="n")
    state.vehicles["pick"] = car
    state.teams[car.team] = Team(car.team, "mayor", (), None, aware=True)
    stamp(state.board, car)
    state.active_team = car.team
    assert [c.role for c in car.crew] == ["driver", "copilot", "pintle"]
    car.mounts[0].state = car.mounts[1].state = "jammed"
    allowed = {(a.get("crew"), a.get("mount")) for a in vunjam_options(state, "mayor")}
    assert allowed == {(0, "m1"), (2, "m2")}
    assert "does not fire m2" in str(unjam_problem(state, VUnjam("pick", 0, "m2")))
    assert "does not fire m1" in str(unjam_problem(state, VUnjam("pick", 1, "m1")))
    assert "does not fire m1" in str(unjam_problem(state, VUnjam("pick", 2, "m1")))
    # a pintle gunner shot down (F-158) clears nothing
    car.crew[2].out = True
    assert "no action left" in str(unjam_problem(state, VUnjam("pick", 2, "m2")))


def test_a_plain_copilot_fires_no_vehicle_weapon() -> None:
    """§17.3: only a copilot who is also a gunner fires (found while building F-170)."""
    from killhouse.rulesets.firewall.vehicles.gunnery import VFire, vfire_problem
    _, state = _uav_jammed()
    d = design_of({"chassis": "pickup", "crew": ["driver", "copilot"], "passengers": 0,
                   "move": {"land": "fast"}, "armour": "light",
                   "mounts": [{"type": "VMG", "kind": "turret"}]})
    car = make_vehicle("pick", "mayor", d, gutz=8, experience="normal", drive=0,
                       anchor=(20, 40), facing="n")
    state.vehicles["pick"] = car
    state.teams[car.team] = Team(car.team, "mayor", (), None, aware=True)
    stamp(state.board, car)
    state.figures["mildred"].cell = (21, 34)
    assert "copilot" in str(vfire_problem(state, VFire("pick", 1, "m1", "mildred")))
    assert vfire_problem(state, VFire("pick", 0, "m1", "mildred")) is None


def test_a_mounted_weapon_fires_at_a_figure_touching_the_hull_and_that_figure_may_not() -> None:
    """Ruling F-277: F-31 (no ranged fire within 2 cm of an enemy) binds figures; a vehicle
    never fights close combat, so its turret fires at a thug next to the hull, while the
    thug himself may only fight hand to hand. The legal list offers the shot and it resolves
    (once a game of Ash End stopped on a listed turret shot refused as F-31)."""
    from killhouse.rulesets.firewall.shooting import Shot, shot_problem
    game, state = _uav_jammed()
    state.vehicles["uav"].mounts[0].state = "ready"
    mildred = state.figures["mildred"]
    mildred.cell = (23, 35)  # the square next to the UAV's front (anchor 22,36 facing n)
    # the thug beside the hull, with an enemy figure within 2 cm, may not shoot (F-31)
    state.figures["guard-a"].cell = (24, 35)
    problem = shot_problem(state.board, state.figures, Shot("mildred", mildred.weapons[0],
                                                            "guard-a"))
    assert problem is not None and "close combat only (F-31)" in problem
    shots = [a for a in game.legal_actions("mayor")
             if a.kind == "vehicle-fire" and a.get("target") == "mildred"]
    assert shots, "the turret's shot at the thug touching the hull is offered"
    events = game.apply(shots[0])
    assert any(e.kind == "roll" for e in events)
    assert state.vehicles["uav"].mounts[0].fired
