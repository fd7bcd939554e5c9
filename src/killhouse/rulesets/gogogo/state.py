"""The true state of a game of "Go! Go! Go!": figures, orders, bomb, knowledge, phase.

Everything a team has decided but not yet had resolved (orders, fire declarations,
setup choices) lives here too, in per-side buffers that only the umpire's snapshot
and that side's own view ever read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, Literal

from killhouse.core.board import Board
from killhouse.core.cells import Cell, cell_json

CT: Final = "CT"
T: Final = "T"
OPERATIVE: Final = "operative"
VIP: Final = "vip"
HOSTAGE: Final = "hostage"
#: the kinds that get orders, observe and may fire
FIGHTER_KINDS: Final = (OPERATIVE, VIP)

#: a figure's status (section 2): in play, out of action, rescued hostage, escaped VIP
Status = Literal["active", "ooa", "rescued", "escaped"]
ACTIVE: Final = "active"
OOA: Final = "ooa"
RESCUED: Final = "rescued"
ESCAPED: Final = "escaped"

#: the five postures of 4.1 (G-5, G-11)
Posture = Literal["hold", "hide", "aim", "stealth", "move"]
HOLD: Final = "hold"
HIDE: Final = "hide"
AIM: Final = "aim"
STEALTH: Final = "stealth"
MOVE: Final = "move"
POSTURES: tuple[Posture, ...] = (HOLD, HIDE, AIM, STEALTH, MOVE)
MOVING: frozenset[Posture] = frozenset({STEALTH, MOVE})
STATIONARY: frozenset[Posture] = frozenset({HOLD, HIDE, AIM})

#: what a figure carries (section 2): hostages carry nothing
Weapon = Literal["auto", "sniper", "none"]


def as_posture(value: object) -> Posture | None:
    """``value`` as a posture, or None if it is not one of the five."""
    for posture in POSTURES:
        if value == posture:
            return posture
    return None


def as_weapon(value: object) -> Weapon | None:
    """``value`` as a weapon, or None."""
    for weapon in ("auto", "sniper", "none"):
        if value == weapon:
            return weapon
    return None


THROW = "throw"
PLANT = "plant"
DEFUSE = "defuse"

HOSTAGE_MISSION = "hostage"
DESTRUCTION = "destruction"
ASSASSINATION = "assassination"
MISSIONS = (HOSTAGE_MISSION, DESTRUCTION, ASSASSINATION)

SETUP = "setup"
ORDERS = "orders"
FIRE = "fire"
OVER = "over"

_DIGITS = re.compile(r"(\d+)")


@cache
def id_key(ident: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key for "ascending id" (ruling G-42): natural order, so t2 comes before t10.

    Cached: ids are few and sorting by them is on every hot path."""
    parts: list[tuple[int, int | str]] = []
    for chunk in _DIGITS.split(ident):
        if not chunk:
            continue
        parts.append((0, int(chunk)) if chunk.isdigit() else (1, chunk))
    return tuple(parts)


@dataclass
class Figure:
    """One figure: an operative (CT or T), the VIP or a hostage (per-figure state of section 2)."""

    id: str
    kind: str
    side: str | None  # scenario side id; None for hostages
    team: str | None  # CT or T; None for hostages
    pos: Cell | None
    facing: str = "n"
    wounds: int = 0
    stunned_until: int | None = None
    status: Status = ACTIVE
    weapon: Weapon = "auto"
    loaded: bool = True
    aim_turns: int = 0
    grenades: dict[str, int] = field(default_factory=dict)
    posture: Posture | None = None  # this turn's posture (None before the first orders)
    hiding: bool = False
    plant_progress: int = 0
    defuse_progress: int = 0
    has_bomb: bool = False
    leader: str | None = None  # hostages: who it follows
    join: int = 0  # hostages: when it joined its leader (ruling G-25 order)
    covering: bool = False  # hostages: took cover (ruling G-26)
    moved_as: Posture | None = None  # hostages: STEALTH or MOVE if it moved this turn
    fired: bool = False  # declared a shot this turn
    threw: bool = False  # threw a grenade this turn
    in_danger: bool = False  # hostages: in a burst or shot at this turn (ruling G-26)
    killed_by: str | None = None  # team whose shot or HE took it out of action

    @property
    def active(self) -> bool:
        return self.status == ACTIVE and self.pos is not None

    @property
    def stunned(self) -> bool:
        return self.stunned_until is not None

    @property
    def fighter(self) -> bool:
        """Operatives and the VIP: they get orders, observe and may fire."""
        return self.kind in FIGHTER_KINDS

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "side": self.side,
            "team": self.team,
            "at": cell_json(self.pos),
            "facing": self.facing,
            "wounds": self.wounds,
            "stunned_until": self.stunned_until,
            "status": self.status,
            "weapon": self.weapon,
            "loaded": self.loaded,
            "aim_turns": self.aim_turns,
            "grenades": dict(sorted(self.grenades.items())),
            "posture": self.posture,
            "hiding": self.hiding,
            "plant_progress": self.plant_progress,
            "defuse_progress": self.defuse_progress,
            "has_bomb": self.has_bomb,
            "leader": self.leader,
            "join": self.join,
            "covering": self.covering,
            "moved_as": self.moved_as,
            "fired": self.fired,
            "threw": self.threw,
            "in_danger": self.in_danger,
            "killed_by": self.killed_by,
        }


