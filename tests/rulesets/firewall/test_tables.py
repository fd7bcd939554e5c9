"""The firewall tables load whole and typed from data/ (digest §2-§16)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from killhouse.rulesets.firewall.tables import FIRE_TYPES, tables


def test_every_weapon_table_of_section_8_is_present() -> None:
    t = tables()
    groups: dict[str, int] = {}
    for w in t.weapons.values():
        groups[w.group] = groups.get(w.group, 0) + 1
        assert all(m.fire in FIRE_TYPES for m in w.modes)
        assert 0 < w.short <= w.effect <= w.long
    # 8.1 archaic 11, 8.2 pistols 11, 8.3 SMGs 7, 8.4 ARs 7, 8.5 battle rifles 9 rows (AMR two
    # rounds), 8.6 shotguns 5, 8.7 MGs 5, 8.8 misc 8, 8.9 non-lethal 4, 8.10 VMG 3, 8.11 Guns 9
    assert groups == {
        "archaic": 11, "pistol": 11, "smg": 7, "assault_rifle": 7, "battle_rifle": 9,
        "shotgun": 5, "machinegun": 5, "launcher": 3, "rocket": 3, "grenade": 1, "flamer": 1,
        "nonlethal": 4, "vmg": 3, "gun": 9,
    }
    assert len(t.weapons) == 79


@pytest.mark.parametrize(
    ("name", "fire", "gutz", "short", "effect", "long", "malf"),
    [
        ("Colt 10mm UAW", "CB", 1, 10, 20, 30, 0),
        ("corp arms shp", "SS", 1, 5, 10, 20, 0),  # scenario name, case-insensitive
        ("Guo Peng Model 83", "SS", 0, 10, 20, 35, 1),  # ruling F-61
        ("Isuku \"Kamikaze\"", "B", 0, 10, 25, 40, 1),  # ruling F-62
        ("daewoo_18mm_shotgun", "B", -1, 10, 15, 25, -1),  # ruling F-62, by id
        ("Corp Arms MG-22", "B(HMG)", -1, 35, 65, 80, 1),  # ruling F-63
        ("Shukla RG12 Jezail", "SS", 0, 20, 40, 60, 0),  # ruling F-64
        ("Bow", "SS", 0, 10, 20, 40, None),  # Malf n/a
        ("braithewaite_l61_h", "AV(H)", 1, 100, 200, 300, 1),
    ],
)
def test_weapon_rows(
    name: str, fire: str, gutz: int, short: int, effect: int, long: int, malf: int | None
) -> None:
    w = tables().weapon(name)
    mode = w.mode(fire)
    assert (mode.gutz, w.short, w.effect, w.long, mode.malf) == (gutz, short, effect, long, malf)


def test_paired_fire_types_keep_their_own_values() -> None:
    w = tables().weapon("H&K CBR-12")  # "+0/=1"
    assert [(m.fire, m.gutz) for m in w.modes] == [("CB", 0), ("B", -1)]
    assert tables().weapon("ThorCo \"Whirlwind\"").mode("B(MG)").malf == 1
    with pytest.raises(ValueError, match="no fire type"):
        w.mode("SS")
    with pytest.raises(KeyError):
        tables().weapon("Phaser")


def test_one_handed_weapons_for_two_weapon_fire() -> None:
    """Ruling F-34 (and F-72): pistols and one-handed archaic throwing weapons only."""
    one = {w.id for w in tables().weapons.values() if w.one_handed}
    pistols = {w.id for w in tables().weapons.values() if w.group == "pistol"}
    assert one == pistols | {
        "boomerang", "throwing_knife", "thrown_hatchet", "thrown_rock", "thrown_spear"
    }


def test_gutz_grenades_armour_cyber_drugs() -> None:
    t = tables()
    assert t.gutz_base["police_swat"] == 8 and t.gutz_base["child"] == 2
    assert t.experience == {"veteran": 2, "experienced": 1, "normal": 0, "green": -2}
    assert t.grenade("HEAP").fire == "SS(A)"
    assert t.grenade("Concussion").armour == "powered_only"
    assert t.grenade("Tangler").armour == "none"
    assert len(t.grenades) == 11
    assert len(t.armour) == 11
    assert t.armour["piece_metal"].reduction(melee=True) == 2
    assert t.armour["biker_leathers"].reduction(flame=True) == 1
    assert t.cyber["wired_reflexes"]["cp"] == 4
    assert len(t.drugs) == 8
    assert t.results["B(HMG)"].s_loss_radius == Fraction(5)  # ruling F-23
    assert t.av["AV(M)"]["light"] == {"CS": "kill", "S": 4}
