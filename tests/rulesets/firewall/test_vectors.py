"""Every figure test vector of digest §22 (G, M, S, C, X, T) as a table row."""

from __future__ import annotations

from fractions import Fraction

import pytest

from killhouse.rulesets.firewall import armour as arm
from killhouse.rulesets.firewall.cyber import cyber_failure_due
from killhouse.rulesets.firewall.drugs import end_gutz_drug, take_drug
from killhouse.rulesets.firewall.fire import (
    FireSituation,
    Hit,
    apply_hit,
    av_vs_armour,
    can_affect_vehicle,
    cloud_outcome,
    fire_modifier,
    infantry_outcome,
    infantry_table,
    range_band,
    ssa_vs_armour,
)
from killhouse.rulesets.firewall.grid import route_length_cm, within
from killhouse.rulesets.firewall.gutz import change_gutz, classify, roller_change
from killhouse.rulesets.firewall.jams import (
    malfunction_effect,
    malfunction_total,
    unjam_effect,
)
from killhouse.rulesets.firewall.leaders import failure_limit, leader_loss_effect
from killhouse.rulesets.firewall.melee import MeleeSituation, melee_modifier, melee_outcome
from killhouse.rulesets.firewall.movement import (
    fall_attacks,
    fall_hit,
    max_distance,
    move_allowance,
    needs_second_roll,
    rally_effect,
    second_roll_change,
)
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.turn import activation_sides

T = tables()
ORIGIN = (0, 0)


# -- 22.1 core Gutz roll --------------------------------------------------------------

@pytest.mark.parametrize(
    ("vector", "g", "m", "dice", "result"),
    [
        ("G1", 7, 0, (3, 4), "S"),
        ("G2", 7, -1, (3, 4), "F"),
        ("G3", 7, 0, (3, 3), "CS"),
        ("G4", 7, -3, (3, 3), "CS"),
        ("G5", 7, 2, (4, 4), "CF"),
        ("G6", 5, 1, (2, 4), "S"),
        ("G7", 2, 5, (1, 2), "S"),
        ("G8", 2, -9, (1, 1), "CS"),
        ("G9", 11, 5, (6, 6), "CF"),
        ("G10", 11, 0, (5, 6), "S"),
        ("G11", 6, -7, (1, 2), "F"),
        ("G12", 10, -4, (5, 5), "CS"),
    ],
)
def test_core_gutz_roll(vector: str, g: int, m: int, dice: tuple[int, int], result: str) -> None:
    assert classify(g, m, *dice) == result, vector


def test_g13_skill_level_1_halves_gutz_for_criticals() -> None:
    assert classify(9, 0, 3, 3, skill_level=1) == "CF"
    assert classify(9, 0, 2, 2, skill_level=1) == "CS"  # 4 <= 4: the edge
    assert classify(9, 0, 1, 3, skill_level=1) == "S"
    assert classify(9, 0, 2, 3, skill_level=1) == "F"  # one step past


@pytest.mark.parametrize(("dice", "result"), [((1, 1), "S"), ((2, 2), "CF"), ((2, 3), "F")])
def test_g14_skill_level_0(dice: tuple[int, int], result: str) -> None:
    assert classify(9, 0, *dice, skill_level=0) == result


@pytest.mark.parametrize(
    ("dice", "result"), [((5, 5), "F"), ((6, 6), "CF"), ((4, 4), "CS"), ((3, 5), "S")]
)
def test_g15_skill_level_3_in_combat(dice: tuple[int, int], result: str) -> None:
    assert classify(5, 0, *dice, skill_level=3, in_combat=True, start_gutz=8) == result


def test_level_3_cf_cannot_drop_below_starting_gutz() -> None:
    assert change_gutz(8, -1, floor=8).gutz == 8
    assert change_gutz(9, -1, floor=8).gutz == 8
    assert change_gutz(5, -1, floor=8).gutz == 5


# -- 22.2 movement --------------------------------------------------------------------

def _straight(cells: int) -> list[tuple[int, int]]:
    return [ORIGIN, (cells, 0)]


