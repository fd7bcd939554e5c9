"""Building sections (digest §12, ruling F-36): 4 × 4 squares of one storey with an armour
class and a nominal Gutz of 7, attacked only by SS(A) weapons, Guns and improvised bombs.

SS(A) and the AV bomb use the SS(A) table, Guns the AV matrix, the improvised AP bomb the B
table (CS destroys, S −1); every other weapon has no effect and is refused. A section is
destroyed by a kill or when its Gutz drops below 2: every figure inside loses 4 Gutz
without armour, and its squares become Clutter 5 floor (passable, not opaque, no cover).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight
from killhouse.core.terrain import Terrain
from killhouse.rulesets.firewall.fire import (
    FireSituation,
    Hit,
    apply_hit,
    av_vs_armour,
    fire_modifier,
    range_band,
)
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import Result
from killhouse.rulesets.firewall.tables import GUNS, tables
from killhouse.rulesets.firewall.teams import Figure, Status, Team, bonus_for

XY = tuple[int, int]
#: §12: a section's nominal Gutz, the loss of every figure inside when it falls (F-36)
SECTION_GUTZ = 7
COLLAPSE_LOSS = 4
RUBBLE_CLUTTER = 5
BOMBS = ("improvised_bomb_ap", "improvised_bomb_av")
HAND_GRENADE = "hand_grenade"


@dataclass
class Section:
    """One building section: its squares on a level, armour class, Gutz and whether it stands."""

    id: str
    level: int
    squares: tuple[XY, ...]
    armour: str = "light"
    gutz: int = SECTION_GUTZ
    destroyed: bool = False


def attack_type(weapon: str, grenade: str | None) -> str:
    """The fire type a weapon (or a grenade it fires) brings against a section."""
    if weapon in BOMBS:
        return "B" if weapon == "improvised_bomb_ap" else "SS(A)"
    if grenade is not None:
        g = tables().grenade(grenade)
        return g.vehicle_fire or g.fire
    return tables().weapons[weapon].mode().fire


def aim_square(section: Section, firer: Figure) -> XY:
    """The section square the attack is measured to: the nearest, then reading order."""
    fx, fy = firer.cell
    return min(section.squares, key=lambda c: ((c[0] - fx) ** 2 + (c[1] - fy) ** 2, c[1], c[0]))


def section_problem(
    board: Board, figures: Mapping[str, Figure], sections: Mapping[str, Section],
    firer_id: str, weapon: str, section_id: str, grenade: str | None = None,
) -> str | None:
    """Why the attack on the section is not allowed now (§7.1, §12), or ``None``."""
    t = tables()
    firer = figures.get(firer_id)
    section = sections.get(section_id)
    if firer is None or section is None:
        return "no such figure or section"
    if section.destroyed:
        return f"section {section_id} is already rubble"
    if not firer.active:
        return f"{firer.id} is not active"
    if firer.combat_used or firer.failed_this_turn:
        return f"{firer.id} has no Combat action left this Turn"
    if weapon != HAND_GRENADE and weapon not in firer.weapons:
        return f"{firer.id} does not carry {weapon}"
    if firer.weapon_state.get(weapon, "ready") != "ready":
        return f"{weapon} is {firer.weapon_state[weapon]}"
    if grenade is not None:
        try:
            kind = t.grenade(grenade)
        except KeyError:
            return f"no grenade type {grenade!r} (section 9)"
        if firer.grenades.get(kind.id, 0) <= 0:
            return f"{firer.id} has no {kind.name} grenade left"
    elif weapon == HAND_GRENADE or t.weapons[weapon].mode().fire == "Spec":
        return f"{t.weapons[weapon].name} needs a grenade type"
    fire = attack_type(weapon, grenade)
    if weapon not in BOMBS and fire != "SS(A)" and fire not in GUNS:
        return "only SS(A) weapons, Guns and improvised bombs affect a building section (§12)"
    if firer.level != section.level:
        return "the section is on another level"
    for other in figures.values():
        if other.side != firer.side and other.active and other.level == firer.level and within(
            firer.cell, other.cell, 2
        ):
            return f"{firer.id} is within 2 cm of {other.id}: close combat only (F-31)"
    at = aim_square(section, firer)
    w = t.weapons[weapon]
    if range_band(w, firer.cell, at) is None:
        return f"section {section_id} is beyond {w.name}'s Long range of {w.long} cm (F-19)"
    fx, fy = firer.facing
    if fx * (at[0] - firer.cell[0]) + fy * (at[1] - firer.cell[1]) < 0:
        return f"section {section_id} is outside {firer.id}'s 180° front arc"
    if not line_of_sight(board.opaque(firer.level), firer.cell, at, mode="supercover"):
        return f"{firer.id} has no line of sight to section {section_id} (F-24)"
    return None


def section_modifier(firer: Figure, team: Team, figures: Mapping[str, Figure], weapon: str,
                     section: Section, night: bool = False) -> int:
    """§7.5's modifiers that apply to a section: weapon, range, suppression, night, leader,
    optics; a section has no cover, prone or clutter."""
    w = tables().weapons[weapon]
    band = range_band(w, firer.cell, aim_square(section, firer))
    assert band is not None, "section_modifier needs a legal attack"
    return fire_modifier(FireSituation(
        mode=w.mode(), band=band, vs_infantry=False, suppressed=firer.suppressed,
        night=night, night_vision="lo_light" in firer.cyber or "ir_goggles" in firer.cyber,
        leader=bonus_for(firer, team, figures), target_optic="target_optic" in firer.cyber,
        combat_computer="combat_computer" in firer.cyber,
    ))


def section_effect(weapon: str, grenade: str | None, result: Result, armour: str) -> str | int:
    """"kill" or the section's Gutz loss (0 = no effect) for one attack's result (§12)."""
    from killhouse.rulesets.firewall.fire import ssa_vs_armour
    fire = attack_type(weapon, grenade)
    if fire == "B":  # the improvised AP bomb: CS destroys, S −1
        table: dict[str, str | int] = {"CS": "kill", "S": 1}
        return table.get(result, 0)
    if fire in GUNS:
        return av_vs_armour(fire, result, armour)
    return ssa_vs_armour(result, armour)


def damage(section: Section, effect: str | int) -> bool:
    """Apply the effect; whether the section is destroyed now (a kill or Gutz below 2)."""
    if effect == "kill":
        section.destroyed = True
    elif isinstance(effect, int) and effect > 0:
        section.gutz -= effect
        section.destroyed = section.gutz < tables().min_gutz
    return section.destroyed


def collapse(board: Board, figures: Mapping[str, Figure], section: Section) -> list[str]:
    """Ruling F-36: every figure inside loses 4 Gutz (no armour); the squares become rubble."""
    lv = board.levels[section.level]
    hurt = []
    for f in figures.values():
        if f.level == section.level and f.cell in section.squares and f.status in (
            Status.ACTIVE, Status.INCAPACITATED
        ):
            after = apply_hit(f.gutz, f.status.value, f.suppressed, Hit(loss=COLLAPSE_LOSS), 0)
            f.gutz, f.status, f.suppressed = after.gutz, Status(after.status), after.suppressed
            hurt.append(f.id)
    for x, y in section.squares:
        if board.in_bounds(Cell(section.level, x, y)):
            lv.terrain[y, x] = Terrain.FLOOR
            lv.clutter[y, x] = RUBBLE_CLUTTER
            lv.cover[y, x] = 0
    return hurt
