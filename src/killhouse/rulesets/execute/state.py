"""The true state of one game of Execute: figures, devices, bombs, turn, what each side knows."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from functools import lru_cache
from itertools import count
from typing import Any, ClassVar, Literal

from killhouse.core.board import Board
from killhouse.core.cells import Cell, cell_json
from killhouse.rulesets.base import Result
from killhouse.rulesets.execute.rolls import effective
from killhouse.rulesets.execute.tables import Card


class Kind(StrEnum):
    """What a figure is: an FBI agent, a terrorist, or a hostage (nobody's, E-30)."""

    AGENT = "agent"
    TERRORIST = "terrorist"
    HOSTAGE = "hostage"


class Status(StrEnum):
    """A figure's status (digest 2.4): on its feet, down (5.5, E-15), dead, or off the map."""

    ACTIVE = "active"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"
    EXTRACTED = "extracted"
    RELEASED = "released"


#: a weapon id of the equipment table (E-11)
WeaponId = Literal["pistol", "smg", "sniper"]
#: what a device is (E-19): a lock on a door, a camera, an alarm, the power
DeviceType = Literal["lock", "camera", "alarm", "power"]
#: how a bomb goes off (E-23), and where it stands
BombMode = Literal["timer", "remote"]
BombState = Literal["armed", "disarmed", "exploded"]

AGENT, TERRORIST, HOSTAGE = Kind.AGENT, Kind.TERRORIST, Kind.HOSTAGE
ACTIVE, INCAPACITATED, DEAD = Status.ACTIVE, Status.INCAPACITATED, Status.DEAD
EXTRACTED, RELEASED = Status.EXTRACTED, Status.RELEASED
def weapon_id(value: object) -> WeaponId:
    """A weapon id checked against the equipment table (E-11)."""
    if value == "pistol" or value == "smg" or value == "sniper":
        return value
    raise ValueError(f"no weapon {value!r}")


#: statuses of figures taken off the map (extracted or released hostages)
REMOVED = frozenset({EXTRACTED, RELEASED})

#: the phases of the game, in order (digest section 6)
SETUP, NEGOTIATION, PLANNING = "setup", "negotiation", "planning"
TURN_START, GRENADES, TASKS, MOVEMENT, FIRING, OVER = (
    "turn-start",
    "grenades",
    "tasks",
    "movement",
    "firing",
    "over",
)
COMBAT_PHASES: tuple[str, ...] = (GRENADES, TASKS, MOVEMENT, FIRING)


#: write stamps (``Figure.stamp``): each write to a figure takes the next number, so no two
#: writes in this process share one (``next`` on a ``count`` is atomic: threads too)
_STAMPS = count(1)
#: the newest ``stamp`` any figure took (``newest_stamp``)
_NEWEST = [0]


def newest_stamp() -> int:
    """The newest ``Figure.stamp`` taken in this process: equal readings mean no figure
    anywhere took a stamp in between (a write that could change how it is seen, or a copy)."""
    return _NEWEST[0]
#: the fields that take a figure on or off the map, or off its feet, or to a side: a write to
#: one stamps the figure wherever it is (any write stamps a figure on the map)
_PLACING = frozenset({"pos", "status", "side"})


@dataclass
class Figure:
    """One person: an FBI agent, a terrorist or a hostage (digest 2.4).

    Every write that could change how the figure is seen, and every copy, stamps it with a
    number no other write in the process gets (``stamp``, not a field: not compared, hashed
    or shown): a write to a figure on the map, or to where it is, whether it is on its feet
    and whose it is (``_PLACING``). The figures' stamps are the same exactly when no figure
    was written so since they were read: the sight refresh tells that at a glance
    (``vision.refresh``), and an off-map agent's loadout in planning leaves them."""

    stamp: ClassVar[int] = 0
    #: like ``stamp``, taken at every write wherever the figure is: a figure's written
    #: number is the same exactly when none of its fields was written since it was read (a
    #: view keeps each figure's JSON under it)
    written: ClassVar[int] = 0

    id: str
    kind: Kind
    side: str | None
    card: Card
    name: str
    weapon: WeaponId | None = None
    armour: int = 0
    armour_used: bool = False
    damage: int = 0
    grenades: int = 0
    pos: Cell | None = None
    status: Status = ACTIVE
    leader: str | None = None
    claim_seq: int = 0
    custom: bool = False

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        number = next(_STAMPS)
        object.__setattr__(self, "written", number)
        if name in _PLACING or self.__dict__.get("pos") is not None:
            object.__setattr__(self, "stamp", number)
            _NEWEST[0] = number

    @classmethod
    def made(cls, **values: Any) -> Figure:
        """A figure built in one step: every field written at once (the defaults where
        ``values`` leaves them out), with one number for both stamps. The dataclass's own
        ``__init__`` writes, and stamps, field by field; a game builds dozens of figures."""
        missing = _REQUIRED - values.keys()
        unknown = values.keys() - _FIELD_DEFAULTS.keys()
        if missing or unknown:
            raise TypeError(f"Figure fields missing {sorted(missing)}, unknown {sorted(unknown)}")
        figure = cls.__new__(cls)
        figure.__setstate__({name: values.get(name, default)
                             for name, default in _FIELD_DEFAULTS.items()})
        return figure

    def __setstate__(self, fields: dict[str, Any]) -> None:
        """A copy (``copy``, ``pickle``) gets a stamp of its own: one made in another
        process could repeat a number of this one's."""
        self.__dict__.update(fields)
        number = _NEWEST[0] = next(_STAMPS)
        object.__setattr__(self, "stamp", number)
        object.__setattr__(self, "written", number)

    @property
    def vitality_left(self) -> int:
        return self.card.vitality - self.damage

    @property
    def active(self) -> bool:
        """Alive, not incapacitated, not removed (off-map agents count, digest conventions)."""
        return self.status == ACTIVE

    @property
    def on_map(self) -> bool:
        return self.pos is not None and self.status not in REMOVED

    @property
    def alive(self) -> bool:
        return self.status in (ACTIVE, INCAPACITATED)

    def skill(self, name: str) -> int:
        """Effective Firearms, Grenades or Electronics after wounds (ruling E-14)."""
        return effective(self.card.stat(name), self.damage)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "side": self.side,
            "name": self.name,
            "card": self.card.to_json(),
            "weapon": self.weapon,
            "armour": self.armour,
            "armour_used": self.armour_used,
            "damage": self.damage,
            "vitality_left": self.vitality_left,
            "skills": {  # SKILLS, written out: every view lists every figure
                "firearms": effective(self.card.firearms, self.damage),
                "grenades": effective(self.card.grenades, self.damage),
                "electronics": effective(self.card.electronics, self.damage),
            },
            "grenades_left": self.grenades,
            "at": cell_json(self.pos),
            "status": self.status,
            "leader": self.leader,
        }


