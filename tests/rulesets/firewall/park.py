"""Test set-up for "A Walk in the Park": the squad's file kits (F-270), its secret deployment
on the scenario file's squares and Kewell's team at the west end of the path, as the file has
them (rulings F-215, F-217), for tests that start from the written positions."""

from __future__ import annotations

from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState


def as_written(game: Game) -> Game:
    """Take every set-up decision of the Walk in the Park as the file has it."""
    state: FirewallState = game.state
    while game.result is None and game.pending() and game.pending()[0].kind == "setup":
        side = game.pending()[0].side
        if state.kitting:  # ruling F-270: the file's kit, the suggestion
            game.apply(Action.make(side, "kit-file", figure=state.kitting[0]))
        elif state.deploying:
            f = state.figures[state.deploying[0]]
            game.apply(Action.make(side, "deploy", figure=f.id, at=[f.level, *f.cell]))
        else:
            game.apply(Action.make(side, "path-end", end="w"))
    return game


def kits_as_written(game: Game) -> Game:
    """Take only the loadout step: every snatcher takes the file's kit (F-270)."""
    state: FirewallState = game.state
    while state.kitting:
        game.apply(Action.make("snatch", "kit-file", figure=state.kitting[0]))
    return game
