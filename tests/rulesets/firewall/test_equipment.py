"""Equipment in play (§8.0, §10; rulings F-34, F-35, F-109 …): close-combat items carried,
ammunition, reloading, slugs and two-weapon fire."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from killhouse.core.board import Board, Level
from killhouse.engine.game import Game
from killhouse.errors import ScenarioError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.closecombat import melee_situation
from killhouse.rulesets.firewall.melee import melee_modifier, melee_terms
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Figure, Status, Team, new_figure
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.test_teams import Dice

ROOT = Path(__file__).resolve().parents[3]
THAMES = ROOT / "scenarios" / "firewall" / "triple_cross.yaml"


def _pair(**kit: Any) -> tuple[Board, dict[str, Figure], dict[str, Team]]:
    board = Board([Level.blank("street", 20, 20)])
    figures = {
        "a": new_figure("a", "red", "r", (5, 5), gutz=8, **kit),
        "t": new_figure("t", "blue", "b", (6, 5), gutz=8),
    }
    teams = {"r": Team("r", "red", ("a",), None, aware=True),
             "b": Team("b", "blue", ("t",), None, aware=True)}
    return board, figures, teams


@pytest.mark.parametrize(("melee", "weapons", "cyber", "weapon_term", "total"), [
    ((), (), frozenset(), 0, 0),  # unarmed
    (("knife",), (), frozenset(), 1, 1),
    (("ball_peen_hammer",), (), frozenset(), 2, 2),  # §10 check: "ball-peen hammer +2"
    (("knife", "sword"), (), frozenset(), 2, 2),  # the best single weapon only
    (("chainsaw",), (), frozenset(), 3, 3),
    # §10 check: a cyber arm with a built-in blade is +3 (blade 1, built-in 1, arm 1)
    ((), ("thorco_12mm_magnum",), frozenset({"cyber_arm", "built_in_weapon"}), 1, 3),
    # a sword does as well as the blade and its built-in bonus: the sword, +2 and the arm
    (("sword",), (), frozenset({"cyber_arm", "built_in_weapon"}), 2, 3),
])
def test_close_combat_items_carried_count_once(
    melee: tuple[str, ...], weapons: tuple[str, ...], cyber: frozenset[str], weapon_term: int,
    total: int,
) -> None:
    board, figures, teams = _pair(melee=melee, weapons=weapons, cyber=cyber)
    s = melee_situation(board, figures, teams, "a", "t")
    assert dict(melee_terms(s)).get("weapon", 0) == weapon_term
    assert melee_modifier(s) == total


def test_triple_cross_carries_the_seed_s_close_combat_kit() -> None:
    game = Game(load_scenario(THAMES), 1)
    state: FirewallState = game.state
    assert state.figures["porky"].melee == ("ball_peen_hammer",)
    assert state.figures["mr-seoul"].melee == ("sword",)
    assert state.figures["daewoo-3"].melee == ("knife",)
    assert "built_in_weapon" in state.figures["deacon"].cyber


def test_a_sword_is_seen_in_hand_and_a_knife_is_not() -> None:
    game = Game(load_scenario(THAMES), 1)
    state: FirewallState = game.state
    for f in state.figures.values():
        if f.side not in ("daewoo", "thorco"):
            f.status = Status.RESERVE
    state.figures["mr-seoul"].cell = (20, 25)  # the open street
    state.figures["daewoo-1"].cell = (21, 25)
    state.figures["thorco-1"].cell = (24, 25)
    seen = {s["id"]: s for s in game.view("thorco")["seen"]}
    assert "sword" in seen["mr-seoul"]["weapons"]
    assert all("knife" not in w for w in seen["daewoo-1"]["weapons"])
    assert game.view("daewoo")["figures"][0]["melee"] in (["sword"], ["knife"])


def test_an_unknown_item_gets_one_clear_message(tmp_path: Path) -> None:
    text = THAMES.read_text().replace("ball-peen hammer]", "lightsaber]", 1)
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(ScenarioError, match=r"lightsaber.*close-combat item"):
        Game(load_scenario(bad), 1)


def test_a_knife_in_play_adds_one() -> None:
    """A close-combat attack in Triple-Cross: a daewoo man whose IMI Buzzard (an SMG, +2) is
    useless still has his knife: the roll's target is 6 + 1 = 7 (the edge) and 8 fails."""
    for dice, result in (([3, 4], "S"), ([3, 5], "F")):
        game = Game(load_scenario(THAMES), 1)
        state: FirewallState = game.state
        for f in state.figures.values():
            if f.id not in ("daewoo-1", "thorco-1"):
                f.status = Status.RESERVE
            f.move_used = f.combat_used = f.failed_this_turn = False
        for t in state.teams.values():
            t.aware = True
        state.figures["daewoo-1"].cell = (20, 25)  # the open street, clutter 0
        state.figures["daewoo-1"].weapon_state["imi_buzzard"] = "useless"
        state.figures["thorco-1"].cell = (21, 25)
        state.active_team = None
        state.order = ("daewoo", "thorco", "mafia", "gm")
        state.step = 0
        state.teams["seoul"].activated_this_turn = False
        game.apply(Action.make("daewoo", "activate", team="seoul"))
        start = len(game.log)
        game.chance = Dice(dice)  # type: ignore[assignment]
        game.apply(Action.make("daewoo", "close-combat", figure="daewoo-1", target="thorco-1"))
        fight = [e for e in game.log.since(start) if e.kind == "close-combat"]
        assert fight and fight[0].data["result"] == result
