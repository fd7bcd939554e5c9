"""Hide and Search (§21.5, §16.1-16.2; rulings F-104 … F-107) played on Triple-Cross."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from killhouse.scenario.loader import load_scenario
from tests.conformance import assert_no_leak
from tests.rulesets.firewall.park import as_written
from tests.rulesets.firewall.test_teams import Dice
from tests.rulesets.firewall.thames import thames

ROOT = Path(__file__).resolve().parents[3]
PARK = ROOT / "scenarios" / "firewall" / "a_walk_in_the_park.yaml"
THAMES = ROOT / "scenarios" / "firewall" / "triple_cross.yaml"
#: an alley square of clutter 2 below the north-west warehouse
HIDE_AT = (5, 22)


def _stage(path: Path = THAMES, keep: tuple[str, ...] = ("daewoo-1", "thorco-1")) -> Game:
    """A game with only the ``keep`` figures on the table (the rest held in reserve), every
    team aware and the daewoo team active."""
    game = thames(1, path=path)
    state: FirewallState = game.state
    for f in state.figures.values():
        if f.id not in keep:
            f.status = Status.RESERVE
            state.entering.discard(f.id)
        f.move_used = f.combat_used = f.failed_this_turn = False
    for t in state.teams.values():
        t.aware = True
    state.figures["daewoo-1"].cell = HIDE_AT
    if "thorco-1" in state.figures:
        state.figures["thorco-1"].cell = (10, 2)  # north of the warehouse: no line of sight
    return game


def _activate(game: Game, side: str, team: str) -> None:
    state: FirewallState = game.state
    state.active_team = None
    state.order = (side, *[s for s in state.sides if s != side])
    state.step = 0
    state.teams[team].activated_this_turn = False
    game.apply(Action.make(side, "activate", team=team))


def _seen(game: Game, side: str) -> set[str]:
    return {s["id"] for s in game.view(side)["seen"]}


def _hide(game: Game, faces: list[int]) -> None:
    _activate(game, "daewoo", "seoul")
    game.chance = Dice(faces)  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "hide", figure="daewoo-1"))


@pytest.mark.parametrize(("faces", "hidden", "gutz", "failed"), [
    ([1, 1], True, 7, False),  # CS: Hidden and +1 Gutz
    ([1, 2], True, 6, False),  # S at Stealth 1: 3 ≤ ⌊6/2⌋
    ([2, 2], False, 5, True),  # a double above ⌊6/2⌋ is CF at level 1: −1, failed
    ([1, 3], False, 6, True),  # F: 4 > 3 (one past the edge)
])
def test_a_hide_is_a_stealth_roll(faces: list[int], hidden: bool, gutz: int,
                                  failed: bool) -> None:
    game = _stage()
    _hide(game, faces)
    f = game.state.figures["daewoo-1"]
    assert (f.hidden, f.gutz, f.failed_this_turn, f.move_used) == (hidden, gutz, failed, True)


def test_a_hidden_figure_leaves_every_enemy_view_until_it_walks() -> None:
    game = _stage()
    state: FirewallState = game.state
    _hide(game, [1, 2])
    state.figures["thorco-1"].cell = (10, 22)  # in the open, in line of sight
    game.apply(Action.make("daewoo", "end"))
    assert "daewoo-1" not in _seen(game, "thorco")
    assert "thorco-1" in _seen(game, "daewoo")


@pytest.mark.parametrize(("clutter", "cover", "ok"), [
    (2, 0, True), (1, 0, False), (0, 1, True), (0, 0, False),
])
def test_a_hide_needs_cover_or_clutter_2(clutter: int, cover: int, ok: bool) -> None:
    game = _stage()
    state: FirewallState = game.state
    level = state.board.levels[0]
    level.clutter[HIDE_AT[1], HIDE_AT[0]] = clutter
    level.cover[HIDE_AT[1], HIDE_AT[0]] = cover
    _activate(game, "daewoo", "seoul")
    action = Action.make("daewoo", "hide", figure="daewoo-1")
    if ok:
        game.chance = Dice([1, 2])  # type: ignore[assignment]
        game.apply(action)
        assert state.figures["daewoo-1"].hidden
    else:
        with pytest.raises(IllegalActionError, match="no cover"):
            game.apply(action)
        assert not state.figures["daewoo-1"].move_used


def test_no_hide_while_an_enemy_sees_the_figure_but_a_hidden_watcher_is_secret() -> None:
    game = _stage()
    state: FirewallState = game.state
    state.figures["thorco-1"].cell = (10, 22)
    _activate(game, "daewoo", "seoul")
    before = len(game.log.events)
    with pytest.raises(IllegalActionError, match="thorco-1 sees daewoo-1"):
        game.apply(Action.make("daewoo", "hide", figure="daewoo-1"))
    assert len(game.log.events) == before
    state.figures["thorco-1"].hidden = True  # ruling F-105: the hider cannot know of him
    game.chance = Dice([1, 2])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "hide", figure="daewoo-1"))
    assert state.figures["daewoo-1"].hidden


def test_hide_and_search_need_the_skills_option() -> None:
    game = as_written(Game(load_scenario(PARK), 1))
    state: FirewallState = game.state
    assert not state.skills
    _activate(game, "snatch", "squad")
    assert [a for a in game.legal_actions("snatch") if a.kind == "move"]
    assert not [a for a in game.legal_actions("snatch") if a.kind in ("hide", "search")]
    with pytest.raises(IllegalActionError, match="F-104"):
        game.apply(Action.make("snatch", "search", figure="snatch-2"))


def _hidden_pair(searcher_cyber: frozenset[str] = frozenset()) -> Game:
    """thorco-1 Hidden in the alley; daewoo-1 in the open 5 squares east, in sight of it."""
    game = _stage()
    state: FirewallState = game.state
    hider, searcher = state.figures["thorco-1"], state.figures["daewoo-1"]
    hider.cell, hider.hidden = HIDE_AT, True
    searcher.cell, searcher.cyber = (10, 22), searcher_cyber
    searcher.skills = {"observation": 2}
    searcher.gutz = 7
    _activate(game, "daewoo", "seoul")
    return game


@pytest.mark.parametrize(("faces", "revealed"), [
    ([1, 2, 3, 4], True),  # searcher S (3 ≤ 7), hider F at Stealth 1 (7 > 3)
    ([1, 2, 1, 2], False),  # both S, Observation 2 = Stealth 2: the Veteran hider wins
    ([4, 5, 1, 2], False),  # searcher F (9 > 7), hider S (3 ≤ 3)
    ([6, 5, 6, 4], True),  # both F: the searcher's Observation 2 beats Stealth 1
])
def test_a_search_is_a_contest_of_observation_and_stealth(faces: list[int],
                                                         revealed: bool) -> None:
    game = _hidden_pair()
    state: FirewallState = game.state
    hider = state.figures["thorco-1"]
    hider.skills = {"stealth": 2} if faces == [1, 2, 1, 2] else {"stealth": 1}
    hider.experience = "veteran" if faces == [1, 2, 1, 2] else "normal"
    game.chance = Dice(faces)  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "search", figure="daewoo-1"))
    assert hider.hidden is not revealed
    assert ("thorco-1" in _seen(game, "daewoo")) is revealed


@pytest.mark.parametrize(("cyber", "faces", "found"), [
    (frozenset(), [3, 5], False),  # 8 > 7: F
    (frozenset({"enhanced_vision"}), [3, 5], True),  # 8 ≤ 7 + 1: S (edge)
    (frozenset({"enhanced_vision"}), [4, 5], False),  # 9 > 8: one past
    (frozenset({"enhanced_vision", "cyber_ear"}), [4, 5], True),  # the better: +2
    (frozenset({"cyber_ear"}), [4, 6], False),  # 10 > 9
])
def test_a_searcher_adds_the_better_of_enhanced_vision_and_cyber_ear(
    cyber: frozenset[str], faces: list[int], found: bool
) -> None:
    game = _hidden_pair(cyber)
    state: FirewallState = game.state
    hider = state.figures["thorco-1"]
    hider.skills = {"stealth": 2}
    hider.gutz = 7
    # the hider rolls F (11 > 7); a searcher's S wins; a searcher's F ties on the category
    # and the level (2 and 2) and loses on experience (Normal against the Veteran hider)
    hider.experience = "veteran"
    game.chance = Dice([*faces, 6, 5])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "search", figure="daewoo-1"))
    assert hider.hidden is not found


def test_a_search_that_finds_nothing_tells_the_searcher_nothing() -> None:
    game = _hidden_pair()
    state: FirewallState = game.state
    state.figures["thorco-1"].skills = {"stealth": 3}
    known = game.ruleset.known_ids(state, "daewoo")
    start = len(game.log.events)
    game.chance = Dice([3, 4, 2, 2])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "search", figure="daewoo-1"))
    assert state.figures["thorco-1"].hidden
    assert_no_leak(game, "daewoo", known, start)
    mine = [e for e in game.log.events[start:] if e.audience is None or "daewoo" in e.audience]
    assert all("thorco-1" not in str(e.data) for e in mine)
    theirs = [e.kind for e in game.log.events[start:] if e.audience == frozenset({"thorco"})]
    assert "unseen" in theirs


def test_a_hider_out_of_sight_is_not_tested() -> None:
    game = _hidden_pair()
    state: FirewallState = game.state
    state.figures["thorco-1"].cell = (10, 2)  # behind the warehouse
    game.chance = Dice([1, 2])  # type: ignore[assignment]  # the searcher's roll only
    game.apply(Action.make("daewoo", "search", figure="daewoo-1"))
    assert state.figures["thorco-1"].hidden


def test_play_that_prefers_hiding_and_searching_leaks_nothing() -> None:
    """Random legal Triple-Cross play that hides whenever it may and searches one time in
    three (else any action), with the invariants and the leak check for every side after every
    action; it hides, finds and misses."""
    from killhouse.core.rng import Rng

    kinds: list[str] = []
    for seed in (1, 2):
        game = thames(seed)
        rng = Rng.from_seed(seed)
        state: FirewallState = game.state
        sides = list(state.sides)
        # each team starts in a clutter-2 strip: the alleys (row 22) and the wharf (row 44)
        strips = {"daewoo": (4, 22), "thorco": (31, 23), "mafia": (10, 44)}
        for side, (x0, y) in strips.items():
            for i, f in enumerate(f for f in state.figures.values() if f.side == side):
                f.cell = (x0 + i, y)
                f.hidden = i % 2 == 0  # every other one placed Hidden (§21.5 deployment)
        for _ in range(700):
            pending = game.pending()
            if not pending:
                break
            side = pending[0].side
            actions = [a for a in game.legal_actions(side) if not a.get("exit")]
            hides = [a for a in actions if a.kind == "hide"]
            searches = [a for a in actions if a.kind == "search"]
            pool = hides or (searches if searches and not rng.below(3) else actions)
            action = pool[rng.below(len(pool))]
            before = {s: game.ruleset.known_ids(game.state, s) for s in sides}
            start = len(game.log)
            game.apply(action)
            assert not game.ruleset.invariants(game.state)
            for other in sides:
                assert_no_leak(game, other, before[other], start)
            kinds += [e.kind for e in game.log.since(start)]
    assert {"hide", "search", "unseen", "revealed"} <= set(kinds)


def test_a_reveal_is_told_only_to_the_sides_that_see_the_figure() -> None:
    """A Hidden figure that walks out of every enemy's sight is revealed, but no enemy side
    hears of it (it was a public event before)."""
    game = _stage(keep=("daewoo-1", "thorco-1", "porky"))
    state: FirewallState = game.state
    state.figures["daewoo-1"].hidden = True
    state.figures["thorco-1"].cell = (10, 2)  # behind the warehouse
    state.figures["porky"].cell = (20, 22)  # in the open, in sight of the alley
    _activate(game, "daewoo", "seoul")
    start = len(game.log)
    game.chance = Dice([1, 2])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "move", figure="daewoo-1", speed="walk",
                           path=[[0, 5, 23]]))
    revealed = [e for e in game.log.since(start) if e.kind == "revealed"]
    # ruling F-196: the GM, who sees the whole table, hears it too; thorco does not
    assert len(revealed) == 1
    assert revealed[0].audience == frozenset({"daewoo", "mafia", "gm"})


def test_a_hidden_searcher_is_not_named_to_the_hider_s_side() -> None:
    game = _hidden_pair()
    state: FirewallState = game.state
    state.figures["daewoo-1"].hidden = True
    state.last_seen.clear()  # thorco has never seen daewoo-1 (F-103 would let it name him)
    state.figures["thorco-1"].skills = {"stealth": 2}
    start = len(game.log)
    game.chance = Dice([4, 5, 1, 2])  # type: ignore[assignment]  # searcher F, hider S
    game.apply(Action.make("daewoo", "search", figure="daewoo-1"))
    unseen = [e.for_side("thorco") for e in game.log.since(start) if e.kind == "unseen"]
    assert unseen and unseen[0] is not None and unseen[0]["by"] is None
    assert state.figures["daewoo-1"].hidden  # a search is no Walk, Run or Combat action
