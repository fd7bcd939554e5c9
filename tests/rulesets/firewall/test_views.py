"""Views (§21.4, F-60): the contract, and no secret in 1,000+ random states."""

from __future__ import annotations

from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain
from killhouse.rulesets.firewall.flow import FLOW
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.views import known_ids, secret_ids, view
from killhouse.rulesets.kit.view import view_problems
from tests.conformance import string_values
from tests.rulesets.firewall.test_flow import _game


def _check(state: FirewallState) -> int:
    checked = 0
    for side in state.sides:
        v = view(state, side)
        assert view_problems(v) == []
        secrets = secret_ids(state, side) - known_ids(state, side)
        assert not secrets & string_values(v), f"{side} sees {secrets & string_values(v)}"
        for item in v["seen"]:
            assert "gutz" not in item and "cp" not in item and "grenades" not in item
        checked += 1
    return checked


def test_no_view_names_a_figure_its_side_does_not_see() -> None:
    states = 0
    for seed in (11, 12, 13, 14):
        state, chance, log = _game(("swat", "gang"), seed, limit=15)
        state.board.levels[0].terrain[9, 2:28] = Terrain.WALL  # a wall with gaps at the ends
        pick = Rng.from_seed(seed)
        while state.result is None:
            states += _check(state)
            side = FLOW.pending(state)[0].side
            actions = FLOW.legal_actions(state, side)
            FLOW.apply(state, actions[pick.below(len(actions))], chance, log)
    assert states >= 1000


def test_enemy_behind_a_wall_is_not_in_the_view() -> None:
    state, _chance, _log = _game(("swat", "gang"))
    state.board.levels[0].terrain[9, :] = Terrain.WALL
    v = view(state, "swat")
    assert v["seen"] == [] and all(f["gutz"] for f in v["figures"])
    state.board.levels[0].terrain[9, :] = Terrain.FLOOR
    seen = view(state, "swat")["seen"]
    assert seen and {"id", "at", "status", "weapons"} <= set(seen[0])
    assert "Corp Arms Super High Power" not in seen[0]["weapons"]  # a pistol is concealed


def test_hidden_figures_stay_out_of_every_enemy_view_over_1000_random_states() -> None:
    """§21.5: a Hidden figure is omitted from every enemy view (and from the ids the enemy may
    name) until a reveal; random legal play of "A Walk in the Park", where the squad starts
    Hidden, with every view checked; each reveal names the figure only once it is seen."""
    from pathlib import Path

    from killhouse.engine.game import Game
    from killhouse.scenario.loader import load_scenario

    root = Path(__file__).resolve().parents[3]
    path = root / "scenarios" / "firewall" / "a_walk_in_the_park.yaml"
    checked = hidden_checked = 0
    for seed in range(1, 40):
        game = Game(load_scenario(path), seed)
        pick = Rng.from_seed(seed + 77)
        while game.result is None:
            state: FirewallState = game.state
            for side in state.sides:
                v = view(state, side)
                values = string_values(v)
                known = known_ids(state, side)
                for f in state.figures.values():
                    if f.side != side and f.hidden:
                        hidden_checked += 1
                        assert f.id not in values, f"{side}'s view names hidden {f.id}"
                        assert f.id not in known
                checked += 1
            side = game.pending()[0].side
            actions = game.legal_actions(side)
            game.apply(actions[pick.below(len(actions))])
        if checked >= 1000 and hidden_checked >= 1000:
            break
    assert checked >= 1000 and hidden_checked >= 1000