@lru_cache(maxsize=256)
def sorted_cells(cells: frozenset[Cell]) -> tuple[Cell, ...]:
    """A fixed set of squares in order, sorted once (a device's covers go into every view)."""
    return tuple(sorted(cells))


#: every field of a figure in order, with its default (``Figure.made``; None where required)
_FIELD_DEFAULTS: dict[str, Any] = {
    f.name: None if f.default is MISSING else f.default for f in fields(Figure)
}
#: the fields a figure cannot be made without
_REQUIRED = frozenset(f.name for f in fields(Figure) if f.default is MISSING)


@dataclass
class Device:
    """A building device (lock, camera, alarm, power) with its level; public (ruling E-20)."""

    id: str
    type: DeviceType
    at: Cell
    level: int
    working: bool = True  # a lock that works is a locked door
    covers: frozenset[Cell] = frozenset()
    links: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "at": cell_json(self.at),
            "level": self.level,
            "working": self.working,
            "covers": list(map(list, sorted_cells(self.covers))),
            "links": list(self.links),
        }


@dataclass
class Bomb:
    """A terrorist bomb (5.8, ruling E-23): hidden from the FBI until an agent sees its square."""

    id: str
    at: Cell
    level: int
    mode: BombMode
    explode_turn: int | None
    holder: str | None
    state: BombState = "armed"
    seen_by_fbi: bool = False
    #: what the terrorists believe (they learn of a disarm only by seeing it or a dud trigger)
    terrorists_think_armed: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": cell_json(self.at),
            "level": self.level,
            "mode": self.mode,
            "explode_turn": self.explode_turn,
            "holder": self.holder,
            "state": self.state,
            "seen_by_fbi": self.seen_by_fbi,
        }


@dataclass
class Memory:
    """What a side last saw of a figure it does not see now, and where the news came from."""

    id: str
    at: list[int] | None
    turn: int
    source: str  # "seen" | "camera" | "surveillance" | "placed"
    info: dict[str, Any] = field(default_factory=dict)
    #: the opaque name the side knows the figure by when it has never seen it (E-29, E-65)
    handle: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.handle or self.id, "at": self.at, "turn": self.turn,
                "source": self.source, **self.info}


