"""The turn of §15 on the flow kit: the secret plot, alternating activations task by task,
the op-fire window after every task, observation by range and LOS, the end of the game."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from killhouse import rulesets
from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game, canonical_json
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.fire import base_chance
from killhouse.rulesets.commando.flow import in_view
from killhouse.rulesets.kit.view import view_problems
from killhouse.scenario.model import FigureSpec, Scenario, SideSpec

GRUNT = {"st": 15, "mk": 18, "dex": 15, "end": 16}
BOSS = {"st": 17, "mk": 22, "dex": 18, "end": 19, "lead": 21, "hero": 22}


@pytest.fixture(autouse=True)
def commando_registered() -> Iterator[None]:
    added = "commando" not in rulesets.REGISTRY
    if added:
        rulesets.register("commando", "killhouse.rulesets.commando.ruleset:CommandoRuleset")
    yield
    if added:
        rulesets.REGISTRY.pop("commando", None)
        rulesets._LOADED.pop("commando", None)


def duel(raider: tuple[int, int] = (1, 2), guard: tuple[int, int] = (10, 2),
         light: str = "day", walls: tuple[tuple[int, int], ...] = (),
         raider_gun: str = "m16", guard_gun: str = "pistol") -> Scenario:
    """One Commando against one Doofus on an open 40×5 board."""
    level = Level.blank("ground", 40, 5)
    for x, y in walls:
        level.terrain[y, x] = Terrain.WALL
    board = Board([level], zones={})
    sides = [SideSpec("raiders", "Raiders", "ai", "sides[0]"),
             SideSpec("guards", "Guards", "ai", "sides[1]")]
    figures = [
        FigureSpec("kane", "raiders", "figure", "figures[0]", stats=BOSS,
                   at=Cell(0, *raider), equipment=(raider_gun,),
                   extra={"man": "commando", "wps": {raider_gun: 2}}),
        FigureSpec("g1", "guards", "figure", "figures[1]", stats=GRUNT,
                   at=Cell(0, *guard), equipment=(guard_gun,), extra={"man": "doofus"}),
    ]
    return Scenario("duel", "commando", board, sides, figures, options={"light": light},
                    turn_limit=3, content_hash="commando-duel")


def snap(game: Game) -> dict[str, Any]:
    return game.ruleset.snapshot(game.state)


def man(game: Game, ident: str) -> dict[str, Any]:
    return next(f for f in snap(game)["figures"] if f["id"] == ident)


def kinds(game: Game, side: str) -> set[str]:
    return {a.kind for a in game.legal_actions(side)}


def to_activation(game: Game, plots: dict[str, list[str]] | None = None) -> None:
    """Both sides plot (secretly) and commit."""
    for side in ("raiders", "guards"):
        for figure in (plots or {}).get(side, []):
            game.apply(Action.make(side, "plot", figure=figure))
        game.apply(Action.make(side, "commit"))


def first_side(game: Game) -> str:
    return str(snap(game)["active_side"])


def test_plot_is_simultaneous_and_secret() -> None:
    game = Game(duel(guard=(30, 2), light="night"), seed=1)  # out of observation range
    assert sorted(d.side for d in game.pending()) == ["guards", "raiders"]
    start = len(game.log)
    game.apply(Action.make("guards", "plot", figure="g1"))
    game.apply(Action.make("guards", "commit"))
    # the raiders still decide; nothing they see says that g1 was plotted
    assert [d.side for d in game.pending()] == ["raiders"]
    raider_events = [e.for_side("raiders") for e in game.log.since(start)]
    assert "plotted" not in canonical_json(raider_events)
    assert "g1" not in canonical_json(game.view("raiders"))
    assert man(game, "g1")["plotted"] is True


def test_activation_spends_tp_task_by_task_and_asks_for_op_fire_after_each() -> None:
    game = Game(duel(guard=(30, 2)), seed=3)
    to_activation(game)
    side = first_side(game)
    figure = "kane" if side == "raiders" else "g1"
    game.apply(Action.make(side, "activate", figure=figure))
    assert man(game, figure)["tp"] == 50
    game.apply(Action.make(side, "step", figure=figure, dir="s"))
    assert man(game, figure)["tp"] == 45  # orthogonal step: 5 TP
    other = "guards" if side == "raiders" else "raiders"
    assert [(d.side, d.kind) for d in game.pending()] == [(other, "opfire")]
    assert game.view(other)["question"] == {"reaction": "opfire", "answered": None}
    game.apply(Action.make(other, "hold"))
    game.apply(Action.make(side, "step", figure=figure, dir="ne"))
    assert man(game, figure)["tp"] == 38  # diagonal: 7 TP
    game.apply(Action.make(other, "hold"))
    game.apply(Action.make(side, "posture", figure=figure, to="prone"))
    assert man(game, figure)["tp"] == 25  # fall prone: 13 TP
    game.apply(Action.make(other, "hold"))
    assert {a.get("dir") for a in game.legal_actions(side) if a.kind == "step"}
    game.apply(Action.make(side, "end"))
    assert first_side(game) == other  # §15: the other side activates next


def test_a_step_needs_its_full_cost_edge() -> None:
    game = Game(duel(guard=(30, 2)), seed=3)
    to_activation(game)
    side = first_side(game)
    figure = "kane" if side == "raiders" else "g1"
    game.apply(Action.make(side, "activate", figure=figure))
    state = game.state
    state.men[figure].tp = 5  # exactly an orthogonal step, not a diagonal one
    dirs = {a.get("dir") for a in game.legal_actions(side) if a.kind == "step"}
    assert "e" in dirs and "ne" not in dirs
    before = canonical_json(snap(game))
    with pytest.raises(IllegalActionError):
        game.apply(Action.make(side, "step", figure=figure, dir="ne"))
    assert canonical_json(snap(game)) == before
    state.men[figure].tp = 4
    assert not any(a.kind == "step" for a in game.legal_actions(side))


def test_observation_range_edge_at_night() -> None:
    # clear night: 12 squares (Observation Range Table); LOS at 12 can be rolled, 13 cannot
    for dx, allowed in ((12, True), (13, False)):
        game = Game(duel(raider=(1, 2), guard=(1 + dx, 2), light="night"), seed=1)
        assert in_view(game.state, "kane", "g1") is allowed


def test_walls_block_observation() -> None:
    game = Game(duel(raider=(1, 2), guard=(3, 2), walls=((2, 1), (2, 2), (2, 3))), seed=1)
    assert snap(game)["observed"] == {"guards": [], "raiders": []}
    open_game = Game(duel(raider=(1, 2), guard=(2, 2)), seed=1)
    # range 1 with LOS is observed without a roll (C-11)
    assert snap(open_game)["observed"] == {"guards": ["kane"], "raiders": ["g1"]}


def test_fire_needs_the_weapon_range_edge() -> None:
    last = max(r for r in range(80) if base_chance("pistol", r) is not None)
    for rng, allowed in ((last, True), (last + 1, False)):
        game = Game(duel(raider=(1, 2), guard=(1 + rng, 2), raider_gun="pistol"), seed=1)
        game.state.observed["raiders"].add("g1")
        to_activation(game)
        game.state.active_side = "raiders"
        game.apply(Action.make("raiders", "activate", figure="kane"))
        fires = [a for a in game.legal_actions("raiders") if a.kind == "fire"]
        assert bool(fires) is allowed, rng


def test_op_fire_by_a_plotted_man_pays_the_fee_and_reveals_him() -> None:
    for seed in range(30):
        game = Game(duel(raider=(1, 2), guard=(6, 2)), seed=seed)
        game.state.observed["guards"].add("kane")
        to_activation(game, {"guards": ["g1"]})
        if first_side(game) != "raiders":
            continue
        game.apply(Action.make("raiders", "activate", figure="kane"))
        game.apply(Action.make("raiders", "step", figure="kane", dir="n"))
        opts = [a for a in game.legal_actions("guards") if a.kind == "opfire"]
        assert opts == [Action.make("guards", "opfire", figure="g1", target="kane")]
        start = len(game.log)
        game.apply(opts[0])
        assert man(game, "g1")["tp"] == 50 - 5 - 7  # the fee (C-26) and a pistol fire
        fired = [e for e in game.log.since(start) if e.kind == "fire"]
        assert fired and fired[0].for_side("raiders") is not None
        assert "g1" in game.ruleset.known_ids(game.state, "raiders")
        return
    pytest.fail("the raiders never won the initiative")


def test_killing_the_last_enemy_ends_the_game() -> None:
    game = Game(duel(raider=(1, 2), guard=(2, 2)), seed=4)
    game.state.men["g1"].kill()
    to_activation(game)
    game.state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure="kane"))
    game.apply(Action.make("raiders", "end"))
    assert game.result is not None and game.result.winner == "raiders"
    assert game.pending() == ()


def test_turn_limit_goes_to_the_defenders_and_views_keep_the_contract() -> None:
    game = Game(duel(guard=(30, 2)), seed=2)
    while game.pending():
        d = game.pending()[0]
        acts = game.legal_actions(d.side)
        pick = next((a for a in acts if a.kind in ("commit", "hold", "end")), acts[0])
        game.apply(pick)
        for side in ("raiders", "guards"):
            assert view_problems(game.view(side)) == []
    assert game.result is not None and game.result.winner == "guards"
    assert snap(game)["turn"] == 3


def test_paused_game_copies_identically() -> None:
    game = Game(duel(guard=(30, 2)), seed=5)
    to_activation(game)
    side = first_side(game)
    figure = "kane" if side == "raiders" else "g1"
    game.apply(Action.make(side, "activate", figure=figure))
    game.apply(Action.make(side, "step", figure=figure, dir="s"))
    assert game.state.windows
    twin = copy.deepcopy(game)
    for g in (game, twin):
        while g.pending():
            g.apply(g.legal_actions(g.pending()[0].side)[0])
    assert game.state_hash() == twin.state_hash()


def test_a_closed_door_is_opened_as_its_own_task_then_passed() -> None:
    scenario = duel(raider=(1, 2), guard=(30, 2), light="night")
    scenario.board.levels[0].terrain[2, 2] = Terrain.DOOR_CLOSED
    game = Game(scenario, seed=1)
    to_activation(game)
    game.state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure="kane"))
    assert "e" not in {a.get("dir") for a in game.legal_actions("raiders") if a.kind == "step"}
    game.apply(Action.make("raiders", "door", figure="kane", at=[0, 2, 2]))
    assert man(game, "kane")["tp"] == 45  # C-62: 5 TP
    assert game.state.board.terrain(Cell(0, 2, 2)) is Terrain.DOOR_OPEN
    game.apply(Action.make("guards", "hold"))
    game.apply(Action.make("raiders", "step", figure="kane", dir="e"))
    assert man(game, "kane")["at"] == [0, 2, 2]


def play_to_the_limit(scenario: Scenario) -> Game:
    game = Game(scenario, seed=2)
    while game.pending():
        acts = game.legal_actions(game.pending()[0].side)
        game.apply(next((a for a in acts if a.kind in ("commit", "hold", "end")), acts[0]))
    return game


def test_the_turn_limit_reason_is_the_scenarios_own() -> None:
    # ruling C-152: options.time_out, else the second side's name; the turn is named
    scenario = duel(guard=(30, 2))
    game = play_to_the_limit(scenario)
    assert game.result is not None
    assert game.result.reason == "Guards held out to the end of turn 3"
    scenario = duel(guard=(30, 2))
    scenario.options["time_out"] = "the guards still hold the hut"
    game = play_to_the_limit(scenario)
    assert game.result is not None and game.result.winner == "guards"
    assert game.result.reason == "the guards still hold the hut (turn limit 3)"


@pytest.mark.parametrize("bad", ["3", "''"])
def test_a_time_out_that_is_not_text_is_one_problem_on_its_line(bad: str) -> None:
    from killhouse.errors import ScenarioError
    from killhouse.scenario.loader import loads_scenario

    raid = Path(__file__).parents[3] / "scenarios" / "commando" / "radar_raid.yaml"
    lines = raid.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("options:"))
    lines[at] = f"options: {{time_out: {bad}}}"
    with pytest.raises(ScenarioError) as err:
        loads_scenario("\n".join(lines), "radar.yaml")
    assert f"radar.yaml:{at + 1}: options.time_out: the turn limit's reason must be text" in str(
        err.value)
