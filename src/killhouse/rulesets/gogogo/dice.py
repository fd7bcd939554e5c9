"""Every die roll of "Go! Go! Go!", as functions of a ``Chance``: play and the odds share them.

All rolls are 1d6 (ruling G-13). A need of ``N`` means ``natural d6 ≥ N`` once the
modifiers are folded into it; a need ≤ 1 always succeeds and one above 6 always fails,
and such certain rolls use no die at all (ruling G-42).
"""

from __future__ import annotations

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.gogogo.tables import tables

DIE = 6
OOA = "out-of-action"
WOUNDED = "wounded"
MISS = "miss"
STUNNED = "stunned"
NO_EFFECT = "no-effect"


def need_roll(chance: Chance, need: int, purpose: str, audience: Audience = None) -> bool:
    """``d6 ≥ need``; certain outcomes roll no die (ruling G-42)."""
    if need <= 1:
        return True
    if need > DIE:
        return False
    return chance.roll(DIE, purpose, audience) >= need


def chance_of(need: int) -> float:
    """P(d6 ≥ need), clamped to [0, 1] (digest section 8)."""
    return min(1.0, max(0.0, (DIE + 1 - need) / DIE))


# -- spotting (table 3.1, ruling G-9) -------------------------------------------------


def spot_need(observer: str, target: str, target_hiding: bool, wounds: int, stunned: bool) -> int:
    """The natural d6 needed to spot in the peripheral arc.

    ``observer`` is moving, stationary or hiding; ``target`` is moving or stationary.
    Wounds and stun of the observer count (ruling G-15).
    """
    t = tables()
    mods = (t.spot_target_hiding if target_hiding else 0) + t.spot_per_wound * wounds
    mods += t.spot_stunned if stunned else 0
    return t.spot_need[observer][target] - mods


def spot(
    chance: Chance,
    observer: str,
    target: str,
    target_hiding: bool,
    wounds: int,
    stunned: bool,
    purpose: str = "spot",
    audience: Audience = None,
) -> bool:
    """One peripheral spotting roll: True if the target is spotted."""
    need = spot_need(observer, target, target_hiding, wounds, stunned)
    return need_roll(chance, need, purpose, audience)


# -- fire (tables 3.2 and 3.3, rulings G-14, G-23, G-43) --------------------------------


def fire_need(
    firer: str,
    short: bool,
    target_moving: bool,
    target_hiding: bool,
    wounds: int,
    stunned: bool,
    aim: int,
) -> int:
    """The natural d6 needed to hit; ``firer`` is moving, stationary or sniper."""
    t = tables()
    tn = t.fire_need[firer]["short" if short else "long"]
    mods = (t.fire_target_hiding if target_hiding else 0) + (
        t.fire_target_moving if target_moving else 0
    )
    mods += t.fire_per_wound * wounds + (t.fire_stunned if stunned else 0) + t.fire_per_aim * aim
    return tn - mods


def hit_effect(chance: Chance, purpose: str = "hit effect", audience: Audience = None) -> str:
    """Table 3.3 on a natural d6 (never modified, ruling G-15): out-of-action or wounded."""
    return tables().hit_effect[chance.roll(DIE, purpose, audience) - 1]


def shot(
    chance: Chance,
    need: int,
    sniper: bool,
    purpose: str = "fire",
    audience: Audience = None,
) -> str:
    """One shot: the hit die (unless certain), then the effect die unless a sniper hit.

    Returns ``out-of-action``, ``wounded`` or ``miss`` (dice order of ruling G-42).
    """
    if not need_roll(chance, need, purpose, audience):
        return MISS
    if sniper:
        return tables().sniper_hit
    return hit_effect(chance, f"{purpose}: effect", audience)


# -- grenades (table 3.4, rulings G-18 … G-22) ----------------------------------------


def grenade_need(through_opening: bool, wounds: int, stunned: bool) -> int:
    """The natural d6 a throw needs to land on target."""
    t = tables()
    mods = (t.grenade_opening if through_opening else 0) + t.grenade_per_wound * wounds
    mods += t.grenade_stunned if stunned else 0
    return t.grenade_need - mods


def grenade_accuracy(
    chance: Chance, need: int, purpose: str = "grenade accuracy", audience: Audience = None
) -> bool:
    """True if the grenade lands on its target square."""
    return need_roll(chance, need, purpose, audience)


def scatter(
    chance: Chance, purpose: str = "grenade scatter", audience: Audience = None
) -> tuple[str, int]:
    """Direction (short, over, left or right), then distance in units: both always rolled."""
    t = tables()
    direction = t.scatter_direction[chance.roll(DIE, f"{purpose}: direction", audience) - 1]
    distance = chance.roll(t.scatter_die, f"{purpose}: distance", audience)
    return direction, distance


def he_effect(chance: Chance, purpose: str = "HE effect", audience: Audience = None) -> str:
    """HE on one figure in the radius: stunned, wounded or out-of-action (natural d6)."""
    return tables().he_effect[chance.roll(DIE, purpose, audience) - 1]


def stun_effect(chance: Chance, purpose: str = "stun effect", audience: Audience = None) -> str:
    """A stun grenade on one figure in the radius: no-effect or stunned (natural d6)."""
    return tables().stun_effect[chance.roll(DIE, purpose, audience) - 1]
