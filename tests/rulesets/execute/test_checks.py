"""Scenario checks: cards and point-buy (E-33), loadouts (E-11, E-17), devices, bombs, zones."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.errors import ScenarioError
from tests.rulesets.execute.helpers import scenario

TERRORIST = {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,2"}
AGENT = {"id": "zach", "side": "fbi", "card": "zach_dante"}


def problems(**kw: Any) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        scenario(**kw)
    return [f"{p.field}: {p.message} ({p.hint})" for p in caught.value.problems]


def stats(**over: int) -> dict[str, int]:
    base = {"movement": 6, "firearms": 6, "grenades": 3, "electronics": 2, "evasion": 5,
            "vitality": 3}
    return {**base, **over}


def test_unknown_card_suggests_the_nearest() -> None:
    found = problems(figures=[{**AGENT, "card": "zach_dant"}, TERRORIST])
    assert any("no stat card 'zach_dant'" in p and "did you mean 'zach_dante'?" in p
               for p in found)


def test_custom_terrorist_card_needs_exactly_25_points() -> None:
    found = problems(figures=[AGENT, {k: v for k, v in TERRORIST.items() if k != "card"}
                              | {"stats": stats(firearms=8)}])
    assert any("the stats sum to 27" in p and "exactly 25" in p for p in found)
    scenario(figures=[AGENT, {k: v for k, v in TERRORIST.items() if k != "card"}
                      | {"stats": stats()}])  # 25 points: fine


def test_custom_hostage_card_needs_exactly_10_points() -> None:
    hostage = {"id": "h", "kind": "hostage", "at": "ground:2,2",
               "stats": {"movement": 3, "firearms": 1, "grenades": 1, "electronics": 1,
                         "evasion": 2, "vitality": 2}}
    scenario(figures=[AGENT, TERRORIST, hostage])
    found = problems(figures=[AGENT, TERRORIST, {**hostage, "stats": {
        **hostage["stats"], "movement": 5}}])  # type: ignore[dict-item]
    assert any("sum to 12" in p and "exactly 10" in p for p in found)


def test_stat_bounds() -> None:
    """E-33: Vitality 1 is forbidden (it would start incapacitated); Evasion tops out at 8."""
    found = problems(figures=[AGENT, {k: v for k, v in TERRORIST.items() if k != "card"}
                              | {"stats": stats(vitality=1, movement=8)}])
    assert any("vitality from 2 to 10" in p for p in found)
    found = problems(figures=[AGENT, {k: v for k, v in TERRORIST.items() if k != "card"}
                              | {"stats": stats(evasion=9, movement=2)}])
    assert any("evasion from 1 to 8" in p for p in found)


def test_printed_cards_over_budget_need_the_option() -> None:
    """E-33: printed cards are legal as printed unless a scenario turns that off."""
    scenario(figures=[AGENT, TERRORIST])
    found = problems(figures=[AGENT, TERRORIST], options={"allow_printed_cards": False})
    assert any("'zach_dante' has 45 points, not 25" in p and "allow_printed_cards" in p
               for p in found)


def test_equipment_and_armour_cap() -> None:
    """E-11 one weapon; E-17 armour up to the side's cap; hostages carry nothing."""
    found = problems(figures=[{**AGENT, "equipment": ["smg", "pistol"]}, TERRORIST])
    assert any("exactly one weapon" in p for p in found)
    found = problems(figures=[{**AGENT, "equipment": ["armour-3"]}, TERRORIST],
                     options={"max_armour_level": {"fbi": 2}})
    assert any("above this side's cap 2" in p for p in found)
    found = problems(figures=[AGENT, TERRORIST, {"id": "h", "kind": "hostage",
                                                 "card": "hostage_boy", "at": "ground:2,2",
                                                 "equipment": ["pistol"]}])
    assert any("hostages carry nothing" in p for p in found)


def test_agents_start_off_map_and_cards_are_distinct() -> None:
    """E-34, E-36."""
    found = problems(figures=[{**AGENT, "at": "ground:2,2"}, TERRORIST])
    assert any("start off-map" in p for p in found)
    found = problems(figures=[AGENT, {**AGENT, "id": "zach2"}, TERRORIST])
    assert any("already used by 'zach'" in p for p in found)


def test_unknown_options_and_objectives() -> None:
    found = problems(options={"opne_map": True})
    assert any("unknown option 'opne_map'" in p and "did you mean 'open_map'?" in p
               for p in found)
    found = problems(objectives={"entry": "nowhere"})
    assert any("no zone 'nowhere'" in p for p in found)


def test_bomb_rules() -> None:
    """E-23: a timer at or after min_timer; a remote bomb names a terrorist holder."""
    found = problems(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3", "timer": 3}])
    assert any("min_timer (5)" in p for p in found)
    found = problems(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3",
                               "mode": "remote", "holder": "nobody"}])
    assert any("needs holder: a terrorist id" in p for p in found)
    scenario(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3", "mode": "remote",
                       "holder": "t1", "skill": 6}])


def test_device_levels_and_coverage() -> None:
    """E-20: levels 1-10; cameras and alarms name the zone they cover."""
    found = problems(objects=[{"id": "c", "type": "camera", "at": "ground:0,1", "level": 11,
                               "covers": "entry"}])
    assert any("level from 1 to 10" in p for p in found)
    found = problems(objects=[{"id": "c", "type": "camera", "at": "ground:0,1", "level": 4}])
    assert any("needs covers" in p for p in found)
    found = problems(objects=[{"id": "l", "type": "lock", "at": "ground:3,3", "level": 4}])
    assert any("is not a door" in p for p in found)


def test_one_figure_per_square_at_setup() -> None:
    found = problems(figures=[AGENT, TERRORIST, {"id": "h", "kind": "hostage",
                                                 "card": "hostage_boy", "at": "ground:5,2"}])
    assert any("already holds 't1'" in p for p in found)


def test_no_cap_of_three_figures_per_side() -> None:
    """E-32: "up to 3 people" per player is a guide for sharing seats, not enforced."""
    gunmen = [{**TERRORIST, "id": f"t{i}", "at": f"ground:{i},1"} for i in range(1, 8)]
    sc = scenario(figures=[AGENT, *gunmen])
    assert len([f for f in sc.figures if f.side == "terrorists"]) == 7


def test_terrorists_draw_only_from_terrorist_cards() -> None:
    """E-33: a terrorist on a printed FBI card is refused unless the scenario allows it."""
    found = problems(figures=[AGENT, {**TERRORIST, "card": "gary_ballanger"}])
    assert any("'gary_ballanger' is an FBI card" in p and "terrorists_use_fbi_cards" in p
               for p in found)
    scenario(figures=[AGENT, {**TERRORIST, "card": "gary_ballanger"}],
             options={"terrorists_use_fbi_cards": True})
