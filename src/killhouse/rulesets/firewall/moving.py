"""One move on foot along a declared route on a board (digest §6.1, §6.2, §6.4; F-9 … F-15).

A route is the start square and waypoints; it crosses every square its segments touch
(``cells_on_segment``), each of which must be passable and free of enemies. The roll takes
the highest clutter of the route, start and end included (F-12). A suppressed figure's move
is a Rally (F-15). The figure stops on the farthest route square whose centre lies within its
allowance along the route (ruling F-77), never on a square another figure holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import cells_on_segment
from killhouse.core.measure import RootSum
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall.drugs import drug_bonus
from killhouse.rulesets.firewall.grid import CELL_CM
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll, roller_change
from killhouse.rulesets.firewall.movement import (
    max_distance,
    move_allowance,
    needs_second_roll,
    rally_effect,
    second_roll_change,
)
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status, Team, bonus_for
from killhouse.rulesets.firewall.vision import sees

XY = tuple[int, int]
#: figures that hold a square: a body stays for Medical (§16.2) and no move may end on it,
#: but only living enemies block a route (ruling F-78)
ON_TABLE = frozenset({Status.ACTIVE, Status.INCAPACITATED, Status.KILLED})
#: the eight facings (ruling F-13)
FACINGS: tuple[XY, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


@dataclass(frozen=True)
class MoveOrder:
    """A declared move: speed, waypoints after the start square, the facing to take after."""

    figure: str
    speed: str
    waypoints: tuple[XY, ...]
    facing: XY | None = None


@dataclass(frozen=True)
class MoveReport:
    """The roll(s), where the figure ended, and whether it rallied."""

    dice: tuple[int, int]
    modifier: int
    result: Result
    end: XY
    second: Result | None = None
    rallied: bool = False


def route_squares(start: XY, waypoints: tuple[XY, ...]) -> list[tuple[XY, RootSum]]:
    """Every square the route crosses after the start, with its centre's exact distance in cm
    along the route (straight from the segment's first waypoint)."""
    out: list[tuple[XY, RootSum]] = []
    done = RootSum()
    at = start
    for point in waypoints:
        for cell in cells_on_segment(at, point)[1:]:
            d = RootSum.sqrt((cell[0] - at[0]) ** 2 + (cell[1] - at[1]) ** 2)
            out.append((cell, (done + d).scale(CELL_CM)))
        done = done + RootSum.sqrt((point[0] - at[0]) ** 2 + (point[1] - at[1]) ** 2)
        at = point
    return out


def maximum_for(figure: Figure, speed: str) -> Fraction:
    """The figure's maximum distance at a speed: cyber legs, then armour (F-38)."""
    if figure.riding:  # vehicles hook: personal transport (§17.1, F-46)
        from killhouse.rulesets.firewall.vehicles.transport import ride_maximum
        return ride_maximum(figure, speed)
    legs = "none"
    if "cyber_legs_advanced" in figure.cyber:
        legs = "advanced"
    elif "cyber_legs_basic" in figure.cyber:
        legs = "basic"
    return max_distance(speed, legs, tables().armour[figure.armour].move)


def move_problem(
    board: Board, figures: Mapping[str, Figure], order: MoveOrder
) -> str | None:
    """Why the move may not be made now, or ``None``."""
    f = figures.get(order.figure)
    if f is None:
        return "no such figure"
    if not f.active:
        return f"{f.id} is not active"
    if f.move_used or f.failed_this_turn:
        return f"{f.id} has no Movement action left this Turn"
    if order.speed not in tables().speeds:
        return f"unknown speed {order.speed!r} (crawl, walk or run)"
    if order.facing is not None and order.facing not in FACINGS:
        return f"facing {order.facing} is not one of the eight directions (F-13)"
    squares = route_squares(f.cell, order.waypoints)
    if order.waypoints and not squares:
        return "the route goes nowhere"
    from killhouse.rulesets.firewall.heights import route_height_problem  # heights hook (§6.6)
    rise = route_height_problem(board, f, [c for c, _ in squares], rally=f.suppressed)
    if rise is not None:
        return rise
    limit = maximum_for(f, order.speed) * tables().move_cs_factor
    if squares and squares[-1][1] > limit:
        return f"the route is longer than {limit} cm, the most a critical success allows"
    held = {g.cell: g for g in figures.values()
            if g.id != f.id and g.level == f.level and g.status in ON_TABLE
            and g.carried_by != f.id}
    for cell, _ in squares:
        where = Cell(f.level, *cell)
        if not board.in_bounds(where) or not board.passable(where):
            return f"square {list(cell)} on the route is not passable"
        other = held.get(cell)
        if other is not None and other.side != f.side and other.status is not Status.KILLED:
            return f"square {list(cell)} on the route holds an enemy"
    if squares and squares[-1][0] in held:
        return "a route may not end on an occupied square"
    return None


def move_modifier(
    board: Board, figures: Mapping[str, Figure], teams: Mapping[str, Team], order: MoveOrder
) -> int:
    """−highest clutter of the route (less Acrobatics, F-12), +leader, −2 carrying an MG-22."""
    f = figures[order.figure]
    cells = [f.cell, *(c for c, _ in route_squares(f.cell, order.waypoints))]
    clutter = max(board.clutter(Cell(f.level, *c)) for c in cells)
    clutter = max(0, clutter - int(f.skills.get("acrobatics", 0)))
    mod = -clutter + bonus_for(f, teams[f.team], figures)
    mod += drug_bonus(f.drug_effects, "movement")  # §15: Zap, 'lectron
    if "corp_arms_mg_22" in f.weapons:
        mod += int(tables().movement["carrying_mg22"])
    carried = figures.get(f.carrying) if f.carrying else None
    if carried is not None and not carried.captured:
        # ruling F-54: carrying a helpless figure; a captured Lonnie walks with his captor (F-56)
        mod += int(tables().movement["carrying_helpless"])
    return mod


def _within(d: RootSum, allowance: Fraction | RootSum) -> bool:
    """Whether a length is at most the allowance, exactly."""
    if isinstance(allowance, RootSum):
        return (d + allowance.scale(-1)).compare(0) <= 0
    return d <= allowance


def _stop(start: XY, squares: list[tuple[XY, RootSum]], allowance: Fraction | RootSum,
          taken: set[XY]) -> XY:
    """The farthest free route square within the allowance (ruling F-77)."""
    end = start
    for cell, d in squares:
        if not _within(d, allowance):
            break
        if cell not in taken:
            end = cell
    return end


def resolve_move(
    board: Board,
    figures: dict[str, Figure],
    teams: Mapping[str, Team],
    order: MoveOrder,
    chance: Chance,
    log: EventLog,
    watchers_only: frozenset[str] | None = None,
    watch: Callable[[Figure], frozenset[str]] | None = None,
) -> MoveReport:
    """Resolve one move or Rally; refuses an illegal one before any change. With
    ``watchers_only`` (a move that leaves the table) only those sides may watch it."""
    problem = move_problem(board, figures, order)
    if problem is not None:
        raise IllegalActionError(problem)
    f = figures[order.figure]
    mod = move_modifier(board, figures, teams, order)
    f.move_used = True
    # §21.4: a move is the owner's business; the ruleset's views add enemies who see it
    own = frozenset({f.side})
    roll = gutz_roll(chance, f.gutz, mod, f"{f.id} moves", own)
    squares = route_squares(f.cell, order.waypoints)
    route = squares[-1][1] if squares else RootSum()
    maximum = maximum_for(f, order.speed)
    taken = {g.cell for g in figures.values() if g.id != f.id and g.level == f.level
             and g.status in ON_TABLE and g.carried_by != f.id}
    rallied = False
    moves = True
    gain = roller_change(roll.result)
    if f.suppressed:
        # ruling F-15: the move is a Rally
        removed, gain, may_move = rally_effect(roll.result)
        rallied = removed
        f.suppressed = not removed
        moves = may_move
        result_for_distance: Result = "S"
    else:
        result_for_distance = roll.result
    end = f.cell
    if moves and roll.result != "CF":
        allowance = move_allowance(result_for_distance, route, maximum)
        end = _stop(f.cell, squares, allowance.distance, taken)
    f.cell = end
    change = change_gutz(f.gutz, gain)
    f.gutz = change.gutz
    second: Result | None = None
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
    if not f.suppressed and not rallied and needs_second_roll(order.speed, roll.result):
        again = gutz_roll(chance, f.gutz, mod, f"{f.id} running second roll", own)
        second = again.result
        f.gutz = change_gutz(f.gutz, second_roll_change(second)).gutz
    if f.gutz < tables().min_gutz:
        f.status = Status.ROUTED
    if roll.result != "CF":
        if order.facing is not None:
            f.facing = order.facing  # ruling F-13
        if moves:
            f.prone = order.speed == "crawl" and not f.riding  # ruling F-14 (F-152)
    if f.riding and moves:  # vehicles hook: the fastest transport speed this Turn (F-46)
        from killhouse.rulesets.firewall.vehicles.transport import note_ride
        note_ride(f, order.speed)
    # §21.4: the owner, and every side with a figure that sees the mover where it ends
    watchers = (watch(f) - {f.side} if watch is not None else  # the ruleset's sight (F-196)
                frozenset(g.side for g in figures.values() if g.side != f.side
                          and sees(board, g, f)))
    if watchers_only is not None:
        watchers &= watchers_only
    log.emit("move", {"figure": f.id, "speed": order.speed, "dice": list(roll.dice),
                      "result": roll.result, "to": list(end), "rallied": rallied},
             own | watchers)
    return MoveReport(roll.dice, mod, roll.result, end, second, rallied)


def noncombat_problem(board: Board, figures: Mapping[str, Figure], order: MoveOrder) -> str | None:
    """Why an unaware figure's no-roll move is not allowed: it walks, at most its Walk
    distance, by the usual route rules (§6.5, ruling F-16)."""
    problem = move_problem(board, figures, order)
    if problem is not None:
        return problem
    if order.speed != "walk":
        return "a team not yet aware of the enemy only walks (non-combat movement, F-16)"
    f = figures[order.figure]
    squares = route_squares(f.cell, order.waypoints)
    limit = maximum_for(f, "walk")
    if squares and squares[-1][1] > limit:
        return f"non-combat movement goes at most the Walk distance of {limit} cm"
    return None


def resolve_noncombat_move(
    board: Board, figures: dict[str, Figure], order: MoveOrder, log: EventLog
) -> XY:
    """A no-roll walk of an unaware figure (§6.5): no clutter, cannot fail (F-16)."""
    problem = noncombat_problem(board, figures, order)
    if problem is not None:
        raise IllegalActionError(problem)
    f = figures[order.figure]
    f.move_used = True
    squares = route_squares(f.cell, order.waypoints)
    if squares:
        f.cell = squares[-1][0]
    if order.facing is not None:
        f.facing = order.facing
    f.prone = False
    log.emit("walk", {"figure": f.id, "to": list(f.cell)}, frozenset({f.side}))
    return f.cell
