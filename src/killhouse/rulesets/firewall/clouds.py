"""Smoke and gas clouds (digest §9, rulings F-25 … F-27): a grenade aimed at a square.

Rolled like a shot at the square with the modifiers that do not depend on a target (range
band, weapon, suppression, night, leader, optics); CS, S and F place the cloud (CS +1), CF
is a dud (−1, no malfunction roll). A cloud covers 4 × 4 squares, lasts 1d6+1 Turns, gives
Medium cover inside and intervening cover across it, and does not block sight. Gas clouds
attack every unprotected figure inside with an unmodified SS roll at the thrower's Gutz when
placed, and once a Turn each figure that starts its team's activation inside or enters it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.core.geometry import line_of_sight
from killhouse.rulesets.firewall.fire import (
    FireSituation,
    apply_hit,
    cloud_outcome,
    cloud_squares,
    fire_modifier,
    infantry_outcome,
    range_band,
)
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status, Team, bonus_for

XY = tuple[int, int]
#: what keeps a breathed gas out (§9, F-26); nerve gas needs sealed armour
BREATHING = frozenset({"gas_mask", "lung_filters", "re_breather"})
CONTACT_CM = 2
HAND_GRENADE = "hand_grenade"


@dataclass
class Cloud:
    """One cloud on the table: its squares, the last Turn it stands, the attack Gutz of gas,
    and the Turn each figure was last attacked by it (at most once a Turn, F-26)."""

    id: str
    grenade: str
    level: int
    squares: tuple[XY, ...]
    until: int
    gutz: int
    attacked: dict[str, int] = field(default_factory=dict)

    def covers(self, level: int, cell: XY) -> bool:
        return level == self.level and cell in self.squares


def cloud_problem(
    board: Board, figures: Mapping[str, Figure], firer_id: str, weapon: str, grenade: str,
    at: XY, level: int,
) -> str | None:
    """Why the cloud grenade may not be fired at the square now (§7.1, §9), or ``None``."""
    t = tables()
    firer = figures.get(firer_id)
    if firer is None:
        return "no such figure"
    if not firer.active:
        return f"{firer.id} is not active"
    if firer.combat_used or firer.failed_this_turn:
        return f"{firer.id} has no Combat action left this Turn"
    try:
        kind = t.grenade(grenade)
    except KeyError:
        return f"no grenade type {grenade!r} (section 9)"
    if not kind.cloud:
        return f"{kind.name} grenades are aimed at a figure, not a square"
    if firer.grenades.get(kind.id, 0) <= 0:
        return f"{firer.id} has no {kind.name} grenade left"
    if weapon != HAND_GRENADE and (weapon not in firer.weapons or not t.weapons[weapon].launcher):
        return f"{weapon} is not a grenade launcher {firer.id} carries"
    state = firer.weapon_state.get(weapon, "ready")
    if weapon != HAND_GRENADE and state != "ready":
        return f"{weapon} is {state}"
    if level != firer.level:
        return "the square is on another level"
    where = Cell(level, *at)
    if not board.in_bounds(where) or board.opaque(level)[at[1], at[0]]:
        return f"square {list(at)} is not open ground"
    for other in figures.values():
        if other.side != firer.side and other.active and other.level == firer.level and within(
            firer.cell, other.cell, CONTACT_CM
        ):
            return f"{firer.id} is within 2 cm of {other.id}: close combat only (F-31)"
    w = t.weapons[weapon]
    if range_band(w, firer.cell, at) is None:
        return f"square {list(at)} is beyond {w.name}'s Long range of {w.long} cm (F-19)"
    fx, fy = firer.facing
    if fx * (at[0] - firer.cell[0]) + fy * (at[1] - firer.cell[1]) < 0:
        return f"square {list(at)} is outside {firer.id}'s 180° front arc"
    if not line_of_sight(board.opaque(level), firer.cell, at, mode="supercover"):
        return f"{firer.id} has no line of sight to square {list(at)} (F-24)"
    return None


def cloud_modifier(
    firer: Figure, team: Team, figures: Mapping[str, Figure], weapon: str, at: XY,
    night: bool = False,
) -> int:
    """The §7.5 modifiers that apply to a square: no target cover, prone or clutter."""
    w = tables().weapons[weapon]
    band = range_band(w, firer.cell, at)
    assert band is not None, "cloud_modifier needs a legal square"
    return fire_modifier(FireSituation(
        mode=w.mode(), band=band, fire_type="Special", suppressed=firer.suppressed,
        night=night, night_vision="lo_light" in firer.cyber or "ir_goggles" in firer.cyber,
        leader=bonus_for(firer, team, figures), target_optic="target_optic" in firer.cyber,
        combat_computer="combat_computer" in firer.cyber,
    ))


def throw_cloud(
    chance: Chance, firer: Figure, team: Team, figures: Mapping[str, Figure], weapon: str,
    grenade: str, at: XY, turn: int, cid: str, audience: Audience, night: bool = False,
) -> tuple[Result, Cloud | None]:
    """Roll and place (F-27); the grenade is consumed; the cloud lasts 1d6+1 Turns (F-25)."""
    kind = tables().grenade(grenade)
    mod = cloud_modifier(firer, team, figures, weapon, at, night)
    firer.combat_used = True
    firer.grenades[kind.id] -= 1
    roll = gutz_roll(chance, firer.gutz, mod, f"{firer.id} fires {kind.name}", audience)
    placed, change = cloud_outcome(roll.result)
    after = change_gutz(firer.gutz, change)
    firer.gutz = after.gutz
    if after.status != "active":
        firer.status = Status(after.status)
    if roll.result in ("F", "CF"):
        firer.failed_this_turn = True
    if not placed:
        return roll.result, None
    d = chance.roll(6, f"{kind.name} cloud duration", audience) + 1
    squares = tuple(tuple(c) for c in cloud_squares(at))
    return roll.result, Cloud(cid, kind.id, firer.level, squares, turn + d,  # type: ignore[arg-type]
                              firer.gutz)


def protected(f: Figure, grenade: str) -> bool:
    """Whether the figure's armour or kit keeps this cloud's gas out (§9, F-26)."""
    kind = tables().grenade(grenade)
    if kind.gas is None:
        return True
    sealed = tables().armour[f.armour].sealed
    if kind.gas == "nerve":
        return sealed
    return sealed or bool(f.cyber & BREATHING)


def gas_attack(
    cloud: Cloud, f: Figure, turn: int, chance: Chance, audience: Audience,
) -> Result | None:
    """One unmodified SS attack of a gas cloud on a figure inside (F-26): CS kills (or
    incapacitates, for tear and tranq gas), S loses the SS loss, F and CF do nothing; armour
    does not reduce gas (ruling F-100). ``None`` when the figure is immune or already hit
    by this cloud this Turn."""
    if protected(f, cloud.grenade) or cloud.attacked.get(f.id) == turn:
        return None
    if f.status not in (Status.ACTIVE, Status.INCAPACITATED):
        return None
    cloud.attacked[f.id] = turn
    kind = tables().grenade(cloud.grenade)
    roll = gutz_roll(chance, cloud.gutz, 0, f"{kind.name} on {f.id}", audience)
    if roll.result in ("F", "CF"):
        return roll.result
    out = infantry_outcome("SS", roll.result, f.id, {f.id: f.cell}, firer=None)
    hit = out.hits.get(f.id)
    if hit is not None:
        after = apply_hit(f.gutz, f.status.value, f.suppressed, hit, 0, nonlethal=kind.nonlethal)
        f.gutz, f.status, f.suppressed = after.gutz, Status(after.status), after.suppressed
    return roll.result


def smoke_layer(board: Board, clouds: list[Cloud]) -> None:
    """The board's smoke cells are the squares of the clouds standing now."""
    for level in board.levels:
        level.smoke[:, :] = False
    for cloud in clouds:
        level = board.levels[cloud.level]
        for x, y in cloud.squares:
            if 0 <= x < level.width and 0 <= y < level.height:
                level.smoke[y, x] = True
