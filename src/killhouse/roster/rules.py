"""What a ruleset offers for campaign rosters (``Ruleset.campaign()``): the core knows no game.

A ruleset with a campaign checks its own man fields (so a hand-edited roster gets one clear
message per impossible value), rolls new men, lets the player make the choices the rules leave
to him, and applies a logged game to the roster. The CLI only translates words into these calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from killhouse.core.chance import Chance
from killhouse.roster.model import Man, Roster
from killhouse.scenario.model import Issue, Scenario


@dataclass(frozen=True)
class NewMen:
    """What the player asked for: how many men of each kind, their names, his choices."""

    counts: Mapping[str, int]
    names: Sequence[str] = ()
    choices: Mapping[str, Sequence[str]] = field(default_factory=dict)
    reroll: bool = False
    #: roll a joke auxiliary ability for each Commando (a ruleset's own option, C-47)
    jokes: bool = False


@dataclass(frozen=True)
class AfterGame:
    """The roster after one game and a line of text per man saying what happened to him."""

    roster: Roster
    lines: tuple[str, ...]


class RosterRules(Protocol):
    """A ruleset's campaign: the four things ``killhouse roster`` asks of it."""

    def check_man(self, man: Man, path: str, roster: Roster) -> list[Issue]:
        """Every impossible value of one man, as issues at field paths under ``path``."""
        ...

    def new_men(
        self, chance: Chance, request: NewMen, taken: Sequence[str] = ()
    ) -> list[Man]:
        """New men rolled through ``chance`` (every roll an event); ``taken`` names are in use."""
        ...

    def choose(self, chance: Chance, man: Man, choices: Mapping[str, Sequence[str]]) -> Man:
        """The man after the player's choices (skills, proficiencies, abilities) are taken."""
        ...

    def recording(self) -> AbstractContextManager[dict[str, Any]]:
        """Notes the ruleset keeps while a logged game is replayed (skills used, hits …)."""
        ...

    def debrief(
        self, state: Any, scenario: Scenario, result: Any, notes: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What the game did to each roster man, as JSON, from the replayed final state."""
        ...

    def after_game(
        self, roster: Roster, debrief: Mapping[str, Any], chance: Chance,
        plans: Mapping[str, Any],
    ) -> AfterGame:
        """The roster after the game the debrief describes; the player's plans as given."""
        ...

    def table(self, roster: Roster) -> tuple[list[str], list[list[str]]]:
        """Columns and rows for ``killhouse roster show``."""
        ...
