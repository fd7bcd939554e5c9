"""The mutable state of a CQB game and its vocabulary (digest section 2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.deck import Deck
from killhouse.rulesets.base import Result
from killhouse.rulesets.cqb.resolve import Protection
from killhouse.rulesets.cqb.tables import Weapon, tables
from killhouse.rulesets.kit import Window
from killhouse.scenario.model import Scenario

#: the neutral side hostages belong to (ruling Q-30); it never decides anything
HOSTAGES = "hostages"
ACTIVATE, OVER = "activate", "over"
EXTRACTION = "extraction"  # the zone hostages are escorted to (ruling Q-66)
Condition = Literal["active", "incapacitated", "dead"]
MODES: tuple[str, ...] = ("crawl", "stealthy", "normal", "fast")
TASKS: tuple[str, ...] = ("kick", "shotgun-breach", "charge", "pick", "climb", "pick-up",
                          "clear-jam", "secure", "restrain", "disarm")
DEVICE_EFFECTS: tuple[str, ...] = ("stun", "cs", "fire")
#: ruling Q-65: stored in the board's ``window`` layer as 0, 1, 2
WINDOW_STATES: tuple[str, ...] = ("closed", "open", "broken")
WINDOW_DOINGS: tuple[str, ...] = ("open", "close", "break")
GRENADES: tuple[str, ...] = ("stun", "cs")


@dataclass(frozen=True)
class Options:
    """The scenario's ``options`` (digest rulings name them ``cqb.<name>``)."""

    luck: bool = False
    fixed_auto_burst: bool = False  # ruling Q-40: the seed's 1dA bursts come first
    armour_knockdown: bool = True  # ruling Q-19
    deck_per_figure: bool = False  # ruling Q-4 (b)
    draw_with_replacement: bool = False  # Q-3 (d), a test option
    bystanders_in_line: bool = False  # ruling Q-32
    cover_modifiers: bool = False  # ruling Q-27
    track_ammo: bool = False  # ruling Q-28: magazines and reloading
    darkness: bool = False  # section 1: in a dark area figures are seen only within 6" (Q-67)
    max_hostage_losses: int | None = None


@dataclass
class Figure:
    """One figure: who it is (section 2) and its running state."""

    id: str
    side: str
    kind: str  # operative or hostage
    ability: str
    at: Cell
    weapon: str | None = None
    sidearm: str | None = None
    soft: bool = False
    plates: bool = False
    helmet: bool = False
    respirator: bool = False
    grenades: dict[str, int] = field(default_factory=dict)
    charges: int = 0
    posture: str = "standing"
    legs_ooa: int = 0
    strong_arm_ooa: bool = False
    weak_arm_ooa: bool = False
    flesh: int = 0
    ooa_hits: int = 0
    condition: Condition = "active"
    stunned_turn: int | None = None
    cs: int = 0  # CS and fire failures: +1 each to every action (section 11, 13)
    overcome: bool = False  # a CS joker: the next action must be a Normal or Fast move
    aim_target: str | None = None
    aim_at: Cell | None = None  # aim at a point (ruling Q-15): covers figures within 1"
    aim_turn: int | None = None
    hold: bool = False
    moved_last: float = 0.0
    mode_last: str | None = None
    moved_now: float = 0.0
    mode_now: str | None = None
    shots: int = 0
    last_target: str | None = None
    fired_turn: int | None = None
    jammed: bool = False
    dropped: bool = False
    acted: bool = False
    passed: bool = False  # chose Hold at its card this turn
    knocked: bool = False  # knocked down during the current action
    card: int | None = None
    card_label: str | None = None
    hesitant: bool = False
    secured_by: str | None = None
    restrained_by: str | None = None  # section 12.1 (ruling Q-63)
    extracted: bool = False  # a hostage escorted into the extraction zone (ruling Q-66)
    panic_from: str | None = None
    lost_tasks: list[str] = field(default_factory=list)
    dead_at_end: bool | None = None
    #: with ``track_ammo``: rounds in the weapon and spare magazines, by slot (main, sidearm)
    loaded: dict[str, int] = field(default_factory=dict)
    spares: dict[str, int] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        """In play and able to act; an extracted hostage has left the fight (Q-66)."""
        return self.condition == "active" and not self.extracted

    @property
    def stunned(self) -> bool:
        return self.stunned_turn is not None

    @property
    def combatant(self) -> bool:
        return self.kind == "operative"

    def can_act(self) -> bool:
        return self.active and not self.stunned

    def wounds(self) -> int:
        """Flesh wounds and non-incapacitating OOA wounds (+1 each, ruling Q-17)."""
        return self.flesh + self.ooa_hits if self.active else 0

    def clear_aim(self) -> None:
        """Ruling Q-15: aim ends (at a figure or at a point)."""
        self.aim_target = None
        self.aim_at = None

    def slot(self) -> str:
        """Which weapon is in hand: ``main``, or ``sidearm`` once the main one is dropped."""
        return "sidearm" if self.dropped else "main"

    def weapon_in_hand(self) -> Weapon | None:
        """The weapon it fires: its main weapon, or its sidearm once the main one is dropped."""
        name = self.sidearm if self.dropped else self.weapon
        return tables().weapons[name] if name else None

    def protection(self) -> Protection:
        return Protection(self.soft, self.plates, self.helmet)

    def one_handed(self) -> bool:
        return self.strong_arm_ooa or self.weak_arm_ooa


