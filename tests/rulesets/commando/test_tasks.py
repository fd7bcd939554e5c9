"""Fire tasks, reloading, the op-fire fee, Mobile Overwatch and panic effects on men's state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando import fire
from killhouse.rulesets.commando.men import Kind, ManState, Posture, Ratings, SkillRating
from killhouse.rulesets.commando.tasks import (
    Aim,
    TaskRefused,
    apply_panic,
    can_plot,
    fire_task,
    mobile_overwatch,
    pay_op_fire_fee,
    reload,
)
from killhouse.rulesets.commando.wounds import Wound


class Forced(Chance):
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= len(weights), (face, what, purpose)
        return face - 1


def man(ident: str, side: str = "x", **kw: Any) -> ManState:
    skills = kw.pop("skills", {})
    ratings = Ratings(Kind.COMMANDO, 13, 20, 13, 14, lead=10, hero=22,
                      wps={"pistol": 0, "knife": 0, "m16": 1, "rifle": 0}, skills=skills)
    m = ManState(ident, side, ratings, **kw)
    m.start_turn()
    return m


def test_the_full_fire_example_on_men() -> None:
    firer, target = man("f"), man("t", "y", posture=Posture.PRONE)
    men = {"f": firer, "t": target}
    aim = Aim("t", 15, terrain=fire.terrain_modifier("woods"))
    # fires: 9 kills? no - first 10 wounds (1d6+2: 4 -> 6), 57 wounds (1 -> 3), 58 misses;
    # Mag Chk 18 empties the M16
    report = fire_task(Forced([10, 4, 57, 1, 58, 18]), firer, "m16", [aim], men)
    assert [s.result for _, s in report.shots] == [fire.WOUND, fire.WOUND, fire.MISS]
    assert target.damage == 9 and target.wound() is Wound.SERIOUS
    assert target.tp == 25  # 50 halved when seriously wounded (C-5)
    assert firer.tp == 32 and report.emptied and "m16" in firer.empty
    with pytest.raises(TaskRefused, match="empty"):
        fire_task(Forced([]), firer, "m16", [aim], men)
    reload(firer, "m16")
    assert firer.tp == 7 and "m16" not in firer.empty


def test_refusals_change_nothing() -> None:
    firer, target = man("f"), man("t", "y")
    men = {"f": firer, "t": target}
    with pytest.raises(TaskRefused, match="P, C-27"):
        fire_task(Forced([]), firer, "pistol", [Aim("t", 31)], men)
    firer.tp = 17
    with pytest.raises(TaskRefused, match="costs 18"):
        fire_task(Forced([]), firer, "m16", [Aim("t", 5)], men)
    assert firer.tp == 17 and target.damage == 0
    with pytest.raises(TaskRefused, match="spray"):
        fire_task(Forced([]), firer, "rifle", [Aim("t", 5), Aim("t", 5)], men)
    with pytest.raises(TaskRefused, match="only task"):
        fire_task(Forced([]), firer, "m16", [Aim("t", 5)], men, aimed=True, first_task=False)


def test_pistol_range_edge_in_play() -> None:
    firer, target = man("f"), man("t", "y")
    report = fire_task(Forced([100]), firer, "pistol", [Aim("t", 30)], {"f": firer, "t": target})
    assert report.cost == 7 and report.shots[0][1].result == fire.MISS and not report.emptied


def test_aimed_fire_costs_all_tp_and_adds_ten() -> None:
    firer, target = man("f"), man("t", "y")
    # H = 69 + 2 + 5 + 1 + 10 = 87 at range 15 in the open: a roll of 87 still hits
    report = fire_task(Forced([87, 1, 100, 100, 50]), firer, "m16", [Aim("t", 15)],
                       {"f": firer, "t": target}, aimed=True)
    assert report.cost == 50 and firer.tp == 0
    assert report.shots[0][1].result == fire.WOUND


def test_spray_fire_assigns_each_fire() -> None:
    firer, a, b = man("f"), man("a", "y"), man("b", "y")
    report = fire_task(Forced([1, 100, 100, 50]), firer, "m16",
                       [Aim("a", 5), Aim("b", 6), Aim("a", 5)], {"f": firer, "a": a, "b": b})
    assert report.cost == 25  # 18 + 7
    assert [(v, s.result) for v, s in report.shots] == [
        ("a", fire.KILL), ("b", fire.MISS), ("a", fire.MISS)]
    assert a.wound() is Wound.DEAD and b.wound() is Wound.UNWOUNDED


def test_fire_into_a_hand_to_hand_square_picks_victims() -> None:
    firer, friend, foe = man("f"), man("g"), man("e", "y")
    men = {"f": firer, "g": friend, "e": foe}
    report = fire_task(Forced([1, 100, 2, 100, 1, 100, 50]), firer, "m16",
                       [Aim("e", 5, crowd=("e", "g"))], men)
    assert [v for v, _ in report.shots] == ["e", "g", "e"]


def test_sniping_roll() -> None:
    firer = man("f", skills={"sniping": SkillRating("sniping", 16)})
    target = man("t", "y")
    report = fire_task(Forced([25, 100, 50]), firer, "rifle", [Aim("t", 15)],
                       {"f": firer, "t": target}, sniping=True)
    assert report.sniped and report.cost == 23
    with pytest.raises(TaskRefused, match="Sniping"):
        fire_task(Forced([]), man("n"), "rifle", [Aim("t", 15)], {"t": target}, sniping=True)


def test_op_fire_fee_once_and_plot_eligibility() -> None:
    m = man("m", plotted=True)
    m.plotted = True
    pay_op_fire_fee(m)
    pay_op_fire_fee(m)
    assert m.tp == 45
    assert can_plot(man("a"))
    assert not can_plot(man("b", engaged=True))
    assert not can_plot(man("c", preserving=True))


def test_mobile_overwatch_conditions() -> None:
    mo = man("m", skills={"mobile_overwatch": SkillRating("mobile_overwatch", 20)})
    # SDL 30 + Hero skill 1 = 31
    assert mobile_overwatch(Forced([31]), mo, "m16", sees_firer=True, firer_observed=True)
    assert not mobile_overwatch(Forced([32]), mo, "m16", sees_firer=True, firer_observed=True)
    assert not mobile_overwatch(Forced([]), mo, "m16", sees_firer=True, firer_observed=False)
    mo.tp = 26  # needs 18 + 9 = 27
    assert not mobile_overwatch(Forced([]), mo, "m16", sees_firer=True, firer_observed=True)
    mo.tp = 27
    assert mobile_overwatch(Forced([1]), mo, "m16", sees_firer=True, firer_observed=True)


def test_panic_prone_ends_the_activation() -> None:
    m = man("m")
    m.plotted = True
    apply_panic(m, "prone")
    assert m.posture is Posture.PRONE and m.tp == 0 and not m.plotted
    steady = man("s")
    steady.plotted = True
    apply_panic(steady, "steady")
    assert steady.plotted and steady.tp == 50 and steady.panic_checked


def test_spray_reaches_two_squares_from_the_primary() -> None:
    firer, a, b = man("f"), man("a", "y"), man("b", "y")
    men = {"f": firer, "a": a, "b": b}
    ok = fire_task(Forced([100, 100, 100, 50]), firer, "m16",
                   [Aim("a", 5), Aim("b", 6, from_primary=2), Aim("a", 5)], men)
    assert ok.cost == 25
    with pytest.raises(TaskRefused, match="2 squares"):
        fire_task(Forced([]), firer, "m16",
                  [Aim("a", 5), Aim("b", 7, from_primary=3), Aim("a", 5)], men)


def test_preserving_fires_only_within_five_and_engaged_not_at_all() -> None:
    firer, target = man("f", preserving=True), man("t", "y")
    men = {"f": firer, "t": target}
    assert fire_task(Forced([100]), firer, "pistol", [Aim("t", 5)], men).cost == 7
    with pytest.raises(TaskRefused, match="within 5"):
        fire_task(Forced([]), firer, "pistol", [Aim("t", 6)], men)
    with pytest.raises(TaskRefused, match="engaged"):
        fire_task(Forced([]), man("e", engaged=True), "pistol", [Aim("t", 1)], men)
