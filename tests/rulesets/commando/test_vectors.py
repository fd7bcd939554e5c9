"""Every tactical test vector of digest section 17 (items 1-14, 16, 17, 19) as a test row.

Rolls are forced through a scripted ``Chance`` so each vector's dice give the stated result
through the same functions play uses.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando import fire, grenades, melee, observation, panic
from killhouse.rulesets.commando.characters import (
    charmod,
    efficiency,
    hero_class,
    skill_chance,
    skill_level,
    st_bonus,
)
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.movement import step_cost
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.wounds import Wound, allotment, wound_state


class Forced(Chance):
    """A chance whose dice come from a list, in order (fails loudly if the list runs out)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= len(weights), (face, what, purpose)
        return face - 1


# 1. CharMod
@pytest.mark.parametrize(
    ("value", "mod"),
    [(0, -17), (4, -9), (8, -1), (9, 0), (17, 0), (18, 1), (22, 9), (24, 13), (29, 23), (30, 25),
     (35, 25)],
)
def test_v1_charmod(value: int, mod: int) -> None:
    assert charmod(value) == mod


# 2. St H2H kill/damage bonus
@pytest.mark.parametrize(
    ("st", "bonus"), [(20, 0), (21, 1), (24, 1), (25, 2), (27, 2), (28, 3), (29, 3), (30, 4)]
)
def test_v2_st_bonus(st: int, bonus: int) -> None:
    assert st_bonus(st) == bonus


# 3. K(H)
@pytest.mark.parametrize(
    ("h", "k"),
    [(-10, 0), (0, 0), (5, 0), (6, 1), (11, 1), (12, 2), (47, 7), (48, 8), (57, 9), (95, 15),
     (96, 16), (130, 16)],
)
def test_v3_kill_table(h: int, k: int) -> None:
    assert fire.kill_chance(h) == k


# 4. Fire table lookups and range
@pytest.mark.parametrize(
    ("weapon", "rng", "base"),
    [("rifle", 25, 70), ("pistol", 35, None), ("shotgun", 3, 92), ("mg", 1, 30), ("lmg", 51, 12),
     ("smg", 33, 5), ("carbine", 45, 40), ("ak47", 60, 5)],
)
def test_v4_fire_table(weapon: str, rng: int, base: int | None) -> None:
    assert fire.base_chance(weapon, rng) == base


@pytest.mark.parametrize(("dx", "dy", "rng", "band"), [(3, 4, 5, 2), (20, 9, 24, 4)])
def test_v4_range_and_band(dx: int, dy: int, rng: int, band: int) -> None:
    assert distance(dx, dy) == rng
    assert fire.band_index(rng) == band


@pytest.mark.parametrize(
    ("dx", "dy", "dlevel", "rng"), [(3, 4, 0, 5), (2, 2, 0, 3), (10, 10, 0, 15), (7, 3, 0, 8),
                                    (3, 4, -1, 6), (0, 0, 0, 0)],
)
def test_c1_range_examples(dx: int, dy: int, dlevel: int, rng: int) -> None:
    assert distance(dx, dy, dlevel) == rng


def test_range_zero_is_hand_to_hand_only() -> None:
    assert fire.base_chance("pistol", 0) is None
    assert fire.base_chance("pistol", 1) == 90


@pytest.mark.parametrize(("rng", "band"), [(1, 0), (2, 1), (3, 1), (4, 2), (8, 2), (9, 3),
                                           (20, 3), (21, 4), (30, 4), (31, 5), (40, 5), (41, 6),
                                           (50, 6), (51, 7), (500, 7)])
def test_band_edges(rng: int, band: int) -> None:
    assert fire.band_index(rng) == band


# 5. Full fire example
FIVE = fire.FireSituation(
    "m16", 15, mk=20, hero_combat=hero_class(22).combat, wp=1,
    terrain=fire.terrain_modifier("woods"), target_prone=True,
)


def test_v5_hit_chance_and_kill() -> None:
    assert hero_class(22).combat == 2 and charmod(20) == 5
    assert fire.hit_chance(FIVE) == 57
    assert fire.kill_chance(57) == 9


@pytest.mark.parametrize(
    ("faces", "result", "damage"),
    [([9], fire.KILL, 0), ([10, 4], fire.WOUND, 6), ([57, 1], fire.WOUND, 3), ([58], fire.MISS, 0)],
)
def test_v5_one_fire(faces: list[int], result: str, damage: int) -> None:
    shot = fire.one_fire(Forced(faces), 57, fire.firearm("m16").damage)
    assert (shot.result, shot.damage) == (result, damage)


