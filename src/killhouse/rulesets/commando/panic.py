"""Panic and preservation checks of Grunts and Doofi (digest 7, rulings C-14, C-15).

Commandos never check; the chances come from the supervising leader's Lead (Leadership Chart).
"""

from __future__ import annotations

from dataclasses import dataclass

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando.dice import percent_check
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.wounds import Wound

STEADY = "steady"


def leadership(lead: int) -> tuple[int, int]:
    """(Panic %, Preservation multiple) for a leader's Lead: below 1 uses row 1, 30+ row 30."""
    rows = tables().leadership
    return rows[max(min(rows), min(max(rows), lead))]


@dataclass(frozen=True)
class PanicSituation:
    """The Panic Modifiers Table's conditions for one man (digest 7.1)."""

    lead: int
    wound: Wound = Wound.UNWOUNDED
    observed_enemy: bool = False        # this turn
    first_sighting: bool = False        # first time this mission; stacks with observed_enemy
    leader_near: bool = False           # friendly Commando or NPC leader within 10 squares
    conditions: int = 0                 # preservation conditions that hold (7.2)
    dry_humour: bool = False            # joke ability, only with commando.joke_abilities (C-47)


def panic_chance(s: PanicSituation) -> int:
    """Panic % + modifiers; ruling C-14: no clamp."""
    mod = tables().panic_mod
    pct = leadership(s.lead)[0]
    if s.wound is Wound.WOUNDED:
        pct += mod["wounded"]
    elif s.wound is Wound.SERIOUS:
        pct += mod["seriously_wounded"]
    if s.observed_enemy:
        pct += mod["observed_enemy_this_turn"]
    if s.first_sighting:
        pct += mod["observed_enemy_first_time"]
    if s.leader_near:
        pct += mod["leader_within_10"]
    pct += s.conditions * mod["per_preservation_condition"]
    if s.dry_humour:
        pct += mod["dry_humour"]
    return pct


def panic_result(face: int) -> str:
    """Panic Results Table (1d10): ``prone`` 1-6, ``fire`` 7-8, ``run`` 9-10."""
    return tables().panic_results[face]


def panic_check(chance: Chance, pct: int, audience: Audience = None) -> str:
    """``steady``, or the panic result rolled on 1d10 (ruling C-14)."""
    if not percent_check(chance, pct, "panic check", audience):
        return STEADY
    return panic_result(chance.roll(10, "panic result", audience))


def preservation_chance(lead: int, conditions: int) -> int:
    """Ruling C-15: multiple × conditions, at most 95; no conditions means no check (0)."""
    if conditions <= 0:
        return 0
    return min(tables().preservation_cap, leadership(lead)[1] * conditions)


def preservation_check(
    chance: Chance, lead: int, conditions: int, audience: Audience = None
) -> bool:
    """True if he is "Preserving" until the next Bookkeeping (ruling C-15)."""
    if conditions <= 0:
        return False
    pct = preservation_chance(lead, conditions)
    return percent_check(chance, pct, "preservation check", audience)


def preservation_conditions(
    *,
    wounded: bool,
    fired_at: bool,
    friend_fell_nearby: bool,
    leader_gone: bool,
    no_ammunition: bool,
    outnumbered: bool,
) -> int:
    """Ruling C-15: how many of the six preservation conditions hold (each also +5 panic)."""
    return sum((wounded, fired_at, friend_fell_nearby, leader_gone, no_ammunition, outnumbered))
