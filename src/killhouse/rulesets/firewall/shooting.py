"""One ranged attack by a figure at a figure, on a board, in the order of §21.3 and F-20.

Legality (§7.1: not within 2 cm of an enemy, line of sight by the supercover rule F-24, the
180° front arc, range F-19, a working weapon), the §7.5 modifiers read from the state before
the action, the roll, simultaneous effects with armour and F-33, the firer's change, the
malfunction roll (F-28, F-29), then leader-loss rolls (§4). Infantry targets only: vehicles
are §17, another issue.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import cells_on_segment, line_of_sight
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall import armour as arm
from killhouse.rulesets.firewall.drugs import drug_bonus
from killhouse.rulesets.firewall.fire import (
    Cover,
    FireSituation,
    Hit,
    apply_hit,
    fire_modifier,
    infantry_outcome,
    range_band,
)
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll
from killhouse.rulesets.firewall.jams import malfunction_roll
from killhouse.rulesets.firewall.leaders import LeaderLoss
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import (
    Figure,
    Status,
    Team,
    bonus_for,
    resolve_leader_loss,
)
from killhouse.rulesets.firewall.vision import known_to, witnessed

COVER_NAMES: tuple[Cover, ...] = ("none", "light", "medium", "heavy")
#: the row every thrown grenade uses (§8.8)
HAND_GRENADE = "hand_grenade"
#: the reach of close combat, inside which no ranged attack is allowed (ruling F-31)
CONTACT_CM = 2


@dataclass(frozen=True)
class Shot:
    """A declared ranged attack: who fires which weapon (and fire type) at whom."""

    firer: str
    weapon: str
    target: str
    fire: str | None = None
    grenade: str | None = None  # the grenade type a Spec weapon fires (§9)
    #: a shotgun firing slugs: SS (automatic shotguns B), armour normal (§8.6, F-35)
    slug: bool = False
    #: one of two one-handed weapons fired as one Combat action, each at −3 (F-34)
    two_weapons: bool = False


def shots_left(firer: Figure, weapon_id: str) -> int | None:
    """Shots a figure has left with a weapon of limited ammunition (§8.0: the count carried
    of one-shot and thrown items, the Hammer's 6), or None when unlimited."""
    weapon = tables().weapons[weapon_id]
    if weapon.ammo is None:
        return None
    return weapon.ammo * firer.weapons.count(weapon_id) - firer.shots.get(weapon_id, 0)


@dataclass(frozen=True)
class ShotReport:
    """What happened: the dice, the category, each figure's new standing, the malfunction."""

    dice: tuple[int, int]
    modifier: int
    result: Result
    hits: Mapping[str, Hit] = field(default_factory=dict)
    malfunction: str | None = None
    leader_losses: Mapping[str, LeaderLoss] = field(default_factory=dict)


def _xy(cell: Cell) -> tuple[int, int]:
    return (cell.x, cell.y)


def _figure_cell(figure: Figure) -> Cell:
    return Cell(figure.level, *figure.cell)


def shot_problem(board: Board, figures: Mapping[str, Figure], shot: Shot, *,
                 follow_up: bool = False, mounted: bool = False) -> str | None:
    """Why the shot is not allowed now (§7.1), or ``None`` if it is; a ``follow_up`` is the
    second of two one-handed weapons, whose Combat action the first has spent (F-34); a
    ``mounted`` shot is a vehicle weapon's, fired by its crew from inside the hull (F-277)."""
    t = tables()
    firer = figures.get(shot.firer)
    target = figures.get(shot.target)
    if firer is None or target is None:
        return "no such figure"
    if not firer.active:
        return f"{firer.id} is not active"
    if not follow_up and (firer.combat_used or firer.failed_this_turn):
        return f"{firer.id} has no Combat action left this Turn"
    if target.status in (Status.KILLED, Status.ROUTED, Status.EXITED, Status.RESERVE):
        return f"{target.id} is not on the table"
    if target.side == firer.side:
        return "a figure may not fire at its own side"
    thrown = shot.weapon == HAND_GRENADE
    if shot.weapon not in firer.weapons and not thrown:
        return f"{firer.id} does not carry {shot.weapon}"
    state = firer.weapon_state.get(shot.weapon, "ready")
    if state != "ready":
        return f"{shot.weapon} is {state}"
    weapon = t.weapons[shot.weapon]
    left = shots_left(firer, shot.weapon)
    if left is not None and left <= 0:
        return f"{firer.id} has no {weapon.name} left to fire (§8.0)"
    if shot.slug and not weapon.shotgun:
        return f"{weapon.name} is no shotgun: no slugs (§8.6)"
    if shot.two_weapons and not weapon.one_handed:
        return f"{weapon.name} is not a one-handed weapon (F-34, F-72)"
    try:
        mode = weapon.mode(shot.fire)
    except ValueError as exc:
        return str(exc)
    if mode.fire == "Spec":
        if shot.grenade is None:
            return f"{weapon.name} needs a grenade type"
        problem = _grenade_problem(firer, shot.grenade)
        if problem is not None:
            return problem
    elif shot.grenade is not None:
        return f"{weapon.name} does not fire grenades"
    # ruling F-277: F-31 binds figures; a vehicle never fights close combat, so its mounted
    # weapons fire with enemies touching the hull
    contact = () if mounted else figures.values()
    for other in contact:
        if other.side != firer.side and other.active and other.level == firer.level and within(
            firer.cell, other.cell, CONTACT_CM
        ):
            return f"{firer.id} is within 2 cm of {other.id}: close combat only (F-31)"
    if target.level != firer.level:
        return "the target is on another level"
    if range_band(weapon, firer.cell, target.cell) is None:
        return f"{target.id} is beyond {weapon.name}'s Long range of {weapon.long} cm (F-19)"
    fx, fy = firer.facing
    dx, dy = target.cell[0] - firer.cell[0], target.cell[1] - firer.cell[1]
    if fx * dx + fy * dy < 0:
        return f"{target.id} is outside {firer.id}'s 180° front arc"
    opaque = board.opaque(firer.level)
    if not line_of_sight(opaque, firer.cell, target.cell, mode="supercover"):
        return f"{firer.id} has no line of sight to {target.id} (F-24)"
    return None


def _grenade_problem(firer: Figure, grenade: str) -> str | None:
    try:
        kind = tables().grenade(grenade)
    except KeyError:
        return f"no grenade type {grenade!r} (section 9)"
    if firer.grenades.get(kind.id, 0) <= 0:
        return f"{firer.id} has no {kind.name} grenade left"
    if kind.cloud:
        # smoke and gas target squares and make clouds (F-25 … F-27): the ``cloud`` action
        return f"{kind.name} grenades target a square: use the cloud action"
    return None


def target_cover(board: Board, firer: Figure, target: Figure) -> tuple[Cover, bool]:
    """The target's cover (its own square or the square the line enters it from) and whether
    other Medium/Heavy cover lies on the line (ruling F-24)."""
    from killhouse.rulesets.firewall.storeys import opening_cover  # fwskill hook: §12
    line = cells_on_segment(firer.cell, target.cell)
    own = opening_cover(board, _figure_cell(target))
    inside = board.smoky(_figure_cell(target))
    if inside:
        own = max(own, 2)  # ruling F-25: a figure inside a cloud is in Medium cover
    entry = line[-2] if len(line) >= 2 else None
    best = own
    if entry is not None and entry != firer.cell:
        best = max(best, opening_cover(board, Cell(target.level, *entry)))
    between = list(line[1:-2])
    intervening = any(opening_cover(board, Cell(target.level, *c)) >= 2 for c in between) or (
        not inside and any(board.smoky(Cell(target.level, *c)) for c in line[1:-1])
    )  # ruling F-25: a cloud between firer and target is intervening cover
    return COVER_NAMES[best], intervening


def shot_situation(
    board: Board, figures: Mapping[str, Figure], teams: Mapping[str, Team], shot: Shot,
    *, night: bool = False,
) -> FireSituation:
    """The §7.5 modifiers of a legal shot, from the state before the action (§21.3 step 1)."""
    t = tables()
    firer, target = figures[shot.firer], figures[shot.target]
    weapon = t.weapons[shot.weapon]
    band = range_band(weapon, firer.cell, target.cell)
    assert band is not None, "shot_situation needs a legal shot"
    cover, intervening = target_cover(board, firer, target)
    fire_type = t.grenade(shot.grenade).fire if shot.grenade else None
    if shot.slug:
        fire_type = "B" if weapon.automatic else "SS"  # §8.6, ruling F-35
    return FireSituation(
        mode=weapon.mode(shot.fire),
        band=band,
        fire_type=fire_type,
        suppressed=firer.suppressed,
        target_prone=target.prone,
        cover=cover,
        intervening_cover=intervening,
        night=night,
        night_vision="lo_light" in firer.cyber or "ir_goggles" in firer.cyber,
        target_clutter=board.clutter(_figure_cell(target)),
        leader=bonus_for(firer, teams[firer.team], figures),
        target_optic="target_optic" in firer.cyber,
        combat_computer="combat_computer" in firer.cyber,
        transport=firer.rode,  # vehicles hook: riding penalty (F-46)
        passenger=firer.aboard is not None,  # vehicles hook: −3 out of a vehicle (§17.3)
        two_weapons=shot.two_weapons,
        drug=drug_bonus(firer.drug_effects, "shooting"),  # §15
    )


def _armour_rule(weapon_armour: str, grenade_armour: str | None) -> str:
    return grenade_armour if grenade_armour is not None else weapon_armour


def resolve_shot(
    board: Board,
    figures: dict[str, Figure],
    teams: Mapping[str, Team],
    shot: Shot,
    chance: Chance,
    log: EventLog,
    *,
    night: bool = False,
    sides: tuple[str, ...] | None = None,
    known: Callable[[], dict[str, set[str]]] | None = None,
    follow_up: bool = False,
    mounted: bool = False,
) -> ShotReport:
    """Resolve one legal ranged attack at a figure; refuses an illegal one before any change.

    With ``sides``, the event goes only to the sides that may name the firer, the target or
    a figure affected, each without the figures it may not name (§21.4), and the dice only to
    the sides that see the firer."""
    problem = shot_problem(board, figures, shot, follow_up=follow_up, mounted=mounted)
    if problem is not None:
        raise IllegalActionError(problem)
    t = tables()
    firer = figures[shot.firer]
    weapon = t.weapons[shot.weapon]
    grenade = t.grenade(shot.grenade) if shot.grenade else None
    situation = shot_situation(board, figures, teams, shot, night=night)
    attack = situation.attack_type
    mod = fire_modifier(situation)
    # who may name whom: the ruleset's sight when given (vehicle crews too), else figures'
    before = (known() if known else known_to(board, figures, sides)) if sides else None
    dice_audience = (
        frozenset(s for s, ids in before.items() if firer.id in ids) if before else None
    )
    firer.combat_used = True  # §21.3 step 1: the slot is spent
    if grenade is not None:
        firer.grenades[grenade.id] -= 1  # §9: each grenade fired is consumed
    if weapon.ammo is not None:
        firer.shots[weapon.id] = firer.shots.get(weapon.id, 0) + 1  # §8.0: one used per shot
    roll = gutz_roll(chance, firer.gutz, mod, f"{firer.id} fires {weapon.name}", dice_audience)
    positions = {
        f.id: f.cell
        for f in figures.values()
        if f.level == firer.level and f.status in (Status.ACTIVE, Status.INCAPACITATED)
    }
    mode = weapon.mode(shot.fire)
    outcome = infantry_outcome(attack, roll.result, shot.target, positions, firer.id, mode.malf)
    nonlethal = weapon.nonlethal or (grenade is not None and grenade.nonlethal)
    rule = "normal" if shot.slug else _armour_rule(weapon.armour,
                                                   grenade.armour if grenade else None)
    # ruling F-20: every effect from the positions at the roll, all at once
    for fid, hit in outcome.hits.items():
        victim = figures[fid]
        armour = t.armour[victim.armour]
        if arm.immune(
            armour, nukem=weapon.id == "nukem", blinker=weapon.id == "rivcon_blinker",
            cyber_eye=bool(victim.cyber & {"lo_light", "target_optic", "enhanced_vision"}),
        ):
            continue
        r = arm.reduction(armour, rule, flame=weapon.flame)
        after = apply_hit(victim.gutz, victim.status.value, victim.suppressed, hit, r,
                          nonlethal=nonlethal)
        victim.gutz, victim.status, victim.suppressed = (
            after.gutz, Status(after.status), after.suppressed
        )
        teams[victim.team].aware = True  # ruling F-16
    teams[firer.team].aware = True
    # §21.3 step 4: the firer's own change; a failure ends its Turn
    if outcome.firer_change:
        change = change_gutz(firer.gutz, outcome.firer_change)
        firer.gutz = change.gutz
        if change.status != "active":
            firer.status = Status(change.status)
    if roll.result in ("F", "CF"):
        firer.failed_this_turn = True
    effect: str | None = None
    if outcome.malfunction:
        throwable = weapon.grenade or weapon.launcher
        effect = malfunction_roll(chance, mode.malf, attack, firer.experience, throwable,
                                  audience=dice_audience)
        _apply_malfunction(figures, firer, shot, effect, attack, rule, nonlethal, positions)
    if weapon.reload != "none" and firer.weapon_state.get(weapon.id, "ready") == "ready":
        firer.weapon_state[weapon.id] = "unloaded"  # §8.0: a single-shot weapon, reloaded
    data: dict[str, object] = {
        "firer": firer.id, "target": shot.target, "weapon": weapon.name,
        **({"slug": True} if shot.slug else {}), **({"two": True} if shot.two_weapons else {}),
        "dice": list(roll.dice), "result": roll.result, "malfunction": effect,
        "affected": {
            fid: figures[fid].status.value + (" suppressed" if figures[fid].suppressed else "")
            for fid in sorted(outcome.hits)
        },
    }
    if before is None:
        log.emit("shot", data)
    else:
        seen_after = known() if known else known_to(board, figures, tuple(before))
        audience, views = witnessed(before, seen_after, data, ("firer", "target"), "affected")
        log.emit("shot", data, audience, views)
    losses: dict[str, LeaderLoss] = {}
    for team in teams.values():
        losses.update(resolve_leader_loss(team, figures, chance))
    return ShotReport(roll.dice, mod, roll.result, outcome.hits, effect, losses)


def _apply_malfunction(
    figures: dict[str, Figure],
    firer: Figure,
    shot: Shot,
    effect: str | None,
    attack: str,
    rule: str,
    nonlethal: bool,
    positions: Mapping[str, tuple[int, int]],
) -> None:
    """§11.1: jam, wreck or explode the weapon; a grenade's S or CS lands on the firer (F-28)."""
    if effect is None or effect == "dud":
        return
    if effect == "jammed":
        firer.weapon_state[shot.weapon] = "jammed"
        return
    if effect in ("useless", "dud_wrecks_launcher"):
        firer.weapon_state[shot.weapon] = "useless"
        return
    if effect == "explodes":
        # weapon explosions are not reduced by armour (§11.1)
        firer.weapon_state[shot.weapon] = "useless"
        change = change_gutz(firer.gutz, -tables().malfunction["explosion_loss"])
        firer.gutz = change.gutz
        if change.status != "active":
            firer.status = Status(change.status)
        return
    if effect == "killed":
        firer.weapon_state[shot.weapon] = "useless"
        firer.status = Status.KILLED
        return
    # the grenade's own S or CS with the firer as target; no Gutz gain for anyone
    result: Result = "S" if effect == "grenade_s_on_firer" else "CS"
    if tables().weapons[shot.weapon].launcher:
        firer.weapon_state[shot.weapon] = "useless"
    out = infantry_outcome(attack, result, firer.id, positions, firer=None)
    for fid, hit in out.hits.items():
        victim = figures[fid]
        r = arm.reduction(tables().armour[victim.armour], rule)
        after = apply_hit(victim.gutz, victim.status.value, victim.suppressed, hit, r,
                          nonlethal=nonlethal)
        victim.gutz, victim.status, victim.suppressed = (
            after.gutz, Status(after.status), after.suppressed
        )