def test_v5_task_cost_fires_and_mag() -> None:
    assert fire.fire_cost("m16") == 18
    assert fire.fires("m16") == 3
    shots = fire.fire_task(Forced([9, 10, 4, 58]), "m16", 57)
    assert [s.result for s in shots] == [fire.KILL, fire.WOUND, fire.MISS]
    assert fire.mag_check(Forced([18]), "m16") is True
    assert fire.mag_check(Forced([19]), "m16") is False


def test_v5_seriously_wounded() -> None:
    from dataclasses import replace

    h = fire.hit_chance(replace(FIVE, severely_wounded=True))
    assert h == 28 and fire.kill_chance(28) == 4


# 6. Non-proficiency
def test_v6_nonproficiency() -> None:
    assert fire.hit_chance(fire.FireSituation("smg", 1, wp=None)) == 13
    assert fire.hit_chance(fire.FireSituation("smg", 2, wp=None)) == 60
    assert fire.hit_chance(fire.FireSituation("smg", 3, wp=None)) == 60


# 7. Step costs
@pytest.mark.parametrize(
    ("kwargs", "cost"),
    [
        ({"dest": "clear"}, 5),
        ({"dest": "clear", "diagonal": True}, 7),
        ({"dest": "forest"}, 13),
        ({"dest": "rubble", "diagonal": True}, 16),
        ({"dest": "woods", "prone": True}, 13),
        ({"dest": "road", "source": "road"}, 3),
        ({"dest": "trail", "source": "trail", "diagonal": True}, 6),
        ({"dest": "dune"}, 15),
        ({"dest": "water"}, 10),
        ({"dest": "door"}, 10),
        ({"dest": "window"}, 28),
        ({"dest": "fence"}, 17),
        ({"dest": "clear", "levels_up": 1}, 11),
        ({"dest": "clear", "diagonal": True, "levels_down": 1}, 11),
        ({"dest": "clear", "carrying_man": True}, 20),
        # edges of ruling C-6: the road bonus only along the road; impassable kinds
        ({"dest": "road", "source": "clear"}, 5),
        ({"dest": "clear", "source": "road"}, 5),
        ({"dest": "trail", "source": "road"}, 5),
        ({"dest": "barbed_wire"}, 30),
    ],
)
def test_v7_step_costs(kwargs: dict[str, object], cost: int) -> None:
    assert step_cost(**kwargs) == cost  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["wall", "oil_tank", "slit", "drilled_hole", "concertina"])
def test_v7_impassable(kind: str) -> None:
    assert step_cost(kind) is None


# 8. Wound states
@pytest.mark.parametrize(
    ("end0", "damage", "state", "tp"),
    [(14, 6, Wound.WOUNDED, 50), (14, 7, Wound.SERIOUS, 25), (14, 14, Wound.INCAPACITATED, 0),
     (14, 16, Wound.INCAPACITATED, 0), (14, 17, Wound.DEAD, 0), (15, 7, Wound.WOUNDED, 50),
     (15, 8, Wound.SERIOUS, 25), (14, 0, Wound.UNWOUNDED, 50), (14, 13, Wound.SERIOUS, 25)],
)
def test_v8_wounds(end0: int, damage: int, state: Wound, tp: int) -> None:
    assert wound_state(end0, damage) is state
    assert allotment(state) == tp


def test_ignore_serious_wounds() -> None:
    assert wound_state(14, 13, ignore_serious=True) is Wound.WOUNDED
    assert wound_state(14, 14, ignore_serious=True) is Wound.INCAPACITATED
    assert wound_state(14, 0, killed=True) is Wound.DEAD


# 9. Observation
def test_v9_observation() -> None:
    s = observation.Sighting("E", rng=35, target_prone=True, terrain="woods")
    assert observation.observation_chance(s) == 25
    from dataclasses import replace

    assert observation.observation_chance(replace(s, observer_moving=True)) == 5
    doofus = observation.Sighting(
        "G", rng=5, target_moving=True, target_in_searchlight=True, defending=True
    )
    assert observation.observation_chance(doofus) == 95
    assert observation.observation_range("light_rain", "dusk") == 20
    assert observation.in_range(20, "light_rain", "dusk")
    assert not observation.in_range(21, "light_rain", "dusk")


