"""CQB's flow on the kit: one phase of activations, eight action moves with typed arguments,
and three reaction windows (an interrupt offer, the interrupter's action, and a simultaneous
group's secret declarations)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from killhouse.core.cells import cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import los_pairs
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.cqb import actions as act
from killhouse.rulesets.cqb import turn
from killhouse.rulesets.cqb.fire import reload_why_not
from killhouse.rulesets.cqb.state import (
    ACTIVATE,
    GRENADES,
    MODES,
    TASKS,
    WINDOW_DOINGS,
    CqbState,
    Figure,
)
from killhouse.rulesets.cqb.world import inches, openings, sees_cell, smoke
from killhouse.rulesets.kit import Arg, Flow, Group, Move, Phase, Reaction

ACTIONS = ("move", "fire", "aim", "hold", "wait", "stand", "task", "throw", "reload",
           "window")
AIM_POINTS, AIM_POINTS_WITHIN = 3, 12  # aim points offered: the nearest openings in sight
CALLED = ("torso", "head", "brain-stem", "strong-arm", "weak-arm", "leg")


def _each(fn: Callable[[CqbState, Figure], Iterable[Action]]
          ) -> Callable[[CqbState, str], Iterator[Action]]:
    def options(state: CqbState, side: str) -> Iterator[Action]:
        for fig in turn.actors(state, side):
            yield from fn(state, fig)

    return options


def _grouped(fn: Callable[[CqbState, Figure], Iterable[Action]],
             count: Callable[[CqbState, Figure], int] | None = None,
             ) -> Callable[[CqbState, str], Iterator[Group]]:
    """``_each(fn)`` as one group per acting figure: counted by ``count`` and made when read,
    or made at once without it."""
    def groups(state: CqbState, side: str) -> Iterator[Group]:
        for fig in turn.actors(state, side):
            shared = {"figure": fig.id}
            if count is None:
                made = tuple(fn(state, fig))
                yield Group(len(made), lambda made=made: made, shared)  # type: ignore[misc]
            else:
                yield Group(count(state, fig),
                            lambda fig=fig: tuple(fn(state, fig)),  # type: ignore[misc]
                            shared)

    return groups


def _actor(state: CqbState, action: Action) -> Figure:
    fid = action.get("figure")
    mine = {f.id: f for f in turn.actors(state, action.side)}
    if fid not in mine:
        names = ", ".join(sorted(mine)) or "none"
        raise IllegalActionError(f"{fid!r} may not act now (may: {names})")
    return mine[fid]


def aim_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    """Aim at each opposing figure in sight, and at the nearest doorways and windows in sight
    within 12" (a sample: any cell the figure sees may be named, ruling Q-62)."""
    if fig.weapon_in_hand() is None or fig.overcome:
        return
    for t in act.targets(state, fig):
        if fig.aim_target != t.id:
            yield Action.make(fig.side, "aim", {"role": "aim"}, figure=fig.id, target=t.id)
    near = sorted((inches(fig.at, c), c) for c in openings(state, fig.at.level)
                  if c != fig.at and c != fig.aim_at and inches(fig.at, c) <= AIM_POINTS_WITHIN)
    if not near:
        return
    # every near opening's sight at once (the same test as sees_cell: its own level, exact)
    level = fig.at.level
    seen = los_pairs(state.board.opaque(level), [(fig.at.x, fig.at.y)] * len(near),
                     [(c.x, c.y) for _, c in near], smoke(state, level)).tolist()
    offered = 0
    for (_, cell), sees in zip(near, seen, strict=True):
        if offered == AIM_POINTS and sees:
            break
        if sees:
            offered += 1
            yield Action.make(fig.side, "aim", {"role": "aim-point", "to": cell_json(cell)},
                              figure=fig.id, at=cell_json(cell))


def check_aim(state: CqbState, action: Action) -> None:
    """Ruling Q-62: aim names one opposing figure in sight, or one point the figure sees."""
    fig = _actor(state, action)
    if fig.weapon_in_hand() is None:
        raise IllegalActionError(f"{fig.id} has no weapon in hand to aim")
    if fig.overcome:
        raise IllegalActionError(f"{fig.id} is overcome by gas and must move out first")
    target, at = action.get("target"), action.get("at")
    if (target is None) == (at is None):
        raise IllegalActionError("aim names a target figure or a point (at), not both")
    if target is not None:
        if target not in {t.id for t in act.targets(state, fig)}:
            raise IllegalActionError(f"{fig.id} sees no opposing figure {target!r} to aim at")
        return
    cell = act.cell_of(at)
    if not sees_cell(state, fig, cell):
        raise IllegalActionError(f"{fig.id} cannot see the point {list(cell)} to aim at "
                                 "(a point on its own level in its line of sight, Q-62)")


def hold_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    if not fig.hesitant and not fig.overcome:  # section 13: a hesitating figure may not Hold
        yield Action.make(fig.side, "hold", {"role": "pass"}, figure=fig.id)


def wait_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    yield Action.make(fig.side, "wait", {"role": "pass"}, figure=fig.id)


def stand_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    if fig.posture == "prone" and not fig.legs_ooa and not fig.overcome:
        yield Action.make(fig.side, "stand", {"role": "other"}, figure=fig.id)


def reload_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    if not fig.overcome and not reload_why_not(state, fig):
        weapon = fig.weapon_in_hand()
        assert weapon is not None
        yield Action.make(fig.side, "reload", {"role": "reload", "loaded": fig.loaded.get(
            fig.slot(), 0), "magazine": weapon.magazine}, figure=fig.id)


