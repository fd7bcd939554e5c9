"""Section 17 (vehicles and personal transport): Vehicle Points of every sample, the §22
vehicle vectors S7, S9 and S15 as rows, vehicle damage and destruction, driving at the edge of
its allowance, arcs, passengers, personal transport, and "Escape from Ash End" in play."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.fire import can_affect_vehicle
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from killhouse.rulesets.firewall.vehicles.build import (
    design_of,
    design_problems,
    sample,
    vehicle_points,
)
from killhouse.rulesets.firewall.vehicles.catalogue import catalogue
from killhouse.rulesets.firewall.vehicles.damage import apply_effect, effect_on_vehicle
from killhouse.rulesets.firewall.vehicles.driving import Drive, drive_problem
from killhouse.rulesets.firewall.vehicles.gunnery import in_arc
from killhouse.rulesets.firewall.vehicles.model import ACTIVE, DESTROYED
from killhouse.rulesets.firewall.vehicles.sight import stamp
from killhouse.rulesets.firewall.vehicles.transport import combat_penalty, note_ride, ride_maximum
from killhouse.scenario.loader import load_scenario
from tests.conformance import play_out
from tests.rulesets.firewall.ashend import drawn_edges

ROOT = Path(__file__).resolve().parents[3]
ASH = ROOT / "scenarios" / "firewall" / "escape_from_ash_end.yaml"

#: §17.9 samples priced by §17.2-§17.6: each sits at or under its chassis limit except the
#: Mercedes UAV, 44 VP against 42 (ruling F-51 keeps it as printed)
VP = {"purple_haze": 10, "gladiator": 10, "whippet": 14, "improvised_apc": 28,
      "mercedes_uav": 44, "city_bug": 12, "silver_ghostmaker": 28, "valiant_yeoman": 28,
      "nhs_ambulance": 14, "nhs_combat_ambulance": 26, "riot_vehicle": 38,
      "thatcher_tank": 55}


@pytest.mark.parametrize("sid", sorted(VP))
def test_sample_vehicle_points(sid: str) -> None:
    d = sample(sid)
    assert vehicle_points(d) == VP[sid]
    assert design_problems(d, sample_vehicle=True) == []


def test_uav_is_over_its_limit_when_built_by_a_player() -> None:
    assert design_problems(sample("mercedes_uav")) == [
        "44 VP is over the IFV / Small tank / attack air car's limit of 42 (§17.2)"]


def test_a_design_at_the_limit_and_one_vp_past() -> None:
    spec = {"chassis": "motorbike", "crew": ["driver"], "passengers": 1,
            "move": {"land": "fast"}, "armour": "soft", "mounts": []}
    assert vehicle_points(design_of(spec)) == 10
    assert design_problems(design_of(spec)) == []
    over = design_of({**spec, "passengers": 2})
    assert design_problems(over) == ["11 VP is over the Motor bike's limit of 10 (§17.2)"]


def test_motorbikes_take_no_turret_and_no_side_hard_point() -> None:
    spec = {"chassis": "motorbike", "crew": ["driver"], "move": {"land": "very_slow"},
            "armour": "soft", "mounts": [{"type": "VMG", "kind": "turret"}]}
    assert "no turrets" in design_problems(design_of(spec))[0]
    spec["mounts"] = [{"type": "VMG", "kind": "hardpoint", "arc": "left"}]
    assert "front or back" in design_problems(design_of(spec))[0]


# -- §22 vehicle vectors as rows -------------------------------------------------------------
@pytest.mark.parametrize(("attack", "result", "armour", "effect"), [
    ("SS(A)", "S", "light", 3),       # S7: S, Light −3
    ("SS(A)", "S", "soft", 4),        # S7: Soft −4
    ("SS(A)", "S", "medium", 2),      # S7: Medium −2
    ("SS(A)", "S", "heavy", 1),       # S7: Heavy −1
    ("SS(A)", "CS", "light", "kill"),  # S7: CS destroyed unless Heavy
    ("SS(A)", "CS", "heavy", 3),      # S7: Heavy −3
    ("AV(L)", "S", "medium", 1),      # S9: Korolev vs Medium tank S −1
    ("AV(L)", "CS", "medium", 4),     # S9: CS −4
    ("AV(H)", "S", "soft", "kill"),   # S9: AV(H) vs soft skin S Kill
    ("AV(M)", "CS", "heavy", 4),      # S9: AV(M) vs Heavy CS −4
    ("VMG", "S", "soft", 4),          # S15: VMG (B(HMG)) S: the car −4
    ("VMG", "F", "soft", 0),
    ("SS", "CS", "soft", "kill"),     # F-50: soft skin, the weapon's own table
])
def test_vehicle_vectors(attack: str, result: str, armour: str, effect: object) -> None:
    assert effect_on_vehicle(attack, result, armour) == effect  # type: ignore[arg-type]


def test_s15_a_vmg_cannot_hurt_a_light_apc() -> None:
    assert can_affect_vehicle("VMG", "soft")
    assert not can_affect_vehicle("VMG", "light")
    assert can_affect_vehicle("SS(A)", "light") and can_affect_vehicle("AV(L)", "heavy")


# -- in play ---------------------------------------------------------------------------------
def _ash(seed: int = 1) -> Game:
    return drawn_edges(Game(load_scenario(ASH), seed))


def _bring(state: FirewallState, vid: str, anchor: tuple[int, int], facing: str) -> None:
    v = state.vehicles[vid]
    v.status, v.anchor, v.facing, v.arrives_roll = ACTIVE, anchor, facing, None
    for fid in v.passengers:
        state.figures[fid].cell = anchor
    stamp(state.board, v)


def test_vehicle_damage_to_gutz_2_stands_and_below_destroys_with_passengers_out() -> None:
    game = _ash()
    state = game.state
    _bring(state, "apc", (30, 36), "n")
    v = state.vehicles["apc"]
    v.gutz = 5
    assert not apply_effect(state, v, 3)  # Gutz 2: still running
    assert v.status == ACTIVE and v.gutz == 2
    whitney = state.figures["whitney"]
    whitney.gutz, state.figures["yardie-3"].gutz = 6, 5  # §18.2's Gutz (the file adds 3)
    assert apply_effect(state, v, 1)  # Gutz 1: destroyed (§17.7)
    assert v.status == DESTROYED
    assert whitney.status is Status.ACTIVE and whitney.gutz == 2  # 6 − 4, no armour: stands
    assert state.figures["yardie-3"].status is Status.ROUTED  # 5 − 4 = 1: routs
    assert all(state.figures[f].aboard is None for f in ("moab", "ticker"))
    # the wreck stays on the board and blocks (F-146)
    assert not state.board.passable(state.vehicles["apc"].cells()[0])


def test_drive_allowance_at_its_edge_and_one_step_past() -> None:
    game = _ash()
    state = game.state
    _bring(state, "apc", (0, 40), "n")  # improvised APC: Land Slow, cruise 36 cm
    v = state.vehicles["apc"]
    state.active_team = v.team
    assert catalogue().speed_cm("land", "slow", "cruise") == 36
    # 14 squares north = 35 cm: allowed; 15 = 37.5 cm: too far
    assert drive_problem(state, Drive("apc", "cruise", ((0, 26),))) is None
    problem = drive_problem(state, Drive("apc", "cruise", ((0, 25),)))
    assert problem is not None and "more than 36 cm" in problem
    # a quarter turn costs 5 cm (F-147): 12 squares + turn = 35 cm fits, 13 + turn does not
    assert drive_problem(state, Drive("apc", "cruise", ((0, 28),), "e")) is None
    assert drive_problem(state, Drive("apc", "cruise", ((0, 27),), "e")) is not None


def test_vehicles_keep_out_of_rubble_and_buildings() -> None:
    game = _ash()
    state = game.state
    _bring(state, "apc", (30, 36), "n")
    problem = drive_problem(state, Drive("apc", "cruise", ((30, 30),)))
    assert problem is not None and "rubble" in problem  # the rubble at 31..33, 31..32


def test_hard_point_arcs_with_the_45_degree_line_in_front() -> None:
    game = _ash()
    uav = game.state.vehicles["uav"]
    _bring(game.state, "uav", (22, 30), "n")  # footprint x 22..24, y 30..34
    assert in_arc(uav, "front", "hardpoint", (23, 20))
    assert not in_arc(uav, "front", "hardpoint", (40, 32))  # right arc
    assert in_arc(uav, None, "turret", (40, 32))


def test_passengers_get_out_only_when_the_vehicle_stood_still() -> None:
    game = _ash()
    state = game.state
    _bring(state, "uav", (22, 36), "n")
    v = state.vehicles["uav"]
    v.moved_last_turn = True
    team = state.teams["extraction"]
    state.active_team = team.id
    team.activated_this_turn = True
    act = Action.make(game.ruleset.sides(state)[0], "disembark", figure="malone",
                      to=[0, 21, 36])
    with pytest.raises(IllegalActionError, match="moved this Turn or the last"):
        game.ruleset.apply(state, act, game.chance, game.log)  # type: ignore[attr-defined]
    v.moved_last_turn = False
    options = [a for a in game.ruleset.legal_actions(state, "mayor") if a.kind == "disembark"]
    assert options and all(a.get("figure") in team.members for a in options)


def test_personal_transport_speeds_and_penalty() -> None:
    game = _ash()
    f = game.state.figures["theo"]
    f.transport, f.riding = "pedal_bike", True
    assert ride_maximum(f, "run") == 42 and ride_maximum(f, "crawl") == 12
    f.cyber = frozenset({"cyber_legs_basic"})
    assert ride_maximum(f, "walk") > 26  # cyber legs count, armour does not (F-38)
    assert combat_penalty(f) == 0
    note_ride(f, "walk")
    assert combat_penalty(f) == -1
    note_ride(f, "crawl")  # the fastest speed of the Turn stays (F-46)
    assert combat_penalty(f) == -1
    note_ride(f, "run")
    assert combat_penalty(f) == -3
    assert Fraction(catalogue().transport["skateboard"]["full"]) == 36


def test_ash_end_random_play_keeps_every_check_with_vehicles_hidden() -> None:
    """Random legal play of the vehicle scenario, cut to 9 Turns so both vehicles arrive:
    invariants and the leak check (vehicles are secret ids until seen) after every step."""
    scenario = dataclasses.replace(load_scenario(ASH), turn_limit=9)
    game = play_out(scenario, 5)
    assert game.result is not None
    assert any(e.kind == "vehicle-arrives" for e in game.log.events)


def test_a_passenger_fires_out_at_minus_3_and_cannot_be_targeted() -> None:
    from killhouse.rulesets.firewall.fire import fire_terms
    from killhouse.rulesets.firewall.shooting import Shot, shot_situation
    from killhouse.rulesets.firewall.vehicles.orders import _at_window, passenger_fire_options
    game = _ash()
    state = game.state
    _bring(state, "uav", (22, 36), "n")
    team = state.teams["extraction"]
    team.aware = True
    state.active_team = team.id
    team.activated_this_turn = True
    enemy = state.figures["mildred"]
    enemy.cell = (23, 31)
    with _at_window(state, state.figures["militia-1"], "mildred"):
        terms = dict(fire_terms(shot_situation(state.board, state.figures, state.teams,
                                               Shot("militia-1", "corp_arms_mk_ii", "mildred"))))
    assert terms["passenger"] == -3
    assert state.figures["militia-1"].status is Status.ABOARD  # back inside after the check
    options = list(passenger_fire_options(state, "mayor"))
    assert {a.get("figure") for a in options} >= {"militia-1", "malone"}
    # passengers are never targets: no enemy option names them
    state.active_team = None
    assert "militia-1" not in game.ruleset.view(state, "gang")["seen"]


def test_c2_close_combat_with_a_grenade_against_a_light_vehicle() -> None:
    """C2: g 7 against a Light vehicle with a frag grenade: −4 +4 → M 0; (2,4) → S: the
    vehicle −2, the grenade used. Touching the footprint is 2 cm; one square farther is not."""
    from killhouse.core.events import EventLog
    from killhouse.rulesets.firewall.melee import melee_modifier
    from killhouse.rulesets.firewall.vehicles.assault import (
        Assault,
        assault_problem,
        assault_situation,
        resolve_assault,
    )
    from tests.rulesets.firewall.test_closecombat import Dice
    game = _ash()
    state = game.state
    _bring(state, "apc", (0, 40), "n")  # light armour, footprint x 0..1, y 40..43
    v = state.vehicles["apc"]
    v.gutz = 6
    f = state.figures["guard-a"]
    f.cell, f.gutz, f.skills, f.cyber, f.is_leader = (2, 41), 7, {}, frozenset(), False
    f.grenades = {"fragmentation": 1}
    state.teams["bodyguards"].aware = True
    state.board.levels[0].clutter[41, 0:4] = 0  # §22: Clutter 0 unless stated
    assert assault_problem(state, Assault("guard-a", "apc", "fragmentation")) is None
    assert melee_modifier(assault_situation(state, f, v, "fragmentation")) == 0
    assert melee_modifier(assault_situation(state, f, v, None)) == -4
    assert resolve_assault(state, Assault("guard-a", "apc", "fragmentation"), Dice([2, 4]),
                           EventLog()) == "S"
    assert v.gutz == 4 and f.grenades["fragmentation"] == 0
    f.cell, f.combat_used = (3, 41), False
    assert "not within 2 cm" in str(assault_problem(state, Assault("guard-a", "apc")))


def test_anti_vehicle_odds() -> None:
    """S9's Korolev Rail Gun (AV(L)) at a Medium tank 60 cm away, crew g 8: CS −4 on 4
    doubles, S −1, F, CF on 5-5 and 6-6; a VMG at Light armour is refused (F-50)."""
    from killhouse.errors import UnknownRollError
    from killhouse.rulesets.firewall.rolls import ROLLS
    from killhouse.sim.odds import exact_odds, parse_args
    spec = ROLLS["anti-vehicle"]
    odds = exact_odds(spec, parse_args(spec, ["--weapon", "Korolev Rail Gun", "--armour",
                                              "medium", "--gutz", "8", "--range-cm", "60"]))
    assert odds == {"gutz-4": Fraction(4, 36), "gutz-1": Fraction(22, 36),
                    "no-effect": Fraction(8, 36), "critical-failure": Fraction(2, 36)}
    kill = exact_odds(spec, parse_args(spec, ["--weapon", "Korolev Heavy Rail Gun",
                                              "--armour", "soft", "--gutz", "8"]))
    # AV(H) vs soft: CS and S both Kill; 60 cm is short range for it (+1): total ≤ 9
    assert kill["destroyed"] == Fraction(30, 36)
    # the Long edge: 140 cm is allowed, 141 is beyond (F-19)
    exact_odds(spec, parse_args(spec, ["--range-cm", "140"]))
    with pytest.raises(UnknownRollError, match="beyond"):
        exact_odds(spec, parse_args(spec, ["--range-cm", "141"]))
    with pytest.raises(UnknownRollError, match="F-50"):
        exact_odds(spec, parse_args(spec, ["--weapon", "Corp Arms 14mm HGMG"]))


def test_a_pintle_gunner_is_a_target_in_cover_of_the_vehicle_armour() -> None:
    """§17.6: a pintle gunner may be shot at by non-vehicle weapons, in cover equal to the
    armour (Light −1); a rifle may not hurt the Light vehicle itself (F-50); a kill takes the
    pintle out of the game (F-158)."""
    from killhouse.core.events import EventLog
    from killhouse.rulesets.firewall.fire import fire_terms
    from killhouse.rulesets.firewall.teams import Team
    from killhouse.rulesets.firewall.vehicles.build import make_vehicle
    from killhouse.rulesets.firewall.vehicles.gunnery import (
        AtVehicle,
        VFire,
        at_vehicle_problem,
        gunner_situation,
        resolve_at_vehicle,
        vfire_problem,
    )
    from tests.rulesets.firewall.test_closecombat import Dice
    design = design_of({"chassis": "pickup", "crew": ["driver"], "move": {"land": "slow"},
                        "armour": "light", "mounts": [{"type": "VMG", "kind": "pintle"}]})
    assert vehicle_points(design) == 2 + 5 + 12 + 2 and design_problems(design) == []
    game = _ash()
    state = game.state
    v = make_vehicle("truck", "gang", design, gutz=7, experience="normal", drive=0,
                     anchor=(0, 40), facing="n")
    state.vehicles["truck"] = v
    state.teams[v.team] = Team(v.team, "gang", (), None, aware=True)
    stamp(state.board, v)
    assert [c.role for c in v.crew] == ["driver", "pintle"]
    f = state.figures["guard-a"]
    f.cell, f.facing, f.weapons, f.is_leader = (0, 30), (0, 1), ("corp_arms_mk_ii",), False
    state.teams["bodyguards"].aware = True
    assert "F-50" in str(at_vehicle_problem(state, AtVehicle("guard-a", "corp_arms_mk_ii",
                                                             "truck")))
    shot = AtVehicle("guard-a", "corp_arms_mk_ii", "truck", gunner=True)
    assert at_vehicle_problem(state, shot) is None
    terms = dict(fire_terms(gunner_situation(state, f, shot, v, (0, 40))))
    assert terms["cover"] == -1
    assert resolve_at_vehicle(state, shot, Dice([1, 1]), EventLog()) == "CS"
    assert v.crew[1].out
    assert "no Combat action" in str(vfire_problem(state, VFire("truck", 1, "m1", "guard-a")))
    f.combat_used = False
    assert "no pintle gunner" in str(at_vehicle_problem(state, shot))


def test_a_carrier_and_its_load_get_in_together_and_out_together_when_destroyed() -> None:
    """Embarking with the Mayor (F-54, F-154); the helpless Mayor aboard gives his own team
    no activation; on destruction the load lands on its carrier's square (invariants hold)
    and loses 4 Gutz: Gutz 4 → 0 kills a helpless figure."""
    from killhouse.rulesets.firewall.vehicles.crew import live_vehicle_team
    from killhouse.rulesets.firewall.vehicles.orders import embark
    from tests.rulesets.firewall.test_closecombat import Dice
    game = _ash()
    state = game.state
    _bring(state, "uav", (22, 31), "n")  # footprint x 22..24, y 31..35, south of the ruin
    g, mayor = state.figures["guard-a"], state.figures["lord-mayor"]
    g.cell, mayor.cell = (21, 31), (21, 31)
    g.carrying, mayor.carried_by = "lord-mayor", "guard-a"
    state.teams["bodyguards"].aware = True
    state.active_team = "bodyguards"
    act = Action.make("mayor", "embark", figure="guard-a", vehicle="uav")
    embark(state, act, Dice([2, 3]), game.log)
    v = state.vehicles["uav"]
    assert v.passengers == {"malone": "active", "toddy": "active", "militia-1": "active",
                            "militia-2": "active", "guard-a": "active",
                            "lord-mayor": "incapacitated"}
    assert not live_vehicle_team(state, state.teams["lordmayor"])
    assert live_vehicle_team(state, state.teams["bodyguards"])
    apply_effect(state, v, "kill")
    assert mayor.cell == g.cell and mayor.status is Status.KILLED
    assert not [p for p in game.ruleset.invariants(state) if "carried" in p]


def test_a_vehicle_blocks_sight_and_movement_and_is_hidden_out_of_sight() -> None:
    """F-24 / F-141: figures on either side of a vehicle do not see each other; a route
    through its footprint is refused; an enemy vehicle behind a wall is in no view and no
    known id until seen, then it is (and stays nameable, F-103)."""
    from killhouse.rulesets.firewall.moving import MoveOrder, move_problem
    from killhouse.rulesets.firewall.vehicles.scenario import after_vehicle_action
    from killhouse.rulesets.firewall.vision import seen_by_side
    game = _ash()
    state = game.state
    a, b = state.figures["guard-a"], state.figures["mildred"]
    a.cell, b.cell = (1, 30), (1, 36)  # column 1, open street between
    assert "mildred" in seen_by_side(state.board, state.figures, "mayor")
    _bring(state, "apc", (0, 32), "n")  # footprint x 0..1, y 32..35: between them
    assert "mildred" not in seen_by_side(state.board, state.figures, "mayor")
    problem = move_problem(state.board, state.figures, MoveOrder("guard-a", "walk", ((1, 34),)))
    assert problem is not None and "not passable" in problem
    # the APC is seen by guard-a (the nearest footprint square is in sight)
    assert "apc" in game.ruleset.known_ids(state, "mayor")
    # behind the ruin's wall it is not
    state.board.levels[0].terrain[31, 0:3] = 2  # a wall across x 0..2 at y 31
    assert "apc" not in game.ruleset.known_ids(state, "mayor")
    view = game.ruleset.view(state, "mayor")
    assert "apc" not in [v["id"] for v in view["vehicles"]]
    state.board.levels[0].terrain[31, 0:3] = 1
    after_vehicle_action(state, game.log)  # seen now: remembered from here on
    state.board.levels[0].terrain[31, 0:3] = 2
    assert "apc" in game.ruleset.known_ids(state, "mayor")
    assert "apc" not in [v["id"] for v in game.ruleset.view(state, "mayor")["vehicles"]]


def test_vehicle_weapon_long_range_edge_and_embark_reach_in_play() -> None:
    """The UAV's turret VMG (Long 100 cm = 41 squares, F-1) at a figure 41 squares from the
    nearest footprint square, and one past; embarking from 2 cm (beside the footprint) and
    from one square farther (F-48)."""
    from killhouse.rulesets.firewall.vehicles.gunnery import VFire, vfire_problem
    from killhouse.rulesets.firewall.vehicles.orders import embark_problem
    game = _ash()
    state = game.state
    _bring(state, "uav", (0, 43), "n")  # footprint x 0..2, y 43..47
    state.teams["uav-crew"].aware = True
    m = state.figures["mildred"]
    m.cell = (1, 2)
    assert vfire_problem(state, VFire("uav", 1, "m1", "mildred")) is None
    m.cell = (1, 1)
    assert "beyond" in str(vfire_problem(state, VFire("uav", 1, "m1", "mildred")))
    ok = state.figures["guard-a"]
    ok.cell = (3, 44)  # beside the footprint: within 2 cm
    assert embark_problem(state, ok, "uav") is None
    ok.cell = (4, 44)  # one square farther
    assert "within 2 cm" in str(embark_problem(state, ok, "uav"))


@pytest.mark.parametrize(("old", "new", "message"), [
    ("sample: mercedes_uav", "sample: batmobile", "no sample vehicle 'batmobile'"),
    ("arrives: 1D6,", "arrives: soon,", "expected a Turn or dice"),
    ("facing: n, gutz: 8", "facing: ne, gutz: 8", "faces n, e, s or w"),
    ("passengers: [malone,", "passengers: [nobody,", "expected a list of figure ids"),
    ("type: thug, gutz: 8, at: \"ash:19,0\"", "type: thug, transport: hoverboard, gutz: 8, "
     "at: \"ash:19,0\"", "no personal transport 'hoverboard'"),
    ("sample: improvised_apc", "design: {chassis: motorbike, crew: [driver], passengers: 9, "
     "move: {land: fast}, armour: soft}", "over the Motor bike's limit"),
])
def test_bad_vehicle_scenarios_get_one_clear_message(tmp_path: Path, old: str, new: str,
                                                     message: str) -> None:
    from killhouse.errors import ScenarioError
    from killhouse.rulesets import get_ruleset
    text = ASH.read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        scenario = load_scenario(bad)
        if get_ruleset("firewall").check_scenario(scenario):
            Game(scenario, 1)
    assert message in str(info.value)
    assert "bad.yaml:" in str(info.value)


def test_a_rider_in_play_gets_on_moves_at_skateboard_speed_and_shoots_at_minus_3(
        tmp_path: Path) -> None:
    """§17.1: a figure with a skateboard gets on (a Movement action, no move), then a Turn
    later runs at Full: 36 cm allowed (× 1.25 on a CS, the most a route may be), one step
    past refused; its shots that Turn take −3 (F-46)."""
    from killhouse.rulesets.firewall.fire import fire_terms
    from killhouse.rulesets.firewall.moving import MoveOrder, move_problem
    from killhouse.rulesets.firewall.shooting import Shot, shot_situation
    from killhouse.rulesets.firewall.vehicles.orders import ride
    from killhouse.rulesets.firewall.vehicles.transport import note_ride
    from tests.rulesets.firewall.test_closecombat import Dice
    text = ASH.read_text().replace('type: thug, gutz: 8, at: "ash:19,0"',
                                   'type: thug, transport: skateboard, gutz: 8, at: "ash:19,0"')
    path = tmp_path / "ride.yaml"
    path.write_text(text)
    game = Game(load_scenario(path), 1)
    state = game.state
    y = state.figures["yardie-1"]
    assert y.transport == "skateboard" and not y.riding
    state.active_team = "gaea"
    ride(state, Action.make("gang", "ride", figure="yardie-1", on=True), Dice([2, 3]), game.log)
    assert y.riding and y.move_used
    y.move_used, y.cell = False, (0, 0)
    # 36 × 1.25 = 45 cm: 18 squares down column 0 fit, 19 (47.5 cm) do not
    assert move_problem(state.board, state.figures, MoveOrder("yardie-1", "run", ((0, 18),))) \
        is None
    assert "longer than" in str(move_problem(state.board, state.figures,
                                             MoveOrder("yardie-1", "run", ((0, 19),))))
    note_ride(y, "run")
    y.cell, y.facing = (23, 16), (0, 1)
    state.figures["guard-a"].cell = (23, 17)
    terms = dict(fire_terms(shot_situation(state.board, state.figures, state.teams,
                                           Shot("yardie-1", "guo_peng_model_49", "guard-a"))))
    assert terms["transport"] == -3


def test_a_burst_at_a_figure_catches_a_soft_vehicle_inside_its_radius_only() -> None:
    """F-20 / F-151: an S of a B(HMG) burst (loss radius 5 cm = 3 squares) at a figure costs a
    soft vehicle 4 Gutz when its nearest square is 3 squares away, nothing at 4; a Light
    vehicle is never caught by it (F-50)."""
    from killhouse.core.events import EventLog
    from killhouse.rulesets.firewall.teams import Team
    from killhouse.rulesets.firewall.vehicles.build import make_vehicle
    from killhouse.rulesets.firewall.vehicles.gunnery import splash_vehicles
    game = _ash()
    state = game.state
    car = make_vehicle("bug", "gang", sample("city_bug"), gutz=8, experience="normal", drive=0,
                       anchor=(0, 40), facing="n")  # footprint x 0..1, y 40..42
    state.vehicles["bug"] = car
    state.teams[car.team] = Team(car.team, "gang", (), None)
    stamp(state.board, car)
    state.figures["mildred"].cell = (4, 41)  # 3 squares from (1, 41)
    log = EventLog()
    assert splash_vehicles(state, "corp_arms_mg_22", None, "S", "mildred", "guard-a", log) \
        == ["bug"]
    assert car.gutz == 4
    state.figures["mildred"].cell = (5, 41)  # 4 squares: outside 5 cm
    assert splash_vehicles(state, "corp_arms_mg_22", None, "S", "mildred", "guard-a") == []
    car.armour = "light"
    state.figures["mildred"].cell = (4, 41)
    assert splash_vehicles(state, "corp_arms_mg_22", None, "S", "mildred", "guard-a") == []
