"""Map-free pieces of the turn of digest §15: who activates next, burning, charge timers and
smoke/illumination lifetimes (rulings C-16, C-33 … C-35, C-64)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando.dice import roll_dice
from killhouse.rulesets.commando.men import ManState, Posture
from killhouse.rulesets.commando.tables import Dice, tables
from killhouse.rulesets.commando.wounds import Wound


def next_side(just_acted: str, sides: Sequence[str], eligible: Mapping[str, int]) -> str | None:
    """§15 phase 5 step 5: play passes to the other side if it still has eligible men,
    otherwise the same side goes again; ``None`` when nobody is left."""
    others = [s for s in sides if s != just_acted and eligible.get(s, 0) > 0]
    if others:
        return others[0]
    return just_acted if eligible.get(just_acted, 0) > 0 else None


def burn(chance: Chance, man: ManState, audience: Audience = None) -> Wound:
    """Ruling C-34: a burning man takes 1d6 in every Bookkeeping."""
    if not man.burning:
        return man.wound()
    return man.take_damage(max(0, roll_dice(chance, Dice(1, 6), "burning", audience)))


def cease_burning(man: ManState) -> bool:
    """Cease burning: 25 TP and he must be prone (C-34). False, and no change, otherwise."""
    if not man.burning or man.posture is not Posture.PRONE:
        return False
    if not man.spend(tables().cost["cease_burning"]):
        return False
    man.burning = False
    return True


@dataclass
class Charge:
    """A thrown grenade or satchel (goes off this Bookkeeping) or a demolition charge with a
    0-5 turn timer, in order of placement (ruling C-33)."""

    id: str
    device: str
    placed: int
    timer: int = 0


def charges_due(charges: Sequence[Charge]) -> tuple[list[Charge], list[Charge]]:
    """Bookkeeping steps 1-2 (C-64): charges at 0 go off in the order they were placed; the
    others count down and wait. Ruling C-77: a timer of N turns goes off in the Bookkeeping N
    turns after the one of the turn it was set (0: the same turn, like a thrown grenade)."""
    due: list[Charge] = []
    waiting: list[Charge] = []
    for charge in sorted(charges, key=lambda c: c.placed):
        if charge.timer <= 0:
            due.append(charge)
        else:
            charge.timer -= 1
            waiting.append(charge)
    return due, waiting


def cloud_lasts_until(burst_turn: int) -> int:
    """Ruling C-35: smoke and illumination last to the end of the third turn after the
    Bookkeeping in which they go off."""
    return burst_turn + tables().cloud_turns


def initiative_winner(chance: Chance, sides: Sequence[str], audience: Audience = None) -> str:
    """Ruling C-16 for two sides: 1d10 each, ties re-rolled; the result is public."""
    from killhouse.rulesets.commando.dice import initiative

    return sides[initiative(chance, audience)]
