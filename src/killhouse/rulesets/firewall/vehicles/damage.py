"""Vehicle damage (§17.7, ruling F-48): losses come off the collective crew Gutz; a Kill or
Gutz below 2 destroys the vehicle, the crew routs and the passengers are put out beside the
wreck, each losing 4 Gutz without armour."""

from __future__ import annotations

from typing import TYPE_CHECKING

from killhouse.core.cells import Cell
from killhouse.rulesets.firewall.fire import VehicleEffect, av_vs_armour, ssa_vs_armour
from killhouse.rulesets.firewall.gutz import Result, change_gutz
from killhouse.rulesets.firewall.tables import GUNS, tables
from killhouse.rulesets.firewall.teams import Status
from killhouse.rulesets.firewall.vehicles.model import DESTROYED, Vehicle

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState

#: ruling F-48: each passenger of a destroyed vehicle loses 4 Gutz, armour does not help
EJECT_LOSS = 4


def effect_on_vehicle(attack: str, result: Result, armour: str) -> VehicleEffect:
    """What one attack's result does to a vehicle (§7.4): SS(A) on its table, Guns on the AV
    matrix, any other fire type (soft skin only, F-50) on its own table against the crew
    Gutz: CS kills, S loses the table's S loss."""
    if attack == "SS(A)":
        return ssa_vs_armour(result, armour)
    if attack in GUNS:
        return av_vs_armour(attack, result, armour)
    if result == "CS":
        return "kill"
    if result == "S":
        from killhouse.rulesets.firewall.fire import infantry_table
        return int(tables().results[infantry_table(attack)].s_loss)
    return 0


def apply_effect(state: FirewallState, v: Vehicle, effect: VehicleEffect) -> bool:
    """Take a loss (a positive number of Gutz) or a Kill; whether it was destroyed now."""
    if not v.active:
        return False
    if effect == "kill":
        destroy(state, v)
        return True
    if effect == 0:
        return False
    v.gutz = change_gutz(v.gutz, -int(effect)).gutz
    if v.gutz < tables().min_gutz:
        destroy(state, v)
        return True
    return False


def crew_gain(v: Vehicle, change: int) -> None:
    """A crew roll's own change (CS +1, max 11; CF −1); below 2 the vehicle is lost."""
    if change:
        v.gutz = change_gutz(v.gutz, change).gutz


def destroy(state: FirewallState, v: Vehicle) -> list[str]:
    """§17.7: the wreck stays where it stands (ruling F-146), the crew routs, the passengers
    are placed on free squares around it (reading order) and lose 4 Gutz each."""
    v.status = DESTROYED
    placed = []
    free = _squares_around(state, v)
    for reach in range(2, 6):  # more passengers than squares beside it: the next ring out
        if len(free) >= len(v.passengers):
            break
        free += [c for c in _squares_around(state, v, reach) if c not in free]
    for fid, before in list(v.passengers.items()):
        f = state.figures[fid]
        f.aboard = None
        f.status = Status(before)
        if f.carried_by is not None and f.carried_by in v.passengers:
            continue  # placed with its carrier below
        if free:
            f.cell = free.pop(0)
    for fid in v.passengers:
        f = state.figures[fid]
        if f.carried_by is not None and f.carried_by in v.passengers:
            f.cell = state.figures[f.carried_by].cell
    for fid in list(v.passengers):
        f = state.figures[fid]
        change = change_gutz(f.gutz, -EJECT_LOSS)
        f.gutz = change.gutz
        if change.status != "active":
            f.status = Status.KILLED if f.status is Status.INCAPACITATED else Status.ROUTED
        placed.append(fid)
    v.passengers.clear()
    return placed


def _squares_around(state: FirewallState, v: Vehicle,
                    reach: int = 1) -> list[tuple[int, int]]:
    """Free passable squares touching the footprint (within ``reach`` squares), in reading
    order."""
    own = set(v.squares())
    taken = {f.cell for f in state.figures.values() if f.level == v.level and f.status in (
        Status.ACTIVE, Status.INCAPACITATED, Status.KILLED)}
    span = range(-reach, reach + 1)
    ring = sorted({(x + dx, y + dy) for x, y in own for dx in span for dy in span}
                  - own, key=lambda c: (c[1], c[0]))
    return [c for c in ring if c not in taken
            and state.board.in_bounds(Cell(v.level, *c))
            and state.board.passable(Cell(v.level, *c))]
