"""``Game``: one scenario, one seeded generator, one ruleset, driven by decision points."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from killhouse.core.chance import SeededChance
from killhouse.core.events import Event, EventLog
from killhouse.core.rng import Rng
from killhouse.errors import IllegalActionError
from killhouse.rulesets import get_ruleset
from killhouse.rulesets.base import Action, Decision, Result, Ruleset
from killhouse.scenario.model import Scenario


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no spaces: the form state hashes are taken over."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


class Game:
    """The true state of one game and its record: seed, actions and events.

    The same scenario, seed and actions always give the same events and state hash.
    """

    def __init__(self, scenario: Scenario, seed: int) -> None:
        self.scenario = scenario
        self.seed = seed
        self.ruleset: Ruleset[Any] = get_ruleset(scenario.ruleset)
        self.rng = Rng.from_seed(seed)
        self.log = EventLog()
        self.chance = SeededChance(self.rng, self.log)
        self.actions: list[Action] = []
        #: the event count after each action, so a log can pair actions with their events
        self.action_ends: list[int] = []
        self.state: Any = self.ruleset.new_state(scenario, self.chance, self.log)
        self.setup_events = len(self.log)

    # -- the loop ----------------------------------------------------------------------
    def pending(self) -> tuple[Decision, ...]:
        return self.ruleset.pending(self.state)

    def legal_actions(self, side: str) -> list[Action]:
        return self.ruleset.legal_actions(self.state, side)

    def legal(self, side: str) -> Sequence[Action]:
        """``legal_actions`` counted at once and made when read (``Ruleset.legal``): the same
        actions in the same order, so a draw by index picks the same action."""
        return self.ruleset.legal(self.state, side)

    def apply(self, action: Action) -> list[Event]:
        """Validate and resolve ``action``; on ``IllegalActionError`` nothing has changed."""
        if not self.ruleset.checks_turn:
            waiting = [d.side for d in self.pending()]
            if action.side not in waiting:
                who = ", ".join(waiting) if waiting else "nobody (the game is over)"
                raise IllegalActionError(
                    f"side {action.side!r} is not to decide now; waiting for {who}"
                )
        start = len(self.log)
        rng_state = self.rng.state
        try:
            self.ruleset.apply(self.state, action, self.chance, self.log)
        except IllegalActionError:
            # the ruleset validates before it changes anything; keep the record exact too
            del self.log.events[start:]
            self.rng.state = rng_state
            raise
        self.actions.append(action)
        self.action_ends.append(len(self.log))
        return self.log.since(start)

    @property
    def over(self) -> bool:
        return self.ruleset.result(self.state) is not None

    @property
    def result(self) -> Result | None:
        return self.ruleset.result(self.state)

    # -- information -------------------------------------------------------------------
    def view(self, side: str, events_since: int | None = 0) -> dict[str, Any]:
        """What ``side`` knows: the ruleset's view plus the events it may see from ``events_since``.

        ``events_since=None`` leaves the events out (bots read the view alone).
        """
        view = self.ruleset.view(self.state, side)
        if events_since is not None:
            copies = (e.for_side(side) for e in self.log.since(events_since))
            view["events"] = [c for c in copies if c is not None]
        return view

    def state_hash(self) -> str:
        """SHA-256 over the full true state and the generator: equal hashes, equal games."""
        payload = canonical_json(
            {"state": self.ruleset.snapshot(self.state), "rng": self.rng.state}
        )
        return hashlib.sha256(payload.encode()).hexdigest()
