"""Storeys of buildings and shooting through openings (digest §12; rulings F-185 … F-187).

A building's storeys are levels of the map joined by stair links (``core.levels``); sight,
fire, close combat and area effects stay on one level (ruling F-186). ``stairs(figure, to)``
takes a figure standing on a stair square to the linked square on the next storey: a Walk of
one square. Openings (windows, doorways) give the cover the map sets for them, Medium by
default (§12, F-67), loop-holes drawn as a window with ``cover: heavy``.
"""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.terrain import Cover, Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.drugs import no_movement
from killhouse.rulesets.firewall.gutz import change_gutz, gutz_roll, roller_change
from killhouse.rulesets.firewall.moving import ON_TABLE, MoveOrder, move_modifier
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _aware,
    _who_sees,
    mine,
    team_figures,
)
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status

#: terrain that is an opening in a building's wall (§12)
OPENINGS = frozenset({Terrain.WINDOW, Terrain.DOOR_OPEN, Terrain.DOOR_CLOSED,
                      Terrain.DOOR_LOCKED})


def opening_cover(board: Board, cell: Cell) -> int:
    """A square's cover for a shot (ruling F-187): what the map sets, and at least Medium for
    a window or a doorway (§12 and F-67's default)."""
    own = board.cover(cell)
    if board.terrain(cell) in OPENINGS:
        return max(own, int(Cover.MEDIUM))
    return own


def link_of(board: Board, f: Figure) -> Cell | None:
    """The square at the other end of the stairs the figure stands on, if any."""
    here = Cell(f.level, *f.cell)
    ends = {b for a, b in board.stairs.items() if a == here}
    ends |= {a for a, b in board.stairs.items() if b == here}
    ends = {e for e in ends if e.level != f.level}
    return min(ends) if ends else None


def stairs_problem(state: FirewallState, f: Figure, to: Cell) -> str | None:
    """Why ``f`` may not take the stairs to ``to`` now (ruling F-185), or ``None``."""
    if f.move_used or f.failed_this_turn:
        return f"{f.id} has no Movement action left this Turn"
    if link_of(state.board, f) != to:
        return f"{f.id} does not stand on stairs leading to {to.level}:{to.x},{to.y}"
    if f.suppressed:
        return f"{f.id} is suppressed and may not change position until it rallies (§6.4)"
    if f.climb_to is not None:
        return f"{f.id} hangs on a face: it climbs up or down (§6.6)"
    if no_movement(f.drug_effects):
        return f"{f.id} may not change position ('lectron, §15)"
    if f.riding:
        return f"{f.id} rides a transport"
    if f.id in state.objective.still and not _aware(state, f) and not state.combat_happened:
        return f"{f.id} may not move until he sees an enemy or a Combat action has occurred"
    if not state.board.passable(to) or any(
            g.id not in (f.id, f.carrying) and g.level == to.level and g.cell == (to.x, to.y)
            and g.status in ON_TABLE for g in state.figures.values()):
        return f"the square at the top of the stairs, {to.level}:{to.x},{to.y}, is held"
    return None


def stairs_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    if not state.board.stairs:
        return out
    for f in team_figures(state, side):
        to = link_of(state.board, f)
        if to is not None and stairs_problem(state, f, to) is None:
            out.append(Action.make(side, "stairs", figure=f.id, to=[to.level, to.x, to.y],
                                   hint={"role": "move", "to": [to.level, to.x, to.y]}))
    return out


def check_stairs(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    to = action.get("to")
    problem = stairs_problem(state, f, Cell(int(to[0]), int(to[1]), int(to[2])))
    if problem is not None:
        raise IllegalActionError(problem)


def stairs(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-185: the stairs are a Walk of one square (2.5 cm) to the linked square, with
    the clutter of both squares: S or CS goes up or down (CS +1), F stays (half a square
    reaches no square, F-77) and has failed, CF −1 and stays. An unaware team's figure
    walks it without a roll (F-16). A carried figure goes with its carrier."""
    f = state.figures[str(action.get("figure"))]
    to = action.get("to")
    end = Cell(int(to[0]), int(to[1]), int(to[2]))
    board = state.board
    f.move_used = True
    own = frozenset({f.side})
    result, dice = "walk", [0, 0]
    if _aware(state, f):
        mod = move_modifier(board, state.figures, state.teams, MoveOrder(f.id, "walk", ()))
        acrobatics = int(f.skills.get("acrobatics", 0))
        here = max(0, board.clutter(Cell(f.level, *f.cell)) - acrobatics)
        both = max(here, board.clutter(end) - acrobatics)
        roll = gutz_roll(chance, f.gutz, mod + here - both, f"{f.id} takes the stairs", own)
        result, dice = roll.result, list(roll.dice)
        change = change_gutz(f.gutz, roller_change(roll.result))
        f.gutz = change.gutz
        if change.status != "active":
            f.status = Status(change.status)
        if result in ("F", "CF"):
            f.failed_this_turn = True
    if result in ("S", "CS", "walk") and f.active:
        f.level, f.cell = end.level, (end.x, end.y)
        f.prone = False
        if f.carrying is not None:
            load = state.figures[f.carrying]
            load.level, load.cell = f.level, f.cell
    state.last = (f.id, "move", "walk")
    data = {"figure": f.id, "dice": dice, "result": result, "to": [f.level, *f.cell]}
    if not _aware(state, f):
        data.pop("dice")
    log.emit("stairs", data, _who_sees(state, f))
    if f.gutz < tables().min_gutz and f.status is Status.ACTIVE:
        f.status = Status.ROUTED