def check_reload(state: CqbState, action: Action) -> None:
    fig = _actor(state, action)
    why = reload_why_not(state, fig)
    if why:
        raise IllegalActionError(why)
    if fig.overcome:
        raise IllegalActionError(f"{fig.id} is overcome by gas and must move out first")


def window_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    if not fig.overcome:
        yield from act.window_options(state, fig)


def move_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    yield from act.move_options(state, fig)


def task_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    if not fig.overcome:
        yield from act.task_options(state, fig)


def fire_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    yield from act.fire_options(state, fig)


def throw_options(state: CqbState, fig: Figure) -> Iterator[Action]:
    if not fig.overcome:
        yield from act.throw_options(state, fig)


def check_move(state: CqbState, action: Action) -> None:
    act.check_move(state, _actor(state, action), action)


def check_fire(state: CqbState, action: Action) -> None:
    act.check_fire(state, _actor(state, action), action)


def check_throw(state: CqbState, action: Action) -> None:
    fig = _actor(state, action)
    if fig.overcome:
        raise IllegalActionError(f"{fig.id} is overcome by gas and must move out first")
    act.check_throw(state, fig, action)


def interrupt_options(state: CqbState, side: str) -> Iterator[Action]:
    w = state.windows[-1] if state.windows else None
    if w is None or w.reaction != "interrupt" or side not in w.asked:
        return
    for fid in w.context["eligible"]:
        yield Action.make(side, "interrupt", {"role": "interrupt", "against":
                                              w.context["actor"]}, figure=fid)


def let_pass_options(state: CqbState, side: str) -> Iterator[Action]:
    w = state.windows[-1] if state.windows else None
    if w is not None and w.reaction == "interrupt" and side in w.asked:
        yield Action.make(side, "let-pass", {"role": "pass"})


def resolve(state: CqbState, action: Action, chance: Chance, log: EventLog) -> None:
    turn.begin(state, action, chance, log)


FIGURE = Arg("figure", "figure", help="the figure that acts")
FLOW: Flow[CqbState] = Flow(
    phases=[Phase(ACTIVATE, "single", turn.deciders, ACTIONS,
                  "give one figure its action (section 14)")],
    moves=[
        Move("move", (FIGURE, Arg("mode", "enum", choices=MODES),
                      Arg("path", "cells", max_length=40, help="the cells entered, in order")),
             _each(move_options), resolve, check=check_move,
             groups=_grouped(move_options, act.move_count),
             help="move Crawl/Stealthy 3\", Normal 6\" or Fast 12\" (section 7)"),
        Move("fire", (FIGURE, Arg("target", "figure"),
                      Arg("called", "enum", required=False, choices=CALLED),
                      Arg("count", "int", required=False, minimum=1, maximum=3,
                          help="shots, or bursts for burst and auto fire"),
                      Arg("second", "figure", required=False, help="a second target"),
                      Arg("second_count", "int", required=False, minimum=1, maximum=3)),
             _each(fire_options), resolve, groups=_grouped(fire_options), check=check_fire,
             help="fire up to the weapon's rate (section 8)"),
        Move("aim", (FIGURE, Arg("target", "figure", required=False),
                     Arg("at", "cell", required=False, help="a point: covers figures within 1\"")),
             _each(aim_options), resolve, groups=_grouped(aim_options), check=check_aim,
             help="aim at a target figure or a point for later shots (8.3.2, Q-15)"),
        Move("hold", (FIGURE,), _each(hold_options), resolve, groups=_grouped(hold_options),
             help="pass and go on (or stay on) Hold (section 6)"),
        Move("wait", (FIGURE,), _each(wait_options), resolve, groups=_grouped(wait_options),
             help="do nothing this turn"),
        Move("stand", (FIGURE,), _each(stand_options), resolve, groups=_grouped(stand_options),
             help="stand up (Q-20)"),
        Move("task", (FIGURE, Arg("task", "enum", choices=TASKS),
                      Arg("at", "cell", required=False), Arg("target", "figure",
                                                             required=False)),
             _each(task_options), resolve, groups=_grouped(task_options),
             help="an other action with a test (section 12)"),
        Move("throw", (FIGURE, Arg("grenade", "enum", choices=GRENADES), Arg("at", "cell")),
             _each(throw_options), resolve, groups=_grouped(throw_options), check=check_throw,
             help="throw a stun or CS grenade into a room (12.2)"),
        Move("window", (FIGURE, Arg("at", "cell"), Arg("do", "enum", choices=WINDOW_DOINGS)),
             _each(window_options), resolve, groups=_grouped(window_options),
             help="open, close or break a window next to the figure (Q-65)"),
        Move("reload", (FIGURE,), _each(reload_options), resolve, check=check_reload,
             groups=_grouped(reload_options),
             help="put a full magazine in the weapon in hand (option track_ammo, Q-60)"),
        Move("interrupt", (FIGURE,), interrupt_options, None,
             help="try to cut in on the figure in sight (section 14 I)"),
        Move("let-pass", (), let_pass_options, None, help="let the action go on"),
    ],
    reactions=[
        Reaction("interrupt", ("interrupt", "let-pass"), turn.resume_interrupt,
                 "an opposing figure acts in sight of a figure that may interrupt"),
        Reaction("act", ACTIONS, turn.resume_act, "the interrupt won: act now"),
        Reaction("together", ACTIONS, turn.resume_together,
                 "equal cards: declare an action in secret; all resolve together"),
    ],
    phase_of=lambda s: s.phase,
    over=lambda s: s.result is not None,
    windows=lambda s: s.windows,
)
