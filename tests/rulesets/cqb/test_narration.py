"""CQB's log lines name the cards turned, their values, target numbers and results, and each
side's copy only what that side may know (ruling W-12): another side's target numbers and
ability decks never reach it, neither in an event's data nor in its narration."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.core.events import Event
from killhouse.engine.game import Game
from killhouse.rulesets.cqb.narrate import narrate
from killhouse.rulesets.cqb.state import CqbState
from killhouse.scenario.loader import load_scenario
from killhouse.sim.seats import Seats
from tests.conformance import SCENARIO_DIR

#: events of a test or shot, and the field that names the figure acting
ACTORS = {"shot": "firer", "task": "figure", "throw": "figure"}


def played(name: str, seed: int, actions: int = 400) -> Game:
    """A game of AI against AI, cut after ``actions`` actions (enough for fire and tests)."""
    game = Game(load_scenario(SCENARIO_DIR / "cqb" / name), seed)
    seats = Seats(game, [])
    for _ in range(actions):
        if game.over or seats.ai_step() is None:
            break
    return game


def side_of(game: Game, figure: str) -> str:
    state = game.state
    assert isinstance(state, CqbState)
    return state.figures[figure].side


def copies(game: Game, side: str) -> list[tuple[dict[str, Any], str]]:
    """``side``'s copies of the events with the narration it is shown of each."""
    out = []
    for event in game.log.events_for_side(side, 0):
        copy = event.for_side(side)
        assert copy is not None
        data = {k: v for k, v in copy.items() if k not in ("seq", "kind")}
        line = narrate(Event(event.seq, event.kind, data)) or ""
        out.append((copy, line))
    return out


@pytest.mark.parametrize(("name", "seed"), [("overwatch.yaml", 1), ("aircraft.yaml", 2),
                                            ("stronghold.yaml", 3)])
def test_no_side_is_told_another_sides_target_numbers_or_decks(name: str, seed: int) -> None:
    game = played(name, seed)
    seen_foreign = seen_own = 0
    for side in game.scenario.side_ids():
        for copy, line in copies(game, side):
            kind = copy["kind"]
            if kind in ACTORS:
                own = side_of(game, copy[ACTORS[kind]]) == side
                if own:
                    seen_own += 1
                    assert "tn" in copy and f"TN {copy['tn']}" in line, (side, copy, line)
                else:
                    seen_foreign += 1
                    assert "tn" not in copy, (side, copy)
                    assert "TN" not in line, (side, line)
                    assert copy["card"] in line, (side, line)
            if kind in ("draw", "reshuffle") and ":" in str(copy["deck"]):
                assert str(copy["deck"]).startswith(f"{side}:"), (side, copy)
            for other in game.scenario.side_ids():
                if other != side:
                    assert f"deck of {other}" not in line, (side, line)
    assert seen_own and seen_foreign, "the games must show each side's and the enemy's tests"


def test_the_umpire_and_the_firer_read_the_whole_resolution() -> None:
    game = played("overwatch.yaml", 1)
    shots = [e for e in game.log.events if e.kind == "shot"]
    draws = [e for e in game.log.events if e.kind == "draw"]
    assert shots and draws
    shot = shots[0]
    line = narrate(shot) or ""
    card = shot.data["card"]
    value = shot.data["value"]
    expected = card if value is None else f"{card} ({value})"
    assert f"TN {shot.data['tn']}, {expected}: {shot.data['outcome']}." in line
    # every draw says its deck, card and purpose: no generic "draw" line
    for e in draws:
        text = narrate(e) or ""
        assert str(e.data["card"]) in text and str(e.data["purpose"]) in text, text
    rolls = [e for e in game.log.events if e.kind == "roll"]
    for e in rolls:
        text = narrate(e) or ""
        assert str(e.data["die"]) in text and str(e.data["result"]) in text, text