def test_m1_m2_walk_through_clutter_2() -> None:
    route = route_length_cm(_straight(6))  # 15 cm
    walk = max_distance("walk")
    assert classify(7, -2, 2, 3) == "S"
    assert move_allowance("S", route, walk).distance == Fraction(15)
    assert classify(7, -2, 3, 4) == "F"
    m2 = move_allowance("F", route, walk)
    assert m2.distance == Fraction(15, 2) and m2.exact
    assert not needs_second_roll("walk", "F")


def test_m3_run_failure_and_second_roll() -> None:
    route = route_length_cm(_straight(12))  # 30 cm
    assert classify(7, -1, 4, 5) == "F"
    assert move_allowance("F", route, max_distance("run")).distance == Fraction(13)
    assert needs_second_roll("run", "F")
    assert not needs_second_roll("run", "CF")
    assert second_roll_change(classify(7, -1, 2, 2)) == 0  # CS: no gain (F-11)
    assert second_roll_change(classify(7, -1, 5, 3)) == -1  # 8 > 6


def test_m4_critical_success_in_clutter_5() -> None:
    assert classify(4, -5, 2, 2) == "CS"
    assert change_gutz(4, roller_change("CS")).gutz == 5
    allowance = move_allowance("CS", route_length_cm(_straight(4)), max_distance("walk"))
    assert allowance.distance == Fraction(45, 2) and allowance.beyond_route


def test_m5_critical_failure_does_not_move() -> None:
    assert classify(9, 0, 5, 5) == "CF"
    assert change_gutz(9, -1).gutz == 8
    assert move_allowance("CF", route_length_cm(_straight(2)), max_distance("crawl")).distance == 0


def test_m6_armour_and_cyber_legs() -> None:
    move = T.armour["piece_metal"].move
    assert [max_distance(s, "basic", move) for s in ("crawl", "walk", "run")] == [5, 23, 35]
    assert [max_distance(s, "none", move) for s in ("crawl", "walk", "run")] == [2, 14, 22]


def test_m7_failed_rally() -> None:
    assert classify(6, -3, 1, 3) == "F"
    assert rally_effect("F") == (False, 0, False)
    assert rally_effect("CS") == (True, 1, True)


def test_m8_fall_from_10_cm() -> None:
    assert fall_attacks(10) == (2, 11)
    assert fall_hit(classify(11, 0, 3, 4)) == (False, 2)
    assert fall_hit(classify(11, 0, 5, 5)) == (True, 0)
    assert fall_attacks(Fraction(399, 100))[0] == 0  # under 4 cm: no attack
    assert fall_attacks(4) == (1, 8)


# -- 22.3 shooting --------------------------------------------------------------------

def _situation(weapon: str, target: tuple[int, int], **kw: object) -> FireSituation:
    w = T.weapon(weapon)
    band = range_band(w, ORIGIN, target)
    assert band is not None
    fire = kw.pop("fire", None)
    return FireSituation(mode=w.mode(fire if isinstance(fire, str) else None), band=band,
                         **kw)  # type: ignore[arg-type]


def test_s1_single_shot_results() -> None:
    s = _situation("Corp Arms SHP", (4, 0), cover="light")  # 7.5 cm: effective
    assert s.band == "effective" and fire_modifier(s) == 0
    assert classify(8, 0, 3, 5) == "S"
    hit = infantry_outcome("SS", "S", "t", {"t": (4, 0)}).hits["t"]
    after = apply_hit(7, "active", False, hit, arm.reduction(T.armour["korlon_pleximesh"]))
    assert after.gutz == 6  # −2, Korlon R 1: −1 net
    cs = infantry_outcome("SS", "CS", "t", {"t": (4, 0)})
    assert cs.hits["t"].killed and cs.firer_change == 1
    cf = infantry_outcome("SS", "CF", "t", {"t": (4, 0)})
    assert cf.firer_change == -1 and cf.malfunction and not cf.hits
    assert malfunction_effect(malfunction_total(3, 0, "SS")) == "jammed"


def test_s2_long_range_and_beyond() -> None:
    shp = T.weapon("Corp Arms SHP")
    s = _situation("Corp Arms SHP", (6, 0), cover="light")  # 12.5 cm
    assert s.band == "long" and fire_modifier(s) == -1
    assert classify(8, -1, 3, 5) == "F"
    assert range_band(shp, ORIGIN, (9, 0)) == "long"  # exactly 20 cm
    assert range_band(shp, ORIGIN, (9, 1)) is None  # 20.1 cm: illegal (F-19)


