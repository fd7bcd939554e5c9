"""Close combat (digest §10; reconstruction R-17, rulings F-31, F-32)."""

from __future__ import annotations

from dataclasses import dataclass

from killhouse.rulesets.firewall.gutz import Result
from killhouse.rulesets.firewall.tables import tables


@dataclass(frozen=True)
class MeleeSituation:
    """Everything §10 adds to a close-combat attack's target number."""

    weapon: str = "unarmed"  # the single best weapon class (weapons never stack, F-31)
    vs_vehicle: bool = False
    with_grenade: bool = False
    surprised: bool = False
    extra_enemies: int = 0
    extra_friends: int = 0
    clutter: int = 0  # the higher of attacker's and target's squares (F-31)
    suppressed: bool = False
    leader: int = 0
    cyber_arm: bool = False
    combat_computer: bool = False
    built_in: bool = False
    strength: int = 0  # Strength skill level (0 = none)
    drug: int = 0
    transport: str = "none"


def melee_terms(s: MeleeSituation) -> list[tuple[str, int]]:
    """The named modifiers of §10 that apply (zeros left out)."""
    m = tables().melee
    terms: list[tuple[str, int]] = []
    if s.vs_vehicle:
        # ruling F-31: −4, and +4 with a grenade or bomb; weapon modifiers do not count
        terms.append(("vs vehicle", int(m["vs_vehicle"])))
        if s.with_grenade:
            terms.append(("grenade vs vehicle", int(m["vs_vehicle_grenade"])))
    else:
        if s.weapon not in m["weapon"]:
            raise ValueError(f"unknown close-combat weapon class {s.weapon!r}")
        terms.append(("weapon", int(m["weapon"][s.weapon])))
    if s.surprised:
        terms.append(("target surprised", int(m["target_surprised"])))
    terms.append(("extra enemies", int(m["per_extra_enemy"]) * s.extra_enemies))
    terms.append(("extra friends", int(m["per_extra_friend"]) * s.extra_friends))
    terms.append(("clutter", -s.clutter))
    if s.suppressed:
        terms.append(("attacker suppressed", int(m["suppressed"])))
    terms.append(("leader", s.leader))
    if s.cyber_arm:
        terms.append(("cyber arm", int(m["cyber_arm"])))
    if s.combat_computer:
        terms.append(("combat computer", int(m["combat_computer"])))
    if s.built_in:
        terms.append(("built-in weapon", int(m["built_in"])))
    if s.strength:
        terms.append(("strength", s.strength - 1))
    terms.append(("drug", s.drug))
    terms.append(("transport", int(m["transport"][s.transport])))
    return [(name, value) for name, value in terms if value != 0]


def melee_modifier(s: MeleeSituation) -> int:
    """M of a close-combat attack."""
    return sum(value for _, value in melee_terms(s))


@dataclass(frozen=True)
class MeleeOutcome:
    """What a close-combat result does (§10): to the target and to the attacker."""

    target_killed: bool = False
    target_loss: int = 0
    target_gain: int = 0
    attacker_killed: bool = False
    attacker_gain: int = 0


def melee_outcome(result: Result, vs_vehicle: bool = False) -> MeleeOutcome:
    """§10's result table; a CS kill is a real kill (no non-lethal close combat)."""
    m = tables().melee
    if result == "CS":
        return MeleeOutcome(target_killed=True, attacker_gain=1)
    if result == "S":
        key = "s_loss_vehicle" if vs_vehicle else "s_loss_infantry"
        return MeleeOutcome(target_loss=int(m[key]))
    if result == "CF":
        return MeleeOutcome(attacker_killed=True, target_gain=1)
    return MeleeOutcome()
