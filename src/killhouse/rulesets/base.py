"""The one small protocol through which the engine drives every ruleset.

The loop is a series of decision points (the OpenSpiel idea): ``pending`` names the
side or sides that must decide now (several at once for simultaneous secret orders),
``legal_actions`` lists what a side may choose, ``apply`` validates and resolves one
action. A ruleset never draws randomness itself: it asks the ``Chance`` it is given.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

from killhouse.core.chance import Chance
from killhouse.core.events import Event, EventLog
from killhouse.core.layers import LayerSpec
from killhouse.roster.rules import RosterRules
from killhouse.scenario.model import Issue, Scenario

JSON = Any


_SCALARS = frozenset({str, int, float, bool, type(None)})
_NEW = object.__new__


def _freeze(value: JSON) -> JSON:
    """JSON as hashable tuples (actions are compared and hashed; cells are the common case)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:
        for v in value:
            if type(v) not in _SCALARS:
                return tuple(_freeze(v) for v in value)
        return tuple(value)  # flat (a cell, a list of ids): the common case, built at once
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: JSON) -> JSON:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class Action:
    """A choice a side makes: a kind and JSON arguments (``hint`` advises bots only)."""

    side: str
    kind: str
    args: tuple[tuple[str, JSON], ...] = ()
    hint: Mapping[str, JSON] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def make(
        cls, side: str, kind: str, hint: Mapping[str, JSON] | None = None, **args: JSON
    ) -> Action:
        # legal actions are built by the thousand: scalars skip the freezing call
        frozen: list[tuple[str, JSON]] = []
        for k in sorted(args) if len(args) > 1 else args:
            v = args[k]
            if v is None:
                continue
            frozen.append((k, v if type(v) in _SCALARS else _freeze(v)))
        # the frozen dataclass's __init__ sets each field through object.__setattr__ (the most
        # of an action's cost); filling the instance dict gives the same value
        action = _NEW(cls)
        action.__dict__.update(
            side=side, kind=kind, args=tuple(frozen), hint=dict(hint) if hint else {}
        )
        return action

    @classmethod
    def frozen(
        cls, side: str, kind: str, args: tuple[tuple[str, JSON], ...], hint: dict[str, JSON]
    ) -> Action:
        """An action from arguments already in ``make``'s form (sorted by name, frozen to
        tuples), taking ``hint`` as it is: for rulesets that list moves by the thousand."""
        action = _NEW(cls)
        action.__dict__.update(side=side, kind=kind, args=args, hint=hint)
        return action

    def get(self, key: str, default: JSON = None) -> JSON:
        for k, v in self.args:
            if k == key:
                return v
        return default

    def to_json(self) -> dict[str, JSON]:
        return {"side": self.side, "kind": self.kind, **{k: _thaw(v) for k, v in self.args}}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Action:
        args = {k: v for k, v in data.items() if k not in ("side", "kind")}
        return cls.make(str(data["side"]), str(data["kind"]), **args)

    def __str__(self) -> str:
        args = " ".join(f"{k}={_thaw(v)}" for k, v in self.args)
        return f"{self.side}: {self.kind} {args}".rstrip()


@dataclass(frozen=True)
class Decision:
    """One side that must decide now, and what about (``kind``: orders, activation, fire …)."""

    side: str
    kind: str
    prompt: str = ""


@dataclass(frozen=True)
class Result:
    """How a game ended: the winning side (``None`` for a draw) and why.

    ``winners`` names every winning side when there are several (games of three or more
    sides); it defaults to ``(winner,)``, and ``winner`` is ``None`` unless exactly one won.
    """

    winner: str | None
    reason: str
    details: Mapping[str, JSON] = field(default_factory=dict)
    winners: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.winners and self.winner is not None:
            object.__setattr__(self, "winners", (self.winner,))
        elif self.winners and self.winner is None and len(self.winners) == 1:
            object.__setattr__(self, "winner", self.winners[0])
        if self.winner is not None and self.winners != (self.winner,):
            raise ValueError(f"winner {self.winner!r} but winners {self.winners!r}")

    @classmethod
    def shared(cls, winners: tuple[str, ...], reason: str, **details: JSON) -> Result:
        """A result naming any number of winners (none is a draw for everyone)."""
        return cls(None, reason, dict(details), tuple(winners))

    def to_json(self) -> dict[str, JSON]:
        out = {"winner": self.winner, "reason": self.reason, **dict(self.details)}
        if len(self.winners) > 1:  # one or no winner: the record stays as it always was
            out["winners"] = list(self.winners)
        return out


@dataclass(frozen=True)
class Param:
    """One parameter of a named roll, as the CLI's ``--name value`` takes it."""

    name: str
    type: type
    default: JSON = None
    help: str = ""
    choices: tuple[str, ...] = ()
    #: the smallest and largest value the rules allow (whole numbers; ``None``: no bound)
    min: int | None = None
    max: int | None = None


@dataclass(frozen=True)
class RollSpec:
    """A named roll of a ruleset (a shot, a lock pick …) run through the real resolution code.

    ``resolve`` takes a chance source and the parameters and returns the outcome name.
    """

    name: str
    help: str
    params: tuple[Param, ...]
    resolve: Callable[[Chance, Mapping[str, JSON]], str]


TurnShape = Literal["phased", "simultaneous", "alternating", "reaction"]