def test_s3_controlled_burst() -> None:
    s = _situation("H&K MP5261v", (3, 0))  # 5 cm: short
    assert s.band == "short" and fire_modifier(s) == 0
    hit = infantry_outcome("CB", classify(9, 0, 6, 3), "t", {"t": (3, 0)}).hits["t"]
    assert max(0, hit.loss - arm.reduction(T.armour["mono_weave"])) == 2


def test_s4_burst_area() -> None:
    s = _situation("IMI Buzzard", (6, 0))  # 12.5 cm: long
    assert fire_modifier(s) == -2
    assert classify(7, -2, 1, 4) == "S"
    where = {"A": (6, 0), "B": (7, 1), "C": (8, 2), "D": (9, 1), "firer": ORIGIN}
    out = infantry_outcome("B", "S", "A", where, firer="firer")
    assert out.hits["A"] == Hit(loss=1, suppressed=True)
    assert out.hits["B"] == Hit(loss=1, suppressed=True)
    assert out.hits["C"] == Hit(loss=0, suppressed=True)
    assert "D" not in out.hits and "firer" not in out.hits
    after_a = apply_hit(8, "active", False, out.hits["A"], T.armour["korlon_pleximesh"].loss)
    assert after_a.gutz == 8 and after_a.suppressed
    cs = infantry_outcome("B", classify(7, -2, 2, 2), "A", where, firer="firer")
    assert cs.hits["A"].killed and cs.hits["B"].killed
    assert cs.hits["C"] == Hit(suppressed=True) and "D" not in cs.hits
    assert cs.firer_change == 1


def test_s5_machinegun_burst() -> None:
    s = _situation("Enfield-Colt SAW", (19, 0), cover="medium")  # 45 cm: effective
    assert s.band == "effective" and fire_modifier(s) == -3
    where = {"t": (19, 0), "edge5": (22, 0), "past5": (22, 1), "edge10": (24, 0),
             "past10": (24, 1)}
    out = infantry_outcome("B(MG)", "S", "t", where)
    assert out.hits["t"].loss == 3 and out.hits["edge5"].loss == 3
    assert out.hits["past5"] == Hit(suppressed=True) and out.hits["edge10"].suppressed
    assert "past10" not in out.hits


def test_s6_heavy_machinegun_burst() -> None:
    s = _situation("Corp Arms MG-22", (13, 0))  # 30 cm: short
    assert s.band == "short" and fire_modifier(s) == 0
    assert classify(9, 0, 4, 5) == "S"
    where = {"t": (20, 0), "edge5": (23, 0), "past5": (23, 1), "edge15": (27, 0),
             "past15": (27, 1), "cs_edge": (24, 0), "cs_past": (24, 1)}
    out = infantry_outcome("B(HMG)", "S", "t", where)
    assert out.hits["edge5"].loss == 4 and out.hits["past5"] == Hit(suppressed=True)
    assert out.hits["edge15"].suppressed and "past15" not in out.hits
    cs = infantry_outcome("B(HMG)", "CS", "t", where)
    assert cs.hits["cs_edge"].killed and not cs.hits["cs_past"].killed  # 7.5 cm (F-23)


def test_s7_s9_anti_armour_tables() -> None:
    assert [ssa_vs_armour("S", a) for a in ("soft", "light", "medium", "heavy")] == [4, 3, 2, 1]
    assert ssa_vs_armour("CS", "medium") == "kill" and ssa_vs_armour("CS", "heavy") == 3
    assert av_vs_armour("AV(L)", "S", "medium") == 1
    assert av_vs_armour("AV(L)", "CS", "medium") == 4
    assert av_vs_armour("AV(H)", "S", "soft") == "kill"
    assert av_vs_armour("AV(M)", "CS", "heavy") == 4
    lavr = _situation("FN M56 LAVR", (21, 0), vs_infantry=False)  # 50 cm: effective
    assert fire_modifier(lavr) == 1


def test_s8_anti_armour_against_infantry() -> None:
    s = _situation("Guo Peng P-LAW", (5, 0))  # 10 cm: short
    assert fire_modifier(s) == 1 and infantry_table("SS(A)") == "B"
    out = infantry_outcome("SS(A)", classify(6, 1, 1, 5), "t", {"t": (5, 0), "n": (6, 1)})
    assert out.hits["t"].loss == 1 and out.hits["n"].loss == 1