@pytest.mark.parametrize(("rng", "pct"), [(29, 75), (30, 50), (49, 50), (50, 35)])
def test_observation_range_modifier_edges(rng: int, pct: int) -> None:
    assert observation.observation_chance(observation.Sighting("E", rng=rng)) == pct


def test_observation_clamp_edges() -> None:
    assert observation.observation_chance(observation.Sighting("A", target_moving=True)) == 95
    low = observation.Sighting("P", rng=50, target_prone=True)  # 30 − 40 − 15
    assert observation.observation_chance(low) == 5


# 10. Panic
PANIC = panic.PanicSituation(
    lead=12, wound=Wound.SERIOUS, observed_enemy=True, first_sighting=True, leader_near=True,
    conditions=1,
)


def test_v10_panic() -> None:
    assert panic.leadership(12) == (32, 21)
    assert panic.panic_chance(PANIC) == 39
    assert panic.panic_check(Forced([39, 8]), 39) == "fire"
    assert panic.panic_check(Forced([40]), 39) == panic.STEADY
    assert panic.preservation_chance(12, 2) == 42


@pytest.mark.parametrize(
    ("face", "result"), [(1, "prone"), (6, "prone"), (7, "fire"), (8, "fire"), (9, "run"),
                         (10, "run")],
)
def test_panic_results_edges(face: int, result: str) -> None:
    assert panic.panic_result(face) == result


def test_preservation_cap_and_lead_edges() -> None:
    assert panic.preservation_chance(1, 3) == 95  # 45 × 3 = 135, capped (C-15)
    assert panic.preservation_chance(12, 0) == 0
    assert panic.leadership(0) == panic.leadership(1) == (60, 45)
    assert panic.leadership(35) == panic.leadership(30) == (2, 1)


# 11. H2H
KNIFE = melee.Strike("combat_knife", st=22, hero_combat=hero_class(15).combat, wp=2)


def test_v11_h2h() -> None:
    assert melee.strike_chance(KNIFE) == 36
    assert melee.kill_chance(KNIFE) == 9
    blow = melee.strike(Forced([30, 40, 7]), KNIFE)
    assert (blow.result, blow.damage) == (melee.WOUND, 5)
    assert melee.strike(Forced([37]), KNIFE).result == melee.MISS
    assert melee.strike(Forced([36, 9]), KNIFE).result == melee.KILL


@pytest.mark.parametrize(
    ("face", "cls", "points"), [(5, 11, 6), (2, 11, 3), (7, 8, 6), (10, 10, 10)]
    + [(1, c, 1) for c in range(1, 12)],
)
def test_v11_damage_table(face: int, cls: int, points: int) -> None:
    assert melee.damage_points(face, cls) == points


# 12. Grenade
def test_v12_grenade() -> None:
    throw = grenades.Throw("frag", 6, dex=19, hero_combat=hero_class(15).combat, terrain="woods",
                           door_between=True)
    assert grenades.accuracy(throw) == 43
    from dataclasses import replace

    assert grenades.accuracy(replace(throw, thrower_prone=True)) == 21
    landing = grenades.land(Forced([22, 3, 5]), "frag", 21)
    assert (landing.on_target, landing.direction, landing.distance) == (False, "E", 2)
    # closed room, 3 men: a d100 of 6 kills one at random, the others take 2d6
    result = grenades.blast(Forced([6, 2, 3, 4, 5, 6]), "frag", "closed", 3)
    assert result == (7, None, 11)
    assert grenades.blast(Forced([7, 1, 1, 2, 2, 3, 3]), "frag", "closed", 3) == (2, 4, 6)


# 13. Disengagement
@pytest.mark.parametrize(
    ("w", "s", "total", "result"),
    [(1, 1, 5, "all"), (1, 1, 6, "none"), (2, 1, 3, "all"), (2, 1, 5, "one"), (2, 1, 6, "none"),
     (2, 2, 2, "all"), (2, 2, 4, "one"), (2, 2, 5, "none"), (1, 2, 3, "all"), (1, 2, 4, "none"),
     (3, 4, 2, "all"), (3, 4, 3, "one")],
)
def test_v13_disengagement(w: int, s: int, total: int, result: str) -> None:
    assert melee.disengage_result(total, w, s) == result


# 14. Weapon draw
@pytest.mark.parametrize(
    ("armed", "grappled", "total", "ok"),
    [(True, True, 9, False), (True, True, 10, True), (False, False, 4, False),
     (False, False, 5, True), (True, False, 6, False), (True, False, 7, True),
     (False, True, 7, False), (False, True, 8, True)],
)
def test_v14_draw(armed: bool, grappled: bool, total: int, ok: bool) -> None:
    assert melee.draw_succeeds(total, armed, grappled) is ok


