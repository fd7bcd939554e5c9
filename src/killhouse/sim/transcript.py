"""A game as plain text, one narrated line per event: the demo's output and the golden files."""

from __future__ import annotations

from collections.abc import Callable

from killhouse.engine.game import Game
from killhouse.scenario.model import Scenario
from killhouse.sim.play import play


def header(scenario: Scenario, seed: int) -> list[str]:
    lines = [f"# {scenario.name} ({scenario.ruleset}), seed {seed}"]
    if scenario.description:
        lines.append(scenario.description.strip())
    return lines


def footer(game: Game) -> str:
    result = game.result
    if result is None:
        return "# unfinished"
    winner = " and ".join(result.winners) or "nobody (draw)"
    return f"# result: {winner} - {result.reason}"


def narrate_new(game: Game, start: int, write: Callable[[str], None]) -> int:
    """Write the narration of events from ``start`` on; return the next start."""
    for event in game.log.events[start:]:
        line = game.ruleset.narrate(event)
        if line:
            write(line)
    return len(game.log.events)


def transcript(scenario: Scenario, seed: int) -> str:
    """The full umpire's narration of one bot game."""
    lines = header(scenario, seed)
    cursor = 0

    def step(game: Game) -> None:
        nonlocal cursor
        cursor = narrate_new(game, cursor, lines.append)

    game = play(scenario, seed, on_step=step)
    lines.append(footer(game))
    return "\n".join(lines) + "\n"
