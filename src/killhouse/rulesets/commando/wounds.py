"""Wound states and the task-point allotment (digest 5.1 and 11, rulings C-4, C-5, C-46, C-52)."""

from __future__ import annotations

from enum import StrEnum

from killhouse.rulesets.commando.tables import tables


class Wound(StrEnum):
    """A man's wound state (ruling C-4)."""

    UNWOUNDED = "unwounded"
    WOUNDED = "wounded"
    SERIOUS = "seriously wounded"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"


def wound_state(
    end0: int, damage: int, ignore_serious: bool = False, killed: bool = False
) -> Wound:
    """Ruling C-4: 2·D ≥ End0 is serious; E 0..−2 incapacitated; E ≤ −3 or a Kill is death.

    Ignore Serious Wounds (and Striking Paramour, C-46) never gives the serious state while E ≥ 1.
    """
    e = end0 - damage
    if killed or e <= -3:
        return Wound.DEAD
    if e <= 0:
        return Wound.INCAPACITATED
    if damage <= 0:
        return Wound.UNWOUNDED
    if 2 * damage >= end0 and not ignore_serious:
        return Wound.SERIOUS
    return Wound.WOUNDED


def allotment(state: Wound, mind_over_matter: bool = False) -> int:
    """TP for the turn (digest 5.1, ruling C-5); Mind Over Matter adds 5 while he can act."""
    table = tables().allotment
    if state in (Wound.DEAD, Wound.INCAPACITATED):
        return table["incapacitated"]
    base = table["seriously_wounded"] if state is Wound.SERIOUS else table["unwounded"]
    return base + (table["mind_over_matter"] if mind_over_matter else 0)


def tp_after_wound(tp_left: int, before: Wound, after: Wound) -> int:
    """Ruling C-5: becoming seriously wounded halves unspent TP (down); incapacitated drops to 0."""
    if after in (Wound.DEAD, Wound.INCAPACITATED):
        return 0
    if after is Wound.SERIOUS and before is not Wound.SERIOUS:
        return tp_left // 2
    return tp_left


def revived_damage(end0: int) -> int:
    """Ruling C-52: a completed Revive sets E = 1, so D = End0 − 1."""
    return end0 - 1
