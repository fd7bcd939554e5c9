"""The printed tables of Execute (stat cards, weapons, armour, numbers, surveillance) as data.

The YAML files in ``data/`` are the source of truth; this module reads them once and gives
typed, frozen records to the rest of the ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from killhouse.rulesets.data import load_table

#: the six stats of every card, in printed order (digest section 2)
STATS: tuple[str, ...] = ("movement", "firearms", "grenades", "electronics", "evasion", "vitality")
#: the skills a wound lowers (ruling E-14)
SKILLS: tuple[str, ...] = ("firearms", "grenades", "electronics")


@dataclass(frozen=True)
class Card:
    """A stat card: a printed one, the standard terrorist, or one built by point-buy."""

    id: str
    name: str
    kind: str  # "fbi" | "hostage" | "terrorist" | "custom"
    movement: int
    firearms: int
    grenades: int
    electronics: int
    evasion: int
    vitality: int
    role: str = ""

    def stat(self, name: str) -> int:
        value: int = getattr(self, name)
        return value

    @property
    def total(self) -> int:
        """The sum of the six stats (what the E-33 point budget counts)."""
        return sum(self.stat(s) for s in STATS)

    def to_json(self) -> dict[str, Any]:
        # the stats in STATS order, written out: every view lists every figure's card
        return {"id": self.id, "name": self.name, "movement": self.movement,
                "firearms": self.firearms, "grenades": self.grenades,
                "electronics": self.electronics, "evasion": self.evasion,
                "vitality": self.vitality}


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    die: int
    damage: int


@dataclass(frozen=True)
class SurveillanceBand:
    """One row of the surveillance table; counts are ints, ``"all"`` or ``"most"``."""

    low: int
    high: int
    terrorists: int | str
    hostages: int | str
    learns: str


@dataclass(frozen=True)
class Tables:
    """Every table of the rule sheet, loaded from the data files."""

    fbi_cards: dict[str, Card]
    hostage_cards: dict[str, Card]
    terrorist_cards: dict[str, Card]
    weapons: dict[str, Weapon]
    default_weapon: str
    armour_absorbs: dict[int, int]
    armour_names: dict[int, str]
    grenade: dict[str, int]
    bomb: dict[str, int]
    device: dict[str, int]
    initiative_die: int
    point_buy: dict[str, int]
    stat_bounds: dict[str, tuple[int, int]]
    defaults: dict[str, int]
    surveillance_die: int
    surveillance: tuple[SurveillanceBand, ...]

    @property
    def combatant_cards(self) -> dict[str, Card]:
        """Cards a combatant may use by id: the FBI cards and the standard terrorist."""
        return {**self.fbi_cards, **self.terrorist_cards}

    def card(self, card_id: str) -> Card | None:
        return self.fbi_cards.get(card_id) or self.hostage_cards.get(card_id) or (
            self.terrorist_cards.get(card_id)
        )


def _read(name: str) -> dict[str, Any]:
    return load_table("killhouse.rulesets.execute", name)


def _cards(raw: dict[str, Any], kind: str) -> dict[str, Card]:
    return {
        cid: Card(
            id=cid,
            name=str(spec["name"]),
            kind=kind,
            role=str(spec.get("role", "")),
            **{s: int(spec[s]) for s in STATS},
        )
        for cid, spec in raw.items()
    }


@cache
def tables() -> Tables:
    """The tables, read from the package data once."""
    cards = _read("cards.yaml")
    equipment = _read("equipment.yaml")
    numbers = _read("numbers.yaml")
    surveillance = _read("surveillance.yaml")
    return Tables(
        fbi_cards=_cards(cards["fbi"], "fbi"),
        hostage_cards=_cards(cards["hostage"], "hostage"),
        terrorist_cards=_cards(cards["terrorist"], "terrorist"),
        weapons={
            wid: Weapon(wid, str(w["name"]), int(w["die"]), int(w["damage"]))
            for wid, w in equipment["weapons"].items()
        },
        default_weapon=str(equipment["default_weapon"]),
        armour_absorbs={int(k): int(v["absorbs"]) for k, v in equipment["armour"].items()},
        armour_names={int(k): str(v["name"]) for k, v in equipment["armour"].items()},
        grenade={k: int(v) for k, v in numbers["grenade"].items()},
        bomb={k: int(v) for k, v in numbers["bomb"].items()},
        device={k: int(v) for k, v in numbers["device"].items()},
        initiative_die=int(numbers["initiative"]["die"]),
        point_buy={k: int(v) for k, v in numbers["point_buy"].items() if k != "bounds"},
        stat_bounds={k: (int(v[0]), int(v[1])) for k, v in numbers["point_buy"]["bounds"].items()},
        defaults={k: int(v) for k, v in numbers["defaults"].items()},
        surveillance_die=int(surveillance["die"]),
        surveillance=tuple(
            SurveillanceBand(
                int(b["low"]), int(b["high"]), b["terrorists"], b["hostages"], str(b["learns"])
            )
            for b in surveillance["bands"]
        ),
    )
