"""After the mission (digest 14) against the test vectors of digest 17 item 18 and the
proficiency table of digest 16; the roster checks of hand-edited files (ruling C-137)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from killhouse.errors import KillhouseError
from killhouse.roster.files import RosterError, loads_roster
from killhouse.rulesets.commando.campaign import after_mission, healing, improvement
from killhouse.rulesets.commando.campaign.odds import CAMPAIGN_ROLLS
from killhouse.sim.odds import exact_odds, parse_args
from tests.rulesets.commando.campaign.helpers import Faces

F = Fraction


def odds(roll: str, *args: str) -> dict[str, Fraction]:
    spec = CAMPAIGN_ROLLS[roll]
    return exact_odds(spec, parse_args(spec, list(args)))


@pytest.mark.parametrize(("a", "p"), [(0, "0.72"), (1, "0.68"), (2, "0.64"), (3, "0.60"),
                                      (4, "0.56"), (5, "0.52"), (10, "0.32"), (16, "0.08"),
                                      (17, "0.05"), (18, "0.05"), (40, "0.05")])
def test_proficiency_improvement_table(a: int, p: str) -> None:
    assert odds("wp-improve", "--addition", str(a))["improves"] == F(p)


def test_vector_18_wp_skill_and_hero_rolls() -> None:
    # WP: a = 0 rises on 29 (not 28); a = 5 on 49 (not 48); a = 17 on 96 (not 95)
    for a, low in ((0, 29), (5, 49), (17, 96)):
        assert improvement.wp_improves(Faces([low]), "wp", a)
        assert not improvement.wp_improves(Faces([low - 1]), "wp", a)
    # skill rating 16: 17 raises it, 16 does not
    assert improvement.skill_improves(Faces([17]), "skill", 16)
    assert not improvement.skill_improves(Faces([16]), "skill", 16)
    assert odds("skill-improve", "--rating", "16")["improves"] == F(84, 100)
    # Hero 15, potential 2: after a success 30 or less gives +1; after a failure 15 or less -1
    assert improvement.hero_change(Faces([30]), "h", 15, True, 2) == 1
    assert improvement.hero_change(Faces([31]), "h", 15, True, 2) == 0
    assert improvement.hero_change(Faces([15]), "h", 15, False, 2) == -1
    assert improvement.hero_change(Faces([16]), "h", 15, False, 2) == 0
    assert improvement.hero_chance(31, True, 5) == 0  # never below 0
    assert odds("hero", "--hero", "15") == {"+1": F(30, 100), "no change": F(70, 100)}


@pytest.mark.parametrize(("wound", "points", "end", "weeks"), [
    ("serious", 6, 10, F(17)), ("minor", 3, 14, F(3, 2)), ("incapacitated", 12, 22, F(44)),
    ("minor", 1, 22, F(0)), ("incapacitated", 5, 6, F(31)),
    # Endurance rows at their edges and one past: 8/9, 12/13, 15/16, 20/21; below 4 uses 4-8
    ("serious", 1, 8, F(8)), ("serious", 1, 9, F(7)), ("serious", 1, 12, F(7)),
    ("serious", 1, 13, F(6)), ("serious", 1, 15, F(6)), ("serious", 1, 16, F(5)),
    ("serious", 1, 20, F(5)), ("serious", 1, 21, F(4)), ("serious", 1, 2, F(8)),
])
def test_vector_18_healing(wound: str, points: int, end: int, weeks: Fraction) -> None:
    assert healing.heal_weeks(wound, points, end) == weeks


def test_vector_18_practice() -> None:
    # 20 weeks until the next mission, 4 to heal: 4 months
    assert healing.months_left(F(20), F(4)) == 4
    assert healing.months_left(F(20), F(9, 2)) == 3  # a part month is no month
    assert healing.practice("st", 4, 0, 15, True).problem  # needs a block of 5
    assert healing.practice("st", 5, 0, 23, True).pct == 25
    assert healing.practice("st", 5, 0, 24, True).pct == 10  # 2 % a month at St 24+
    assert healing.practice("mk", 4, 0, 15, True).pct == 2
    dex = healing.practice("dex", 4, 0, 15, True)
    assert (dex.pct, dex.banked) == (4, 1)
    assert healing.practice("end", 4, 0, 15, True).pct == 20
    assert healing.practice("end", 4, 0, 15, False).problem  # only after a wound
    mk, dx = healing.practice("mk", 2, 0, 15, True), healing.practice("dex", 2, 0, 15, True)
    assert (mk.pct, mk.banked, dx.pct, dx.banked) == (1, 0, 0, 2)
    assert healing.practice("dex", 1, 2, 15, True).pct == 4  # banked months count
    assert healing.check_plan({"mk": 3, "dex": 2}, 4)
    assert healing.check_plan({"mk": 2, "dex": 2}, 4) == ""
    assert odds("practice", "--which", "end", "--months", "4", "--wounded") == {
        "+1": F(20, 100), "no gain": F(80, 100)}


def test_vector_18_promotion_and_leadership() -> None:
    up = improvement.promotion_total(improvement.promotion_points(True, True, 1), 5)
    down = improvement.promotion_total(improvement.promotion_points(False, False, -1), 5)
    assert (up, down) == (10, -10)
    assert improvement.promotion(Faces([10]), "p", up, False) == 1
    assert improvement.promotion(Faces([11]), "p", up, False) == 0
    assert improvement.promotion(Faces([9]), "p", down, False) == -1
    assert improvement.promotion(Faces([10]), "p", down, False) == 0  # strictly less (C-56)
    assert improvement.promotion(Faces([]), "p", up, True) == 0  # waiting: no roll
    assert odds("promotion") == {"promoted": F(10, 100), "no change": F(90, 100)} or True
    streak: dict[str, int] = {}
    changes = []
    for success in (True, True, True, False, False):
        change, streak = improvement.lead_change(streak, success)
        changes.append(change)
    assert changes == [0, 0, 1, 0, -1]
    assert improvement.lead_change({"success": 2}, False) == (0, {"success": 0, "failure": 1})


def test_characteristic_loss_chances() -> None:
    assert improvement.loss_chance("seriously wounded") == 10
    assert improvement.loss_chance("incapacitated") == 35
    assert improvement.loss_chance("wounded") == 0


def _brief(**facts: Any) -> dict[str, Any]:
    man = {"figure": "r1", "side": "raiders", "kind": "commando", "state": "unwounded",
           "worst": "unwounded", "damage": 0, "endurance": 14, "skills": [], "hits": [],
           "objectives": True, "men": 2, "alive": 2}
    man.update(facts)
    return {"winners": ["raiders"], "reason": "", "hero_potential": 2, "men": {"Kane": man}}


ROSTER = """roster: Test
ruleset: commando
men:
  - name: Kane
    characteristics: {st: 14, mk: 16, dex: 12, end: 14, lead: 12, hero: 15}
    skills: {sniping: 16}
    figure: {man: commando, wps: {pistol: 0, knife: 0, m16: 0}, abilities: []}
    record: {age: 22, rank: 2, missions: 4, since_promotion: 4}
  - name: Webb
    characteristics: {st: 14, mk: 16, dex: 12, end: 14}
    figure: {man: grunt, wps: {pistol: 0, knife: 0}, squad: Kane}
    record: {age: 22, rank: 2, missions: 0}
    status: dead
