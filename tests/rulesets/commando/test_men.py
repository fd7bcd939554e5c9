"""Men: ratings from scenario figures, derived values, the allotment and wounds during play."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.rulesets.commando.men import Kind, ManState, Posture, Ratings
from killhouse.rulesets.commando.roster import leader_lead, read_ratings, read_roster
from killhouse.rulesets.commando.wounds import Wound
from killhouse.scenario.model import FigureSpec


def fig(
    ident: str, side: str = "a", stats: dict[str, Any] | None = None, **extra: Any
) -> FigureSpec:
    base = {"st": 14, "mk": 20, "dex": 19, "end": 14}
    return FigureSpec(ident, side, "operative", f"figures[{ident}]", stats=stats or base,
                      extra=extra)


CAPTAIN = {"st": 22, "mk": 20, "dex": 19, "end": 14, "lead": 12, "hero": 22}


def test_a_commando_reads_with_his_hero_class() -> None:
    ratings, issues = read_ratings(fig("cpt", stats=CAPTAIN, man="commando", wps={"m16": 1},
                                       skills={"sniping": 16}, abilities=["mind_over_matter"]))
    assert issues == [] and ratings is not None
    assert ratings.kind is Kind.COMMANDO
    assert ratings.hero_combat() == 2 and ratings.hero_skill() == 1
    assert ratings.wp("m16") == 1 and ratings.wp("combat_knife") == 0 and ratings.wp("mg") is None
    assert ratings.skills["sniping"].rating == 16


@pytest.mark.parametrize(
    ("extra", "stats", "message"),
    [
        ({"man": "commando"}, None, "missing stat 'lead'"),
        ({"man": "grunt"}, CAPTAIN, "a grunt has no lead"),
        ({"man": "ninja"}, None, "unknown kind of man"),
        ({"wps": {"phaser": 1}}, None, "unknown weapon"),
        ({"skills": {"sniper": 3}}, None, "unknown skill"),
        ({"man": "commando", "abilities": ["increase_endurance"]}, CAPTAIN, "needs ignore"),
        ({"obs": "I"}, None, "unknown Obs code"),
        ({}, {"st": 14, "mk": "x", "dex": 1, "end": 9}, "expected a whole number"),
        ({}, {"st": 14, "mk": 9, "dex": 1, "end": 99}, "out of range"),
        ({"man": "commando"}, {**CAPTAIN, "hero": 4}, "forcibly retired"),
        ({}, {"st": 1, "mk": 9, "dex": 1, "end": 9, "luck": 3}, "unknown stat"),
    ],
)
def test_bad_men_get_one_clear_issue(extra: dict[str, Any], stats: dict[str, Any] | None,
                                     message: str) -> None:
    ratings, issues = read_ratings(fig("x", stats=stats, **extra))
    assert ratings is None
    assert any(message in i.message for i in issues), issues


def test_roster_checks_leaders() -> None:
    figures = [
        fig("cpt", stats=CAPTAIN, man="commando"),
        fig("g1", man="grunt", leader="cpt"),
        fig("g2", man="grunt"),
        fig("g3", side="b", man="grunt", leader="cpt"),
        fig("d1", side="b", man="doofus"),
    ]
    men, issues = read_roster(figures)
    messages = [i.message for i in issues]
    assert "a Grunt needs his Commando as leader" in messages
    assert "'cpt' is on another side" in messages
    assert leader_lead(men["g1"], men) == 12
    assert leader_lead(men["d1"], men) == 10  # NPC default (C-3)
    assert men["g1"].obs_code(men["cpt"]) == "D"  # TV Hero's code
    assert men["d1"].obs_code(None) == "G"
    assert not men["cpt"].checks_panic() and men["g1"].checks_panic()


def man(end: int = 14, **ratings: Any) -> ManState:
    return ManState("m", "a", Ratings(Kind.COMMANDO, 14, 14, 14, end, lead=10, hero=15,
                                      **ratings))


def test_allotment_and_halving_during_the_turn() -> None:
    m = man()
    m.start_turn()
    assert m.tp == 50
    assert m.spend(11)
    assert m.tp == 39
    assert m.take_damage(7) is Wound.SERIOUS  # 2·7 ≥ 14
    assert m.tp == 19  # halved, rounded down (C-5)
    assert m.take_damage(7) is Wound.INCAPACITATED
    assert m.tp == 0
    m.start_turn()
    assert m.tp == 0
    assert m.worst is Wound.INCAPACITATED


def test_spend_refuses_without_change() -> None:
    m = man()
    m.start_turn()
    assert not m.spend(51)
    assert m.tp == 50


def test_move_swiftly_tp_only_for_movement() -> None:
    m = man(abilities=frozenset({"move_swiftly"}))
    m.start_turn()
    assert (m.tp, m.move_tp) == (50, 10)
    assert not m.spend(55)
    assert m.spend(55, movement=True)
    assert (m.tp, m.move_tp) == (5, 0)


def test_mind_over_matter_and_ignore_serious() -> None:
    m = man(abilities=frozenset({"mind_over_matter", "ignore_serious_wounds"}))
    m.start_turn()
    assert m.tp == 55
    m.take_damage(13)
    assert m.wound() is Wound.WOUNDED and m.tp == 55


def test_increase_endurance() -> None:
    m = man(end=15, abilities=frozenset({"ignore_serious_wounds", "increase_endurance"}))
    assert m.end0() == 22


def test_revive_spread_over_three_turns_and_sets_e1() -> None:
    healer, patient = man(), man()
    patient.take_damage(14)
    assert patient.wound() is Wound.INCAPACITATED
    done = []
    for _ in range(3):
        healer.start_turn()
        done.append(healer.work_on("revive", 150))
    assert done == [False, False, True]
    patient.revive()
    assert patient.wound() is Wound.SERIOUS and patient.end0() - patient.damage == 1


def test_switching_tasks_loses_progress() -> None:
    m = man()
    m.start_turn()
    assert not m.work_on("revive", 150)
    m.start_turn()
    assert not m.work_on("clip_concertina_wire", 100)
    m.start_turn()
    assert m.work_on("clip_concertina_wire", 100)


def test_kill_and_mission_uses() -> None:
    m = man(abilities=frozenset({"inspire_men", "luck_of_the_irish"}))
    m.start_mission()
    assert m.uses == {"inspire_men": 2, "luck_of_the_irish": 1}
    m.kill()
    assert m.wound() is Wound.DEAD and not m.active()
    assert m.posture is Posture.STANDING


def test_per_mission_uses_run_out() -> None:
    m = man(abilities=frozenset({"inspire_men"}))
    m.start_mission()
    assert m.use("inspire_men") and m.use("inspire_men")
    assert not m.use("inspire_men") and not m.use("luck_of_the_irish")


def test_miraculous_escape_only_from_hero_27_and_only_against_a_fall() -> None:
    hero = ManState("h", "a", Ratings(Kind.COMMANDO, 14, 14, 14, 14, lead=10, hero=27))
    hero.start_mission()
    assert hero.would_fall(14) and not hero.would_fall(13) and hero.would_fall(killed=True)
    assert hero.use("miraculous_escape") and not hero.use("miraculous_escape")
    plain = ManState("p", "a", Ratings(Kind.COMMANDO, 14, 14, 14, 14, lead=10, hero=26))
    plain.start_mission()
    assert not plain.use("miraculous_escape")
