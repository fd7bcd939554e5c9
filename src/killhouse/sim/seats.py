"""Seats: which sides of a game people play and which the AI plays, and the AI's moves.

A human seat is never decided for: ``advance_ai`` only applies actions for sides whose
seat is the AI, and stops as soon as every pending side is human (or the game is over).
The terminal game (``killhouse play --as``) and the game server both drive games this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from killhouse.ai.base import Bot
from killhouse.ai.registry import bot_for
from killhouse.core.events import Event
from killhouse.core.rng import Rng, derive_seed
from killhouse.engine.game import Game
from killhouse.errors import KillhouseError
from killhouse.rulesets.base import Action
from killhouse.sim.play import MAX_DECISIONS


class Seats:
    """The human sides of ``game``; every other side gets the scenario's bot."""

    def __init__(self, game: Game, humans: Iterable[str]) -> None:
        self.game = game
        sides = [s.id for s in game.scenario.sides]
        self.humans = frozenset(humans)
        unknown = sorted(self.humans - set(sides))
        if unknown:
            raise KillhouseError(
                f"no side {unknown[0]!r} in this scenario (sides: {', '.join(sides)})"
            )
        self.bots: dict[str, Bot] = {
            side: bot_for(game.scenario, side) for side in sides if side not in self.humans
        }
        # the same per-side tie-break sources as sim.play, so an all-AI game matches it
        self.rngs = {
            side: Rng.from_seed(derive_seed(game.seed, 1_000_003 + i))
            for i, side in enumerate(sides)
        }

    def human_pending(self) -> list[str]:
        """The human sides that must decide now."""
        return [d.side for d in self.game.pending() if d.side in self.humans]

    def ai_pending(self) -> list[str]:
        return [d.side for d in self.game.pending() if d.side not in self.humans]

    def ai_step(self) -> Action | None:
        """Let the first pending AI side choose and apply one action; ``None`` if none is due."""
        waiting = self.ai_pending()
        if not waiting:
            return None
        side = waiting[0]
        actions = self.game.legal_actions(side)
        if not actions:
            raise KillhouseError(f"side {side!r} must decide but has no legal action")
        action = self.bots[side].choose(
            self.game.view(side, events_since=None), actions, self.rngs[side]
        )
        self.game.apply(action)
        return action

    def advance_ai(self, on_action: Callable[[Action], None] | None = None) -> list[Action]:
        """Apply AI actions until no AI side is pending; return them in order."""
        done: list[Action] = []
        for _ in range(MAX_DECISIONS):
            action = self.ai_step()
            if action is None:
                return done
            done.append(action)
            if on_action is not None:
                on_action(action)
        raise KillhouseError(f"the AI did not yield within {MAX_DECISIONS} decisions")


def side_event(event: Event, side: str) -> Event | None:
    """The event as ``side`` may know it (its redacted copy), for narration; ``None`` if hidden."""
    copy = event.for_side(side)
    if copy is None:
        return None
    data: dict[str, Any] = {k: v for k, v in copy.items() if k not in ("seq", "kind")}
    return Event(event.seq, event.kind, data)