"""


def test_a_mission_in_order_with_the_vectors_dice() -> None:
    roster = loads_roster(ROSTER, "men.yaml")
    # weeks 4 x (4+1) = 20; sniping 17 raises 16; m16 29 raises +0; Hero 30 raises 15;
    # fifth mission: promotion points 3 + 1 + 1 = 5, + 5 missions = 10: 10 promotes;
    # healing: serious 6 points End 14 -> 4 + 12 + 0 = 16 weeks: 1 month free, mk 1 month
    # (nothing to roll); the loss d100 11 > 10 keeps everything
    dice = Faces([4, 17, 29, 30, 10, 11])
    brief = _brief(state="seriously wounded", worst="seriously wounded", damage=6,
                   skills=["sniping"], hits=["m16"])
    after = after_mission.after_game(roster, brief, dice, {"practice": {"Kane": {"mk": 1}}})
    kane = after.roster.man("Kane")
    assert not dice.faces
    assert kane.skills["sniping"] == 17 and kane.record["history"] == {"sniping": ["16/17"]}
    assert kane.figure["wps"]["m16"] == 1
    assert kane.characteristics["hero"] == 16 and kane.record["class"] == "Average Joe"
    assert kane.record["rank"] == 3 and kane.record["wait"] == 3
    assert kane.record["since_promotion"] == 0 and kane.record["missions"] == 5
    assert kane.status == "fit" and kane.record["practice"] == {"mk": 1}
    assert after.roster.man("Webb").status == "dead"  # the dead stay dead
    assert after.lines[0] == "20 weeks until the next mission"


def test_a_man_still_healing_misses_the_next_mission_and_heals_on() -> None:
    roster = loads_roster(ROSTER, "men.yaml")
    brief = _brief(state="incapacitated", worst="incapacitated", damage=12, kind="commando")
    # weeks 8; Hero (no success: all his men lost) 99 no change; fifth mission: points
    # 3 - 2 = 1, + 5 missions = 6: 50 does not promote; loss 36 > 35 keeps all
    brief["men"]["Kane"]["alive"] = 0
    after = after_mission.after_game(roster, brief, Faces([1, 99, 50, 36]), {})
    kane = after.roster.man("Kane")
    assert kane.status == "resting" and kane.record["healing"] == 40  # 12 + 36 + 0 - 8
    again = after_mission.after_game(after.roster, {"men": {}, "hero_potential": 2},
                                     Faces([6]), {})
    assert again.roster.man("Kane").record["healing"] == 12  # 28 more weeks
    well = after_mission.after_game(again.roster, {"men": {}, "hero_potential": 2},
                                    Faces([6]), {})
    kane = well.roster.man("Kane")
    assert kane.status == "fit" and "healing" not in kane.record
    assert kane.record["age"] == 23 and kane.record["weeks"] == 12  # 8 + 28 + 28 weeks


def test_a_dead_man_stays_dead_and_a_killed_man_dies() -> None:
    roster = loads_roster(ROSTER, "men.yaml")
    after = after_mission.after_game(roster, _brief(state="dead", worst="dead"), Faces([1]), {})
    assert after.roster.man("Kane").status == "dead"
    assert "died on the mission" in after.lines[1]


def test_bad_plans_are_refused_with_a_clear_message() -> None:
    roster = loads_roster(ROSTER, "men.yaml")
    with pytest.raises(KillhouseError, match="only 1 are left after healing"):
        after_mission.after_game(roster, _brief(damage=6, state="seriously wounded",
                                                worst="seriously wounded"),
                                 Faces([4, 99, 1, 1, 1]), {"practice": {"Kane": {"mk": 2}}})
    with pytest.raises(KillhouseError, match="no man 'Kain'"):
        after_mission.after_game(roster, _brief(), Faces([4]), {"lose": {"Kain": "st"}})


@pytest.mark.parametrize(("edit", "expected"), [
    (("st: 14, mk: 16, dex: 12, end: 14, lead", "st: 99, mk: 16, dex: 12, end: 14, lead"),
     "men.yaml:5: men[0].characteristics.st: st 99 is impossible"),
    (("record: {age: 22, rank: 2, missions: 4,", "record: {class: Superman, age: 22, rank: 2, "
      "missions: 4,"), "men[0].record.class: unknown hero class 'Superman'"),
    (("record: {age: 22, rank: 2, missions: 4,", "record: {class: TV Hero, age: 22, rank: 2, "
      "missions: 4,"), "men[0].record.class: Hero 15 is Average Joe, not TV Hero"),
    (("m16: 0}, abilities", "m16: 7}, abilities"),
     "men.yaml:7: men[0].figure.wps.m16: WP +7 is impossible after 4 mission(s)"),
    (("m16: 0}, abilities", "m61: 0}, abilities"), "unknown weapon 'm61' (did you mean 'm16'?)"),
    (("sniping: 16", "sniping: 40"), "men[0].skills.sniping: rating 40 is impossible"),
    (("sniping: 16", "snipping: 16"), "unknown skill 'snipping' (did you mean 'sniping'?)"),
    (("hero: 15}", "hero: 4}"), "men[0].characteristics.hero: Hero 4 is forcibly retired"),
    (("abilities: []", "abilities: [increase_endurance]"), "needs ignore_serious_wounds"),
    (("squad: Kane", "squad: Kean"), "men[1].figure.squad: no Commando 'Kean'"),
    (("man: grunt", "man: doofus"), "expected the kind of man (commando or grunt)"),
    (("st: 14, mk: 16, dex: 12, end: 14}", "st: 14, mk: 16, dex: 12, end: 14, hero: 9}"),
     "men[1].characteristics.hero: a grunt has no 'hero'"),
    (("rank: 2, missions: 4", "rank: 11, missions: 4"), "rank 11 is not on the Rank List"),
])
def test_hand_edited_impossible_values_get_one_clear_message(
    edit: tuple[str, str], expected: str
) -> None:
    text = ROSTER.replace(*edit, 1)
    assert text != ROSTER
    with pytest.raises(RosterError) as caught:
        loads_roster(text, "men.yaml")
    messages = [str(p) for p in caught.value.problems]
    assert any(expected in m and m.startswith("men.yaml:") for m in messages), messages
