"""Climbing, jumping and falling in play (digest §6.6; rulings F-17, F-18, F-180 … F-184).

Heights come from the map's ``height`` layer: the height in cm of the surface a figure stands
on above its level's floor (a flat roof, a ledge, a container). An ordinary move keeps to one
surface height (ruling F-180); a figure changes height by ``climb`` (a face between two
neighbouring squares, several actions for a tall one, hanging on the face in between),
``jump`` (a gap or a low obstacle to a square of the same height) or ``leap`` (letting itself
drop from a ledge: a fall). A fall costs floor(h/4) unmodified SS attacks at Gutz min(11, 2h),
the same function ``killhouse odds firewall fall`` enumerates.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.layers import LayerSpec
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.drugs import drug_bonus, no_movement
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import change_gutz, gutz_roll, roller_change
from killhouse.rulesets.firewall.movement import climb_allowance, fall
from killhouse.rulesets.firewall.moving import FACINGS, ON_TABLE, maximum_for
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _aware,
    _who_sees,
    mine,
    team_figures,
)
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status, bonus_for

XY = tuple[int, int]

#: the map layer of surface heights in cm (§1.2: "heights are tracked in cm")
HEIGHT = LayerSpec("height", "number", 0, 99,
                   help="the height in cm of the surface a figure stands on (0 = the floor)")
#: "a low obstacle (under 2 cm tall)" (§6.6)
LOW_OBSTACLE_CM = 2


def surface(board: Board, level: int, cell: XY) -> int:
    """The height in cm of a square's surface (0 where the map draws none)."""
    layer = board.levels[level].layers.get("height")
    return 0 if layer is None else int(layer[cell[1], cell[0]])


def route_height_problem(board: Board, f: Figure, cells: list[XY], *,
                         rally: bool = False) -> str | None:
    """Ruling F-180: a move keeps to the surface height of its start square; a figure on a
    face moves only by climbing (ruling F-181: a suppressed one may Rally where it hangs)."""
    if f.climb_to is not None and (cells or not rally):
        return f"{f.id} hangs on a face: it climbs up or down (§6.6)"
    if "height" not in board.levels[f.level].layers:
        return None
    here = surface(board, f.level, f.cell)
    for cell in cells:
        if board.in_bounds(Cell(f.level, *cell)) and surface(board, f.level, cell) != here:
            return (f"square {list(cell)} is {surface(board, f.level, cell)} cm high, not "
                    f"{here} cm: climb, jump or leap to change height (F-180)")
    return None


def _apply_fall(state: FirewallState, f: Figure, height: Fraction, chance: Chance,
                log: EventLog) -> None:
    """Land ``f`` where it stands now after a fall of ``height`` cm; everyone who sees it
    sees the fall (its new Gutz goes to its own side only)."""
    f.climb_to, f.hang, f.climb_level = None, Fraction(0), None
    watchers = _who_sees(state, f)
    results, killed, lost = fall(chance, height, f.id, watchers)
    if killed:
        f.status = Status.KILLED
    elif lost:
        change = change_gutz(f.gutz, -lost)
        f.gutz = change.gutz
        if change.status != "active":  # F-70: a helpless figure taken below 2 dies (F-254)
            helpless = f.status is Status.INCAPACITATED
            f.status = Status.KILLED if helpless else Status(change.status)
    log.emit("fall", {"figure": f.id, "height": str(height), "attacks": results,
                      "status": f.status.value}, watchers)


def _modifier(state: FirewallState, f: Figure, squares: Iterable[XY]) -> int:
    """A Movement action's modifiers (§6.1): −highest clutter of the squares less
    Acrobatics, the leader's bonus, movement drugs, the MG-22."""
    clutter = max(state.board.clutter(Cell(f.level, *c)) for c in squares)
    mod = -max(0, clutter - int(f.skills.get("acrobatics", 0)))
    mod += bonus_for(f, state.teams[f.team], state.figures) + drug_bonus(f.drug_effects,
                                                                        "movement")
    if "corp_arms_mg_22" in f.weapons:
        mod += int(tables().movement["carrying_mg22"])
    return mod


