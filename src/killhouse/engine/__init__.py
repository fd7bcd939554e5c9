"""The game loop: who must decide now, apply an action, emit events. Knows no particular game."""

from killhouse.engine.game import Game

__all__ = ["Game"]
