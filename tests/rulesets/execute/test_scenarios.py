"""The shipped Execute scenarios load clean, and bots play each one to a result."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.ai.registry import bot_for
from killhouse.ai.roles.execute import ROLE_BOTS, FbiBot, TerroristBot
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.scenario.loader import check_file, load_scenario
from tests.conformance import play_out

SCENARIOS = sorted((Path(__file__).resolve().parents[3] / "scenarios" / "execute").glob("*.yaml"))
NAMES = [p.stem for p in SCENARIOS]


def test_three_scenarios_ship() -> None:
    assert {"embassy", "bank", "airliner"} <= set(NAMES)


@pytest.mark.parametrize("path", SCENARIOS, ids=NAMES)
def test_scenario_checks_clean(path: Path) -> None:
    assert check_file(path) == []
    sc = load_scenario(path)
    assert sc.ruleset == "execute" and sc.description


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("path", SCENARIOS, ids=NAMES)
def test_role_bots_play_to_the_end(path: Path, seed: int) -> None:
    sc = load_scenario(path)
    game = Game(sc, seed)
    bots = {side: bot_for(sc, side) for side in sc.side_ids()}
    assert isinstance(bots["fbi"], FbiBot)
    assert any(isinstance(b, TerroristBot) for b in bots.values())
    rng = Rng.from_seed(seed)
    for _ in range(20_000):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        game.apply(bots[side].choose(game.view(side, events_since=None),
                                     game.legal_actions(side), rng))
    result = game.result
    assert result is not None and result.reason
    limit = sc.turn_limit or 30
    assert result.details["turn"] <= limit


@pytest.mark.parametrize("path", SCENARIOS, ids=NAMES)
def test_random_play_keeps_invariants_and_secrets(path: Path) -> None:
    game = play_out(load_scenario(path), seed=5)
    assert game.result is not None


def test_role_bot_registry_entry() -> None:
    sc = load_scenario(SCENARIOS[0])
    assert isinstance(ROLE_BOTS["execute"](sc, "fbi"), FbiBot)


def test_hints_and_narration_cover_a_whole_game() -> None:
    """Every legal action carries the bot hints; every event kind has a narration line."""
    from killhouse.rulesets.execute.narrate import LINES, SILENT

    sc = load_scenario(SCENARIOS[0])
    game = Game(sc, 3)
    bots = {side: bot_for(sc, side) for side in sc.side_ids()}
    rng = Rng.from_seed(3)
    roles = {"move", "attack", "task", "pass", "setup", "other"}
    while game.pending():
        side = game.pending()[0].side
        actions = game.legal_actions(side)
        for a in actions:
            assert a.hint.get("role") in roles, a
            if a.hint["role"] == "move":
                assert len(a.hint["to"]) == 3
            if a.hint["role"] in ("attack", "task"):
                assert {"p", "target"} <= set(a.hint), a
            assert "value" not in a.hint, a  # no bot scoring in what a human is offered
        game.apply(bots[side].choose(game.view(side, events_since=None), actions, rng))
    for event in game.log.events:
        if event.kind in SILENT:
            assert game.ruleset.narrate(event) is None
        else:
            assert event.kind in LINES, event.kind
            line = game.ruleset.narrate(event)
            assert line and "None" not in line, (event.kind, line)


def test_transcript_reads_like_the_scenario() -> None:
    """Issue 10 item 15: squares as ``levelname:x,y``, no slot-end lines, one alert per alarm
    per move, "enters the map at" for insertions."""
    from killhouse.sim.transcript import transcript

    embassy = next(p for p in SCENARIOS if p.stem == "embassy")
    text = transcript(load_scenario(embassy), 7)
    lines = text.splitlines()
    assert "ends its" not in text and "L0:" not in text and "off-map ->" not in text
    assert "enters the map at ground:" in text
    assert any(ln.startswith("ALERT") for ln in lines)
    from killhouse.sim.play import play

    game = play(load_scenario(embassy), 7)
    per_move: list[str] = []
    for event in game.log.events:  # alerts come before their move's ``moved`` event
        if event.kind == "alert":
            assert event.data["alarm"] not in per_move, "one alert per alarm per move"
            assert event.data["at"] == event.data["squares"][0]
            per_move.append(event.data["alarm"])
        elif event.kind == "moved":
            per_move = []


def test_bank_c4_waits_past_the_limit_for_the_bot_but_is_live_for_a_robber_player() -> None:
    """Ruling E-68: the file times the C-4 one turn after the FBI's limit (the role AI keeps
    it, so a slow assault is the robbers' win, not a mutual-destruction draw), while the
    robbers' setup still offers every turn up to the limit (E-43): the limit and not one past."""
    sc = load_scenario(SCENARIOS[NAMES.index("bank")])
    limit = sc.turn_limit
    assert limit == 22
    c4 = next(o for o in sc.objects if o.id == "c4")
    assert c4.extra["mode"] == "timer" and c4.extra["timer"] == limit + 1
    game = Game(sc, 1)
    offered = {
        a.get("turn") for a in game.legal_actions("robbers")
        if a.kind == "bomb_timer" and a.get("bomb") == "c4"
    }
    assert limit in offered and limit + 1 not in offered
    assert min(offered) == 5  # min_timer
    assert any(a.kind == "bomb_remote" for a in game.legal_actions("robbers"))