def test_s10_gun_against_infantry() -> None:
    s = _situation("Braithwaite Optics L90", (17, 0))  # 40 cm: short
    assert fire_modifier(s) == 0 and infantry_table("AV(M)") == "B(HMG)"
    assert infantry_outcome("AV(M)", classify(7, 0, 3, 4), "t", {"t": (17, 0)}).hits["t"].loss == 4


def test_s11_buckshot_and_slugs() -> None:
    korlon = T.armour["korlon_pleximesh"]
    riot = infantry_outcome("B", "S", "t", {"t": (3, 0)}).hits["t"]
    after = apply_hit(8, "active", False, riot, arm.reduction(korlon, "double"))
    assert after.gutz == 8 and after.suppressed
    slug = infantry_outcome("SS", "S", "t", {"t": (3, 0)}).hits["t"]
    assert apply_hit(8, "active", False, slug, arm.reduction(korlon)).gutz == 7


def test_s12_mono_flechette_halves_armour() -> None:
    hit = infantry_outcome("B(MG)", "S", "t", {"t": (3, 0)}).hits["t"]
    r = arm.reduction(T.armour["bi_phase"], T.grenade("Mono-Flechette").armour)
    assert r == 1 and arm.loss_after_armour(hit.loss, r) == 2


def test_s13_two_pistols() -> None:
    s = _situation("Corp Arms SHP", (3, 0), two_weapons=True)  # 5 cm: short
    assert fire_modifier(s) == -1


def test_s14_suppressed_firer() -> None:
    s = _situation("Colt M2117", (6, 0), suppressed=True)  # 12.5 cm: effective
    assert fire_modifier(s) == -4 and classify(8, -4, 1, 2) == "S"


def test_s15_vehicle_machinegun_legality() -> None:
    assert can_affect_vehicle("VMG", "soft") and not can_affect_vehicle("VMG", "light")
    assert infantry_table("VMG") == "B(HMG)"


def test_s16_grenades() -> None:
    frag = T.grenade("Fragmentation")
    s = _situation("Hand Grenade", (3, 0), fire_type=frag.fire)  # 5 cm: effective
    assert s.band == "effective" and fire_modifier(s) == 0 and classify(7, 0, 2, 3) == "S"
    close = _situation("Hand Grenade", (2, 1), fire_type=frag.fire)  # 3.1 cm: short
    assert fire_modifier(close) == 1
    smoke = _situation("Hand Grenade", (5, 0), fire_type="Spec")  # 10 cm: long
    assert smoke.band == "long" and fire_modifier(smoke) == -1
    assert cloud_outcome(classify(7, -1, 4, 4)) == (False, -1)


# -- 22.4 close combat ----------------------------------------------------------------

def test_c1_sword_in_a_crowd() -> None:
    s = MeleeSituation(weapon="close_combat", clutter=3, extra_friends=1, extra_enemies=1)
    assert melee_modifier(s) == -1
    assert classify(8, -1, 3, 4) == "S"
    loss = melee_outcome("S").target_loss
    assert arm.loss_after_armour(loss, arm.reduction(T.armour["piece_metal"], melee=True)) == 2
    cs = melee_outcome(classify(8, -1, 4, 4))
    assert cs.target_killed and cs.attacker_gain == 1
    cf = melee_outcome(classify(8, -1, 5, 5))
    assert cf.attacker_killed and cf.target_gain == 1


def test_c2_grenade_against_a_vehicle() -> None:
    s = MeleeSituation(weapon="close_combat", vs_vehicle=True, with_grenade=True)
    assert melee_modifier(s) == 0
    assert melee_outcome(classify(7, 0, 2, 4), vs_vehicle=True).target_loss == 2


def test_c3_melee_armour_overrides() -> None:
    loss = melee_outcome("S").target_loss
    assert loss - arm.reduction(T.armour["mono_weave"], melee=True) == 4
    assert loss - arm.reduction(T.armour["biker_leathers"], melee=True) == 3


# -- 22.5 malfunctions, un-jamming, grenades -------------------------------------------

