"""Setting, springing, finding and disarming traps in play (§16.2 Technical; rulings F-235 …
F-241).

``set-trap(figure, at, item)`` takes the figure's whole Turn and a Technical skill roll, as
disarming a counter does (F-101); the trap is hidden from every side that did not see it set
(F-237). It goes off on an enemy that does not know of it when one ends an action within 2 cm
or crosses its square in a move (F-238), as the §18.3 trap: an improvised AP bomb B attack at
Gutz 7 (F-94). A Search finds it by the §16.1 contest with the setter's roll (F-240), and a
side that knows of it may disarm it like a counter (``disarm-trap(figure, at)``, F-241).
"""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import line_of_sight
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.doors import passed_squares
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import (
    Roll,
    contest_winner,
    gutz_roll,
)
from killhouse.rulesets.firewall.moving import FACINGS
from killhouse.rulesets.firewall.objectives import HOSTAGES, NEAR_CM, trap_attack
from killhouse.rulesets.firewall.skillroll import apply_result, skill_level
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _aware,
    _gm,
    _who_sees,
    mine,
    side_known,
    team_figures,
)
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status
from killhouse.rulesets.firewall.traps import BOMB, ITEMS, TECHNICAL_NEED, Trap


def _level(f: Figure) -> int:
    return skill_level(f, "technical")


def _has_item(f: Figure, item: str) -> bool:
    if item == BOMB:
        ammo = tables().weapons[BOMB].ammo or 1
        return BOMB in f.weapons and f.shots.get(BOMB, 0) < ammo
    return item in ITEMS and f.grenades.get(item, 0) >= 1


def _use_item(f: Figure, item: str) -> None:
    if item == BOMB:
        f.weapons = tuple(w for w in f.weapons if w != BOMB)
        f.shots.pop(BOMB, None)
    else:
        f.grenades[item] -= 1
        if not f.grenades[item]:
            del f.grenades[item]


def known_traps(state: FirewallState, side: str) -> list[Trap]:
    """The traps ``side`` knows of (ruling F-237): its own, those it watched set or found; a
    game master knows every one (F-196)."""
    gm = side not in state.players
    return [t for t in state.traps if gm or side in t.known]


def traps_view(state: FirewallState, side: str) -> list[dict[str, object]]:
    """The traps of the side's view: square and whether its own side set it."""
    return [{"at": list(t.spot), "own": t.side == side} for t in known_traps(state, side)]


def _spot(action: Action) -> Cell:
    at = action.get("at")
    return Cell(int(at[0]), int(at[1]), int(at[2]))


def _busy(f: Figure) -> str | None:
    if f.move_used or f.combat_used or f.failed_this_turn:
        return f"working a trap takes {f.id}'s whole Turn (F-235)"
    if f.carrying is not None or f.climb_to is not None or f.riding:
        return f"{f.id} needs its hands free to work a trap (F-235)"
    return None


# -- setting (F-235 … F-237) -----------------------------------------------------------------

def set_problem(state: FirewallState, f: Figure, c: Cell, item: str) -> str | None:
    """Why ``f`` may not set a trap of ``item`` at ``c`` now, or ``None``."""
    busy = _busy(f)
    if busy is not None:
        return busy
    if not _aware(state, f):
        return "a team not yet aware of the enemy only walks (F-16)"
    if _level(f) < TECHNICAL_NEED:
        return f"{f.id} has no Technical skill to set a trap (F-236)"
    if item not in ITEMS:
        return f"a trap is made of {' or '.join(ITEMS)} (F-236), not {item!r}"
    if not _has_item(f, item):
        return f"{f.id} carries no {item.replace('_', ' ')} (F-236)"
    board = state.board
    if c.level != f.level or not board.in_bounds(c) or not within(f.cell, (c.x, c.y), NEAR_CM):
        return "a trap is set on the figure's square or one beside it (within 2 cm, F-235)"
    if not board.passable(c):
        return f"square {c.level}:{c.x},{c.y} is not passable"
    if any(not k.resolved and k.level == c.level and k.cell == (c.x, c.y)
           for k in state.counters.values()):
        return "a counter lies there"
    if any(t.spot == (c.level, c.x, c.y) for t in known_traps(state, f.side)):
        return "a trap the side knows of lies there already"
    return None


def set_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    for f in team_figures(state, side):
        if _level(f) < TECHNICAL_NEED or _busy(f) is not None:
            continue
        for item in ITEMS:
            if not _has_item(f, item):
                continue
            for dx, dy in ((0, 0), *FACINGS):
                c = Cell(f.level, f.cell[0] + dx, f.cell[1] + dy)
                if set_problem(state, f, c, item) is None:
                    out.append(Action.make(side, "set-trap", figure=f.id,
                                           at=[c.level, c.x, c.y], item=item,
                                           hint={"role": "trap"}))
    return out