@dataclass
class Order:
    """One figure's order for a turn (section 4.1)."""

    posture: Posture
    path: list[Cell] = field(default_factory=list)  # cells entered, start excluded
    facing: str | None = None  # None until chosen
    task: str | None = None  # throw | plant | defuse
    grenade: str | None = None
    target: Cell | None = None  # throw target

    @property
    def destination(self) -> Cell | None:
        return self.path[-1] if self.path else None

    def to_json(self) -> dict[str, Any]:
        return {
            "posture": self.posture,
            "path": [cell_json(c) for c in self.path],
            "facing": self.facing,
            "task": self.task,
            "grenade": self.grenade,
            "target": cell_json(self.target),
        }


@dataclass
class Draft:
    """What one side has decided so far in the current simultaneous decision."""

    orders: dict[str, Order] = field(default_factory=dict)
    pending: str | None = None  # figure whose order awaits its throw target or facing
    follows: dict[str, list[str]] = field(default_factory=dict)  # figure -> hostages
    speak: list[str] = field(default_factory=list)  # figures whose players spoke (G-34)
    fire: dict[str, str | None] = field(default_factory=dict)  # figure -> target (None: hold)
    places: dict[str, Cell] = field(default_factory=dict)  # setup placements
    facings: dict[str, str] = field(default_factory=dict)  # setup facings
    loadouts: dict[str, str] = field(default_factory=dict)  # setup: T grenade choices
    weapons: dict[str, str] = field(default_factory=dict)  # setup: CT auto or sniper (G-72)
    carrier: str | None = None  # setup: the bomb carrier
    committed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "orders": {k: v.to_json() for k, v in sorted(self.orders.items())},
            "pending": self.pending,
            "follows": {k: list(v) for k, v in sorted(self.follows.items())},
            "speak": list(self.speak),
            "fire": dict(sorted(self.fire.items())),
            "places": {k: cell_json(v) for k, v in sorted(self.places.items())},
            "facings": dict(sorted(self.facings.items())),
            "loadouts": dict(sorted(self.loadouts.items())),
            "weapons": dict(sorted(self.weapons.items())),
            "carrier": self.carrier,
            "committed": self.committed,
        }


@dataclass
class Bomb:
    """The one bomb of a destruction mission (rulings G-29, G-30)."""

    id: str
    carrier: str | None = None
    pos: Cell | None = None  # where it lies when dropped or planted
    planted: bool = False
    planted_turn: int | None = None
    detonates: int | None = None  # end of this turn
    defused: bool = False
    detonated: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "carrier": self.carrier,
            "at": cell_json(self.pos),
            "planted": self.planted,
            "planted_turn": self.planted_turn,
            "detonates": self.detonates,
            "defused": self.defused,
            "detonated": self.detonated,
        }


@dataclass
class Marker:
    """A FOOTSTEPS or VOICES marker: a listener and a compass sector, never a place (G-33)."""

    kind: str
    listener: str
    direction: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "listener": self.listener, "direction": self.direction}


