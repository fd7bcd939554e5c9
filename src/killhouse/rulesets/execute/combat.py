"""Damage and armour (5.5, 5.6), firing (5.4), grenades (5.9) and bombs exploding (5.8).

Every action resolves at once (ruling E-9): a figure killed or incapacitated here takes no
later action this turn.
"""

from __future__ import annotations

from fractions import Fraction

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import cells_on_segment, chebyshev, line_of_sight, los_pairs
from killhouse.core.terrain import Terrain
from killhouse.rulesets.execute.news import audience, tell
from killhouse.rulesets.execute.rolls import Throw, resolve_grenade, resolve_shot
from killhouse.rulesets.execute.state import (
    DEAD,
    HOSTAGE,
    INCAPACITATED,
    REMOVED,
    ExecuteState,
    Figure,
)
from killhouse.rulesets.execute.tables import tables
from killhouse.rulesets.execute.vision import witnesses


def apply_damage(state: ExecuteState, figure: Figure, raw: int, cause: str, log: EventLog) -> int:
    """One damage event of ``raw`` VD (5.5): armour first (E-16), then wounds and status.

    Returns the VD taken. Dead and removed figures take nothing.
    """
    if figure.status == DEAD or figure.status in REMOVED:
        return 0
    seen_by = witnesses(state, figure)
    absorbed = 0
    if figure.armour > 0 and not figure.armour_used:
        # ruling E-16: the first damage event of the turn meets the armour, once
        absorbed = min(tables().armour_absorbs[figure.armour], raw)
        figure.armour_used = True
    taken = raw - absorbed
    figure.damage += taken
    before = figure.status
    left = figure.vitality_left
    if left <= 0:
        figure.status = DEAD
    elif left == 1:
        figure.status = INCAPACITATED
    if figure.status != before:
        _drop_leads(state, figure)
    state.touch()
    full = {
        "figure": figure.id,
        "cause": cause,
        "raw": raw,
        "absorbed": absorbed,
        "taken": taken,
        "vitality_left": max(0, left),
        "status": figure.status,
    }
    insiders = {figure.side} if figure.side else seen_by
    brief = {"figure": figure.id, "cause": cause, "raw": raw, "status": figure.status}
    tell(state, log, "damage", full, insiders | seen_by, {s: brief for s in seen_by - insiders})
    return taken


def _drop_leads(state: ExecuteState, figure: Figure) -> None:
    """Ruling E-30: a dropped leader loses its hostages; a dropped hostage loses its leader."""
    if figure.kind == HOSTAGE:
        figure.leader = None
    for h in state.hostages():
        if h.leader == figure.id:
            h.leader = None


# -- firing ---------------------------------------------------------------------------------


def can_see(state: ExecuteState, a: Cell, b: Cell) -> bool:
    """Ruling E-6 line of sight between two squares on the live map."""
    return a.level == b.level and line_of_sight(state.board.opaque(a.level), (a.x, a.y), (b.x, b.y))


def fire(state: ExecuteState, firer: Figure, target: Figure, chance: Chance, log: EventLog) -> None:
    """One shot (5.4, E-12): TN = 2 × target EV − effective Firearms on the weapon's die."""
    assert firer.weapon is not None
    sides = witnesses(state, firer)
    check = resolve_shot(
        chance,
        firer.weapon,
        firer.card.firearms,
        target.card.evasion,
        firer.damage,
        audience(state, sides),
    )
    tell(
        state,
        log,
        "shot",
        {
            "firer": firer.id,
            "target": target.id,
            "weapon": firer.weapon,
            "from": cell_json(firer.pos),
            "at": cell_json(target.pos),
            **check.to_json(),
        },
        sides,
    )
    if check.success:
        apply_damage(state, target, tables().weapons[firer.weapon].damage, "shot", log)


# -- grenades -------------------------------------------------------------------------------


def _round_away(value: Fraction) -> int:
    """Round to the nearest integer, halves away from zero (ruling E-26)."""
    magnitude = int(abs(value) + Fraction(1, 2))
    return magnitude if value >= 0 else -magnitude


