"""Equipment in play (§8.0, §10; rulings F-34, F-35, F-109 …): close-combat items carried,
ammunition, reloading, slugs and two-weapon fire."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.events import EventLog
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, ScenarioError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.closecombat import melee_situation
from killhouse.rulesets.firewall.fire import fire_modifier
from killhouse.rulesets.firewall.melee import melee_modifier, melee_terms
from killhouse.rulesets.firewall.shooting import Shot, resolve_shot, shot_problem, shot_situation
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Figure, Status, Team, new_figure
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.test_teams import Dice
from tests.rulesets.firewall.thames import thames

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
    game = thames(1)
    state: FirewallState = game.state
    assert state.figures["porky"].melee == ("ball_peen_hammer",)
    assert state.figures["mr-seoul"].melee == ("sword",)
    assert state.figures["daewoo-3"].melee == ("knife",)
    assert "built_in_weapon" in state.figures["deacon"].cyber


def test_a_sword_is_seen_in_hand_and_a_knife_is_not() -> None:
    game = thames(1)
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
        game = thames(1)
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


# -- ammunition, reloading, slugs, two-weapon fire (§8.0, §8.6; F-34, F-35, F-110, F-111) --

def _range(weapons: tuple[str, ...], target: tuple[int, int] = (10, 4)) -> tuple[
        Board, dict[str, Figure], dict[str, Team]]:
    """A firer at (6, 4) facing east and a Korlon-armoured target (and a second one)."""
    board = Board([Level.blank("street", 48, 48)])
    figures = {
        "f": new_figure("f", "swat", "red", (6, 4), gutz=8, weapons=weapons, facing=(1, 0)),
        "t": new_figure("t", "gang", "blue", target, gutz=8, armour="korlon_pleximesh"),
        "u": new_figure("u", "gang", "blue", (14, 12), gutz=8),
    }
    teams = {"red": Team("red", "swat", ("f",), None, aware=True),
             "blue": Team("blue", "gang", ("t", "u"), None, aware=True)}
    return board, figures, teams


@pytest.mark.parametrize(("weapon", "slug", "attack", "gutz_after"), [
    ("corp_arms_riot_gun", False, "B", 8),  # buckshot B: S loses 1, Korlon 1 × 2 takes it all
    ("corp_arms_riot_gun", True, "SS", 7),  # slug SS: S loses 2, Korlon 1 normal
    ("thorco_whirlwind", True, "B", 8),  # an automatic shotgun's slugs stay B, armour normal
])
def test_slugs_make_a_shotgun_ss_with_armour_normal(weapon: str, slug: bool, attack: str,
                                                    gutz_after: int) -> None:
    board, figures, teams = _range((weapon,))
    shot = Shot("f", weapon, "t", slug=slug)
    assert shot_situation(board, figures, teams, shot).attack_type == attack
    resolve_shot(board, figures, teams, shot, Dice([1, 2]), EventLog())
    assert figures["t"].gutz == gutz_after


def test_no_slugs_from_a_pistol() -> None:
    board, figures, _ = _range(("colt_m2117",))
    assert "no slugs" in str(shot_problem(board, figures, Shot("f", "colt_m2117", "t", slug=True)))


@pytest.mark.parametrize("carried", [1, 2])
def test_one_shot_weapons_and_thrown_items_run_out(carried: int) -> None:
    """Thrown knives: one throw per knife carried; the next throw is refused."""
    board, figures, teams = _range(("throwing_knife",) * carried, target=(8, 4))
    for _ in range(carried):
        figures["f"].combat_used = figures["f"].failed_this_turn = False
        assert shot_problem(board, figures, Shot("f", "throwing_knife", "t")) is None
        resolve_shot(board, figures, teams, Shot("f", "throwing_knife", "t"), Dice([6, 5]),
                     EventLog())
    figures["f"].combat_used = figures["f"].failed_this_turn = False
    assert "no Throwing Knife left" in str(
        shot_problem(board, figures, Shot("f", "throwing_knife", "t")))


def test_a_p_law_fires_once() -> None:
    board, figures, teams = _range(("guo_peng_p_law",))
    resolve_shot(board, figures, teams, Shot("f", "guo_peng_p_law", "t"), Dice([6, 5]),
                 EventLog())
    figures["f"].combat_used = figures["f"].failed_this_turn = False
    assert "left to fire" in str(shot_problem(board, figures, Shot("f", "guo_peng_p_law", "t")))


def test_a_single_shot_weapon_is_unloaded_after_firing() -> None:
    board, figures, teams = _range(("crossbow",))
    resolve_shot(board, figures, teams, Shot("f", "crossbow", "t"), Dice([1, 2]), EventLog())
    assert figures["f"].weapon_state["crossbow"] == "unloaded"
    figures["f"].combat_used = False
    assert "unloaded" in str(shot_problem(board, figures, Shot("f", "crossbow", "t")))


def _thames(keep: tuple[str, ...]) -> Game:
    game = thames(1)
    state: FirewallState = game.state
    for f in state.figures.values():
        if f.id not in keep:
            f.status = Status.RESERVE
        f.move_used = f.combat_used = f.failed_this_turn = False
    for t in state.teams.values():
        t.aware = True
    return game


def _act(game: Game, side: str, team: str) -> None:
    state: FirewallState = game.state
    state.active_team = None
    state.order = (side, *[s for s in state.sides if s != side])
    state.step = 0
    state.teams[team].activated_this_turn = False
    game.apply(Action.make(side, "activate", team=team))


@pytest.mark.parametrize(("weapon", "used", "slot", "ok"), [
    ("jannings_pocket_monster", ("combat",), "move", True),  # one action: the free one
    ("jannings_pocket_monster", ("combat",), "combat", False),
    ("jannings_pocket_monster", ("combat",), None, False),  # the player names the action
    ("crossbow", (), None, True),  # one Turn: both actions, untouched
    ("crossbow", ("move",), None, False),
])
def test_reloading_takes_the_actions_the_weapon_names(
    weapon: str, used: tuple[str, ...], slot: str | None, ok: bool
) -> None:
    game = _thames(("daewoo-1", "thorco-1"))
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    f.weapons = (*f.weapons, weapon)
    f.weapon_state[weapon] = "unloaded"
    _act(game, "daewoo", "seoul")
    f.move_used, f.combat_used = "move" in used, "combat" in used
    action = Action.make("daewoo", "reload", figure="daewoo-1", weapon=weapon, slot=slot)
    if not ok:
        with pytest.raises(IllegalActionError):
            game.apply(action)
        assert f.weapon_state[weapon] == "unloaded"
        return
    game.apply(action)
    assert f.weapon_state[weapon] == "ready"
    assert f.move_used and (f.combat_used if weapon == "crossbow" else True)


def test_clearing_a_jammed_single_shot_weapon_leaves_it_unloaded() -> None:
    game = _thames(("daewoo-1", "thorco-1"))
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    f.weapons = (*f.weapons, "jannings_pocket_monster")
    f.weapon_state["jannings_pocket_monster"] = "jammed"
    _act(game, "daewoo", "seoul")
    game.chance = Dice([1, 2])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "unjam", figure="daewoo-1",
                           weapon="jannings_pocket_monster"))
    assert f.weapon_state["jannings_pocket_monster"] == "unloaded"


def _porky(target: tuple[int, int] = (20, 25)) -> Game:
    """Porky (two Ruger "Defender") facing west in the open street, thorco-1 in range."""
    game = _thames(("porky", "thorco-1", "thorco-2"))
    state: FirewallState = game.state
    porky = state.figures["porky"]
    porky.cell, porky.facing = (26, 25), (-1, 0)
    state.figures["thorco-1"].cell = target
    state.figures["thorco-2"].cell = (20, 26)
    _act(game, "mafia", "porky")
    return game


def test_two_weapon_fire_rolls_both_at_minus_3_even_after_a_failure() -> None:
    game = _porky()
    start = len(game.log)
    # the first fails, the second is still rolled
    game.chance = Dice([6, 5, 1, 2])  # type: ignore[assignment]
    game.apply(Action.make("mafia", "shoot", figure="porky", weapon="ruger_defender",
                           target="thorco-1", weapon2="ruger_defender", target2="thorco-2"))
    shots = [e.data for e in game.log.since(start) if e.kind == "shot"]
    assert [(s["target"], s["result"], s.get("two")) for s in shots] == [
        ("thorco-1", "F", True), ("thorco-2", "S", True)]


def test_two_weapon_fire_modifier_is_minus_3_each() -> None:
    board, figures, teams = _range(("ruger_defender", "ruger_defender"))
    one = shot_situation(board, figures, teams, Shot("f", "ruger_defender", "t"))
    two = shot_situation(board, figures, teams, Shot("f", "ruger_defender", "t",
                                                     two_weapons=True))
    assert fire_modifier(two) == fire_modifier(one) - 3


@pytest.mark.parametrize(("weapons", "weapon2", "message"), [
    (("ruger_defender",), "ruger_defender", "two-weapon fire needs two"),
    (("ruger_defender", "hk_mp5261v"), "hk_mp5261v", "not a one-handed weapon"),
])
def test_two_weapon_fire_needs_two_one_handed_weapons(
    weapons: tuple[str, ...], weapon2: str, message: str
) -> None:
    game = _porky()
    state: FirewallState = game.state
    state.figures["porky"].weapons = weapons
    with pytest.raises(IllegalActionError, match=message):
        game.apply(Action.make("mafia", "shoot", figure="porky", weapon="ruger_defender",
                               target="thorco-1", weapon2=weapon2))
    assert not state.figures["porky"].combat_used


def test_the_second_shot_is_lost_when_the_first_kills_its_target() -> None:
    game = _porky()
    state: FirewallState = game.state
    start = len(game.log)
    # CS: the SS table kills thorco-1
    game.chance = Dice([1, 1, 6, 6, 6, 6])  # type: ignore[assignment]
    game.apply(Action.make("mafia", "shoot", figure="porky", weapon="ruger_defender",
                           target="thorco-1", weapon2="ruger_defender"))
    assert state.figures["thorco-1"].status is Status.KILLED
    kinds = [e.kind for e in game.log.since(start)]
    assert kinds.count("shot") == 1 and "second-shot-lost" in kinds


def test_two_weapon_fire_is_offered_to_porky() -> None:
    game = _porky()
    offered = [a for a in game.legal_actions("mafia")
               if a.kind == "shoot" and a.get("weapon2") == "ruger_defender"]
    assert offered
