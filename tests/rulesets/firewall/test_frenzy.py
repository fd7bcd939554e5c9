"""Green Jeans' Berserk and Wah-Wah Juice's Paranoid (§15; rulings F-41, F-192, F-193): the
engine narrows a berserk figure's legal actions and its player picks among them; a paranoid
figure changes sides and its new player decides for it."""

from __future__ import annotations

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.drugplay import end_effects
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from killhouse.scenario.loader import loads_scenario
from tests.conformance import assert_no_leak
from tests.rulesets.firewall.test_teams import Dice

GUN = "equipment: [hk_mp5261v]"
FIGURES = [
    '{id: r1, side: red, team: r, leader: true, at: "ground:2,2", facing: e, '
    + GUN + ", drugs: {green_jeans: 1, wah_wah_juice: 1}}",
    '{id: r2, side: red, team: r, at: "ground:2,4", facing: e, ' + GUN + "}",
    '{id: r3, side: red, team: r, at: "ground:1,4", facing: e, ' + GUN + "}",
    '{id: b1, side: blue, team: b, at: "ground:7,2", facing: w, ' + GUN + "}",
    '{id: b2, side: blue, team: b, at: "ground:12,2", facing: w, ' + GUN + "}",
]
GREEN = '{id: g1, side: green, team: g, at: "ground:19,5", facing: w, ' + GUN + "}"


def _text(sides: tuple[str, ...], figures: list[str]) -> str:
    rows = "\n".join("      " + "." * 20 for _ in range(6))
    listed = "".join(f"  - {{id: {s}, controller: human}}\n" for s in sides)
    figs = "".join("  - " + f.replace("{id:", "{type: ganger, gutz: 7, id:", 1) + "\n"
                   for f in figures)
    return (f"name: Frenzy\nruleset: firewall\nmap:\n  levels:\n    ground: |\n{rows}\n"
            f"sides:\n{listed}figures:\n{figs}")


FIELD = _text(("red", "blue", "green"), [*FIGURES, GREEN])
TWO_SIDES = _text(("red", "blue"), FIGURES)


def _game(sides: str = "red,blue,green", berserk: bool = True) -> Game:
    text = FIELD if "green" in sides else TWO_SIDES
    game = Game(loads_scenario(text), 1)
    state: FirewallState = game.state
    for t in state.teams.values():
        t.aware = True
    if berserk:
        state.figures["r1"].drug_effects["green_jeans"] = "critical"
    state.active_team = None
    state.order, state.step = ("red", *[s for s in state.sides if s != "red"]), 0
    game.apply(Action.make("red", "activate", team="r"))
    return game


def _r1(game: Game) -> list[Action]:
    return [a for a in game.legal_actions("red") if a.get("figure") == "r1"]


def test_a_berserk_figure_may_only_run_at_the_nearest_enemy() -> None:
    game = _game()
    acts = _r1(game)
    assert acts and {a.kind for a in acts} == {"move"}
    assert all(a.get("speed") == "run" for a in acts)
    b1 = game.state.figures["b1"].cell
    for a in acts:  # every run ends nearer to b1 (5 squares east) than (2,2) is
        end = a.get("path")[-1]
        assert (end[1] - b1[0]) ** 2 + (end[2] - b1[1]) ** 2 < 25
    # the other figures of its team are free
    assert any(a.kind == "shoot" for a in game.legal_actions("red") if a.get("figure") == "r2")
    with pytest.raises(IllegalActionError, match="berserk"):
        game.apply(Action.make("red", "shoot", figure="r1", weapon="hk_mp5261v", target="b1"))
    with pytest.raises(IllegalActionError, match="runs at the nearest"):
        game.apply(Action.make("red", "move", figure="r1", speed="walk", path=[[0, 3, 2]]))
    with pytest.raises(IllegalActionError, match="nearer to the nearest"):
        game.apply(Action.make("red", "move", figure="r1", speed="run", path=[[0, 0, 2]]))


@pytest.mark.parametrize(("end", "legal"), [
    ((3, 5), False),  # d² to b1 at (7,2) is 25, as from (2,2): not nearer (the edge)
    ((3, 4), True),  # d² 20: nearer
    ((2, 3), False),  # d² 26: farther
])
def test_a_berserk_run_must_end_nearer(end: tuple[int, int], legal: bool) -> None:
    game = _game()
    action = Action.make("red", "move", figure="r1", speed="run", path=[[0, *end]])
    game.chance = Dice([1, 2])  # type: ignore[assignment]
    if legal:
        game.apply(action)
        assert game.state.figures["r1"].cell == end
    else:
        with pytest.raises(IllegalActionError, match="nearer to the nearest"):
            game.apply(action)


def test_the_activation_stays_open_while_the_berserk_figure_can_run() -> None:
    game = _game()
    assert "end" not in {a.kind for a in game.legal_actions("red")}
    with pytest.raises(IllegalActionError, match="must still run at"):
        game.apply(Action.make("red", "end"))
    game.chance = Dice([1, 2])  # type: ignore[assignment]  # S: it runs to b1
    game.apply(Action.make("red", "move", figure="r1", speed="run", path=[[0, 6, 2]]))
    assert game.state.figures["r1"].cell == (6, 2)
    # now beside b1: its Combat action must be close combat with b1, and it must take it
    acts = _r1(game)
    assert {(a.kind, a.get("target")) for a in acts} == {("close-combat", "b1")}
    assert "end" not in {a.kind for a in game.legal_actions("red")}
    game.chance = Dice([3, 4, 1, 1])  # type: ignore[assignment]
    game.apply(acts[0])
    assert "end" in {a.kind for a in game.legal_actions("red")}


