"""Climbing and leaping between storeys (digest §1.2, §6.6, §12; rulings F-250 … F-253).

The levels of a map are storeys stacked in map order over the same squares, each ``storey_cm``
above the one below (10 cm, §1.2, unless the scenario says). An outside wall is a face between
a square of one storey and a square beside it on the storey above: a roof or a ledge over
the wall, or an upper window with the room behind it. ``climb`` goes up or down such a face
over several actions, hanging between (as F-181 on one level); ``jump`` from an upper storey
down to the square below the wall or out of a window is a leap (F-183): no roll, a fall of
the face's height.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.terrain import Terrain
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.gutz import change_gutz, gutz_roll, roller_change
from killhouse.rulesets.firewall.heights import _apply_fall, _common, _modifier, surface
from killhouse.rulesets.firewall.movement import climb_allowance
from killhouse.rulesets.firewall.moving import FACINGS, ON_TABLE, maximum_for
from killhouse.rulesets.firewall.state import FirewallState, _who_sees, team_figures
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status


@dataclass(frozen=True)
class Face:
    """An outside wall between two storeys: the ``foot`` square below, the ``top`` square
    on the storey above, the ``window`` climbed through (None over a roof's edge), and its
    height in cm from the foot's surface to the top's."""

    foot: Cell
    top: Cell
    window: Cell | None
    height: int


def _open_air(board: Board, cell: Cell) -> bool:
    """Nothing to stand on: off the storey's map, or its ``outside`` (open air over a street)."""
    return not board.in_bounds(cell) or board.terrain(cell) is Terrain.OUTSIDE


def board_face(board: Board, storey_cm: int, foot: Cell, top: Cell) -> Face | None:
    """The face joining ``foot`` to ``top`` on the storey above, or None (ruling F-251).

    Over a roof's edge: ``top`` is beside ``foot`` (eight directions), the square under
    ``top`` on the foot's storey is not passable (the wall), and the air over ``foot`` is open.
    Through a window: ``top`` is two squares from ``foot`` along a row or column, the square
    between is a window on the storey above with wall or window under it, and the air over
    ``foot`` is open. ``top`` must be passable; heights add to the storey (F-250)."""
    if top.level != foot.level + 1 or not board.in_bounds(foot) or not board.in_bounds(top):
        return None
    if not board.passable(foot) or not board.passable(top):
        return None
    if not _open_air(board, Cell(top.level, foot.x, foot.y)):
        return None
    dx, dy = top.x - foot.x, top.y - foot.y
    height = (storey_cm + surface(board, top.level, (top.x, top.y))
              - surface(board, foot.level, (foot.x, foot.y)))
    if max(abs(dx), abs(dy)) == 1:
        if board.passable(Cell(foot.level, top.x, top.y)):
            return None
        return Face(foot, top, None, height) if height > 0 else None
    if {abs(dx), abs(dy)} == {0, 2}:  # straight in through the window, never slantwise
        window = Cell(top.level, foot.x + dx // 2, foot.y + dy // 2)
        under = Cell(foot.level, window.x, window.y)
        if board.terrain(window) is Terrain.WINDOW and not board.passable(under):
            return Face(foot, top, window, height) if height > 0 else None
    return None


def face(state: FirewallState, foot: Cell, top: Cell) -> Face | None:
    """The face joining ``foot`` to ``top`` in this game (``board_face`` with its storey)."""
    return board_face(state.board, state.storey_cm, foot, top)


def faces_from(state: FirewallState, f: Figure) -> list[Face]:
    """Every face the figure may start on from where it stands: up to the storey above,
    down to the storey below."""
    out: list[Face] = []
    here = Cell(f.level, *f.cell)
    for dx, dy in FACINGS:
        for n in (1, 2):
            up = face(state, here, Cell(f.level + 1, f.cell[0] + dx * n, f.cell[1] + dy * n))
            if up is not None:
                out.append(up)
            down = face(state, Cell(f.level - 1, f.cell[0] + dx * n, f.cell[1] + dy * n), here)
            if down is not None:
                out.append(down)
    return out


def _free(state: FirewallState, f: Figure, cell: Cell) -> bool:
    return state.board.passable(cell) and not any(
        g.id != f.id and g.level == cell.level and g.cell == (cell.x, cell.y)
        and g.status in ON_TABLE for g in state.figures.values())


def _hanging_face(state: FirewallState, f: Figure) -> Face | None:
    """The wall between storeys the figure hangs on: read from where it hangs, not from the
    map again (a section collapsing under it must not leave it stuck on the face)."""
    if f.climb_to is None or f.climb_level is None:
        return None
    foot, top = Cell(f.level, *f.cell), Cell(f.climb_level, *f.climb_to)
    found = face(state, foot, top)
    if found is not None:
        return found
    height = (state.storey_cm * (top.level - foot.level)
              + surface(state.board, top.level, f.climb_to)
              - surface(state.board, foot.level, f.cell))
    return Face(foot, top, None, max(1, height))


# -- climbing ------------------------------------------------------------------------------

def climb_problem(state: FirewallState, f: Figure, to: Cell) -> str | None:
    """Why ``f`` may not climb toward ``to`` on another storey (or on along the face it hangs
    on between storeys) now, or ``None`` (ruling F-251)."""
    problem = _common(state, f)
    if problem is not None:
        return problem
    hanging = _hanging_face(state, f)
    if hanging is not None:
        if to not in (hanging.top, hanging.foot):
            return (f"{f.id} hangs on the wall up to {hanging.top.level}:{hanging.top.x},"
                    f"{hanging.top.y}: up to it or down")
        if to == hanging.top and not _free(state, f, to):
            return f"square {to.level}:{to.x},{to.y} at the top is held"
        return None
    if f.climb_to is not None:
        return f"{f.id} hangs on a face of its storey: it climbs up or down (§6.6)"
    here = Cell(f.level, *f.cell)
    found = face(state, here, to) or face(state, to, here)
    if found is None:
        return (f"no outside wall joins {f.level}:{f.cell[0]},{f.cell[1]} to "
                f"{to.level}:{to.x},{to.y} (F-251: beside it over a roof's edge, or two "
                "squares through a window)")
    if not _free(state, f, to):
        return f"square {to.level}:{to.x},{to.y} is held"
    return None


def climb_options(state: FirewallState, side: str) -> list[Action]:
    out: list[Action] = []
    if len(state.board.levels) < 2:
        return out
    for f in team_figures(state, side):
        hanging = _hanging_face(state, f)
        if hanging is not None:
            ends = [hanging.top, hanging.foot]
        elif f.climb_to is None:
            ends = [x.top if x.foot == Cell(f.level, *f.cell) else x.foot
                    for x in faces_from(state, f)]
        else:
            continue
        for to in ends:
            if climb_problem(state, f, to) is None:
                out.append(Action.make(side, "climb", figure=f.id, to=[*to],
                                       hint={"role": "move", "to": [*to]}))
    return out


def climb(state: FirewallState, f: Figure, to: Cell, chance: Chance, log: EventLog) -> None:
    """One climbing action on an outside wall (§6.6, F-17, F-251): the movement roll with the
    clutter of the foot and the top, less Acrobatics; CS +1 and 1.25 × the distance, S the
    distance, F no movement at all, CF −1 and a fall to the foot from the height it hung
    at. Climbing down from the top starts at the whole face."""
    hanging = _hanging_face(state, f)
    here = Cell(f.level, *f.cell)
    wall = hanging or face(state, here, to) or face(state, to, here)
    assert wall is not None  # checked before
    on_top = hanging is None and here == wall.top
    up = to == wall.top
    height = Fraction(wall.height)
    hang = f.hang if hanging is not None else (height if on_top else Fraction(0))
    f.move_used = True
    # the higher clutter of the foot and the top less Acrobatics (F-181), with the rest of
    # a Movement action's modifiers as on one level
    acrobatics = int(f.skills.get("acrobatics", 0))
    clutter = max(state.board.clutter(wall.foot), state.board.clutter(wall.top))
    own = state.board.clutter(Cell(f.level, *f.cell))
    mod = (_modifier(state, f, (f.cell,)) + max(0, own - acrobatics)
           - max(0, clutter - acrobatics))
    roll = gutz_roll(chance, f.gutz, mod, f"{f.id} climbs", frozenset({f.side}))
    distance, falls = climb_allowance(roll.result, maximum_for(f, "crawl"),
                                      int(f.skills.get("acrobatics", 0)))
    f.gutz = change_gutz(f.gutz, roller_change(roll.result)).gutz
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
    if falls:
        _place(f, wall.foot, None, Fraction(0))
        log.emit("climb", {"figure": f.id, "dice": list(roll.dice), "result": roll.result,
                           "to": [*wall.foot], "height": "0"}, _who_sees(state, f))
        _apply_fall(state, f, hang, chance, log)
    elif distance:
        hang = min(height, hang + distance) if up else max(Fraction(0), hang - distance)
        if up and hang == height and _free(state, f, wall.top):
            _place(f, wall.top, None, Fraction(0))
        elif not up and hang == 0:
            _place(f, wall.foot, None, Fraction(0))
        else:
            _place(f, wall.foot, wall.top, hang)
            f.facing = (_sign(wall.top.x - wall.foot.x), _sign(wall.top.y - wall.foot.y))
        f.prone = False
    if not falls:
        log.emit("climb", {"figure": f.id, "dice": list(roll.dice), "result": roll.result,
                           "to": [f.level, *f.cell], "height": str(f.hang)},
                 _who_sees(state, f))
    if f.gutz < tables().min_gutz and f.status is Status.ACTIVE:
        f.status = Status.ROUTED
    state.last = (f.id, "move", "crawl")


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _place(f: Figure, cell: Cell, top: Cell | None, hang: Fraction) -> None:
    """Stand the figure on ``cell`` (hanging toward ``top`` at ``hang`` cm when given)."""
    f.level, f.cell = cell.level, (cell.x, cell.y)
    f.climb_to = None if top is None else (top.x, top.y)
    f.climb_level = None if top is None else top.level
    f.hang = hang


# -- leaping down a storey -------------------------------------------------------------------

def leap_problem(state: FirewallState, f: Figure, to: Cell) -> str | None:
    """Why ``f`` may not leap down to ``to`` on the storey below now, or ``None`` (F-252)."""
    problem = _common(state, f)
    if problem is not None:
        return problem
    if f.climb_to is not None:
        return f"{f.id} hangs on a face: it climbs up or down (§6.6)"
    if to.level != f.level - 1:
        return "a jump stays on the figure's level; a leap goes down one storey (F-252)"
    if face(state, to, Cell(f.level, *f.cell)) is None:
        return (f"no outside wall drops from {f.level}:{f.cell[0]},{f.cell[1]} to "
                f"{to.level}:{to.x},{to.y} (F-251: beside it over a roof's edge, or two "
                "squares out of a window)")
    if not _free(state, f, to):
        return f"square {to.level}:{to.x},{to.y} is held"
    return None


def leap_options(state: FirewallState, side: str) -> list[Action]:
    out: list[Action] = []
    if len(state.board.levels) < 2:
        return out
    for f in team_figures(state, side):
        if f.level == 0 or f.climb_to is not None:
            continue
        for x in faces_from(state, f):
            if x.top == Cell(f.level, *f.cell) and leap_problem(state, f, x.foot) is None:
                out.append(Action.make(side, "jump", figure=f.id, to=[*x.foot],
                                       hint={"role": "move", "to": [*x.foot],
                                             "fall": x.height}))
    return out


def leap(state: FirewallState, f: Figure, to: Cell, chance: Chance, log: EventLog) -> None:
    """A leap down a storey (F-183, F-252): no roll; the figure lands on ``to`` and takes
    the fall of the face's height (the storey plus the top's surface less the foot's)."""
    wall = face(state, to, Cell(f.level, *f.cell))
    assert wall is not None  # checked before
    f.move_used = True
    f.prone = False
    f.facing = (_sign(to.x - f.cell[0]), _sign(to.y - f.cell[1]))
    state.last = (f.id, "move", "crawl")
    _place(f, to, None, Fraction(0))
    log.emit("leap", {"figure": f.id, "to": [*to]}, _who_sees(state, f))
    _apply_fall(state, f, Fraction(wall.height), chance, log)



# -- a climber who can hold on no longer ------------------------------------------------------

def let_go(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Ruling F-254: a climber made helpless on any face lets go and falls from the height it
    hung at to the foot (it stands there already); a killed one's body drops without attacks;
    one that left the table stops hanging. A suppressed climber holds on (F-181)."""
    for f in state.figures.values():
        if f.climb_to is None or f.status is Status.ACTIVE:
            continue
        if f.status is Status.INCAPACITATED and f.hang > 0:
            _apply_fall(state, f, f.hang, chance, log)
        f.climb_to, f.climb_level, f.hang = None, None, Fraction(0)
