"""A game in the terminal: the human sides answer numbered questions, the AI plays the rest.

Each decision shows the side's view as text (nothing the side may not know: its own view
and its copies of the events) and the legal actions numbered from 1. The human types a
number; an action with a free-text argument (a note, a negotiation line) takes the text
after the number. Bad input is answered with a reason and asked again; the engine never
chooses for a human.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, KillhouseError
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario
from killhouse.sim.seats import Seats, side_event

Read = Callable[[str], str | None]
Write = Callable[[str], None]


def where(value: Any) -> str:
    """A cell ``[level, x, y]`` as the scenario format writes it (``0:4,5``); else as is."""
    if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return f"{value[0]}:{value[1]},{value[2]}"
    return "off the map" if value is None else str(value)


def _figure_line(fig: dict[str, Any]) -> str:
    parts = [str(fig.get("id", "?"))]
    for key in ("kind", "status", "posture", "weapon", "facing"):
        if fig.get(key) not in (None, ""):
            parts.append(f"{key}={fig[key]}")
    if "at" in fig:
        parts.append(f"at {where(fig['at'])}")
    if "turn" in fig:
        parts.append(f"(turn {fig['turn']})")
    return "  " + " ".join(parts)


def view_text(view: dict[str, Any]) -> list[str]:
    """The side's view as a few lines: turn and phase, its figures, what it sees and recalls."""
    lines = [f"== {view.get('side')}: turn {view.get('turn')}, phase {view.get('phase', '-')}"]
    for title, key in (
        ("your figures", "figures"),
        ("in sight", "seen"),
        ("remembered", "remembered"),
    ):
        items = [f for f in view.get(key) or [] if isinstance(f, dict)]
        if items:
            lines.append(f"{title}:")
            lines.extend(_figure_line(f) for f in items)
    sounds = view.get("sounds") or []
    if sounds:
        lines.append("sounds: " + "; ".join(_plain(s) for s in sounds))
    return lines


def _plain(item: Any) -> str:
    if isinstance(item, dict):
        return " ".join(f"{k}={where(v)}" for k, v in item.items())
    return where(item)


def action_text(action: Action) -> str:
    """One legal action as a menu line: kind and arguments, cells written ``level:x,y``."""
    args = " ".join(f"{k}={where(v)}" for k, v in action.to_json().items() if k not in ("side",
                                                                                        "kind"))
    return f"{action.kind} {args}".rstrip()


def parse_choice(text: str, actions: list[Action]) -> Action:
    """The action a typed line names: ``N`` or ``N free text``; ``KillhouseError`` if none."""
    head, _, rest = text.strip().partition(" ")
    if not head.isdigit():
        raise KillhouseError(f"type the number of an action, 1 to {len(actions)}")
    index = int(head)
    if not 1 <= index <= len(actions):
        raise KillhouseError(f"no action {index}: choose 1 to {len(actions)}")
    action = actions[index - 1]
    if rest and action.get("text") is not None:
        data = action.to_json()
        data["text"] = rest
        return Action.from_json(data)
    return action


class TerminalGame:
    """One game driven from a terminal: ``run`` plays it to the end or until input ends."""

    def __init__(
        self, scenario: Scenario, seed: int, humans: list[str], read: Read, write: Write
    ) -> None:
        self.game = Game(scenario, seed)
        self.seats = Seats(self.game, humans)
        self.read = read
        self.write = write
        self.cursor = {side: 0 for side in humans}

    def _news(self, side: str) -> None:
        """Narrate the events ``side`` may know since it last decided."""
        for event in self.game.log.events[self.cursor[side]:]:
            copy = side_event(event, side)
            line = self.game.ruleset.narrate(copy) if copy is not None else None
            if line:
                self.write(f"  {line}")
        self.cursor[side] = len(self.game.log)

    def run(self) -> Game:
        game = self.game
        while not game.over:
            self.seats.advance_ai()
            waiting = self.seats.human_pending()
            if not waiting:
                if game.over:
                    break
                raise KillhouseError("nobody is to decide, yet the game has not ended")
            side = waiting[0]
            decision = next(d for d in game.pending() if d.side == side)
            self._news(side)
            for line in view_text(game.view(side, events_since=None)):
                self.write(line)
            self._decide(side, decision.kind, decision.prompt)
        for side in self.cursor:
            self._news(side)
        return game

    def _decide(self, side: str, kind: str, prompt: str) -> None:
        actions = self.game.legal_actions(side)
        self.write(f"-- {side} decides ({kind}){': ' + prompt if prompt else ''}")
        for i, action in enumerate(actions, 1):
            self.write(f"  {i:>3}. {action_text(action)}")
        while True:
            line = self.read(f"{side}> ")
            if line is None:
                raise KillhouseError("input ended before the game did")
            try:
                action = parse_choice(line, actions)
                self.game.apply(action)
            except IllegalActionError as exc:
                self.write(f"not allowed: {exc}")
                continue
            except KillhouseError as exc:
                self.write(str(exc))
                continue
            return