def overshoot_point(start: tuple[int, int], target: tuple[int, int], m: int) -> tuple[int, int]:
    """The nominal landing square ``S + round((T − S) × (d + m) / d)`` (ruling E-26)."""
    d = max(abs(target[0] - start[0]), abs(target[1] - start[1]))
    return (
        start[0] + _round_away(Fraction((target[0] - start[0]) * (d + m), d)),
        start[1] + _round_away(Fraction((target[1] - start[1]) * (d + m), d)),
    )


def landing_square(state: ExecuteState, start: Cell, target: Cell, m: int) -> Cell:
    """Where an overshooting grenade stops: traced from the target toward the nominal point,
    it halts in the last clear square before an opaque square or the map edge (E-26)."""
    if m <= 0:
        return target
    level = state.board.levels[target.level]
    opaque = state.board.opaque(target.level)
    nominal = overshoot_point((start.x, start.y), (target.x, target.y), m)
    landed = target
    for x, y in cells_on_segment((target.x, target.y), nominal)[1:]:
        if not (0 <= x < level.width and 0 <= y < level.height):
            break
        if opaque[y, x] or level.terrain[y, x] == Terrain.OUTSIDE:
            break
        if not line_of_sight(opaque, (target.x, target.y), (x, y)):
            break
        landed = Cell(target.level, x, y)
    return landed


def throw(
    state: ExecuteState, thrower: Figure, target: Cell, chance: Chance, log: EventLog
) -> None:
    """One grenade (5.9): the TN of ruling E-24, overshoot on a miss (E-26), then the blast."""
    assert thrower.pos is not None
    distance = chebyshev(thrower.pos, target)
    sides = witnesses(state, thrower)
    result: Throw = resolve_grenade(
        chance, distance, thrower.card.grenades, thrower.damage, audience(state, sides)
    )
    thrower.grenades -= 1
    landed = landing_square(state, thrower.pos, target, result.overshoot)
    tell(
        state,
        log,
        "grenade",
        {
            "thrower": thrower.id,
            "from": cell_json(thrower.pos),
            "aim": cell_json(target),
            "distance": distance,
            **result.to_json(),
            "landed": cell_json(landed),
        },
        sides,
    )
    blast(state, landed, log)


def blast(state: ExecuteState, center: Cell, log: EventLog) -> None:
    """Ruling E-27: 4 VD to everyone within Chebyshev 3 on the level with LOS from the square."""
    g = tables().grenade
    state.explosions.append({"kind": "grenade", "at": cell_json(center), "turn": state.turn})
    log.emit("explosion", {"kind": "grenade", "at": cell_json(center), "turn": state.turn}, None)
    near = [
        f
        for f in sorted(state.figures.values(), key=lambda f: f.id)
        if f.pos is not None
        and f.status not in REMOVED
        and f.pos.level == center.level
        and chebyshev(f.pos, center) <= g["blast_radius"]
    ]
    if not near:
        return
    ok = los_pairs(
        state.board.opaque(center.level),
        [(center.x, center.y)] * len(near),
        [(f.pos.x, f.pos.y) for f in near if f.pos is not None],
    )
    for figure, hit in zip(near, ok, strict=True):
        if hit:
            apply_damage(state, figure, g["damage"], "grenade", log)


# -- bombs ----------------------------------------------------------------------------------


def explode(state: ExecuteState, bomb_id: str, log: EventLog) -> None:
    """Ruling E-22: 10 VD to every figure within Chebyshev 50 of the bomb, on every level."""
    bomb = state.bombs[bomb_id]
    b = tables().bomb
    bomb.state = "exploded"
    bomb.terrorists_think_armed = False
    state.explosions.append({"kind": "bomb", "at": cell_json(bomb.at), "turn": state.turn})
    log.emit("explosion", {"kind": "bomb", "at": cell_json(bomb.at), "turn": state.turn}, None)
    tell(state, log, "bomb_exploded", {"bomb": bomb.id, "at": cell_json(bomb.at)}, state.side_ids())
    for figure in sorted(state.figures.values(), key=lambda f: f.id):
        if figure.pos is None or figure.status in REMOVED:
            continue
        if max(abs(figure.pos.x - bomb.at.x), abs(figure.pos.y - bomb.at.y)) <= b["radius"]:
            apply_damage(state, figure, b["damage"], "bomb", log)
