"""Test set-up for "Escape from Ash End": the edges rolled for and chosen as the file is
drawn (the Mayor's side south, the gang north; ruling F-212), for tests that place figures
and vehicles by hand."""

from __future__ import annotations

from pathlib import Path

from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[3]
ASH = ROOT / "scenarios" / "firewall" / "escape_from_ash_end.yaml"
#: the edges the file is drawn for
DRAWN = {"mayor": "s", "gang": "n"}


def drawn_edges(game: Game) -> Game:
    """Whoever rolled higher chooses its drawn edge (the other gets the opposite one)."""
    while game.result is None and game.pending() and game.pending()[0].kind == "setup":
        side = game.pending()[0].side
        game.apply(Action.make(side, "edge", edge=DRAWN[side]))
    return game


def ash(seed: int = 1, path: Path = ASH) -> Game:
    """An Ash End game at Turn 1 with the edges as drawn."""
    return drawn_edges(Game(load_scenario(path), seed))