@dataclass(frozen=True)
class GameInfo:
    """What the engine, bots and faces may know of a ruleset before a game starts.

    ``turn_shapes`` names the kinds of decision point the game has (OpenSpiel's game type, in
    our words); ``roles`` the side roles a scenario casts; ``seats_per_side`` how many players
    may share a side, each with a seat of their own where the ruleset keeps per-player views;
    ``unit`` the length of one cell; ``sight`` which line-of-sight rule decides play (K-1):
    the one place a ruleset names it, and the mode its sight tests pass to the core.
    """

    turn_shapes: tuple[TurnShape, ...]
    imperfect_information: bool
    roles: tuple[str, ...]
    unit: str
    seats_per_side: tuple[int, int] = (1, 1)
    min_sides: int = 2
    max_sides: int = 2
    sight: Literal["exact", "supercover"] = "exact"

    def to_json(self) -> dict[str, JSON]:
        return {
            "turn_shapes": list(self.turn_shapes),
            "imperfect_information": self.imperfect_information,
            "roles": list(self.roles),
            "unit": self.unit,
            "seats_per_side": list(self.seats_per_side),
            "sides": [self.min_sides, self.max_sides],
            "sight": self.sight,
        }


S = TypeVar("S")


class Ruleset(ABC, Generic[S]):
    """The rules of one game. State is the ruleset's own mutable object of type ``S``."""

    id: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str]
    #: extra scenario keys this ruleset accepts, per section: "figure", "object", "side"
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = {}
    #: metadata for the engine, bots and faces (``None`` until a ruleset declares it)
    info: ClassVar[GameInfo | None] = None
    #: per-cell layers the map legend may set (elevation, terrain kind, edge flags …)
    layers: ClassVar[Mapping[str, LayerSpec]] = {}
    #: whether ``apply`` itself refuses a side that is not pending, first and with the engine's
    #: message ("side 'x' is not to decide now; waiting for …"): the engine then skips its own
    #: check, which would ask ``pending`` a second time for every action
    checks_turn: ClassVar[bool] = False

    # -- scenarios -------------------------------------------------------------------
    @abstractmethod
    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        """Ruleset-specific problems of a parsed scenario (cards, points, objectives, options)."""

    @abstractmethod
    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> S:
        """The state at the first decision point (setup rolls, if any, go through ``chance``)."""

    # -- the loop ---------------------------------------------------------------------
    @abstractmethod
    def pending(self, state: S) -> tuple[Decision, ...]:
        """Who must decide now; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, side: str) -> list[Action]:
        """Every action ``side`` may take now (empty if it is not pending)."""

    def legal(self, state: S, side: str) -> Sequence[Action]:
        """``legal_actions`` as a sequence that may make its actions only when read (the kit's
        ``Legal``): the same actions in the same order, its length known at once. A random
        player that draws one index reads one action; bots that need every action call
        ``legal_actions``."""
        return self.legal_actions(state, side)

    @abstractmethod
    def apply(self, state: S, action: Action, chance: Chance, log: EventLog) -> None:
        """Validate, then resolve. Raise ``IllegalActionError`` before changing anything."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else ``None``."""

    # -- information ------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, side: str) -> dict[str, JSON]:
        """What ``side`` knows now, JSON-serializable. Must name nothing the side cannot know.

        Keys every ruleset provides: ``side``, ``turn``, ``figures`` (own, full state),
        ``seen`` (others in sight now), ``remembered`` (last seen where and when),
        ``sounds`` (directions), ``goals`` (cells the mission draws the side to), ``public``.
        """

    @abstractmethod
    def known_ids(self, state: S, side: str) -> frozenset[str]:
        """Ids of figures and objects ``side`` may name now: its own, and those it has sighted."""

    def secret_ids(self, state: S, side: str) -> frozenset[str]:
        """Ids of figures and objects ``side`` must never learn of unless ``known_ids`` says so."""
        return frozenset()

    @abstractmethod
    def snapshot(self, state: S) -> dict[str, JSON]:
        """The full true state as JSON (umpire view, state hashes)."""

    def umpire_extras(self, state: S) -> dict[str, JSON]:
        """What the umpire's boards (text and web) draw besides the snapshot, kept out of it
        so that state hashes stay as they were (commando: the weapons on the ground); the
        server sends it to the umpire's seat alone (ruling W-19); empty here."""
        return {}

    def invariants(self, state: S) -> list[str]:
        """Broken invariants of ``state`` (empty if all hold); tests check after every step."""
        return []

    def sides(self, state: S) -> tuple[str, ...]:
        """The side ids of this game, in scenario order."""
        return tuple(self.snapshot(state).get("sides", ()))

    def casualties(self, state: S) -> dict[str, int]:
        """Figures out of the fight per side, for batch summaries."""
        return {}

    def narrate(self, event: Event) -> str | None:
        """One line of plain text for an event in a printed game, or ``None`` to leave it out."""
        fields = " ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind} {fields}".rstrip()

    def rolls(self) -> Mapping[str, RollSpec]:
        """The named rolls umpires may ask odds for (``killhouse odds RULESET ROLL``)."""
        return {}

    def campaign(self) -> RosterRules | None:
        """The ruleset's campaign rules for ``killhouse roster`` (``None``: no campaign)."""
        return None

    def schemas(self) -> dict[str, dict[str, JSON]]:
        """The JSON Schema of every action kind's arguments, by kind (empty if undeclared)."""
        return {}

    def describe(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"id": self.id, "title": self.title, "source": self.source}
        if self.info is not None:
            out["info"] = self.info.to_json()
        return out

