"""The shipped scenarios load clean and bots play them to the end; scenario checks; setup (5.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.ai.registry import bot_for
from killhouse.ai.roles.gogogo import GoGoGoBot
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, ScenarioError
from killhouse.scenario.loader import check_file, load_scenario

from .helpers import RULES, Table, fig, open_rows, scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"
NAMES = ["hostage", "destruction", "assassination"]


@pytest.mark.parametrize("name", NAMES)
def test_shipped_scenarios_check_clean(name: str) -> None:
    path = SCENARIOS / f"{name}.yaml"
    assert check_file(path) == []
    scn = load_scenario(path)
    assert RULES.check_scenario(scn) == []
    assert scn.objectives["mission"] == name


def play(path: Path, seed: int, bot: str | None = None) -> Game:
    scn = load_scenario(path)
    game = Game(scn, seed)
    bots = {side: bot_for(scn, side, bot) for side in scn.side_ids()}
    rng = Rng.from_seed(seed)
    for _ in range(5000):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        game.apply(bots[side].choose(game.view(side), game.legal_actions(side), rng))
    return game


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_role_bots_play_each_mission_to_the_end(name: str, seed: int) -> None:
    game = play(SCENARIOS / f"{name}.yaml", seed)
    result = game.result
    assert result is not None and result.reason
    assert game.state.turn <= 30
    assert result.winner in (None, "ct", "t")


def test_the_registry_gives_the_role_bot() -> None:
    scn = load_scenario(SCENARIOS / "hostage.yaml")
    assert isinstance(bot_for(scn, "ct"), GoGoGoBot)


@pytest.mark.parametrize("name", NAMES)
def test_baseline_bots_finish_too(name: str) -> None:
    game = play(SCENARIOS / f"{name}.yaml", 4, bot="baseline")
    assert game.result is not None and game.result.reason


# -- scenario checks ------------------------------------------------------------------------------


def issues(**kw: object) -> list[str]:
    try:
        scenario(**kw)  # type: ignore[arg-type]
    except ScenarioError as exc:
        return [p.message for p in exc.problems]
    return []


ROOM = open_rows(12, 6)


def test_scenario_problems_are_reported() -> None:
    assert any(
        "unknown mission" in m
        for m in issues(
            rows=ROOM, figures=[fig("c1", "ct", 2, 2), fig("t1", "t", 8, 2)], mission="heist"
        )
    )
    assert any(
        "HE" in m
        for m in issues(
            rows=ROOM, figures=[fig("c1", "ct", 2, 2, equipment=["he"]), fig("t1", "t", 8, 2)]
        )
    )
    assert any(
        "sniper" in m
        for m in issues(
            rows=ROOM, figures=[fig("c1", "ct", 2, 2), fig("t1", "t", 8, 2, equipment=["sniper"])]
        )
    )
    assert any(
        "exactly one of HE" in m
        for m in issues(
            rows=ROOM,
            figures=[fig("c1", "ct", 2, 2), fig("t1", "t", 8, 2, equipment=["he", "stun"])],
        )
    )
    assert any(
        "VIP" in m
        for m in issues(
            rows=ROOM,
            figures=[fig("c1", "ct", 2, 2), fig("t1", "t", 8, 2)],
            mission="assassination",
        )
    )
    assert any(
        "no zone 'nowhere'" in m
        for m in issues(
            rows=ROOM,
            figures=[fig("c1", "ct", 2, 2), fig("t1", "t", 8, 2)],
            mission="destruction",
            objectives={"bomb_sites": ["nowhere"]},
        )
    )
    assert any(
        "unknown option" in m
        for m in issues(
            rows=ROOM, figures=[fig("c1", "ct", 2, 2), fig("t1", "t", 8, 2)], options={"fog": True}
        )
    )


def test_figures_must_start_in_their_zones_unless_deployment_is_free() -> None:
    found = issues(
        rows=ROOM,
        figures=[fig("c1", "ct", 8, 2), fig("t1", "t", 2, 2)],
        zones={
            "ct_start": ["ground:1,1-3,4"],
            "t_start": ["ground:7,1-10,4"],
            "location": ["ground:7,1-10,4"],
            "rescue": ["ground:1,4-1,4"],
        },
        options={"free_deployment": False},
    )
    assert any("ct_start" in m for m in found)


# -- setup decisions (5.1) -------------------------------------------------------------------------


def test_hidden_deployment_and_loadouts_are_secret_and_simultaneous() -> None:
    scn = scenario(
        ROOM,
        [
            {"id": "c1", "side": "ct", "kind": "operative"},
            {"id": "t1", "side": "t", "kind": "operative"},
            {
                "id": "t2",
                "side": "t",
                "kind": "operative",
                "at": "ground:9,4",
                "equipment": ["smoke"],
            },
        ],
        mission="destruction",
        zones={
            "ct_start": ["ground:1,1-3,4"],
            "t_start": ["ground:7,1-10,4"],
            "bomb_a": ["ground:5,1-5,1"],
        },
        options={"free_deployment": False},
    )
    table = Table(scn)
    assert table.state.phase == "setup"
    assert {d.side for d in RULES.pending(table.state)} == {"ct", "t"}
    kinds = {a.kind for a in RULES.legal_actions(table.state, "t")}
    assert kinds == {"place", "loadout", "carrier"}
    with pytest.raises(IllegalActionError):
        table.act("ct", "commit")  # c1 is not placed yet
    with pytest.raises(IllegalActionError, match="deployment zone"):
        table.act("ct", "place", figure="c1", at=[0, 8, 2])
    table.act("ct", "place", figure="c1", at=[0, 2, 2])
    table.act("ct", "face", figure="c1", facing="e")
    table.act("ct", "commit")
    assert "t1" not in str(RULES.view(table.state, "ct"))
    assert table.state.fig("c1").pos is None  # secret until both commit
    table.act("t", "place", figure="t1", at=[0, 8, 2])
    table.act("t", "face", figure="t1", facing="w")
    table.act("t", "loadout", figure="t1", grenade="he")
    table.act("t", "carrier", figure="t2")
    assert "c1" not in str(RULES.view(table.state, "t"))
    table.act("t", "commit")
    assert table.state.phase == "orders" and table.state.turn == 1
    assert table.state.fig("c1").pos is not None
    assert table.state.fig("t1").grenades == {"he": 1}
    assert table.state.bomb is not None and table.state.bomb.carrier == "t2"
