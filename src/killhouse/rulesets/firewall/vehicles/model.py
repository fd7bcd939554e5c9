"""A vehicle's state in play (§17, §21.1 "per vehicle"): its crew positions, mounts,
passengers, footprint and facing (ruling K-11)."""

from __future__ import annotations

from dataclasses import dataclass, field

from killhouse.core.cells import Cell
from killhouse.core.footprint import footprint

ACTIVE, DESTROYED, EXITED, RESERVE = "active", "destroyed", "exited", "reserve"
#: crew roles that fire a vehicle's weapons (§17.3: a copilot who is not a gunner fires none)
FIRERS = frozenset({"driver", "gunner", "copilot_gunner", "pintle"})


@dataclass
class Mount:
    """One weapon mount (§17.6): a hard point with its arc, a turret, or a pintle."""

    id: str
    weapon: str
    kind: str
    arc: str | None = None
    #: "ready" | "jammed" | "useless" (§11)
    state: str = "ready"
    fired: bool = False


@dataclass
class Crew:
    """One crew position (§17.8): the driver moves and fires, gunners fire; a failed roll
    stops the position for the Turn."""

    role: str
    move_used: bool = False
    combat_used: bool = False
    failed: bool = False
    #: a pintle gunner shot down (ruling F-158): the position is gone for the game
    out: bool = False

    @property
    def moves(self) -> bool:
        return self.role == "driver"


@dataclass
class Vehicle:
    """A vehicle and its crew as one Fire Team of its own (ruling F-47)."""

    id: str
    side: str
    team: str
    name: str
    chassis: str
    armour: str
    surface: str
    rate: str
    experience: str
    drive: int
    gutz: int
    start_gutz: int
    anchor: tuple[int, int]
    facing: str
    length: int
    width: int
    level: int = 0
    crew: list[Crew] = field(default_factory=list)
    mounts: list[Mount] = field(default_factory=list)
    capacity: int = 0
    #: passenger figure -> its standing when it embarked (active or incapacitated)
    passengers: dict[str, str] = field(default_factory=dict)
    status: str = ACTIVE
    moved_last_turn: bool = False
    moved_this_turn: bool = False
    #: a passenger embarked or disembarked this Turn: no more movement (§17.3)
    transfer_this_turn: bool = False
    #: the terrain under the footprint while it stands there (ruling F-141)
    under: dict[tuple[int, int], int] = field(default_factory=dict)
    #: the Turn a vehicle held off the table arrives (§18.2), with its passengers aboard
    arrives: int | None = None
    #: an arrival still to roll at the first upkeep: (count, sides, plus), "1D3+2" (§18.2)
    arrives_roll: tuple[int, int, int] | None = None
    #: sides that have seen it (they may name it, like a figure seen before, F-103)
    seen_by: set[str] = field(default_factory=set)
    #: every movement rate of the design, surface -> rate (§17.4; ruling F-172)
    rates: dict[str, str] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    @property
    def surfaces(self) -> dict[str, str]:
        """Its rate on each surface it can move on (§17.4)."""
        return self.rates or {self.surface: self.rate}

    @property
    def airborne(self) -> bool:
        """A vehicle with an air rate flies (hovers) wherever it goes (ruling F-172)."""
        return "air" in self.surfaces

    @property
    def on_table(self) -> bool:
        """Standing on the table: moving, or a wreck (ruling F-146)."""
        return self.status in (ACTIVE, DESTROYED)

    def cells(self, anchor: tuple[int, int] | None = None,
              facing: str | None = None) -> tuple[Cell, ...]:
        """The footprint at the vehicle's place, or at another anchor / facing."""
        x, y = anchor if anchor is not None else self.anchor
        return footprint(Cell(self.level, x, y), self.length, self.width, facing or self.facing)

    def squares(self, anchor: tuple[int, int] | None = None,
                facing: str | None = None) -> list[tuple[int, int]]:
        return [(c.x, c.y) for c in self.cells(anchor, facing)]

    @property
    def pintle_gunners(self) -> list[int]:
        return [i for i, c in enumerate(self.crew) if c.role == "pintle"]


def fires_mount(role: str, mount: Mount) -> bool:
    """Whether a crew position of ``role`` fires ``mount`` (§17.6: a pintle only by its own
    gunner, who fires nothing else; §17.3: a copilot who is not a gunner fires nothing)."""
    return role in FIRERS and (mount.kind == "pintle") == (role == "pintle")
