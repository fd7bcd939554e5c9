"""Personal armour against Gutz losses (digest §7.6, §13; rulings F-21, F-37)."""

from __future__ import annotations

from typing import Literal

from killhouse.rulesets.firewall.tables import Armour

#: How an attack treats armour: normal; double (buckshot, Shredder, Blunderbuss); half
#: (Mono-Flechette, rounded down); none (non-lethal and gas); powered_only (Concussion).
ArmourRule = Literal["normal", "double", "half", "none", "powered_only"]


def reduction(
    armour: Armour, rule: str = "normal", *, melee: bool = False, flame: bool = False
) -> int:
    """R of §7.6 for one figure's armour against one attack (ruling F-21)."""
    base = armour.reduction(melee=melee, flame=flame)
    if rule == "double":
        return base * 2
    if rule == "half":
        return base // 2
    if rule == "none":
        return 0
    if rule == "powered_only":
        # §9 Concussion: only powered armour reduces its losses
        return base if armour.powered else 0
    if rule != "normal":
        raise ValueError(f"unknown armour rule {rule!r}")
    return base


def loss_after_armour(loss: int, reduction_value: int) -> int:
    """``max(0, L − R)``: armour never turns a loss into a gain (§7.6)."""
    return max(0, loss - reduction_value)


def immune(
    armour: Armour, *, nukem: bool = False, gas: str | None = None, blinker: bool = False,
    cyber_eye: bool = False, breathing_apparatus: bool = False,
    affects_light_armour: bool = True,
) -> bool:
    """Whether the wearer ignores every effect of the attack (§7.6 immunities, §13, F-37).

    Sealed armour against Nukem and gas (nerve gas: only sealed armour; breathed gases also
    a gas mask, Lung Filters or Re-breather); any cyber eye against the Blinker; the Daewoo
    Specter against any weapon that cannot hurt Light armour.
    """
    if nukem and armour.sealed:
        return True
    if gas == "nerve" and armour.sealed:
        return True
    if gas == "breathed" and (armour.sealed or breathing_apparatus):
        return True
    if blinker and cyber_eye:
        return True
    return armour.vehicle_armour is not None and not affects_light_armour
