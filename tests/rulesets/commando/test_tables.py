"""The charts as loaded: shapes and the consistency checks of digest 8.1, 8.3, 10.4, 13.3, 19."""

from __future__ import annotations

import pytest

from killhouse.rulesets.commando.tables import Dice, tables


def test_fire_table_rows_have_eight_bands_and_never_rise_after_2_3() -> None:
    t = tables()
    assert len(t.firearms) == 11
    for w in t.firearms.values():
        assert len(w.base) == 8
        values = [v for v in w.base[1:] if v is not None]
        assert values == sorted(values, reverse=True), w.name
        # P bands only at the long end
        seen_p = False
        for v in w.base:
            seen_p = seen_p or v is None
            assert not (seen_p and v is not None), w.name


def test_fire_table_rows_as_printed() -> None:
    t = tables()
    assert t.firearms["smg"].base == (25, 75, 59, 35, 15, 5, None, None)  # ruling C-17
    assert t.firearms["mg"].fires == 6 and t.firearms["mg"].mag == 25
    assert t.firearms["rifle"].mag is None
    assert t.firearms["ak47"].damage == Dice(1, 10, -1)
    assert str(t.firearms["carbine"].damage) == "1d6+1"


def test_kill_table_matches_closed_form() -> None:
    from killhouse.rulesets.commando.fire import kill_chance

    for h in range(-10, 131):
        expected = 0 if h <= 5 else min(16, h // 6)
        assert kill_chance(h) == expected, h


def test_h2h_damage_table_columns_sum_to_5_c_plus_1_and_are_monotone() -> None:
    rows = tables().melee_damage
    assert sorted(rows) == list(range(1, 11))
    for c in range(11):
        column = [rows[r][c] for r in range(1, 11)]
        assert sum(column) == 5 * (c + 2)
        assert column == sorted(column)
    for r in range(1, 11):
        assert list(rows[r]) == sorted(rows[r])


def test_charmod_table_matches_closed_form() -> None:
    from killhouse.rulesets.commando.characters import charmod

    for v in range(0, 40):
        if v <= 8:
            expected = 2 * v - 17
        elif v <= 17:
            expected = 0
        elif v <= 29:
            expected = 2 * v - 35
        else:
            expected = 25
        assert charmod(v) == expected, v
    assert charmod(-3) == -17


def test_leadership_chart_is_strictly_monotone_over_30_rows() -> None:
    rows = tables().leadership
    assert sorted(rows) == list(range(1, 31))
    panic = [rows[k][0] for k in range(1, 31)]
    pres = [rows[k][1] for k in range(1, 31)]
    assert panic == sorted(panic, reverse=True) and len(set(panic)) == 30
    assert pres == sorted(pres, reverse=True) and len(set(pres)) == 30


def test_accuracy_tables_decrease_except_the_rocket_and_rifle_grenade_start() -> None:
    acc = tables().accuracy
    for name in ("frag", "smoke", "illumination", "thump_gun", "satchel", "law"):
        values = [b.base for b in acc[name] if b.base is not None]
        assert values == sorted(values, reverse=True) and len(set(values)) == len(values), name
    rocket = [b.base for b in acc["rocket"] if b.base is not None]
    assert rocket[0] < rocket[1] and rocket[1:] == sorted(rocket[1:], reverse=True)


def test_terrain_rows_have_four_values() -> None:
    t = tables()
    assert t.field["forest"].multiple == 2 and t.field["forest"].additive == 3
    assert t.field["forest"].fire == -12
    assert t.field["oil_tank"].multiple is None
    assert t.line["window"].additive == 23 and t.line["window"].fire == -15
    assert t.line["down_level"].additive == 4  # ruling C-7
    assert t.line["slit"].multiple is None and t.line["slit"].fire == -20


def test_observation_index_has_no_i_or_o() -> None:
    index = tables().obs_index
    assert "".join(index) == "ABCDEFGHJKLMNP"
    assert [index[c] for c in "ABCDEFGHJKLMNP"] == list(range(95, 25, -5))


def test_skill_efficiency_is_19_monotone_rows() -> None:
    eff = tables().efficiency
    assert sorted(eff) == list(range(2, 21))
    values = [eff[k] for k in range(2, 21)]
    assert values == sorted(values) and len(set(values)) == 19


def test_dice_parse_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        Dice.parse("d")
    assert Dice.parse("d10-2") == Dice(1, 10, -2)