# 16. Skills
def test_v16_skills() -> None:
    assert efficiency(13) == 16
    assert skill_level("sniping", 16) == 24
    assert skill_chance("sniping", 16, hero_class(22).skill) == 25
    assert tables().skills["demolitions"].tp == "150-rating"
    assert skill_level("demolitions", 10) == 20
    assert skill_chance("demolitions", 10, 0) == 35
    assert skill_chance("demolitions", 18, 0) == 36


# 17. Hero class
@pytest.mark.parametrize(
    ("rating", "combat", "obs", "skill", "totals", "escape"),
    [(8, -5, "G", -3, (0, 0), False), (25, 3, "C", 3, (1, 1), False),
     (28, 4, "B", 5, (2, 2), True), (29, 5, "A", 7, (3, 4), True), (30, 5, "A", 7, (3, 4), True),
     (31, 6, "A", 9, (3, 4), True), (33, 7, "A", 11, (3, 4), True), (13, 0, "E", 0, (0, 0), False),
     (12, -3, "F", -1, (0, 0), False)],
)
def test_v17_hero(
    rating: int, combat: int, obs: str, skill: int, totals: tuple[int, int], escape: bool
) -> None:
    h = hero_class(rating)
    assert not h.retired
    assert (h.combat, h.obs, h.skill, (h.skills_wps, h.abilities), h.escape) == (
        combat, obs, skill, totals, escape)


def test_v17_hero_4_is_retired() -> None:
    assert hero_class(4).retired and not hero_class(5).retired


# 19. Multi-turn task
def test_v19_revive_spreads_over_turns() -> None:
    cost = tables().cost["revive"]
    assert cost == 150
    assert -(-cost // allotment(Wound.UNWOUNDED)) == 3
    assert -(-cost // allotment(Wound.SERIOUS)) == 6


@pytest.mark.parametrize(
    ("device", "rng", "base"),
    [("frag", 0, 95), ("frag", 12, 35), ("frag", 13, None), ("smoke", 15, 25),
     ("smoke", 16, None), ("rifle_grenade", 36, 10), ("rifle_grenade", 37, None),
     ("thump_gun", 10, None), ("thump_gun", 11, 80), ("thump_gun", 100, 10),
     ("thump_gun", 101, None), ("law", 10, None), ("law", 11, 75), ("law", 68, 5),
     ("law", 500, 5), ("satchel", 0, 90), ("satchel", 7, 13), ("satchel", 8, None),
     ("rocket", 0, 80), ("rocket", 2, 95), ("rocket", 36, 2), ("rocket", 900, 2)],
)
def test_accuracy_table_edges(device: str, rng: int, base: int | None) -> None:
    assert grenades.accuracy_base(device, rng) == base


def test_launcher_uses_mk_and_fired_modifiers() -> None:
    rocket = grenades.Throw("rocket", 10, dex=30, mk=20, terrain="forest", door_between=True,
                            target_higher=True, thrower_prone=True)
    assert grenades.accuracy(rocket) == 75 + 5 - 10 - 10 - 7  # prone does not halve (9.3)
    from dataclasses import replace

    assert grenades.accuracy(replace(rocket, no_los=True, severely_wounded=True)) == 53 // 4


@pytest.mark.parametrize(("men", "roll", "killed"), [(3, 6, True), (3, 7, False), (1, 2, True),
                                                     (1, 3, False)])
def test_blast_kill_edge(men: int, roll: int, killed: bool) -> None:
    faces = [roll] + ([1] if killed else []) + [1, 1] * men
    result = grenades.blast(Forced(faces), "frag", "closed", men)
    assert (None in result) is killed


def test_satchel_open_damage_may_be_zero() -> None:
    assert grenades.blast(Forced([100, 1]), "satchel", "open", 1) == (0,)
    assert grenades.blast(Forced([100, 6]), "satchel", "open", 1) == (4,)
    assert grenades.blast_radius("satchel") == 2 and grenades.blast_radius("frag") == 1


@pytest.mark.parametrize(("conditions", "pct"), [(4, 84), (5, 95), (1, 21)])
def test_preservation_cap_edge(conditions: int, pct: int) -> None:
    assert panic.preservation_chance(12, conditions) == pct