@dataclass
class Device:
    """A simple device the scenario places (section 12.1, ruling Q-64): disarmed by a Very
    difficult test; it goes off on a setback or when its timer runs out."""

    id: str
    at: Cell
    effect: str = "stun"
    timer: int | None = None  # the turn at whose upkeep it goes off, if not disarmed
    state: str = "armed"  # armed, disarmed or exploded


@dataclass
class CqbState:
    """The whole game: figures, decks, board, the turn's order and open reaction windows."""

    scenario: Scenario
    board: Board
    options: Options
    sides: tuple[str, ...]
    rescuers: str
    figures: dict[str, Figure]
    decks: dict[str, Deck]
    hostage_deck: Deck
    luck: dict[str, str]
    turn_limit: int
    turn: int = 1
    phase: str = ACTIVATE
    stage: str = "q"
    queue: list[list[str]] = field(default_factory=list)
    n_side: str = ""
    contact: dict[str, list[str]] = field(default_factory=dict)
    running: dict[str, Any] | None = None
    windows: list[Window] = field(default_factory=list)
    result: Result | None = None
    gas: dict[int, int] = field(default_factory=dict)  # room -> deployment turn
    fires: dict[int, int] = field(default_factory=dict)  # room -> turn it started
    jammed_locks: set[Cell] = field(default_factory=set)
    memory: dict[str, dict[str, tuple[Cell, int]]] = field(default_factory=dict)
    sounds: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    visible: dict[str, frozenset[str]] = field(default_factory=dict)
    #: line of sight whatever the light (ruling Q-67: darkness hides, it does not stop rounds)
    in_los: dict[str, frozenset[str]] = field(default_factory=dict)
    rooms: dict[Cell, int] = field(default_factory=dict)
    open_rooms: frozenset[int] = frozenset()
    devices: dict[str, Device] = field(default_factory=dict)
    #: what ``visible`` and ``in_los`` were computed from (a cache, not part of the game)
    sight_key: Any = field(default=None, compare=False, repr=False)

    def deck_of(self, fig: Figure) -> Deck:
        return self.decks[deck_key(self.options, fig)]

    def side_figures(self, side: str) -> list[Figure]:
        return [f for f in self.figures.values() if f.side == side]

    def opponent(self, side: str) -> str:
        return next(s for s in self.sides if s != side)


def deck_key(options: Options, fig: Figure) -> str:
    """One deck per (side, ability) (ruling Q-4), or per figure with ``deck_per_figure``.

    Every ability deck's key, which is also its name, starts with its side: what a draw's
    audience is narrowed by (ruling W-12, ``cards.deck_owner``)."""
    if options.deck_per_figure:
        return f"{fig.side}:figure:{fig.id}"
    return f"{fig.side}:{fig.ability}"
