"""The shipped scenarios load clean and bots play them to the end; scenario checks; setup (5.1)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from killhouse.ai.registry import bot_for
from killhouse.ai.roles.gogogo import GoGoGoBot
from killhouse.core.cells import Cell
from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, MalformedActionError, ScenarioError
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
    with pytest.raises(IllegalActionError, match="not complete"):
        table.act("ct", "commit")  # c1's weapon is still to choose (G-72)
    table.act("ct", "loadout", figure="c1", weapon="sniper")
    table.act("ct", "commit")
    assert "t1" not in str(RULES.view(table.state, "ct"))
    assert "sniper" not in str(RULES.view(table.state, "t"))  # the CT's choice is secret
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
    assert table.state.fig("c1").weapon == "sniper"


SETUP_ZONES = {
    "ct_start": ["ground:1,1-3,4"],
    "t_start": ["ground:7,1-10,4"],
    "bomb_a": ["ground:5,1-5,1"],
}


def test_the_ct_choose_auto_or_sniper_per_figure_and_any_number_may_snipe() -> None:
    """Issue 10 item 3 (5.1, G-32, G-72): a secret weapon choice for each CT placed at setup."""
    scn = scenario(
        ROOM,
        [
            {"id": "c1", "side": "ct"},
            {"id": "c2", "side": "ct"},
            {"id": "c3", "side": "ct", "equipment": ["auto", "smoke", "stun"]},  # fixed
            {"id": "c4", "side": "ct", "at": "ground:3,4"},  # placed by the file: auto
            {"id": "t1", "side": "t", "at": "ground:9,4", "equipment": ["he", "bomb"]},
        ],
        mission="destruction",
        zones=SETUP_ZONES,
        options={"free_deployment": False},
    )
    table = Table(scn)
    offered = {
        (a.get("figure"), a.get("weapon"))
        for a in RULES.legal_actions(table.state, "ct")
        if a.kind == "loadout"
    }
    assert offered == {("c1", "auto"), ("c1", "sniper"), ("c2", "auto"), ("c2", "sniper")}
    assert [d.side for d in RULES.pending(table.state)] == ["ct"]  # T has nothing open
    with pytest.raises(MalformedActionError, match="one of auto, sniper"):
        table.act("ct", "loadout", figure="c1", weapon="rocket")
    with pytest.raises(IllegalActionError, match="no weapon to choose"):
        table.act("ct", "loadout", figure="c3", weapon="sniper")
    with pytest.raises(IllegalActionError, match="no weapon to choose"):
        table.act("ct", "loadout", figure="c4", weapon="sniper")
    with pytest.raises(IllegalActionError, match="one at a time"):
        table.act("ct", "loadout", figure="c1", weapon="sniper", grenade="smoke")
    table.act("ct", "loadout", figure="c1", weapon="sniper")
    table.act("ct", "loadout", figure="c2", weapon="sniper")  # any number may take one
    with pytest.raises(IllegalActionError, match="no weapon to choose"):
        table.act("ct", "loadout", figure="c2", weapon="auto")  # chosen once
    for figure, x in (("c1", 1), ("c2", 2), ("c3", 3)):
        table.act("ct", "place", figure=figure, at=[0, x, 1])
        table.act("ct", "face", figure=figure, facing="e")
    table.act("ct", "commit")
    weapons = {f: table.state.fig(f).weapon for f in ("c1", "c2", "c3", "c4")}
    assert weapons == {"c1": "sniper", "c2": "sniper", "c3": "auto", "c4": "auto"}
    deployed = [e for e in table.log.events if e.kind == "deployed"][-1]
    assert deployed.audience == frozenset({"ct"})
    assert deployed.data["weapons"] == {"c1": "sniper", "c2": "sniper"}


def test_a_terrorist_cannot_take_a_sniper_rifle_at_setup() -> None:
    scn = scenario(
        ROOM,
        [
            {"id": "c1", "side": "ct", "at": "ground:1,1"},
            {"id": "t1", "side": "t", "equipment": ["bomb"]},
        ],
        mission="destruction",
        zones=SETUP_ZONES,
        options={"free_deployment": False},
    )
    table = Table(scn)
    with pytest.raises(IllegalActionError, match="no weapon to choose"):
        table.act("t", "loadout", figure="t1", weapon="sniper")


SETUP_NAMES = ["setup-hostage", "setup-destruction", "setup-assassination"]


@pytest.mark.parametrize("name", SETUP_NAMES)
def test_each_mission_ships_a_scenario_with_the_secret_setup(name: str) -> None:
    """Issue 10 item 3: T places and equips, CT arms and places, in every mission."""
    path = SCENARIOS / f"{name}.yaml"
    assert check_file(path) == []
    scn = load_scenario(path)
    assert scn.objectives["mission"] == name.removeprefix("setup-")
    table = Table(scn)
    assert table.state.phase == "setup"
    ct = {a.kind for a in RULES.legal_actions(table.state, "ct")}
    t = {a.kind for a in RULES.legal_actions(table.state, "t")}
    assert {"place", "loadout"} <= ct and {"place", "loadout"} <= t
    placed_by_t = {
        str(a.get("figure")) for a in RULES.legal_actions(table.state, "t") if a.kind == "place"
    }
    if name == "setup-hostage":
        assert {f.id for f in scn.figures if f.kind == "hostage"} <= placed_by_t
    if name == "setup-destruction":
        assert "carrier" in t


@pytest.mark.parametrize("name", SETUP_NAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_role_bots_make_the_setup_choices(name: str, seed: int) -> None:
    """The role AI arms, equips and places both sides sensibly, then plays to the end."""
    game = play(SCENARIOS / f"{name}.yaml", seed)
    state = game.state
    assert game.result is not None and game.result.reason
    ct = [f for f in state.ordered() if f.team == "CT" and f.kind == "operative"]
    assert sum(1 for f in ct if f.weapon == "sniper") == 1  # one rifle, like the shipped teams
    deployed = {e.audience: e.data for e in game.log.events if e.kind == "deployed"}
    t_setup = deployed[frozenset({"t"})]
    assert set(t_setup["loadouts"]) == {f.id for f in state.ordered() if f.team == "T"}
    zones = state.zones
    for ident, at in t_setup["placed"].items():
        _level, xy = at.split(":")
        x, y = (int(v) for v in xy.split(","))
        cell = Cell(0, x, y)
        if state.fig(ident).kind == "hostage":
            assert cell in zones.location
        else:
            assert cell in zones.t_start | (zones.location if name == "setup-hostage" else set())
    for at in deployed[frozenset({"ct"})]["placed"].values():
        x, y = (int(v) for v in at.split(":")[1].split(","))
        assert Cell(0, x, y) in zones.ct_start


def test_a_scenario_that_does_not_suit_gogogo_is_a_scenario_error_with_file_and_line() -> None:
    """Issue 8 item 9: new_state reports file:line: field: message, like validate."""
    path = SCENARIOS / "hostage.yaml"
    base = load_scenario(path)
    bad = dataclasses.replace(base, objectives={**base.objectives, "mission": "heist"})
    with pytest.raises(ScenarioError) as caught:
        RULES.new_state(bad, SeededChance(Rng.from_seed(1)), EventLog())
    (problem,) = caught.value.problems
    assert problem.file.endswith("hostage.yaml") and problem.field == "objectives.mission"
    lines = path.read_text().splitlines()
    assert problem.line > 0 and "mission: hostage" in lines[problem.line - 1]
    assert str(problem).startswith(f"{problem.file}:{problem.line}: objectives.mission: ")
