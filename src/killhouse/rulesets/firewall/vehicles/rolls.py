"""The ``anti-vehicle`` named roll for ``killhouse odds firewall``: one attack at a vehicle
(§7.4.2 SS(A) table, §7.4.3 AV matrix, soft skin on the weapon's own table, F-50) and what it
does to the vehicle."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from killhouse.core.chance import Chance
from killhouse.errors import UnknownRollError
from killhouse.rulesets.base import JSON, Param, RollSpec
from killhouse.rulesets.firewall.fire import FireSituation, can_affect_vehicle, fire_modifier
from killhouse.rulesets.firewall.gutz import gutz_roll
from killhouse.rulesets.firewall.tables import ARMOUR_CLASSES, tables
from killhouse.rulesets.firewall.vehicles.damage import effect_on_vehicle


def odds_anti_vehicle(chance: Chance, params: Mapping[str, JSON]) -> str:
    """The roll with the modifiers of ruling F-149 (weapon, range band, suppression, leader;
    no cover, prone or clutter) and the vehicle's outcome: destroyed, gutz-N, no-effect, or
    critical-failure (no effect; the firer −1 and a malfunction roll)."""
    from killhouse.rulesets.firewall.rolls import _band, _gutz, _int, _str, _weapon
    weapon = _weapon(params)
    fire = params["fire-type"]
    try:
        mode = weapon.mode(None if fire in (None, "") else str(fire))
    except ValueError as exc:
        raise UnknownRollError(f"--fire-type: {exc}") from None
    armour = _str(params, "armour")
    if armour not in ARMOUR_CLASSES:
        raise UnknownRollError(
            f"--armour: expected one of {', '.join(ARMOUR_CLASSES)}, found {armour!r}")
    grenade = params.get("grenade") or None
    attack = mode.fire
    if attack == "Spec":
        try:
            attack = tables().grenade(str(grenade or "heat")).fire
        except KeyError:
            raise UnknownRollError(f"--grenade: no grenade type {grenade!r} (section 9)") from None
    if not can_affect_vehicle(attack, armour):
        raise UnknownRollError(
            f"--armour: {weapon.name} ({attack}) cannot hurt {armour} armour (ruling F-50)")
    situation = FireSituation(
        mode=mode, band=_band(weapon, Fraction(_int(params, "range-cm", 0, 1000))),  # type: ignore[arg-type]
        fire_type=None if mode.fire != "Spec" else attack, vs_infantry=False,
        suppressed=bool(params["suppressed"]), leader=1 if params["leader-near"] else 0)
    roll = gutz_roll(chance, _gutz(params), fire_modifier(situation), "anti-vehicle")
    if roll.result == "CF":
        return "critical-failure"
    effect = effect_on_vehicle(attack, roll.result, armour)
    if effect == "kill":
        return "destroyed"
    return "no-effect" if effect == 0 else f"gutz-{effect}"


ANTI_VEHICLE = RollSpec(
    "anti-vehicle", "An attack at a vehicle (§7.4.2, §7.4.3, F-50): SS(A) weapons on the SS(A) "
    "table, Guns on the AV matrix, anything else only at soft skin on its own table; "
    "outcomes by what the vehicle suffers.",
    (
        Param("gutz", int, 8, "the firer's (or crew's) Gutz (2-11)"),
        Param("weapon", str, "Korolev Rail Gun", "weapon by printed name or id (§8)"),
        Param("armour", str, "light", "the vehicle's armour", ARMOUR_CLASSES),
        Param("range-cm", int, 60, "model distance to the vehicle in cm"),
        Param("fire-type", str, "", "declared fire type (default: the weapon's first)"),
        Param("grenade", str, "", "grenade type for a launcher (Spec), e.g. heat"),
        Param("suppressed", bool, False, "firer suppressed (−4)"),
        Param("leader-near", bool, False, "own leader within 8 cm (+1)"),
    ),
    odds_anti_vehicle,
)
