"""Tasks on the men's running state: a fire task (plain, aimed, semi-automatic, spray, into a
hand-to-hand square), the op-fire fee, Mobile Overwatch and the effects of panic (digest 7.1,
8, 12.1; rulings C-14, C-19 … C-26, C-37).

The map decides range, terrain and line of sight; these functions take them as numbers, pay the
TP, roll through ``Chance`` and apply the results to ``ManState``. A task that cannot be paid
or is not allowed raises ``TaskRefused`` before anything changes or any die is rolled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando import fire
from killhouse.rulesets.commando.characters import skill_check
from killhouse.rulesets.commando.men import ManState, Posture
from killhouse.rulesets.commando.notes import note_hit
from killhouse.rulesets.commando.panic import STEADY
from killhouse.rulesets.commando.tables import tables


class TaskRefused(ValueError):
    """A task the rules do not allow now, with the reason; nothing has changed."""


@dataclass(frozen=True)
class Aim:
    """One target of a fire task as the map sees it (range, terrain modifier, flush stance).

    ``crowd`` lists everyone in the target's square when it is a hand-to-hand square (C-37).
    """

    target: str
    rng: int
    terrain: int = 0
    flush_wall: bool = False
    on_vehicle: bool = False
    crowd: tuple[str, ...] = ()
    from_primary: int = 0      # spray fire: squares from the primary target (C-25)


@dataclass
class FireReport:
    """What a fire task did: each fire's victim and result, the magazine, the TP paid."""

    weapon: str
    cost: int
    shots: list[tuple[str, fire.Shot]] = field(default_factory=list)
    emptied: bool = False
    sniped: bool = False   # a successful Sniping roll: the firer is not auto-observed (12.1)
    chances: list[int] = field(default_factory=list)  # the final H of each aim (8.2)


def fire_cost_for(
    man: ManState, weapon: str, *, semi: bool = False, spray: bool = False,
    sniping: bool = False, aimed: bool = False,
) -> int:
    """TP a fire task costs him now; aimed fire costs all his TP (ruling C-24)."""
    cost = fire.fire_cost(weapon, semi=semi, spray=spray, sniping=sniping)
    return max(cost, man.tp) if aimed else cost


def fire_task(
    chance: Chance,
    firer: ManState,
    weapon: str,
    aims: Sequence[Aim],
    men: Mapping[str, ManState],
    *,
    semi: bool = False,
    aimed: bool = False,
    sniping: bool = False,
    enemy_weapon: bool = False,
    first_task: bool = True,
    audience: Audience = None,
) -> FireReport:
    """Resolve one fire task (digest 8.7): pay, roll every fire, apply, Mag Chk.

    ``aims`` has one entry per fire with spray fire (C-25), else a single entry that every fire
    goes at. Rules checked before anything changes: the weapon fires at that range (C-27), the
    magazine is loaded (C-19), spray needs 3+ automatic fires (C-25), aimed fire is the only
    task of the activation (C-24), Sniping needs the skill and a single-fire rifle or carbine.
    """
    if not firer.active():
        raise TaskRefused(f"{firer.id} is out of action")
    if firer.engaged:
        raise TaskRefused(f"{firer.id} is engaged in hand-to-hand (C-37)")
    if weapon in firer.empty:
        raise TaskRefused(f"{firer.id}'s {weapon} is empty; reload first (25 TP)")
    spray = len(aims) > 1
    fires = fire.fires(weapon, semi)
    if spray and (not fire.can_spray(weapon, semi) or len(aims) != fires):
        raise TaskRefused(f"spray fire needs {fires} aims with an automatic weapon (C-25)")
    if not aims:
        raise TaskRefused("a fire task needs a target")
    spread = tables().spray_spread
    if any(a.from_primary > spread for a in aims[1:]) or aims[0].from_primary:
        raise TaskRefused(f"spray fire reaches only {spread} squares from the primary (C-25)")
    reach = tables().preserving_fire_range
    if firer.preserving and any(a.rng > reach for a in aims):
        raise TaskRefused(f"a Preserving man fires only within {reach} squares (C-15)")
    if aimed and not first_task:
        raise TaskRefused("an aimed fire task must be his only task this activation (C-24)")
    if sniping and ("sniping" not in firer.ratings.skills or weapon not in ("rifle", "carbine")):
        raise TaskRefused("Sniping needs the skill and a single-fire rifle or carbine (12.1)")
    cost = fire_cost_for(firer, weapon, semi=semi, spray=spray, sniping=sniping, aimed=aimed)
    if aimed and firer.tp < fire.fire_cost(weapon, semi=semi):
        raise TaskRefused("aimed fire needs at least the normal fire cost (C-24)")
    # ruling C-180: a weapon picked up from the enemy fires at -15
    enemy_weapon = enemy_weapon or weapon in firer.extra.get("enemy_weapons", ())
    chances: list[int] = []
    for aim in aims:
        target = men[aim.target]
        h = fire.hit_chance(fire.FireSituation(
            weapon, aim.rng, mk=firer.ratings.mk, hero_combat=firer.ratings.hero_combat(),
            wp=firer.ratings.wp(weapon), terrain=aim.terrain,
            target_prone=target.posture is Posture.PRONE, target_flush_wall=aim.flush_wall,
            enemy_weapon=enemy_weapon, target_moving=target.moved_this_turn, aimed=aimed,
            target_on_vehicle=aim.on_vehicle, severely_wounded=firer.severely_wounded(),
        ))
        if h is None:
            raise TaskRefused(f"a {weapon} may not fire at range {aim.rng} (P, C-27)")
        chances.append(h)
    if cost > firer.tp:
        raise TaskRefused(f"{firer.id} has {firer.tp} TP; this fire task costs {cost}")
    firer.spend(cost)
    report = FireReport(weapon, cost, chances=list(chances))
    if sniping:
        report.sniped = skill_check(chance, "sniping", firer.ratings.skills["sniping"].rating,
                                    firer.ratings.hero_skill(), audience=audience, who=firer.id)
    damage = fire.firearm(weapon).damage
    for i in range(fires):
        aim = aims[i] if spray else aims[0]
        h = chances[i] if spray else chances[0]
        victim = aim.target
        if aim.crowd:
            # ruling C-37: each fire's victim is drawn from everyone in the H2H square
            victim = chance.pick(sorted(aim.crowd), "victim in hand-to-hand", audience)
        report.shots.append((victim, fire.one_fire(chance, h, damage, audience)))
    for victim, shot in report.shots:  # results applied after all fires are rolled (8.7)
        if victim not in men:
            continue  # a hostage in the square (ruling C-191): the caller applies it
        if shot.result != fire.MISS and men[victim].side != firer.side:
            note_hit(firer.id, weapon)  # for the campaign (digest 14 step 4, ruling C-131)
        if shot.result == fire.KILL:
            men[victim].kill()
        elif shot.result == fire.WOUND:
            men[victim].take_damage(shot.damage)
            if weapon == "flamethrower":  # ruling C-34: a hit sets him burning
                men[victim].burning = True
    report.emptied = fire.mag_check(chance, weapon, semi, audience)
    if report.emptied:
        firer.empty = firer.empty | {weapon}
    return report


