"""The shipped raid end to end: a leak test over more than 1,000 random states (plots,
unobserved men), and the role AI finishing games from its own side's view."""

from __future__ import annotations

from collections import Counter

from killhouse.ai.registry import bot_for
from killhouse.ai.roles.commando import DefenderBot, RaiderBot
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.scenario.loader import load_scenario
from tests.conformance import ROOT, random_playout

RAID = ROOT / "scenarios" / "commando" / "radar_raid.yaml"


def test_no_leak_across_a_thousand_random_states() -> None:
    scenario = load_scenario(RAID)
    states = 0
    plotted_hidden = 0
    for seed in (11, 12):
        for game in random_playout(scenario, seed):  # checks every side's view and events
            states += 1
            snap = game.ruleset.snapshot(game.state)
            for fig in snap["figures"]:
                if fig["plotted"]:
                    enemy = game.state.enemy(fig["side"])
                    enemy_view = game.ruleset.view(game.state, enemy)
                    assert all("plotted" not in s for s in enemy_view["seen"])
                    plotted_hidden += 1
    assert states >= 1000
    assert plotted_hidden > 0


def test_role_ai_plays_the_raid_to_a_result_from_its_own_view() -> None:
    scenario = load_scenario(RAID)
    assert isinstance(bot_for(scenario, "raiders"), RaiderBot)
    assert isinstance(bot_for(scenario, "guards"), DefenderBot)
    outcomes: Counter[str | None] = Counter()
    guards_down = 0
    for seed in range(6):
        game = Game(scenario, seed)
        bots = {s: bot_for(scenario, s) for s in scenario.side_ids()}
        rng = Rng.from_seed(seed)
        while game.pending():
            side = game.pending()[0].side
            view = game.view(side)
            assert view["side"] == side
            game.apply(bots[side].choose(view, game.legal_actions(side), rng))
        assert game.result is not None and game.result.reason
        outcomes[game.result.winner] += 1
        guards_down += game.ruleset.casualties(game.state)["guards"]
    # the raiders do close and shoot (the raid is balanced near even since C-120's cover)
    assert guards_down >= 6
    assert sum(outcomes.values()) == 6
