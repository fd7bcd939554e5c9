"""The printed tables as data: every card exactly as the digest lists it (section 2, E-39)."""

from __future__ import annotations

import pytest

from killhouse.rulesets.execute.tables import STATS, tables

# id: movement, firearms, grenades, electronics, evasion, vitality, sum (digest 2.1 and 2.2)
FBI = {
    "harry_lars": (7, 8, 6, 4, 6, 4, 35),
    "gary_ballanger": (8, 9, 7, 2, 8, 5, 39),
    "matt_timmerman": (7, 8, 6, 4, 7, 3, 35),
    "zach_dante": (9, 10, 8, 7, 7, 4, 45),
    "joseph_gerterwich": (7, 7, 9, 10, 6, 4, 43),
    "matambe_mutumbe": (9, 7, 2, 4, 7, 5, 34),
    "walt_tohmas": (10, 8, 4, 7, 7, 4, 40),
    "billy_boyd": (8, 9, 6, 5, 8, 3, 39),
    "jack_cotson": (9, 7, 3, 2, 6, 4, 31),
    "walter_hunter": (7, 6, 10, 10, 5, 4, 42),
    "derik_gotam": (6, 5, 9, 10, 6, 5, 41),
}
HOSTAGES = {
    "hostage_male": (6, 2, 1, 1, 4, 2, 16),
    "hostage_female": (5, 1, 1, 1, 3, 2, 13),
    "hostage_pregnant": (4, 1, 1, 1, 2, 2, 11),
    "hostage_boy": (7, 1, 1, 1, 5, 2, 17),
    "hostage_girl": (6, 1, 1, 1, 3, 2, 14),
}


@pytest.mark.parametrize(("cid", "row"), [*FBI.items(), *HOSTAGES.items()])
def test_cards_as_printed(cid: str, row: tuple[int, ...]) -> None:
    card = tables().card(cid)
    assert card is not None
    assert tuple(card.stat(s) for s in STATS) == row[:6]
    assert card.total == row[6]


def test_exactly_the_printed_cards() -> None:
    assert list(tables().fbi_cards) == list(FBI)
    assert list(tables().hostage_cards) == list(HOSTAGES)
    assert tables().fbi_cards["walt_tohmas"].name == "Walt Tohmas"  # E-39: printed spelling
    assert tables().fbi_cards["derik_gotam"].role == "Demolitions & Electronics"


def test_standard_terrorist_and_budgets() -> None:
    """E-33: the standard terrorist card keeps the 25-point budget; hostages get 10."""
    std = tables().terrorist_cards["standard_terrorist"]
    assert tuple(std.stat(s) for s in STATS) == (6, 6, 3, 2, 5, 3) and std.total == 25
    assert tables().point_buy == {"combatant": 25, "hostage": 10}
    assert tables().stat_bounds["vitality"] == (2, 10)
    assert tables().stat_bounds["evasion"] == (1, 8)


def test_equipment_and_numbers() -> None:
    t = tables()
    assert {w: (x.die, x.damage) for w, x in t.weapons.items()} == {
        "pistol": (6, 1), "smg": (8, 2), "sniper": (10, 3)}
    assert t.default_weapon == "smg"  # E-11
    assert t.armour_absorbs == {0: 0, 1: 1, 2: 2, 3: 3}
    assert t.armour_names[3] == "III"
    assert (t.grenade["base_rating"], t.grenade["step_spaces"], t.grenade["max_distance"]) == (
        5, 5, 15)
    assert (t.grenade["die"], t.grenade["damage"], t.grenade["blast_radius"]) == (8, 4, 3)
    assert (t.bomb["damage"], t.bomb["radius"], t.bomb["die"]) == (10, 50, 6)
    assert t.device["die"] == 12 and t.surveillance_die == 12 and t.initiative_die == 6
    bands = [(b.low, b.high, b.terrorists, b.hostages) for b in t.surveillance]
    assert bands == [(1, 4, 0, 0), (5, 6, 2, 0), (7, 9, 5, "most"), (10, 12, "all", "all")]


@pytest.mark.parametrize("damage", [0, 1, 2, 3])
def test_card_and_figure_json_name_every_stat_and_skill_in_order(damage: int) -> None:
    """The written-out JSON of a card and a figure's skills follow STATS and SKILLS."""
    from killhouse.rulesets.execute.state import Figure
    from killhouse.rulesets.execute.tables import SKILLS

    t = tables()
    for card in [*t.fbi_cards.values(), *t.hostage_cards.values(), *t.terrorist_cards.values()]:
        data = card.to_json()
        assert list(data) == ["id", "name", *STATS]
        assert [data[s] for s in STATS] == [card.stat(s) for s in STATS]
        figure = Figure(id="f", kind="agent", side="fbi", name="F", card=card, damage=damage)
        skills = figure.to_json()["skills"]
        assert list(skills) == list(SKILLS)
        assert skills == {s: figure.skill(s) for s in SKILLS}