def reload(man: ManState, weapon: str) -> None:
    """Reload weapon, 25 TP (ruling C-19)."""
    cost = tables().cost["reload"]
    if weapon not in man.empty:
        raise TaskRefused(f"{man.id}'s {weapon} is not empty")
    if not man.spend(cost):
        raise TaskRefused(f"{man.id} has {man.tp} TP; reloading costs {cost}")
    man.empty = man.empty - {weapon}


def pay_op_fire_fee(man: ManState) -> None:
    """Ruling C-26: a plotted man pays 5 TP once, at his first op fire or his phase-6 start."""
    if man.plotted and not man.fee_paid:
        fee = tables().extra["opportunity_fire"]
        man.tp = max(0, man.tp - fee)
        man.fee_paid = True


def can_plot(man: ManState) -> bool:
    """Ruling C-26: engaged, incapacitated and Preserving men cannot be plotted."""
    return man.active() and not man.engaged and not man.preserving


def mobile_overwatch(
    chance: Chance, man: ManState, weapon: str, *, sees_firer: bool, firer_observed: bool,
    audience: Audience = None,
) -> bool:
    """Whether he may answer a fire task at him with his own, simultaneously (12.1).

    He needs the skill, LOS to an observed firer, not be engaged, and fire cost + 9 TP; then
    a successful roll. A failed roll costs nothing.
    """
    skill = man.ratings.skills.get("mobile_overwatch")
    if skill is None or not man.active() or man.engaged or not sees_firer or not firer_observed:
        return False
    if man.tp < fire.fire_cost(weapon) + tables().extra["mobile_overwatch"]:
        return False
    return skill_check(chance, "mobile_overwatch", skill.rating, man.ratings.hero_skill(),
                       audience=audience, who=man.id)


def apply_panic(man: ManState, result: str) -> None:
    """Ruling C-14's effects that need no map: a panic costs the op-fire plot; "prone" drops
    him prone for free and ends his activation with the TP lost. "fire" and "run" are played
    out by the turn (they need targets and routes) and then end the activation."""
    man.panic_checked = True
    if result == STEADY:
        return
    man.plotted = False
    if result == "prone":
        man.posture = Posture.PRONE
        man.tp = 0
        man.move_tp = 0
