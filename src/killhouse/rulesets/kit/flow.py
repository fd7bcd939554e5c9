"""The flow kit: a ruleset declares its phases, moves and reaction windows; the kit answers
``pending``, ``legal_actions`` and ``apply`` from them, so a ruleset writes rules, not dispatch.

* A **move** is one kind of action: typed arguments, how its options are listed, how a choice
  is checked and how it resolves.
* A **phase** names who decides now (one side, several at once for secret simultaneous
  orders, or the side whose turn it is) and which moves they may make; ``done``/``advance``
  say what ends it and what follows.
* A **reaction window** pauses a resolution to ask one side or several a question. The
  resolution stores what it needs to go on as plain JSON in the window (so a state with an
  open window copies, hashes and replays like any other); when every asked side has
  answered, the reaction's ``resume`` carries on. Windows nest: a resumption may open another.

A move may also list its actions in **groups** counted before they are made (one figure's
moves, say): ``Flow.legal`` then answers a ``Legal`` sequence whose length is known at once and
which makes a group only when one of its actions is read, so a player that draws one action
at random pays for one group, and ``validate`` makes only the groups whose shared arguments
match the action's. The order is the same as ``legal_actions``'s list, action for action.

Every refusal happens before anything changes: a malformed action (unknown kind, missing or
ill-typed argument) raises ``MalformedActionError``, a well-formed one the rules do not allow
now ``IllegalActionError``; both carry a stable ``code``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, Protocol, TypeVar, overload

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError, MalformedActionError
from killhouse.rulesets.base import JSON, Action, Decision
from killhouse.rulesets.kit.args import Arg, action_schema, check_args

S = TypeVar("S")
#: how many well-formed (kind, arguments) a flow keeps before it starts afresh
WELL_FORMED_LIMIT = 65_536

Options = Callable[[S, str], Iterable[Action]]
Check = Callable[[S, Action], None]
Resolve = Callable[[S, Action, Chance, EventLog], None]
Step = Callable[[S, Chance, EventLog], None]

#: how the deciders of a phase take turns (metadata for faces and bots; the kit enforces
#: that ``single`` and ``alternating`` phases never name more than one side at once)
Shape = Literal["single", "simultaneous", "alternating"]


@dataclass(frozen=True)
class Group:
    """``count`` legal actions of one kind, made by ``make()`` in their listed order only when
    needed; every one of them carries the arguments ``shared`` (``{"figure": "a1"}``), so a
    check of an action with other values there need not make them."""

    count: int
    make: Callable[[], Sequence[Action]]
    shared: Mapping[str, JSON] = field(default_factory=dict)


Groups = Callable[[S, str], Iterable[Group]]
#: every move's groups for a side at once, by kind (``Flow``'s ``listing``)
Listing = Callable[[S, str], Mapping[str, Sequence[Group]]]


class Legal(Sequence[Action]):
    """A side's legal actions in ``legal_actions`` order, made group by group when read.

    ``len`` is known without making any action; reading index ``i`` makes the one group that
    holds it. A group that makes other than the number of actions it counted is a ruleset bug
    and raises ``AssertionError``."""

    def __init__(self, groups: Iterable[Group]) -> None:
        self._groups: list[Group] = [g for g in groups if g.count > 0]
        self._starts: list[int] = []
        total = 0
        for g in self._groups:
            self._starts.append(total)
            total += g.count
        self._total = total
        self._made: dict[int, Sequence[Action]] = {}

    def __len__(self) -> int:
        return self._total

    def group(self, index: int) -> Sequence[Action]:
        """The actions of group ``index``, made once."""
        made = self._made.get(index)
        if made is None:
            g = self._groups[index]
            made = self._made[index] = g.make()
            if len(made) != g.count:
                raise AssertionError(f"a group counted {g.count} actions but made {len(made)}")
        return made

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._total
        if not 0 <= index < self._total:
            raise IndexError("legal action index out of range")
        at = bisect_right(self._starts, index) - 1
        return self.group(at)[index - self._starts[at]]

    def __iter__(self) -> Iterator[Action]:
        for at in range(len(self._groups)):
            yield from self.group(at)


def _eager(actions: Iterable[Action]) -> Group:
    made = tuple(actions)
    return Group(len(made), lambda: made)


@dataclass(frozen=True)
class Move(Generic[S]):
    """One kind of action.

    ``options(state, side)`` lists the legal actions of this kind. When it lists every legal
    action, leave ``check`` out: the kit accepts exactly what it lists. When legal choices are
    too many to list (free text, a route through waypoints), ``options`` lists a useful subset
    and ``check`` raises ``IllegalActionError`` with a reason for anything not allowed.
    ``resolve`` is ``None`` for the answer to a reaction window (the kit records it).
    ``groups``, if given, lists the same actions as ``options`` in the same order, as counted
    groups (see ``Group``); the kit then makes only the groups it reads.
    """

    kind: str
    args: tuple[Arg, ...]
    options: Options[S]
    resolve: Resolve[S] | None
    check: Check[S] | None = None
    why_not: Callable[[S, Action], str] | None = None
    help: str = ""
    groups: Groups[S] | None = None

    def listed(self, state: S, side: str) -> Iterable[Group]:
        """This kind's legal actions for ``side`` as groups (one eager group without
        ``groups``)."""
        if self.groups is not None:
            return self.groups(state, side)
        return (_eager(self.options(state, side)),)

    def schema(self) -> dict[str, JSON]:
        return action_schema(self.kind, self.args, self.help)


@dataclass(frozen=True)
class Phase(Generic[S]):
    """A stretch of play in which the same sides decide among the same moves.

    ``deciders(state)`` names who must decide now. After each resolved action, while ``done``
    holds, ``advance`` runs the automatic steps that follow and moves the state on.
    """

    name: str
    shape: Shape
    deciders: Callable[[S], Iterable[str]]
    moves: tuple[str, ...]
    prompt: str | Callable[[S], str] = ""
    done: Callable[[S], bool] | None = None
    advance: Step[S] | None = None

    def prompt_for(self, state: S) -> str:
        return self.prompt(state) if callable(self.prompt) else self.prompt


@dataclass
class Window:
    """A resolution paused to ask ``asked`` a question (all at once, secretly from each other).

    ``context`` is what resumption needs, as JSON; ``answers`` fill in as the sides answer.
    """

    reaction: str
    asked: tuple[str, ...]
    context: dict[str, JSON] = field(default_factory=dict)
    answers: dict[str, Action] = field(default_factory=dict)

    def waiting(self) -> tuple[str, ...]:
        return tuple(s for s in self.asked if s not in self.answers)

    def to_json(self) -> dict[str, JSON]:
        return {
            "reaction": self.reaction,
            "asked": list(self.asked),
            "context": self.context,
            "answers": {s: a.to_json() for s, a in sorted(self.answers.items())},
        }


@dataclass(frozen=True)
class Reaction(Generic[S]):
    """A question a resolution may ask: the moves that answer it and how play resumes."""

    name: str
    answers: tuple[str, ...]
    resume: Callable[[S, Window, Chance, EventLog], None]
    prompt: str | Callable[[S, Window], str] = ""

    def prompt_for(self, state: S, window: Window) -> str:
        return self.prompt(state, window) if callable(self.prompt) else self.prompt


class HasWindows(Protocol):
    """A state the kit can pause: it carries its open reaction windows, innermost last."""

    windows: list[Window]


class Flow(Generic[S]):
    """A ruleset's declared flow, and the decision loop run from it.

    ``listing(state, side)``, if given, answers every move's groups for ``side`` at once, by
    kind, exactly as each move's ``listed`` would (a kind left out has none): a ruleset that
    builds a side's legal actions in one pass hands them over in one call, not one per kind.
    """

    def __init__(
        self,
        *,
        phases: Sequence[Phase[S]],
        moves: Sequence[Move[S]],
        phase_of: Callable[[S], str],
        over: Callable[[S], bool],
        reactions: Sequence[Reaction[S]] = (),
        windows: Callable[[S], list[Window]] | None = None,
        after: Step[S] | None = None,
        listing: Listing[S] | None = None,
    ) -> None:
        self.phases = {p.name: p for p in phases}
        self.moves = {m.kind: m for m in moves}
        self.reactions = {r.name: r for r in reactions}
        self.phase_of = phase_of
        self.over = over
        self._windows = windows
        self.after = after
        self.listing = listing
        #: (kind, arguments) of actions already found well formed (``_check_form``)
        self._well_formed: set[tuple[str, tuple[tuple[str, JSON], ...]]] = set()
        for p in phases:
            unknown = [k for k in p.moves if k not in self.moves]
            if unknown:
                raise ValueError(f"phase {p.name!r} names undeclared moves {unknown}")
        for r in reactions:
            unknown = [k for k in r.answers if k not in self.moves]
            if unknown:
                raise ValueError(f"reaction {r.name!r} names undeclared moves {unknown}")
        if reactions and windows is None:
            raise ValueError("a flow with reactions needs ``windows`` (where the state keeps them)")

    # -- where we are ------------------------------------------------------------------
    def windows(self, state: S) -> list[Window]:
        return self._windows(state) if self._windows is not None else []

    def window(self, state: S) -> Window | None:
        """The innermost open reaction window, if resolution is paused."""
        open_ = self.windows(state)
        return open_[-1] if open_ else None

    def phase(self, state: S) -> Phase[S]:
        name = self.phase_of(state)
        phase = self.phases.get(name)
        if phase is None:
            raise IllegalActionError(f"no decisions are taken in the {name!r} step")
        return phase

    def active_moves(self, state: S) -> tuple[str, ...]:
        window = self.window(state)
        if window is not None:
            return self.reactions[window.reaction].answers
        return self.phase(state).moves

    # -- the protocol ------------------------------------------------------------------
    def deciding(self, state: S) -> tuple[str, ...]:
        """The sides ``pending`` names, without its prompts: what a listing or a check asks
        at every action, where a prompt is formatted for nobody."""
        if self.over(state):
            return ()
        window = self.window(state)
        if window is not None:
            return window.waiting()
        return tuple(self.phase(state).deciders(state))

    def pending(self, state: S) -> tuple[Decision, ...]:
        if self.over(state):
            return ()
        window = self.window(state)
        if window is not None:
            reaction = self.reactions[window.reaction]
            prompt = reaction.prompt_for(state, window)
            return tuple(Decision(s, reaction.name, prompt) for s in window.waiting())
        phase = self.phase(state)
        sides = tuple(phase.deciders(state))
        if phase.shape != "simultaneous" and len(sides) > 1:
            raise AssertionError(f"{phase.shape} phase {phase.name!r} names {sides}")
        prompt = phase.prompt_for(state)
        return tuple(Decision(s, phase.name, prompt) for s in sides)

    def legal_actions(self, state: S, side: str) -> list[Action]:
        if side not in self.deciding(state):
            return []
        out: list[Action] = []
        if self.listing is not None:
            by_kind = self.listing(state, side)
            for kind in self.active_moves(state):
                for group in by_kind.get(kind, ()):
                    out.extend(group.make())
            return out
        for kind in self.active_moves(state):
            out.extend(self.moves[kind].options(state, side))
        return out

    def legal(self, state: S, side: str) -> Legal:
        """``legal_actions`` as a ``Legal`` sequence: counted at once, made when read."""
        if side not in self.deciding(state):
            return Legal(())
        groups: list[Group] = []
        if self.listing is not None:
            by_kind = self.listing(state, side)
            for kind in self.active_moves(state):
                groups.extend(by_kind.get(kind, ()))
            return Legal(groups)
        for kind in self.active_moves(state):
            groups.extend(self.moves[kind].listed(state, side))
        return Legal(groups)

    def validate(self, state: S, action: Action) -> Move[S]:
        """The move ``action`` makes, once it is known to be well formed and legal now.

        First whether its side is to decide (the engine leaves this check to the kit, so the
        message is the engine's), then whether it is well formed, then whether it is legal."""
        waiting = self.deciding(state)  # nobody once the game is over
        if action.side not in waiting:
            who = ", ".join(waiting) if waiting else "nobody (the game is over)"
            raise IllegalActionError(
                f"side {action.side!r} is not to decide now; waiting for {who}"
            )
        move = self.moves.get(action.kind)
        if move is None:
            known = ", ".join(sorted(self.moves))
            raise MalformedActionError(f"no action {action.kind!r} (actions: {known})")
        self._check_form(move, action)
        active = self.active_moves(state)
        if action.kind not in active:
            raise IllegalActionError(
                f"{action.kind!r} is not possible now ({self._where(state)}); "
                f"possible: {', '.join(active)}"
            )
        if move.check is not None:
            move.check(state, action)
        elif not self._listed(move, state, action):
            reason = move.why_not(state, action) if move.why_not else ""
            raise IllegalActionError(reason or f"{action} is not a legal choice now")
        return move

    def _check_form(self, move: Move[S], action: Action) -> None:
        """``check_args`` once per kind and arguments: whether an action is well formed
        depends on nothing else, and a game checks the same few hundred again and again."""
        key = (action.kind, action.args)
        try:
            if key in self._well_formed:
                return
        except TypeError:  # arguments left unfrozen (a list): checked, never kept
            check_args(action.kind, move.args, dict(action.args))
            return
        check_args(action.kind, move.args, dict(action.args))
        if len(self._well_formed) >= WELL_FORMED_LIMIT:
            self._well_formed.clear()
        self._well_formed.add(key)

    @staticmethod
    def _listed(move: Move[S], state: S, action: Action) -> bool:
        """Whether ``move`` lists ``action`` now, making only the groups whose shared
        arguments ``action`` has."""
        if move.groups is None:
            return action in move.options(state, action.side)
        args = dict(action.args)
        for group in move.groups(state, action.side):
            if all(args.get(k) == v for k, v in group.shared.items()):
                made = group.make()
                # an action taken from the listing is one of its objects: found by identity
                # before any is compared field by field
                if any(listed is action for listed in made) or action in made:
                    return True
        return False

    def apply(self, state: S, action: Action, chance: Chance, log: EventLog) -> None:
        """Validate (nothing changes on a refusal), then resolve and run what follows."""
        move = self.validate(state, action)
        window = self.window(state)
        if window is not None:
            window.answers[action.side] = action
            if not window.waiting():
                self.windows(state).pop()
                self.reactions[window.reaction].resume(state, window, chance, log)
        else:
            assert move.resolve is not None, f"move {move.kind!r} answers windows only"
            move.resolve(state, action, chance, log)
        self.settle(state, chance, log)

    def settle(self, state: S, chance: Chance, log: EventLog) -> None:
        """After a resolution: the ``after`` hook, then phases that are done advance."""
        if self.after is not None:
            self.after(state, chance, log)
        while not self.over(state) and self.window(state) is None:
            phase = self.phases.get(self.phase_of(state))
            if phase is None or phase.done is None or not phase.done(state):
                return
            if phase.advance is None:
                raise AssertionError(f"phase {phase.name!r} is done but has no ``advance``")
            phase.advance(state, chance, log)
            if self.after is not None:
                self.after(state, chance, log)

    def open(self, state: S, reaction: str, asked: Iterable[str], context: dict[str, JSON]) -> None:
        """Pause resolution: ask ``asked`` the question ``reaction``; ``context`` is JSON.

        The caller returns straight after; the reaction's ``resume`` goes on later. The kit
        emits nothing: what the asked and the other sides are told is the ruleset's choice.
        """
        if reaction not in self.reactions:
            raise ValueError(f"no reaction {reaction!r} declared")
        sides = tuple(asked)
        if not sides:
            raise ValueError("a reaction window must ask at least one side")
        self.windows(state).append(Window(reaction, sides, dict(context)))

    # -- for faces ---------------------------------------------------------------------
    def schemas(self) -> dict[str, dict[str, JSON]]:
        """Every move kind's argument schema, by kind."""
        return {kind: move.schema() for kind, move in sorted(self.moves.items())}

    def describe(self) -> dict[str, JSON]:
        """The declared flow as data: phases with their moves, reactions with their answers."""
        return {
            "phases": [
                {"name": p.name, "shape": p.shape, "moves": list(p.moves)}
                for p in self.phases.values()
            ],
            "reactions": [
                {"name": r.name, "answers": list(r.answers)} for r in self.reactions.values()
            ],
        }

    def _where(self, state: S) -> str:
        window = self.window(state)
        if window is not None:
            return f"answering {window.reaction!r}"
        return f"the {self.phase_of(state)} step"


def windows_json(windows: Sequence[Window]) -> list[Mapping[str, JSON]]:
    """Open windows for a snapshot (umpire's state and state hashes)."""
    return [w.to_json() for w in windows]


def own_question(windows: Sequence[Window], side: str) -> dict[str, JSON] | None:
    """What ``side`` may know of the innermost window: that it is asked, and its own answer.

    Other sides' answers stay secret until the reaction resolves; whom else it asks is left
    out, since that can tell who sees whom.
    """
    if not windows:
        return None
    window = windows[-1]
    if side not in window.asked:
        return None
    mine = window.answers.get(side)
    return {"reaction": window.reaction, "answered": None if mine is None else mine.to_json()}

