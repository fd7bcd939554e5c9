"""Hostages harmed by blasts, Claymores and stray fire (rulings C-190, C-191): the blast
radius at its edge and one past it, closed rooms, a hostage's Endurance, the victim drawn in
the target's square, and who is told."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.errors import ScenarioError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import explosions, firing, hostages, mines
from killhouse.rulesets.commando.devices import Mine
from killhouse.scenario.loader import loads_scenario
from killhouse.scenario.model import FigureSpec
from tests.rulesets.commando.arena import (
    activate,
    arena,
    declare,
    events,
    hold_windows,
    registered,
    state,
)

pytestmark = pytest.mark.usefixtures(registered.__name__)

EMBASSY = Path(__file__).parents[3] / "scenarios" / "commando" / "embassy_rescue.yaml"
OUT = {Cell(0, x, y) for x in (0, 1) for y in range(9)}


def game_of(held: dict[str, tuple[int, int]], *, kane: tuple[int, int] = (5, 4),
            guard: tuple[int, int] = (38, 8), light: str = "day", seed: int = 1,
            walls: tuple[tuple[int, int], ...] = (), end: int | None = None) -> Game:
    men = [("kane", "raiders", kane, ("m16",), {"man": "commando"}),
           ("g1", "guards", guard, ("m16",), {"man": "commando"})]
    scenario = arena(men, zones={"out": OUT}, light=light, walls=walls, turn_limit=6)
    stats = None if end is None else {"end": end}
    figures = [*scenario.figures, *(
        FigureSpec(h, None, "hostage", f"figures[{9 + i}]", at=Cell(0, x, y), stats=stats)
        for i, (h, (x, y)) in enumerate(sorted(held.items())))]
    scenario = replace(scenario, figures=figures,
                       objectives={"mission": "rescue", "rescue_zone": "out"})
    return Game(scenario, seed=seed)


def caught(game: Game) -> set[str]:
    return {e["hostage"] for e in events(game, "hostage-hit")}


@pytest.mark.parametrize(("device", "dx", "hit"), [
    ("frag", 1, True), ("frag", 2, False),          # a grenade: radius 1
    ("satchel", 2, True), ("satchel", 3, False),    # a satchel or charge: radius 2
    ("demolition", 2, True), ("demolition", 3, False),
])
def test_a_blast_harms_a_hostage_at_its_radius_and_not_one_past(device: str, dx: int,
                                                               hit: bool) -> None:
    game = game_of({"h1": (20 + dx, 4)}, end=40)
    s = state(game)
    explosions.explode(s, device, Cell(0, 20, 4), "raiders", "kane", game.chance, game.log)
    h = s.hostages["h1"]
    assert (h.damage > 0 or h.status == "dead") is hit
    assert ("h1" in caught(game)) is hit
    [kill] = [e for e in game.log.events
              if e.kind == "roll" and e.data["purpose"] == "blast kill"] or [None]
    # ruling C-190: he is one of the N of the 2 % per man roll (no roll with nobody caught)
    assert (kill is not None) is hit


def test_a_hostage_counts_in_the_two_percent_per_man() -> None:
    game = game_of({"h1": (21, 4)}, guard=(20, 4), end=40)
    s = state(game)
    explosions.explode(s, "frag", Cell(0, 20, 4), "raiders", "kane", game.chance, game.log)
    [kill] = [e for e in game.log.events
              if e.kind == "roll" and e.data["purpose"] == "blast kill"]
    dmg = [e for e in game.log.events
           if e.kind == "roll" and e.data["purpose"] == "blast damage"]
    picks = [e for e in game.log.events if e.kind == "pick" and e.data["purpose"] ==
             "blast victim"]
    assert len(dmg) + len(picks) == 2  # g1 and h1: two rolled, or one killed instead
    assert kill is not None


ROOM = tuple((x, y) for x in range(9, 14) for y in (1, 5)) + \
    tuple((x, y) for x in (9, 13) for y in range(1, 6))


@pytest.mark.parametrize(("at", "hit"), [((12, 4), True), ((14, 4), False)])
def test_a_closed_room_blast_takes_the_hostage_inside_and_not_the_one_outside(
        at: tuple[int, int], hit: bool) -> None:
    room = {Cell(0, x, y) for x in range(10, 13) for y in range(2, 5)}
    scenario = game_of({"h1": at}, walls=ROOM, end=40).scenario
    scenario = replace(scenario, board=replace(
        scenario.board, zones={**scenario.board.zones, "room-a": frozenset(room)}))
    game = Game(scenario, seed=2)
    s = state(game)
    explosions.explode(s, "satchel", Cell(0, 11, 3), "raiders", "kane", game.chance, game.log)
    [boom] = events(game, "explosion")
    assert boom["environment"] == "closed"
    assert ("h1" in caught(game)) is hit
    if hit:  # Closed: the satchel's damage dice of a closed room
        dmg = [e for e in game.log.events
               if e.kind == "roll" and e.data["purpose"] == "blast damage"]
        assert dmg and all(e.data["die"] == dmg[0].data["die"] for e in dmg)


@pytest.mark.parametrize(("damage", "status"), [(9, "held"), (10, "dead")])
def test_a_hostage_dies_when_his_endurance_reaches_zero(damage: int, status: str) -> None:
    game = game_of({"h1": (30, 4)})  # no stats: the default End 10 (C-190)
    s = state(game)
    assert s.hostages["h1"].end == hostages.DEFAULT_END == 10
    hostages.harm(s, "h1", False, damage, "frag", game.log)
    assert s.hostages["h1"].status == status


def test_the_scenario_sets_a_hostages_endurance() -> None:
    game = game_of({"h1": (30, 4)}, end=14)
    assert state(game).hostages["h1"].end == 14
    text = EMBASSY.read_text(encoding="utf-8")
    old = '{id: h1, kind: hostage, name: Trade Secretary Adair, at: "ground:18,5"}'
    assert old in text
    ok = loads_scenario(text.replace(old, old[:-1] + ", stats: {end: 13}}"), "e.yaml")
    assert [f.stats for f in ok.figures if f.id == "h1"] == [{"end": 13}]
    for bad, message in (("{end: 0}", "from 1 to 40, not 0"), ("{end: 12, mk: 3}", "only")):
        with pytest.raises(ScenarioError) as err:
            loads_scenario(text.replace(old, old[:-1] + f", stats: {bad}}}"), "e.yaml")
        assert "figures[9].stats:" in str(err.value) and message in str(err.value)
        assert len(str(err.value).strip().splitlines()) == 1


def test_a_dead_hostage_from_a_blast_loses_the_rescue() -> None:
    game = game_of({"h1": (21, 4)}, end=1)
    s = state(game)
    hostages.harm(s, "h1", True, 0, "frag", game.log)
    assert s.hostages["h1"].status == "dead"
    from killhouse.rulesets.commando import flow
    assert flow.check_victory(s, game.log)
    assert game.result is not None and game.result.winner == "guards"


def test_a_blast_on_a_hostage_the_raiders_do_not_see_is_not_told_to_them() -> None:
    # night: observation 12 squares; kane at (5, 4) does not see (30, 4), g1 at (31, 4) does
    game = game_of({"h1": (30, 4)}, guard=(31, 4), light="night", end=40)
    s = state(game)
    explosions.explode(s, "frag", Cell(0, 30, 4), "guards", "g1", game.chance, game.log)
    [hit] = [e for e in game.log.events if e.kind == "hostage-hit"]
    assert hit.audience == frozenset({"guards"})
    rolls = [e for e in game.log.events if e.kind == "roll"]
    assert rolls and all(e.audience == frozenset({"guards"}) for e in rolls)
    assert "hostage-hit" not in {e.kind for e in game.log.events if e.for_side("raiders")}


@pytest.mark.parametrize(("dx", "hit"), [(10, True), (11, False)])
def test_a_claymore_attacks_a_hostage_in_its_cone_to_ten_squares(dx: int, hit: bool) -> None:
    game = game_of({"h1": (10 + dx, 4)}, kane=(5, 0), guard=(38, 0))
    s = state(game)
    mine = Mine("m1", "raiders", "kane", Cell(0, 10, 4), "E")
    mines.fire_mine(s, mine, game.chance, game.log)
    fires = [e for e in game.log.events if e.kind == "roll" and e.data["purpose"] == "fire"]
    assert bool(fires) is hit


def test_a_fire_at_a_man_leading_a_hostage_draws_its_victim_from_both() -> None:
    game = game_of({"h1": (6, 4)}, guard=(9, 4))
    s = state(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "lead", figure="kane", hostage="h1"))
    hold_windows(game)
    assert firing.crowd(s, "kane") == ("h1", "kane")
    assert firing.crowd(s, "g1") == ()  # nobody held on his square
    s.pos["g1"] = Cell(0, 6, 3)  # next to the hostage, not on his square: no draw
    s.hostages["h1"].status, s.hostages["h1"].escort = "held", None
    s.hostages["h1"].at = Cell(0, 6, 4)
    assert firing.crowd(s, "g1") == ()


def test_stray_fire_into_the_square_hits_the_hostage_on_some_seed() -> None:
    outcomes = set()
    for seed in range(1, 40):
        game = game_of({"h1": (30, 4)}, kane=(30, 4), guard=(33, 4), seed=seed, end=40)
        s = state(game)
        s.hostages["h1"].status, s.hostages["h1"].escort = "led", "kane"
        for side in s.sides:
            s.observed[side] = {m.id for m in s.side_men(s.enemy(side))}
        activate(game, "g1")
        declare(game, Action.make("guards", "semi", figure="g1", target="kane"))
        [pick] = [e for e in game.log.events
                  if e.kind == "pick" and e.data["purpose"] == "victim in hand-to-hand"]
        assert pick.data["of"] == 2 and pick.audience is None
        [task] = events(game, "semi")
        [(victim, result)] = [(sh["victim"], sh["result"]) for sh in task["shots"]]
        hurt = victim == "h1" and result != "miss"
        assert bool(events(game, "hostage-hit")) is hurt
        if hurt:
            assert s.hostages["h1"].damage > 0 or s.hostages["h1"].status == "dead"
            assert task["status"]["h1"] == s.hostages["h1"].status
            [hit] = [e for e in game.log.events if e.kind == "hostage-hit"]
            assert hit.audience is None and hit.data["cause"] == "m16"
        outcomes.add(victim)
        if len(outcomes) == 2 and hurt:
            break
    assert outcomes == {"h1", "kane"}


def test_a_plain_fire_into_the_square_names_each_fires_victim() -> None:
    from killhouse.rulesets.commando.narrate import narrate

    game = game_of({"h1": (30, 4)}, kane=(30, 4), guard=(33, 4), end=40)
    s = state(game)
    s.hostages["h1"].status, s.hostages["h1"].escort = "led", "kane"
    for side in s.sides:
        s.observed[side] = {m.id for m in s.side_men(s.enemy(side))}
    activate(game, "g1")
    declare(game, Action.make("guards", "fire", figure="g1", target="kane"))
    event = next(e for e in game.log.events if e.kind == "fire")
    victims = event.data["victims"]
    assert len(victims) == 3 and set(victims) <= {"h1", "kane"}  # an M16's three fires
    line = narrate(event)
    assert line is not None and all(f" on {v}" in line for v in victims)
