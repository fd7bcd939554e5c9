"""The campaign's charts (``data/campaign.yaml``) read once into typed values (digest 13, 14)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from killhouse.rulesets.data import load_table


@dataclass(frozen=True)
class CampaignTables:
    """Every number the campaign reads; names follow the YAML keys."""

    characteristics: Mapping[str, tuple[str, ...]]
    bonus_on: frozenset[str]
    penalty_on: frozenset[str]
    chain: str
    chain_from: int
    start_age: int
    start_rank: int
    skills: Mapping[str, int]
    wps: Mapping[str, int]
    free_wps: tuple[str, ...]
    reroll_at_most: Mapping[str, int]
    weeks_per: int
    weeks_die: int
    weeks_plus: int
    weeks_per_month: int
    wp_improve: Mapping[str, int]
    lead: Mapping[str, int]
    hero_potential: Mapping[str, int]
    hero_top: int
    retired_at_most: int
    promotion: Mapping[str, Any]
    recovery: Mapping[str, tuple[Fraction, Fraction]]
    endurance_mod: tuple[tuple[int, Fraction, Fraction, Fraction], ...]
    practice: Mapping[str, Mapping[str, Any]]
    loss: Mapping[str, Any]
    names: tuple[str, ...]
    bonus_triggers: frozenset[int]
    penalty_triggers: frozenset[int]


def _frac(value: Any) -> Fraction:
    return Fraction(str(value))


@cache
def campaign_tables() -> CampaignTables:
    """The charts, loaded on first use and shared (they never change)."""
    raw = load_table("killhouse.rulesets.commando.campaign", "campaign.yaml")
    chars = load_table("killhouse.rulesets.commando", "characters.yaml")
    weeks = raw["weeks"]
    return CampaignTables(
        characteristics={k: tuple(v) for k, v in raw["characteristics"].items()},
        bonus_on=frozenset(raw["bonus_on"]),
        penalty_on=frozenset(raw["penalty_on"]),
        chain=str(raw["chain"]),
        chain_from=int(raw["chain_from"]),
        start_age=int(raw["start"]["age"]),
        start_rank=int(raw["start"]["rank"]),
        skills={k: int(v) for k, v in raw["skills"].items()},
        wps={k: int(v) for k, v in raw["wps"].items()},
        free_wps=tuple(raw["free_wps"]),
        reroll_at_most={k: int(v) for k, v in raw["reroll_at_most"].items()},
        weeks_per=int(weeks["per"]),
        weeks_die=int(weeks["die"]),
        weeks_plus=int(weeks["plus"]),
        weeks_per_month=int(raw["weeks_per_month"]),
        wp_improve={k: int(v) for k, v in raw["wp_improve"].items()},
        lead={k: int(v) for k, v in raw["lead"].items()},
        hero_potential={k: int(v) for k, v in raw["hero_potential"].items()},
        hero_top=int(raw["hero_top"]),
        retired_at_most=int(raw["retired_at_most"]),
        promotion=dict(raw["promotion"]),
        recovery={
            k: (_frac(v["base"]), _frac(v["per_point"])) for k, v in raw["recovery"].items()
        },
        endurance_mod=tuple(
            (int(r[0]), _frac(r[1]), _frac(r[2]), _frac(r[3])) for r in raw["endurance_mod"]
        ),
        practice={k: dict(v) for k, v in raw["practice"].items()},
        loss=dict(raw["loss"]),
        names=tuple(str(n) for n in raw["names"]),
        bonus_triggers=frozenset(int(v) for v in chars["bonus_triggers"]),
        penalty_triggers=frozenset(int(v) for v in chars["penalty_triggers"]),
    )