def _reach(f: Figure) -> Fraction:
    """Climb or jump distance of one action on an S: Crawl + 2 cm per Acrobatics (F-17)."""
    return climb_allowance("S", maximum_for(f, "crawl"), int(f.skills.get("acrobatics", 0)))[0]


def _free(state: FirewallState, f: Figure, cell: XY) -> bool:
    where = Cell(f.level, *cell)
    return state.board.in_bounds(where) and state.board.passable(where) and not any(
        g.id != f.id and g.level == f.level and g.cell == cell and g.status in ON_TABLE
        for g in state.figures.values())


def _common(state: FirewallState, f: Figure) -> str | None:
    if f.move_used or f.failed_this_turn:
        return f"{f.id} has no Movement action left this Turn"
    if not _aware(state, f):
        return "a team not yet aware of the enemy only walks (non-combat movement, F-16)"
    if f.suppressed:
        return f"{f.id} is suppressed and may not change position until it rallies (§6.4)"
    if f.carrying is not None:
        return f"{f.id} cannot climb or jump carrying {f.carrying} (F-181)"
    if no_movement(f.drug_effects):
        return f"{f.id} may not change position ('lectron, §15)"
    if f.riding:
        return f"{f.id} rides a transport"
    return None


# -- climbing ------------------------------------------------------------------------------

def climb_problem(state: FirewallState, f: Figure, to: XY) -> str | None:
    """Why ``f`` may not climb toward ``to`` now (ruling F-181), or ``None``."""
    problem = _common(state, f)
    if problem is not None:
        return problem
    board = state.board
    if f.climb_to is not None:
        if to not in (f.climb_to, f.cell):
            return f"{f.id} hangs on the face to {list(f.climb_to)}: up to it or down"
        if to == f.climb_to and not _free(state, f, to):
            return f"square {list(to)} at the top is held or closed"
        return None
    if max(abs(to[0] - f.cell[0]), abs(to[1] - f.cell[1])) != 1:
        return "a climb goes up or down the face beside the figure"
    if not _free(state, f, to):
        return f"square {list(to)} is held or closed"
    if surface(board, f.level, to) == surface(board, f.level, f.cell):
        return f"square {list(to)} is as high as {list(f.cell)}: walk"
    return None


def climb_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall import storeyclimb  # fwclimb hook: F-251
    out: list[Action] = storeyclimb.climb_options(state, side)
    if not any("height" in lv.layers for lv in state.board.levels):
        return out
    for f in team_figures(state, side):
        if f.climb_level is not None:
            continue  # on a wall between storeys: storeyclimb offers it (F-251)
        cells = [f.climb_to, f.cell] if f.climb_to is not None else [
            (f.cell[0] + dx, f.cell[1] + dy) for dx, dy in FACINGS]
        for to in cells:
            if to is not None and climb_problem(state, f, to) is None:
                out.append(Action.make(side, "climb", figure=f.id, to=[f.level, *to],
                                       hint={"role": "move", "to": [f.level, *to]}))
    return out


def check_climb(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    to = action.get("to")
    if int(to[0]) != f.level or f.climb_level is not None:  # fwclimb hook: F-251
        from killhouse.rulesets.firewall.storeyclimb import climb_problem as storey_problem
        problem = storey_problem(state, f, Cell(int(to[0]), int(to[1]), int(to[2])))
    else:
        problem = climb_problem(state, f, (int(to[1]), int(to[2])))
    if problem is not None:
        raise IllegalActionError(problem)


def _toward(a: XY, b: XY) -> XY:
    return ((b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1]))


