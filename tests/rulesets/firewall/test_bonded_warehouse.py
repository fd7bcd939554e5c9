"""Our fifth scenario, "The Bonded Warehouse": building sections (§12), surface heights and
walls between storeys (§6.6, rulings F-250 … F-252) in a shipped map, and the role AI
playing it to a result over them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from killhouse.core.rng import derive_seed
from killhouse.engine.game import Game
from killhouse.rulesets import get_ruleset
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.scenario.loader import load_scenario
from killhouse.sim.batch import play

WAREHOUSE = (Path(__file__).resolve().parents[3] / "scenarios" / "firewall"
             / "bonded_warehouse.yaml")


def _game() -> Game:
    game = Game(load_scenario(WAREHOUSE), 1)
    state: FirewallState = game.state
    for t in state.teams.values():
        t.aware = True
    return game


def _offers(game: Game, at: tuple[int, int, int]) -> set[tuple[str, tuple[int, ...]]]:
    """What alpha-4 may climb or jump to from ``at`` once alpha is activated."""
    state: FirewallState = game.state
    f = state.figures["alpha-4"]
    f.level, f.cell = at[0], (at[1], at[2])
    state.active_team = None
    state.order, state.step = ("swat", "gang"), 0
    state.teams["alpha"].activated_this_turn = False
    game.apply(Action.make("swat", "activate", team="alpha"))
    return {(a.kind, tuple(a.get("to"))) for a in game.legal_actions("swat")
            if a.kind in ("climb", "jump") and a.get("figure") == "alpha-4"}


def test_it_validates_with_armoured_sections_and_ten_cm_storeys() -> None:
    scenario = load_scenario(WAREHOUSE)
    assert get_ruleset("firewall").check_scenario(scenario) == []
    state: FirewallState = Game(scenario, 1).state
    assert state.storey_cm == 10
    assert {s.id: (len(s.squares), s.armour) for s in state.sections.values()} == {
        "vault-nw": (20, "medium"), "vault-ne": (16, "medium"), "vault-sw": (15, "medium"),
        "vault-se": (12, "medium")}
    vault = {(x, y) for x in range(1, 10) for y in range(1, 8)}
    covered = [c for s in state.sections.values() for c in s.squares]
    assert sorted(covered) == sorted(vault)  # the whole vault, each square once


def test_the_ways_over_walls_containers_and_the_dock() -> None:
    assert ("climb", (1, 5, 6)) in _offers(_game(), (0, 5, 8))  # in at the vault's window
    assert ("climb", (1, 20, 7)) in _offers(_game(), (0, 20, 8))  # up to the annex roof
    assert ("climb", (0, 4, 10)) in _offers(_game(), (0, 4, 9))  # onto a container
    assert ("jump", (0, 12, 13)) in _offers(_game(), (0, 12, 11))  # over the dock's wall
    assert not _offers(_game(), (0, 23, 8)) & {("climb", (1, 23, 7))}  # the door below


def test_the_role_ai_plays_it_to_a_result_over_the_walls() -> None:
    # game 2 of seed 1: since doors open (F-230) most games go in by the doors; this one climbs
    game = play(load_scenario(WAREHOUSE), derive_seed(1, 2))
    assert game.result is not None and game.result.reason
    kinds = Counter(e.kind for e in game.log.events)
    assert kinds["climb"] >= 1