@pytest.mark.parametrize(
    ("vector", "die", "weapon", "fire", "experience", "total", "effect"),
    [
        ("X1", 5, "H&K LMG-21", "B(MG)", "green", 6, "killed"),
        ("X2", 2, "Ruger Defender", "SS", "veteran", 1, "dud"),
        ("X3", 4, "H&K MP5261v", "CB", "normal", 4, "useless"),
        ("X3b", 5, "H&K MP5261v", "CB", "normal", 5, "explodes"),
    ],
)
def test_malfunctions(
    vector: str, die: int, weapon: str, fire: str, experience: str, total: int, effect: str
) -> None:
    malf = T.weapon(weapon).mode(fire).malf
    assert malf is not None
    got = malfunction_total(die, malf, fire, experience)
    assert (got, malfunction_effect(got)) == (total, effect), vector


def test_x4_hand_grenade_critical_failure() -> None:
    assert malfunction_effect(5, grenade=True) == "grenade_s_on_firer"
    assert malfunction_effect(6, grenade=True) == "grenade_cs_on_firer"
    assert malfunction_effect(2, grenade=True) == "dud"
    where = {"thrower": ORIGIN, "near": (1, 1), "five": (3, 0), "six": (3, 1)}
    s = infantry_outcome("B", "S", "thrower", where)
    assert s.hits["thrower"].loss == 1 and s.hits["near"].loss == 1
    assert s.hits["five"] == Hit(suppressed=True) and "six" not in s.hits
    cs = infantry_outcome("B", "CS", "thrower", where)
    assert cs.hits["thrower"].killed and cs.hits["near"].killed and cs.hits["five"].suppressed


@pytest.mark.parametrize(
    ("dice", "state", "gutz"), [((1, 2), "ready", 6), ((3, 3), "ready", 7), ((4, 4), "useless", 5)]
)
def test_x5_unjam(dice: tuple[int, int], state: str, gutz: int) -> None:
    weapon_state, change = unjam_effect(classify(6, 1, *dice))
    assert (weapon_state, 6 + change) == (state, gutz)


# -- 22.6 turn sequence and misc. -------------------------------------------------------

def test_t1_one_third_rule() -> None:
    assert [failure_limit(n) for n in (7, 2, 12, 1, 5, 6, 8, 9, 11)] == [2, 1, 4, 1, 1, 2, 2, 3, 3]


def test_t2_alternating_activations() -> None:
    assert activation_sides(["A", "B"], {"A": 3, "B": 1}) == ["A", "B", "A", "A"]
    assert activation_sides(["C", "A", "B"], {"A": 2, "B": 1, "C": 1}) == ["C", "A", "B", "A"]


@pytest.mark.parametrize(
    ("dice", "gutz", "status", "suppressed", "failed"),
    [((2, 2), 8, "active", False, False), ((1, 5), 6, "active", True, False),
     ((3, 5), 6, "active", True, True), ((4, 4), 7, "routed", False, False)],
)
def test_t3_leader_loss(
    dice: tuple[int, int], gutz: int, status: str, suppressed: bool, failed: bool
) -> None:
    effect = leader_loss_effect(7, classify(7, 0, *dice), suppressed=False)
    assert (effect.gutz, effect.status, effect.suppressed, effect.failed) == (
        gutz, status, suppressed, failed
    )


def test_leader_loss_below_2_routs_and_keeps_suppression() -> None:
    assert leader_loss_effect(2, "S", suppressed=False).status == "routed"
    assert leader_loss_effect(8, "CS", suppressed=True).suppressed


def test_t4_cyber_failure_trigger() -> None:
    assert classify(3, 0, 2, 2) == "CF"
    assert cyber_failure_due("CF", 4, 5)
    assert not cyber_failure_due("CF", 4, 4)  # strictly less (F-40)
    assert not cyber_failure_due("F", 3, 5)


def test_t5_t80_at_gutz_11() -> None:
    taken = take_drug("t80", "S", 11)
    assert (taken.gutz, taken.gained) == (11, 0)
    assert end_gutz_drug(11, taken.gained) == 11
    assert take_drug("t80", "CF", 9).gutz == 6
    assert take_drug("ground_zero", "CF", 9).dead


def test_t6_grid_distances() -> None:
    assert within(ORIGIN, (3, 0), 5)
    assert within(ORIGIN, (2, 2), 5)
    assert not within(ORIGIN, (3, 1), 5)