def climb(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """One climbing action (§6.6, F-17, F-181): the movement roll; CS +1 and 1.25 × the
    distance, S the distance, F no movement, CF −1 and a fall from the height reached."""
    f = state.figures[str(action.get("figure"))]
    to = action.get("to")
    if int(to[0]) != f.level or f.climb_level is not None:  # fwclimb hook: F-251
        from killhouse.rulesets.firewall import storeyclimb
        storeyclimb.climb(state, f, Cell(int(to[0]), int(to[1]), int(to[2])), chance, log)
        return
    target: XY = (int(to[1]), int(to[2]))
    board = state.board
    # the face: the figure's square (its foot) and the square at the top
    if f.climb_to is not None:
        foot, top, up = f.cell, f.climb_to, target == f.climb_to
    elif surface(board, f.level, target) > surface(board, f.level, f.cell):
        foot, top, up = f.cell, target, True
    else:
        foot, top, up = target, f.cell, False
    face = Fraction(surface(board, f.level, top) - surface(board, f.level, foot))
    hang = f.hang if f.climb_to is not None else (Fraction(0) if up else face)
    f.move_used = True
    own = frozenset({f.side})
    roll = gutz_roll(chance, f.gutz, _modifier(state, f, (foot, top)), f"{f.id} climbs", own)
    distance, falls = climb_allowance(roll.result, maximum_for(f, "crawl"),
                                      int(f.skills.get("acrobatics", 0)))
    f.gutz = change_gutz(f.gutz, roller_change(roll.result)).gutz
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
    start = f.cell
    if falls:
        # F-17: CF is −1 and a fall from the height the climber was at, to the foot
        f.cell = foot
        log.emit("climb", {"figure": f.id, "dice": list(roll.dice), "result": roll.result,
                           "to": [f.level, *foot], "height": "0"}, _who_sees(state, f))
        _apply_fall(state, f, hang, chance, log)
    else:
        if distance and up:
            hang = min(face, hang + distance)
        elif distance:
            hang = max(Fraction(0), hang - distance)
        f.cell = foot
        f.climb_to, f.hang = top, hang
        if up and hang == face and _free(state, f, top):
            f.cell, f.climb_to, f.hang = top, None, Fraction(0)
        elif not up and hang == 0:
            f.climb_to, f.hang = None, Fraction(0)
        if f.cell != start or distance:
            f.facing = _toward(f.cell, top) if f.climb_to is not None else f.facing
            f.prone = False
        log.emit("climb", {"figure": f.id, "dice": list(roll.dice), "result": roll.result,
                           "to": [f.level, *f.cell], "height": str(f.hang)},
                 _who_sees(state, f))
    if f.gutz < tables().min_gutz and f.status is Status.ACTIVE:
        f.status = Status.ROUTED
    state.last = (f.id, "move", "crawl")


# -- jumping and leaping ---------------------------------------------------------------------

def _line(a: XY, b: XY) -> list[XY] | None:
    """The squares strictly between two squares on a straight or diagonal line."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return None
    n = max(abs(dx), abs(dy))
    sx, sy = _toward(a, b)
    return [(a[0] + sx * i, a[1] + sy * i) for i in range(1, n)]


def jump_problem(state: FirewallState, f: Figure, to: XY) -> str | None:
    """Why ``f`` may not jump or leap to ``to`` now (rulings F-182, F-183), or ``None``."""
    problem = _common(state, f)
    if problem is not None:
        return problem
    if f.climb_to is not None:
        return f"{f.id} hangs on a face: it climbs up or down (§6.6)"
    board = state.board
    between = _line(f.cell, to)
    if between is None:
        return "a jump goes in a straight line along a row, a column or a diagonal"
    if not _free(state, f, to):
        return f"square {list(to)} is held or closed"
    here, there = surface(board, f.level, f.cell), surface(board, f.level, to)
    if not between:
        if there < here:
            return None  # a leap down from a ledge (F-183)
        return "a jump clears at least one square between (a gap or a low obstacle)"
    if there != here:
        return f"a jump lands on a square as high as its take-off ({here} cm), F-182"
    opaque = board.opaque(f.level)
    for cell in between:
        if not board.in_bounds(Cell(f.level, *cell)) or opaque[cell[1], cell[0]]:
            return f"square {list(cell)} blocks the jump"
        if surface(board, f.level, cell) - here >= LOW_OBSTACLE_CM:
            return (f"square {list(cell)} is {surface(board, f.level, cell) - here} cm above "
                    f"the take-off: only obstacles under {LOW_OBSTACLE_CM} cm are jumped")
    if all(surface(board, f.level, c) == here and board.passable(Cell(f.level, *c))
           for c in between):
        return "nothing to jump: walk"
    if not within(f.cell, to, _reach(f)):
        return f"the jump is longer than {f.id}'s {_reach(f)} cm (Crawl + Acrobatics, F-17)"
    return None


def jump_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall import storeyclimb  # fwclimb hook: F-252
    out: list[Action] = storeyclimb.leap_options(state, side)
    if not any("height" in lv.layers for lv in state.board.levels):
        return out
    for f in team_figures(state, side):
        for dx, dy in FACINGS:
            for n in range(1, 5):
                to = (f.cell[0] + dx * n, f.cell[1] + dy * n)
                if state.board.in_bounds(Cell(f.level, *to)) and jump_problem(
                        state, f, to) is None:
                    out.append(Action.make(side, "jump", figure=f.id, to=[f.level, *to],
                                           hint={"role": "move", "to": [f.level, *to]}))
    return out


def check_jump(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    to = action.get("to")
    if int(to[0]) != f.level:  # fwclimb hook: a leap down a storey (F-252)
        from killhouse.rulesets.firewall.storeyclimb import leap_problem
        problem = leap_problem(state, f, Cell(int(to[0]), int(to[1]), int(to[2])))
    else:
        problem = jump_problem(state, f, (int(to[1]), int(to[2])))
    if problem is not None:
        raise IllegalActionError(problem)


def jump(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """A jump (F-17, F-182): the movement roll with the landing square's clutter; S or CS
    lands (CS +1), F stays, CF −1 and a fall into the gap. A leap down from a ledge (F-183)
    needs no roll: the figure drops and takes the fall."""
    f = state.figures[str(action.get("figure"))]
    to = action.get("to")
    if int(to[0]) != f.level:  # fwclimb hook: a leap down a storey (F-252)
        from killhouse.rulesets.firewall import storeyclimb
        storeyclimb.leap(state, f, Cell(int(to[0]), int(to[1]), int(to[2])), chance, log)
        return
    target: XY = (int(to[1]), int(to[2]))
    board = state.board
    here = surface(board, f.level, f.cell)
    between = _line(f.cell, target) or []
    f.move_used = True
    f.prone = False
    f.facing = _toward(f.cell, target)
    state.last = (f.id, "move", "crawl")
    if not between:
        drop = Fraction(here - surface(board, f.level, target))
        f.cell = target
        log.emit("leap", {"figure": f.id, "to": [f.level, *target]}, _who_sees(state, f))
        _apply_fall(state, f, drop, chance, log)
        return
    own = frozenset({f.side})
    roll = gutz_roll(chance, f.gutz, _modifier(state, f, (target,)), f"{f.id} jumps", own)
    f.gutz = change_gutz(f.gutz, roller_change(roll.result)).gutz
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
    if roll.result in ("S", "CS"):
        f.cell = target
    log.emit("jump", {"figure": f.id, "dice": list(roll.dice), "result": roll.result,
                      "to": [f.level, *f.cell]}, _who_sees(state, f))
    if roll.result == "CF":
        # ruling F-182: it falls into the gap: the nearest free square between, from the
        # take-off height; over a low obstacle (or no square to land in) it stays: 0 cm
        gap = next((c for c in between if _free(state, f, c)
                    and surface(board, f.level, c) < here), None)
        height = Fraction(0)
        if gap is not None:
            height = Fraction(here - surface(board, f.level, gap))
            f.cell = gap
        _apply_fall(state, f, height, chance, log)
    if f.gutz < tables().min_gutz and f.status is Status.ACTIVE:
        f.status = Status.ROUTED
