"""One close-combat attack by a figure at a figure on a board (digest §10; F-31, F-32, F-21).

Only the attacker rolls; the modifiers come from the state before the action; armour's melee
values reduce an S's −4; a CS kill is a real kill; a CF kills the attacker and the defender
gains 1; then leader-loss rolls (§4, §21.3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall import armour as arm
from killhouse.rulesets.firewall.drugs import drug_bonus
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll
from killhouse.rulesets.firewall.leaders import LeaderLoss
from killhouse.rulesets.firewall.melee import MeleeSituation, melee_modifier, melee_outcome
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import (
    Figure,
    Status,
    Team,
    bonus_for,
    resolve_leader_loss,
)
from killhouse.rulesets.firewall.vision import known_to, witnessed

REACH_CM = 2


def item_classes() -> Mapping[str, str]:
    """Close-combat weapon class of each carried item that is no firearm (§10, F-109)."""
    return {str(k): str(v) for k, v in tables().melee["items"].items()}


def melee_item(name: str) -> str | None:
    """The id of a close-combat item by id or printed name ("Ball-peen hammer"), or None."""
    key = "_".join(name.lower().replace("-", " ").split())
    return key if key in item_classes() else None


@dataclass(frozen=True)
class MeleeReport:
    """The dice, the category and the leader-loss rolls that followed."""

    dice: tuple[int, int]
    modifier: int
    result: Result
    leader_losses: Mapping[str, LeaderLoss] = field(default_factory=dict)


def best_weapon_class(figure: Figure, items: tuple[str, ...] = ()) -> str:
    """The single best close-combat weapon class a figure has (ruling F-31: no stacking)."""
    m = tables().melee["weapon"]
    classes: list[str] = []
    for wid in figure.weapons:
        weapon = tables().weapons.get(wid)
        if weapon is not None and figure.weapon_state.get(wid, "ready") != "useless":
            classes.append(weapon.cc)
    known = item_classes()
    classes.extend(known[i] for i in (*figure.melee, *items) if i in known)
    if {"cyber_legs_basic", "cyber_legs_advanced"} & figure.cyber:
        classes.append("knife")  # §14.1: a cyber-leg kick counts +1
    return max(classes, key=lambda c: int(m[c])) if classes else "unarmed"


def melee_problem(figures: Mapping[str, Figure], attacker: str, target: str) -> str | None:
    """Why the attack is not allowed now, or ``None``."""
    a, t = figures.get(attacker), figures.get(target)
    if a is None or t is None:
        return "no such figure"
    if not a.active:
        return f"{a.id} is not active"
    if a.combat_used or a.failed_this_turn:
        return f"{a.id} has no Combat action left this Turn"
    if t.side == a.side:
        return "a figure may not attack its own side"
    if t.status not in (Status.ACTIVE, Status.INCAPACITATED):
        return f"{t.id} is not on the table"
    if t.level != a.level or not within(a.cell, t.cell, REACH_CM):
        return f"{t.id} is not within 2 cm of {a.id}"
    return None


def melee_situation(
    board: Board, figures: Mapping[str, Figure], teams: Mapping[str, Team], attacker: str,
    target: str, items: tuple[str, ...] = (), surprised: bool = False,
) -> MeleeSituation:
    """The §10 modifiers from the state before the action."""
    a, t = figures[attacker], figures[target]
    near_a = [
        f for f in figures.values()
        if f.active and f.level == a.level and f.id not in (a.id, t.id)
        and within(a.cell, f.cell, REACH_CM)
    ]
    near_t = [
        f for f in figures.values()
        if f.active and f.level == t.level and f.id not in (a.id, t.id)
        and within(t.cell, f.cell, REACH_CM)
    ]
    clutter = max(board.clutter(Cell(a.level, *a.cell)), board.clutter(Cell(t.level, *t.cell)))
    weapon = best_weapon_class(a, items)
    m = tables().melee
    # §10: a built-in blade is a knife (+1) with the built-in +1; used when no other
    # weapon does as well (weapons never stack, ruling F-31)
    built_in = "built_in_weapon" in a.cyber and (
        int(m["weapon"]["knife"]) + int(m["built_in"]) > int(m["weapon"][weapon]))
    return MeleeSituation(
        weapon="knife" if built_in else weapon,
        built_in=built_in,
        surprised=surprised or not teams[t.team].aware,  # ruling F-32
        extra_enemies=sum(1 for f in near_a if f.side != a.side),
        extra_friends=sum(1 for f in near_t if f.side == a.side),
        clutter=clutter,
        suppressed=a.suppressed,
        leader=bonus_for(a, teams[a.team], figures),
        cyber_arm="cyber_arm" in a.cyber,
        combat_computer="combat_computer" in a.cyber,
        drug=drug_bonus(a.drug_effects, "melee"),  # §15
        strength=int(a.skills.get("strength", 0)),
    )


def resolve_melee(
    board: Board,
    figures: dict[str, Figure],
    teams: Mapping[str, Team],
    attacker: str,
    target: str,
    chance: Chance,
    log: EventLog,
    items: tuple[str, ...] = (),
    sides: tuple[str, ...] | None = None,
    known: Callable[[], dict[str, set[str]]] | None = None,
) -> MeleeReport:
    """Resolve one close-combat attack against a figure; refuses an illegal one unchanged."""
    problem = melee_problem(figures, attacker, target)
    if problem is not None:
        raise IllegalActionError(problem)
    a, t = figures[attacker], figures[target]
    situation = melee_situation(board, figures, teams, attacker, target, items)
    mod = melee_modifier(situation)
    # who may name whom: the ruleset's sight when given (vehicle crews too), else figures'
    before = (known() if known else known_to(board, figures, sides)) if sides else None
    dice_audience = (
        frozenset(s for s, ids in before.items() if a.id in ids and t.id in ids)
        if before else None
    )
    a.combat_used = True
    roll = gutz_roll(chance, a.gutz, mod, f"{a.id} attacks {t.id} in close combat",
                     dice_audience)
    out = melee_outcome(roll.result)
    teams[t.team].aware = True
    teams[a.team].aware = True
    if out.target_killed:
        t.status = Status.KILLED
    if out.target_loss:
        r = arm.reduction(tables().armour[t.armour], melee=True)
        loss = arm.loss_after_armour(out.target_loss, r)
        change = change_gutz(t.gutz, -loss)
        t.gutz = change.gutz
        if change.status != "active":
            # a lethal loss below 2 routs an active figure and kills a helpless one (F-33)
            t.status = Status.KILLED if t.status is Status.INCAPACITATED else Status.ROUTED
    if out.target_gain and t.active:
        t.gutz = change_gutz(t.gutz, out.target_gain).gutz
    if out.attacker_gain:
        a.gutz = change_gutz(a.gutz, out.attacker_gain).gutz
    if out.attacker_killed:
        a.status = Status.KILLED
    if roll.result in ("F", "CF"):
        a.failed_this_turn = True
    data: dict[str, object] = {"attacker": a.id, "target": t.id, "dice": list(roll.dice),
                               "result": roll.result, "target_status": t.status.value}
    if before is None:
        log.emit("close-combat", data)
    else:
        # §21.4: only sides that may name a combatant hear of it, without the other's name
        after = known() if known else known_to(board, figures, tuple(before))
        audience, views = witnessed(before, after, data, ("attacker", "target"))
        log.emit("close-combat", data, audience, views)
    losses: dict[str, LeaderLoss] = {}
    for team in teams.values():
        losses.update(resolve_leader_loss(team, figures, chance))
    return MeleeReport(roll.dice, mod, roll.result, losses)
