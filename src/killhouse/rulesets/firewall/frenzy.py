"""The drug criticals that hand a figure to another will (§15; rulings F-41, F-192 … F-194).

**Berserk** (Green Jeans' CF): the engine never plays the figure; it narrows the figure's
legal actions to what the state demands and its player picks among them: while its side sees
an active enemy on its level, its Combat action is close combat with the nearest such enemy
and its Movement action a Run (a Rally while suppressed) that ends nearer to one of the
nearest, and its team may not end the activation while it can still do one of those; with no
enemy in sight it may only move, hunting. It lasts until it is dead.

**Paranoid** (Wah-Wah Juice's CF): the figure is "controlled by the opposition player for the
rest of the game": it becomes a one-figure, aware Fire Team of the opposing side (with more
than one opponent, one drawn at random), whose player decides for it from then on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.objectives import HOSTAGES
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _free_square_near,
    _gm,
    team_figures,
)
from killhouse.rulesets.firewall.teams import Figure, Team, resolve_leader_loss
from killhouse.rulesets.kit import Flow, Move

#: drug effects that outlast a critical failure (§15: "Paranoid (rest of game), Berserk
#: (until dead)")
LASTING = frozenset({"green_jeans", "wah_wah_juice"})
#: what a berserk figure may still declare besides its moves and close combat
FREE = frozenset({"drop", "reflex"})
#: close combat reach (§10)
REACH_CM = 2


def berserk(f: Figure) -> bool:
    return f.drug_effects.get("green_jeans") == "critical"


def nearest_enemies(state: FirewallState, f: Figure) -> set[str]:
    """The active enemies on the figure's level its side sees, nearest first (ties all):
    whom a berserk figure must close with (F-41: "the nearest active enemy figure")."""
    from killhouse.rulesets.firewall.vehicles.sight import figures_seen  # vehicles hook
    seen = figures_seen(state.board, state.figures, state.vehicles, f.side)
    enemies = [state.figures[i] for i in seen if state.figures[i].active
               and state.figures[i].level == f.level and state.figures[i].side != f.side]
    if not enemies:
        return set()

    def d2(o: Figure) -> int:
        return (o.cell[0] - f.cell[0]) ** 2 + (o.cell[1] - f.cell[1]) ** 2

    best = min(d2(o) for o in enemies)
    return {o.id for o in enemies if d2(o) == best}


def _closer(state: FirewallState, f: Figure, action: Action, near: set[str]) -> bool:
    """Whether a move ends nearer to one of ``near`` than the figure stands, or in reach."""
    path = action.get("path") or []
    if not path:
        return False
    end = (int(path[-1][1]), int(path[-1][2]))
    for oid in near:
        o = state.figures[oid]
        before = (o.cell[0] - f.cell[0]) ** 2 + (o.cell[1] - f.cell[1]) ** 2
        after = (o.cell[0] - end[0]) ** 2 + (o.cell[1] - end[1]) ** 2
        if after < before or within(end, o.cell, REACH_CM):
            return True
    return False


def berserk_problem(state: FirewallState, action: Action) -> str | None:
    """Why a berserk figure may not take ``action`` (ruling F-192), or ``None``."""
    fid = action.get("figure")
    f = state.figures.get(str(fid)) if fid is not None else None
    if f is None or not berserk(f) or action.kind in FREE:
        return None
    near = nearest_enemies(state, f)
    if action.kind == "move":
        if action.get("carry") is not None or action.get("exit"):
            return f"{f.id} is berserk: it carries nobody and leaves no table (F-192)"
        if not near:
            return None  # no enemy in sight: it hunts where its player sends it
        if not f.suppressed and action.get("speed") != "run":
            return f"{f.id} is berserk: it runs at the nearest enemy (F-41, F-192)"
        if not f.suppressed and not _closer(state, f, action, near):
            return (f"{f.id} is berserk: its run must end nearer to the nearest enemy "
                    f"({', '.join(sorted(near))}), F-192")
        return None
    if action.kind in ("stairs", "climb", "jump") and not near:
        return None  # hunting out of sight goes by any way there is
    if action.kind == "close-combat" and near:
        if str(action.get("target")) in near:
            return None
        return f"{f.id} is berserk: it fights the nearest enemy ({', '.join(sorted(near))})"
    return f"{f.id} is berserk: it only closes with the nearest enemy and fights it (F-192)"


def berserk_runs(state: FirewallState, f: Figure) -> list[Action]:
    """Runs a berserk figure may make besides the listed moves: straight to each square on
    the line to each nearest enemy and to each square beside it (the kit's listed moves are
    a subset; ``check`` takes any other route)."""
    from killhouse.core.geometry import cells_on_segment
    from killhouse.rulesets.firewall.moving import FACINGS, MoveOrder, move_problem

    out: list[Action] = []
    ends: list[tuple[int, int]] = []
    for oid in sorted(nearest_enemies(state, f)):
        o = state.figures[oid]
        ends += [c for c in cells_on_segment(f.cell, o.cell)[1:-1] if c not in ends]
        ends += [(o.cell[0] + dx, o.cell[1] + dy) for dx, dy in FACINGS
                 if (o.cell[0] + dx, o.cell[1] + dy) not in ends]
    for end in ends:
        if move_problem(state.board, state.figures, MoveOrder(f.id, "run", (end,))) is None:
            action = Action.make(f.side, "move", figure=f.id, speed="run",
                                 path=[[f.level, *end]],
                                 hint={"role": "move", "to": [f.level, *end]})
            if berserk_problem(state, action) is None:
                out.append(action)
    return out


def must_act(state: FirewallState, side: str, flow: Flow[FirewallState]) -> str | None:
    """A berserk figure of the active team that can still run at or fight the nearest enemy
    keeps the activation open (F-192); the reason, or ``None``."""
    for f in team_figures(state, side):
        if not berserk(f) or not nearest_enemies(state, f):
            continue
        for kind in ("close-combat", "move"):
            for a in flow.moves[kind].options(state, side):
                if a.get("figure") == f.id and berserk_problem(state, a) is None:
                    verb = "run at" if kind == "move" else "fight"
                    return (f"{f.id} is berserk and must still {verb} the nearest enemy "
                            "before the activation ends (F-192)")
    return None


def _frenzied(state: FirewallState, side: str) -> bool:
    """Whether the side's active team has a berserk member (a cheap test for every list)."""
    team = state.teams.get(state.active_team) if state.active_team is not None else None
    return team is not None and team.side == side and any(
        berserk(state.figures[m]) for m in team.members)


