"""The running state of one Commando game: the men, where they stand, the turn's phase and
who observes whom (digest 3, 6, 15)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.rulesets.base import Result
from killhouse.rulesets.commando.devices import Ordnance
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.kit import Window
from killhouse.scenario.model import Scenario

PLOT, ACTIVATE, OVER = "plot", "activate", "over"


@dataclass
class CommandoState:
    """Everything that changes in play; ``observed[side]`` is the enemies that side observes."""

    scenario: Scenario
    board: Board
    sides: tuple[str, str]
    men: dict[str, ManState]
    pos: dict[str, Cell]
    weather: str = "clear"
    light: str = "day"
    turn: int = 1
    limit: int = 12
    phase: str = PLOT
    committed: set[str] = field(default_factory=set)
    active_side: str | None = None
    active_man: str | None = None
    tasks_done: int = 0
    ordnance: Ordnance = field(default_factory=Ordnance)  # devices on the map (devices.py)
    observed: dict[str, set[str]] = field(default_factory=dict)
    ever_seen: dict[str, set[str]] = field(default_factory=dict)
    last_seen: dict[str, dict[str, tuple[Cell, int]]] = field(default_factory=dict)
    windows: list[Window] = field(default_factory=list)
    result: Result | None = None
    #: the turn the defending side first observed an attacker (its −20 ends after it, C-122)
    alarm_turn: int | None = None
    #: searchlights by object id (``lights.Light``: where it stands, what it lights; C-123)
    lights: dict[str, Any] = field(default_factory=dict)
    #: men fired at this turn, and men in action at its start (preservation, C-124)
    fired_at: set[str] = field(default_factory=set)
    up_at_start: set[str] = field(default_factory=set)
    #: phase 4 in progress: step, round, each side's secret orders, who is ready (C-126)
    h2h: dict[str, Any] = field(default_factory=dict)
    #: the scenario's mission (``missions.Mission``) and the targets blown up so far (C-155)
    mission: Any = None
    destroyed: set[str] = field(default_factory=set)
    #: what each side heard this turn and did not see: direction only (C-161)
    sounds: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: what the active side must settle before anything else: a panic waiting for Inspire Men
    #: in Battle (``panic``, C-185) or a Preserving man's forced move (``withdraw``, C-186)
    forced: dict[str, Any] = field(default_factory=dict)
    #: hostages by id (``hostages.Hostage``) and where each side last saw each (C-170, C-171)
    hostages: dict[str, Any] = field(default_factory=dict)
    hostage_seen: dict[str, dict[str, tuple[Cell, int, str]]] = field(default_factory=dict)
    #: a hold mission's Bookkeepings in a row with the zone held (secret, C-177)
    held_turns: int = 0

    def enemy(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def side_men(self, side: str) -> list[ManState]:
        return [m for _, m in sorted(self.men.items()) if m.side == side]

    def up(self, side: str) -> list[ManState]:
        return [m for m in self.side_men(side) if m.active()]