def test_ties_leave_the_choice_to_the_player() -> None:
    game = _game()
    state: FirewallState = game.state
    state.figures["b2"].cell = (2, 0)  # two squares north, as near as b1
    state.figures["b1"].cell = (4, 2)
    targets = {tuple(a.get("path")[-1][1:]) for a in _r1(game)}
    assert any(t[1] < 2 for t in targets) and any(t[0] > 2 for t in targets)


def test_with_no_enemy_in_sight_it_hunts_freely_but_does_not_shoot() -> None:
    game = _game()
    state: FirewallState = game.state
    for fid in ("b1", "b2", "g1"):
        state.figures[fid].status = Status.RESERVE
    kinds = {a.kind for a in _r1(game)}
    assert kinds == {"move"}
    assert {a.get("speed") for a in _r1(game)} >= {"walk", "crawl"}
    assert "end" in {a.kind for a in game.legal_actions("red")}


def test_berserk_lasts_until_death() -> None:
    game = _game()
    f = game.state.figures["r1"]
    f.drug_effects["locust_8"] = "good"
    assert end_effects(f) == ["locust_8"]  # a later CF ends the rest
    assert f.drug_effects == {"green_jeans": "critical"}


def test_green_jeans_critical_failure_makes_the_figure_berserk() -> None:
    game = _game(berserk=False)
    game.chance = Dice([4, 4])  # type: ignore[assignment]  # a double above 7: CF
    game.apply(Action.make("red", "drug", figure="r1", drug="green_jeans"))
    assert game.state.figures["r1"].drug_effects == {"green_jeans": "critical"}


def _paranoid(sides: str, faces: list[int]) -> Game:
    game = _game(sides, berserk=False)
    game.chance = Dice(faces)  # type: ignore[assignment]
    game.apply(Action.make("red", "drug", figure="r1", drug="wah_wah_juice"))
    return game


def test_paranoid_hands_the_figure_to_the_opposing_side() -> None:
    # CF (5,5); the leader defects: r2 and r3 roll for the lost leader (F-6): (2,2) and (3,4)
    game = _paranoid("red,blue", [5, 5, 2, 2, 3, 4])
    state: FirewallState = game.state
    f = state.figures["r1"]
    assert f.side == "blue" and f.team == "r1-paranoid" and not f.is_leader
    assert state.teams["r1-paranoid"].side == "blue" and state.teams["r1-paranoid"].aware
    assert "r1" not in state.teams["r"].members and state.teams["r"].leader_lost
    assert state.figures["r2"].gutz == 8  # (2,2): inspired
    event = next(e for e in game.log.events if e.kind == "paranoid")
    assert event.audience == frozenset({"red", "blue"})
    assert "r1" in game.ruleset.known_ids(state, "red")
    assert any(v["id"] == "r1" for v in game.view("blue")["figures"])
    assert not any(v["id"] == "r1" for v in game.view("red")["figures"])


@pytest.mark.parametrize(("face", "side"), [(1, "blue"), (2, "green")])
def test_with_two_opponents_one_is_drawn(face: int, side: str) -> None:
    game = _paranoid("red,blue,green", [5, 5, face, 2, 2, 3, 4])
    assert game.state.figures["r1"].side == side


def test_a_scenario_may_carry_green_jeans_and_wah_wah_juice() -> None:
    scenario = loads_scenario(FIELD)
    assert {"green_jeans", "wah_wah_juice"} <= {
        k for f in scenario.figures for k in (f.extra.get("drugs") or {})}


def test_random_play_with_frenzied_figures_leaks_nothing() -> None:
    """Random legal play where every figure carries both drugs and takes them first: the
    invariants, the view contract and the leak check for every side after every action."""
    from killhouse.core.rng import Rng
    from killhouse.rulesets.kit.view import view_problems

    kinds: list[str] = []
    text = _text(("red", "blue", "green"), [
        f.replace(", drugs: {green_jeans: 1, wah_wah_juice: 1}", "").replace(
            GUN, GUN + ", drugs: {green_jeans: 2, wah_wah_juice: 2}")
        for f in [*FIGURES, GREEN]])
    for seed in range(1, 9):
        game = Game(loads_scenario(text), seed)
        rng = Rng.from_seed(seed)
        sides = list(game.state.sides)
        for _ in range(400):
            pending = game.pending()
            if not pending:
                break
            side = pending[0].side
            actions = [a for a in game.legal_actions(side) if not a.get("exit")]
            drugs = [a for a in actions if a.kind == "drug"]
            pool = drugs if drugs and rng.below(2) else actions
            action = pool[rng.below(len(pool))]
            before = {s: game.ruleset.known_ids(game.state, s) for s in sides}
            start = len(game.log)
            game.apply(action)
            assert not game.ruleset.invariants(game.state)
            for other in sides:
                assert not view_problems(game.view(other))
                assert_no_leak(game, other, before[other], start)
            kinds += [e.kind for e in game.log.since(start)]
            kinds += [f"berserk:{e.data['figure']}" for e in game.log.since(start)
                      if e.kind == "drug" and e.data.get("drug") == "green_jeans"
                      and e.data.get("result") == "CF"]
    assert "paranoid" in kinds and any(k.startswith("berserk:") for k in kinds)
