"""A small drawn board and men for the task tests of ``firing`` and ``ordnance``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from killhouse import rulesets
from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.state import CommandoState
from killhouse.scenario.model import FigureSpec, Scenario, SideSpec

BOSS = {"st": 17, "mk": 22, "dex": 18, "end": 19, "lead": 21, "hero": 22}
GRUNT = {"st": 15, "mk": 13, "dex": 13, "end": 16}


@pytest.fixture
def registered() -> Iterator[None]:
    added = "commando" not in rulesets.REGISTRY
    if added:
        rulesets.register("commando", "killhouse.rulesets.commando.ruleset:CommandoRuleset")
    yield
    if added:
        rulesets.REGISTRY.pop("commando", None)
        rulesets._LOADED.pop("commando", None)


def arena(
    men: Sequence[tuple[str, str, tuple[int, int], tuple[str, ...], Mapping[str, Any]]],
    *, width: int = 40, height: int = 9, light: str = "day",
    walls: tuple[tuple[int, int], ...] = (), doors: tuple[tuple[int, int], ...] = (),
    zones: dict[str, set[Cell]] | None = None, turn_limit: int = 6,
    options: Mapping[str, Any] | None = None,
) -> Scenario:
    """Men as (id, side, (x, y), equipment, extra ruleset keys) on an open board."""
    level = Level.blank("ground", width, height)
    for x, y in walls:
        level.terrain[y, x] = Terrain.WALL
    for x, y in doors:
        level.terrain[y, x] = Terrain.DOOR_CLOSED
    board = Board([level], zones={k: frozenset(v) for k, v in (zones or {}).items()})
    sides = [SideSpec("raiders", "Raiders", "ai", "sides[0]"),
             SideSpec("guards", "Guards", "ai", "sides[1]")]
    figures = []
    for i, (ident, side, (x, y), equipment, extra) in enumerate(men):
        extra = {"man": "doofus", **extra}
        stats = {**(BOSS if extra.get("man") == "commando" else GRUNT),
                 **extra.pop("stats", {})}
        figures.append(FigureSpec(ident, side, "figure", f"figures[{i}]", stats=stats,
                                  at=Cell(0, x, y), equipment=equipment, extra=extra))
    return Scenario("arena", "commando", board, sides, figures,
                    options={"light": light, **(options or {})},
                    turn_limit=turn_limit, content_hash="commando-arena")


def state(game: Game) -> CommandoState:
    s = game.state
    assert isinstance(s, CommandoState)
    return s


def hold_windows(game: Game) -> None:
    """Answer every open op-fire or Mobile Overwatch window with ``hold``."""
    while game.pending() and game.pending()[0].kind in ("opfire", "overwatch"):
        game.apply(Action.make(game.pending()[0].side, "hold"))


def activate(game: Game, figure: str) -> None:
    """Plot nobody, then let the other side pass its men until ``figure`` can activate."""
    s = state(game)
    if s.phase == "plot":
        for side in s.sides:
            if side not in s.committed:
                game.apply(Action.make(side, "commit"))
    side = s.men[figure].side
    for _ in range(20):
        hold_windows(game)
        if s.active_side == side and s.active_man is None:
            game.apply(Action.make(side, "activate", figure=figure))
            return
        other = s.active_side
        assert other is not None and other != side, "no activation left for him"
        if s.active_man is None:
            ident = next(m.id for m in s.up(other) if not m.activated)
            game.apply(Action.make(other, "activate", figure=ident))
            hold_windows(game)
            if s.active_man != ident:  # a panic check ended his activation (C-14)
                continue
        game.apply(Action.make(other, "end"))
    raise AssertionError("could not reach his activation")


def kinds(game: Game, side: str) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for a in game.legal_actions(side):
        out.setdefault(a.kind, []).append(a)
    return out


def events(game: Game, kind: str) -> list[Mapping[str, Any]]:
    return [e.data for e in game.log.events if e.kind == kind]


def declare(game: Game, action: Action) -> None:
    """Apply a fire task or launch and answer the Mobile Overwatch question it opens with
    ``hold`` (rulings C-128, C-150, C-151), so the task resolves."""
    game.apply(action)
    pending = game.pending()
    if pending and pending[0].kind == "overwatch":
        game.apply(Action.make(pending[0].side, "hold"))