@dataclass
class Knowledge:
    """What one side knows beyond its own figures (rulings G-9, G-33, G-36, G-44, G-46)."""

    seen: set[str] = field(default_factory=set)  # targets seen in the latest spotting
    sees: dict[str, set[str]] = field(default_factory=dict)  # observer -> targets it sees
    markers: list[Marker] = field(default_factory=list)
    open_doors: set[Cell] = field(default_factory=set)
    bomb_at: Cell | None = None  # CT: where the bomb is known to be
    bomb_seen: bool = False  # CT: the bomb was in sight at the latest spotting

    def to_json(self) -> dict[str, Any]:
        return {
            "seen": sorted(self.seen, key=id_key),
            "sees": {k: sorted(v, key=id_key) for k, v in sorted(self.sees.items())},
            "markers": [m.to_json() for m in self.markers],
            "open_doors": sorted([c.level, c.x, c.y] for c in self.open_doors),
            "bomb_at": cell_json(self.bomb_at),
            "bomb_seen": self.bomb_seen,
        }


@dataclass
class Zones:
    """The mission's zones as cell sets (ruling G-32)."""

    ct_start: frozenset[Cell] = frozenset()
    t_start: frozenset[Cell] = frozenset()
    location: frozenset[Cell] = frozenset()
    rescue: frozenset[Cell] = frozenset()
    bomb_sites: frozenset[Cell] = frozenset()
    escape: frozenset[Cell] = frozenset()


@dataclass
class GoState:
    """The whole true state; ``board`` is this game's own copy (doors open, smoke spreads)."""

    board: Board
    mission: str
    sides: tuple[str, ...]
    team_of: dict[str, str]  # side id -> CT | T
    side_of: dict[str, str]  # CT | T -> side id
    figures: dict[str, Figure]
    zones: Zones
    turn_limit: int
    per_player: bool = False
    turn: int = 0
    phase: str = SETUP
    drafts: dict[str, Draft] = field(default_factory=dict)
    know: dict[str, Knowledge] = field(default_factory=dict)
    seat_know: dict[str, Knowledge] = field(default_factory=dict)  # per-player mode (G-35)
    bomb: Bomb | None = None
    hostages_total: int = 0
    announcements: list[dict[str, Any]] = field(default_factory=list)
    orders: dict[str, Order] = field(default_factory=dict)  # both sides' orders, once resolved
    reports: list[dict[str, Any]] = field(default_factory=list)  # this turn's news, by audience
    join_counter: int = 0
    winner: str | None = None
    reason: str | None = None
    over: bool = False
    details: dict[str, Any] = field(default_factory=dict)
    deploy: dict[str, frozenset[Cell]] = field(default_factory=dict)  # unplaced fig -> zone
    needs_grenade: list[str] = field(default_factory=list)  # T operatives still to choose
    needs_weapon: list[str] = field(default_factory=list)  # CT operatives still to arm (G-72)
    needs_carrier: bool = False  # T must name the bomb carrier at setup
    cache: dict[Any, Any] = field(default_factory=dict, repr=False)  # transient, not state
    # transient too: results keyed on every input they read, kept across steps (orders.py)
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def fig(self, ident: str) -> Figure:
        return self.figures[ident]

    def ordered(self) -> list[Figure]:
        """All figures in ascending id order (ruling G-42)."""
        figures = self.figures
        ids = tuple(figures)
        order = self.cache.get(("ordered", ids))  # the same figures: the same order
        if order is None:
            order = sorted(ids, key=id_key)
            self.cache[("ordered", ids)] = order
        return [figures[k] for k in order]

    def team(self, side: str) -> str:
        return self.team_of[side]

    def enemy_side(self, side: str) -> str:
        return self.side_of[T if self.team_of[side] == CT else CT]

    def side_figures(self, side: str) -> list[Figure]:
        return [f for f in self.ordered() if f.side == side]

    def active_fighters(self, side: str | None = None) -> list[Figure]:
        """Operatives and VIPs in play, in id order (of ``side`` when given): ``active`` and
        ``fighter`` written out, as every step and listing asks."""
        return [
            f
            for f in self.ordered()
            if f.status == ACTIVE
            and f.pos is not None
            and f.kind in FIGHTER_KINDS
            and (side is None or f.side == side)
        ]

    def occupant(self) -> dict[Cell, str]:
        return {f.pos: f.id for f in self.figures.values() if f.active and f.pos is not None}