def check_set(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    problem = set_problem(state, f, _spot(action), str(action.get("item")))
    if problem is not None:
        raise IllegalActionError(problem)


def _skill_roll(state: FirewallState, f: Figure, chance: Chance, purpose: str,
                audience: frozenset[str]) -> Roll:
    """A Technical skill roll of §16.1 without modifiers (as F-101's disarm)."""
    return gutz_roll(chance, f.gutz, 0, purpose, audience,
                     skill_level=_level(f),  # type: ignore[arg-type]
                     in_combat=_aware(state, f), start_gutz=f.start_gutz)


def _roller(f: Figure, roll: Roll) -> None:
    """The roller's own result (CS +1, CF −1, level 3 never below the start; F or CF ends its
    Turn), applied after the trap's own effects, as a disarm's (F-101)."""
    if f.status is not Status.ACTIVE:
        return
    apply_result(f, roll, f.start_gutz if _level(f) == 3 else None)


def set_trap(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Rulings F-235 … F-237: the whole Turn and a Technical roll. S or CS sets the trap (the
    item used; CS +1); F nothing (the item kept); CF −1 and the device goes off on the setter
    (a rolled trap attack). The setter's side (and a game master) hears all of it; a side that
    sees the setter sees where it works, never the dice."""
    f = state.figures[str(action.get("figure"))]
    c = _spot(action)
    item = str(action.get("item"))
    f.move_used = f.combat_used = True
    state.last = (f.id, "task", "")
    own = frozenset({f.side})
    watchers = _who_sees(state, f) - own  # they see it at work (F-237)
    roll = _skill_roll(state, f, chance, f"{f.id} sets a trap", own)
    placed = roll.result in ("S", "CS")
    data: dict[str, object] = {"figure": f.id, "at": [c.level, c.x, c.y], "item": item,
                               "dice": list(roll.dice), "result": roll.result, "set": placed}
    audience = own | watchers | _gm(state)
    others = {s: {"figure": f.id, "at": [c.level, c.x, c.y], "item": None, "dice": None,
                  "result": None, "set": None} for s in audience if s != f.side}
    log.emit("trap-set", data, audience, others)
    if placed:
        _use_item(f, item)
        state.traps_set += 1
        state.traps.append(Trap(f"trap-{state.traps_set}", f.side, c.level, (c.x, c.y),
                                roll.result, _level(f), f.experience,
                                known=set(own | watchers | _gm(state))))
    elif roll.result == "CF":
        _use_item(f, item)
        _explode(state, None, f, chance, log, at=c)
    _roller(f, roll)


# -- going off (F-238, F-239) ----------------------------------------------------------------

def _explode(state: FirewallState, trap: Trap | None, victim: Figure, chance: Chance,
             log: EventLog, at: Cell | None = None, result: str | None = None) -> None:
    """The trap's attack on ``victim`` (§18.3, F-94: an improvised AP bomb B attack at Gutz 7;
    its CF a dud), told to the sides that see the victim, the trap's side and a game master;
    a side that may not name the victim hears it unnamed."""
    owner = frozenset({trap.side}) if trap is not None else frozenset({victim.side})
    audience = _who_sees(state, victim) | owner | _gm(state)
    outcome = trap_attack(state.figures, victim, chance, audience, result)
    state.teams[victim.team].aware = True
    spot = list(trap.spot) if trap is not None else [at.level, at.x, at.y] if at else None
    if trap is not None:
        state.traps.remove(trap)
    known = side_known(state)
    data = {"at": spot, "figure": victim.id, "result": outcome, "status": victim.status.value}
    views = {s: {**data, "figure": None, "status": None} for s in audience
             if victim.id not in known.get(s, set())}
    log.emit("trap-off", data, audience, views)


def _triggers(state: FirewallState, trap: Trap, f: Figure) -> bool:
    """Ruling F-238: an active figure of another side that does not know of the trap (never a
    hostage, nobody inside a vehicle)."""
    return (f.active and f.aboard is None and f.side != trap.side and f.side != HOSTAGES
            and f.side not in trap.known)


def spring_near(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """After every action: a trap goes off on an unknowing enemy within 2 cm (F-238): the
    figure that acted if it is one, else the nearest (then by id)."""
    if not state.traps:
        return
    actor = state.last[0] if state.last else None
    for trap in sorted(state.traps, key=lambda t: t.id):
        near = [f for f in state.figures.values()
                if _triggers(state, trap, f) and trap.reaches(f.level, f.cell)]
        if not near:
            continue
        near.sort(key=lambda f: (f.id != actor, (f.cell[0] - trap.cell[0]) ** 2
                                 + (f.cell[1] - trap.cell[1]) ** 2, f.id))
        _explode(state, trap, near[0], chance, log)


def spring_on_route(state: FirewallState, f: Figure, start: tuple[int, int],
                    waypoints: tuple[tuple[int, int], ...], chance: Chance,
                    log: EventLog) -> None:
    """Ruling F-238: a move that crossed a trap's square on its way sets it off on the mover,
    where the move ended."""
    if not state.traps:
        return
    crossed = set(passed_squares(start, waypoints, f.cell))
    for trap in sorted(state.traps, key=lambda t: t.id):
        if f.active and trap.level == f.level and trap.cell in crossed and _triggers(
                state, trap, f):
            _explode(state, trap, f, chance, log)


# -- finding (F-240) -------------------------------------------------------------------------

def find_traps(state: FirewallState, f: Figure, roll: Roll, chance: Chance,
               log: EventLog) -> None:
    """Ruling F-240: a Search also contests, with the searcher's Observation roll, the setting
    roll of every trap the side does not know in its line of sight (§16.1: result, then
    Technical against Observation level, then experience, then d6; the setter rolls nothing
    more). A trap found is told to the searcher's side only; a search that finds none tells
    nobody anything (its tie-break dice go to a game master only)."""
    opaque = state.board.opaque(f.level)
    level = max(0, min(3, int(f.skills.get("observation", 0))))
    for trap in sorted(state.traps, key=lambda t: t.id):
        if f.side in trap.known or trap.level != f.level or not line_of_sight(
                opaque, f.cell, trap.cell, mode="supercover"):
            continue
        won = contest_winner((roll.result, level, f.experience),
                             (trap.result, trap.skill, trap.experience), chance,
                             "search contest for a trap", _gm(state)) == 0
        if won:
            trap.known.add(f.side)
            log.emit("trap-found", {"by": f.id, "at": list(trap.spot)},
                     frozenset({f.side}) | _gm(state))


# -- disarming (F-241) -----------------------------------------------------------------------

def _known_at(state: FirewallState, side: str, c: Cell) -> Trap | None:
    return next((t for t in sorted(known_traps(state, side), key=lambda t: t.id)
                 if t.spot == (c.level, c.x, c.y)), None)


def disarm_problem(state: FirewallState, f: Figure, c: Cell) -> str | None:
    busy = _busy(f)
    if busy is not None:
        return busy
    if not _aware(state, f):
        return "a team not yet aware of the enemy only walks (F-16)"
    if _known_at(state, f.side, c) is None:
        return f"the side knows of no trap at {c.level}:{c.x},{c.y}"
    if c.level != f.level or not within(f.cell, (c.x, c.y), NEAR_CM):
        return "a trap is disarmed from within 2 cm (§18.3)"
    return None


def disarm_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    traps = known_traps(state, side)
    if not traps:
        return out
    for f in team_figures(state, side):
        for t in traps:
            c = Cell(*t.spot)
            if disarm_problem(state, f, c) is None:
                out.append(Action.make(side, "disarm-trap", figure=f.id, at=list(t.spot),
                                       hint={"role": "task", "task": "disarm"}))
    return out


def check_disarm(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    problem = disarm_problem(state, f, _spot(action))
    if problem is not None:
        raise IllegalActionError(problem)


def disarm_trap(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-241, as F-101 for a counter: the whole Turn and a Technical roll at the
    figure's level (0 if unlisted), no modifiers. CS safe and kept as an improvised AP bomb;
    S removed; F it goes off; CF the trap's CS on the figure."""
    f = state.figures[str(action.get("figure"))]
    c = _spot(action)
    trap = _known_at(state, f.side, c)
    assert trap is not None
    f.move_used = f.combat_used = True
    state.last = (f.id, "task", "")
    audience = frozenset({f.side}) | _gm(state)
    roll = _skill_roll(state, f, chance, f"{f.id} disarms a trap", frozenset({f.side}))
    log.emit("trap-disarm", {"figure": f.id, "at": list(trap.spot), "dice": list(roll.dice),
                             "result": roll.result}, audience)
    if roll.result in ("S", "CS"):
        state.traps.remove(trap)
        if roll.result == "CS" and BOMB not in f.weapons:
            f.weapons = (*f.weapons, BOMB)
    else:
        _explode(state, trap, f, chance, log, result="CS" if roll.result == "CF" else None)
    _roller(f, roll)