@dataclass
class Options:
    """Scenario options with their defaults (documented in docs/rulesets/execute.md)."""

    open_map: bool = False
    fbi_count: int = 6
    grenades_per_figure: int = 2
    max_armour_level: dict[str, int] = field(default_factory=dict)
    allow_printed_cards: bool = True
    min_timer: int = 5
    bomb_level: int = 6
    default_lock_level: int = 5
    negotiation: bool = True
    max_messages: int = 5
    turn_limit: int = 30
    #: E-33: terrorists draw only from terrorist cards unless the scenario says otherwise
    terrorists_use_fbi_cards: bool = False

    def armour_cap(self, side: str) -> int:
        return self.max_armour_level.get(side, 3)


@dataclass
class ExecuteState:
    """Everything about one game; ``snapshot`` turns it into JSON."""

    board: Board
    fbi: str
    terrorists: str
    options: Options
    figures: dict[str, Figure]
    devices: dict[str, Device]
    bombs: dict[str, Bomb]
    entry: frozenset[Cell]
    extraction: frozenset[Cell]
    hostage_count: int
    #: FBI cards the planning step may still recruit (published ids, or scenario figures benched)
    pool: list[str] = field(default_factory=list)
    benched: dict[str, Figure] = field(default_factory=dict)
    phase: str = SETUP
    turn: int = 0
    order: tuple[str, str] = ("", "")
    slot: int = 0
    acted: set[str] = field(default_factory=set)
    threw_this_slot: bool = False
    #: the agent whose move was the last one of this slot: it may still claim (E-30, E-46)
    last_mover: str | None = None
    negotiation_ended: set[str] = field(default_factory=set)
    messages: dict[str, int] = field(default_factory=dict)
    claim_counter: int = 0
    initiative: list[dict[str, Any]] = field(default_factory=list)
    surveillance: dict[str, Any] = field(default_factory=dict)
    #: per side: figure id -> the opaque handle of a figure known only as a contact (E-65)
    handles: dict[str, dict[str, str]] = field(default_factory=dict)
    #: per side: ids it may name (ever seen, told, or its own)
    known: dict[str, set[str]] = field(default_factory=dict)
    #: per side: the other figures it sees now (as of the last refresh)
    seen: dict[str, set[str]] = field(default_factory=dict)
    #: per side: figure id -> what it last saw where
    memory: dict[str, dict[str, Memory]] = field(default_factory=dict)
    #: per side: door square -> terrain code as last known
    doors: dict[str, dict[Cell, int]] = field(default_factory=dict)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    explosions: list[dict[str, Any]] = field(default_factory=list)
    released: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    conceded: bool = False
    result: Result | None = None
    version: int = 0
    #: what the last sight refresh of each side (``("sight", side)``) and of the hidden bombs
    #: (``("bombs",)``) read and left: ``vision.refresh`` skips one whose inputs are
    #: unchanged; never part of the state's identity
    refreshed: dict[tuple[str, ...], tuple[Any, ...]] = field(default_factory=dict)
    cache: dict[Any, Any] = field(default_factory=dict)
    #: results keyed on everything they are computed from, kept across ``touch()`` (a key
    #: that still matches gives the same answer); never part of the state's identity
    memo: dict[Any, Any] = field(default_factory=dict)

    # -- lookups ---------------------------------------------------------------------------
    def other(self, side: str) -> str:
        return self.terrorists if side == self.fbi else self.fbi

    def side_ids(self) -> tuple[str, str]:
        return (self.fbi, self.terrorists)

    def agents(self) -> list[Figure]:
        return [f for f in self.figures.values() if f.kind == AGENT]

    def terrorist_figures(self) -> list[Figure]:
        return [f for f in self.figures.values() if f.kind == TERRORIST]

    def hostages(self) -> list[Figure]:
        return [f for f in self.figures.values() if f.kind == HOSTAGE]

    def of_side(self, side: str) -> list[Figure]:
        return [f for f in self.figures.values() if f.side == side]

    def acting_side(self) -> str:
        return self.order[self.slot]

    def active_at(self, cell: Cell) -> Figure | None:
        """The active figure standing on ``cell`` (ruling E-4 allows at most one)."""
        for f in self.figures.values():
            if f.pos == cell and f.active:
                return f
        return None

    def handle(self, side: str, fid: str) -> str:
        """The opaque name ``side`` knows figure ``fid`` by before it has seen it (ruling E-65):
        ``contact-N``, numbered in the order the side learns of its contacts (the random draw
        order of the surveillance reveal), so it is stable and tells nothing of the id."""
        names = self.handles.setdefault(side, {})
        if fid not in names:
            names[fid] = f"contact-{len(names) + 1}"
        return names[fid]

    def touch(self) -> None:
        """Mark the state changed (drops cached legal actions and visibility)."""
        self.version += 1
        self.cache.clear()