def restrict(flow: Flow[FirewallState]) -> None:
    """Wrap every move of the flow so that berserk figures are held to F-192: options
    filtered, checks extended, and ``end`` refused while one must still act."""
    for kind, move in list(flow.moves.items()):
        flow.moves[kind] = _wrapped(move, flow)


def _wrapped(move: Move[FirewallState], flow: Flow[FirewallState]) -> Move[FirewallState]:
    inner_options, inner_check = move.options, move.check
    if move.kind == "end":
        def end_options(state: FirewallState, side: str) -> Iterable[Action]:
            if _frenzied(state, side) and must_act(state, side, flow):
                return []
            return inner_options(state, side)

        def end_check(state: FirewallState, action: Action) -> None:
            frenzied = _frenzied(state, action.side)
            reason = must_act(state, action.side, flow) if frenzied else None
            if reason is not None:
                raise IllegalActionError(reason)
            if action not in inner_options(state, action.side):
                raise IllegalActionError(f"{action} is not a legal choice now")

        return dataclasses.replace(move, options=end_options, check=end_check)

    def options(state: FirewallState, side: str) -> Iterable[Action]:
        listed = inner_options(state, side)
        if not _frenzied(state, side):
            return listed
        frenzied = [f for f in team_figures(state, side) if berserk(f)]
        out = [a for a in listed if berserk_problem(state, a) is None]
        if move.kind == "move":
            for f in frenzied:
                if not f.move_used and not f.suppressed:
                    out += [a for a in berserk_runs(state, f) if a not in out]
        return out

    if inner_check is None:
        return dataclasses.replace(move, options=options)
    check: Callable[[FirewallState, Action], None] = inner_check

    def checked(state: FirewallState, action: Action) -> None:
        reason = berserk_problem(state, action)
        if reason is not None:
            raise IllegalActionError(reason)
        check(state, action)

    return dataclasses.replace(move, options=options, check=checked)


def defect(state: FirewallState, f: Figure, chance: Chance, log: EventLog) -> None:
    """Ruling F-193: a Paranoid figure leaves its team and becomes a one-figure, aware Fire
    Team of the opposing side (one drawn at random among several) for the rest of the game;
    a defecting leader is a lost leader for its old team (F-6)."""
    opponents = sorted(s for s in state.players if s not in (f.side, HOSTAGES)
                       and s not in _gm(state))
    if not opponents:
        return
    old_side, old = f.side, state.teams[f.team]
    if f.carrying is not None:
        load = state.figures[f.carrying]
        load.cell = _free_square_near(state, f)  # ruling F-81: the carrier's load drops
        load.carried_by, f.carrying = None, None
    new_side = opponents[0] if len(opponents) == 1 else chance.pick(
        opponents, f"who controls the paranoid {f.id}", frozenset({old_side}))
    tid = f"{f.id}-paranoid"
    state.teams[tid] = Team(tid, new_side, (f.id,), None, aware=True,
                            activated_this_turn=True)
    old.members = tuple(m for m in old.members if m != f.id)
    f.side, f.team, f.is_leader = new_side, tid, False
    f.hidden = False
    # the old side knows where its man turned (it may name him from now on, §21.4)
    state.last_seen.setdefault(old_side, {})[f.id] = (f.level, *f.cell, state.turn)
    # §21.4: both sides learn of it; nobody else does unless it sees the figure
    log.emit("paranoid", {"figure": f.id, "from": old_side, "to": new_side},
             frozenset({old_side, new_side}))
    if old.leader == f.id:
        resolve_leader_loss(old, state.figures, chance)
