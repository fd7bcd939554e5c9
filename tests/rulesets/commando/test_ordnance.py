"""Grenades, launchers, satchels, demolition charges, Claymores, smoke and illumination as tasks
in play (digest 9; rulings C-28 ... C-36, C-77, C-87 ...)."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game, canonical_json
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import delivery, devices, explosions, surroundings
from killhouse.rulesets.commando.flow import has_los, in_view
from tests.rulesets.commando.arena import (
    activate,
    arena,
    declare,
    events,
    hold_windows,
    kinds,
    registered,
    state,
)

pytestmark = pytest.mark.usefixtures(registered.__name__)


def game_with(kit: tuple[str, ...], guard: tuple[int, int] = (7, 4), seed: int = 3,
              extra: dict[str, Any] | None = None, **board: Any) -> Game:
    men = [("kane", "raiders", (1, 4), ("m16", *kit), {"man": "commando", **(extra or {})}),
           ("g1", "guards", guard, ("pistol",), {})]
    game = Game(arena(men, **board), seed=seed)
    s = state(game)
    for side in s.sides:
        s.observed[side] = {m.id for m in s.side_men(s.enemy(side))}
    return game


def finish_turn(game: Game, turn: int | None = None) -> None:
    """End every remaining activation (holding all op fire) until the Bookkeeping of ``turn``
    (default: the current turn) has run."""
    s = state(game)
    turn = s.turn if turn is None else turn
    while s.turn == turn and s.result is None:
        hold_windows(game)
        if s.phase == "plot":
            for plotter in s.sides:
                if plotter not in s.committed:
                    game.apply(Action.make(plotter, "commit"))
            continue
        side = s.active_side
        if side is None:
            break
        if s.active_man is None:
            ident = next(m.id for m in s.up(side) if not m.activated)
            game.apply(Action.make(side, "activate", figure=ident))
        else:
            game.apply(Action.make(side, "end"))


def test_prepare_then_throw_a_grenade_that_goes_off_in_the_bookkeeping() -> None:
    game = game_with(("frag",))
    activate(game, "kane")
    s = state(game)
    assert {a.get("device") for a in kinds(game, "raiders")["prepare"]} == {"frag"}
    game.apply(Action.make("raiders", "prepare", figure="kane", device="frag"))
    assert s.men["kane"].tp == 43 and "frag" not in s.men["kane"].carried  # 7 TP
    hold_windows(game)
    [throw] = kinds(game, "raiders")["throw"]
    assert throw.get("at") == (0, 7, 4)
    game.apply(throw)
    assert s.men["kane"].tp == 30  # 13 TP
    [ev] = events(game, "throw")
    # Dex 18 (+1), Hero 22 (+2), range 6 (55); g1 stands in the open
    assert ev["chance"] == 55 + 1 + 2
    [seen] = [e.for_side("guards") for e in game.log.events if e.kind == "throw"]
    assert seen is not None and "chance" not in seen and seen["lands"]  # C-99
    assert len(s.ordnance.live) == 1 and not events(game, "explosion")
    hold_windows(game)
    finish_turn(game)
    [boom] = events(game, "explosion")
    assert boom["environment"] == "open" and boom["device"] == "frag"
    assert not s.ordnance.live


def test_frag_reaches_twelve_squares_and_not_thirteen() -> None:
    game = game_with(("frag",), guard=(13, 4))  # range 12
    activate(game, "kane")
    game.apply(Action.make("raiders", "prepare", figure="kane", device="frag"))
    hold_windows(game)
    assert [a.get("at") for a in kinds(game, "raiders")["throw"]] == [(0, 13, 4)]
    before = canonical_json(game.ruleset.snapshot(game.state))
    with pytest.raises(IllegalActionError, match="P"):
        game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 14, 4]))  # 13
    assert canonical_json(game.ruleset.snapshot(game.state)) == before


def test_satchel_reaches_seven_and_not_eight_and_blasts_radius_two() -> None:
    game = game_with(("satchel",), guard=(8, 4))  # range 7
    activate(game, "kane")
    game.apply(Action.make("raiders", "prepare", figure="kane", device="satchel"))
    assert state(game).men["kane"].tp == 38  # 12 TP
    hold_windows(game)
    assert kinds(game, "raiders")["throw"]
    with pytest.raises(IllegalActionError):
        game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 9, 4]))  # 8
    game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 8, 4]))
    assert state(game).men["kane"].tp == 23  # 15 TP


def test_environment_open_vented_closed() -> None:
    # a 3x3 room at x 10-12, y 2-4 with walls around and a door at (11, 5)
    walls = tuple((x, y) for x in range(9, 14) for y in (1, 5) if (x, y) != (11, 5)) + \
        tuple((x, y) for x in (9, 13) for y in range(1, 6))
    room = {Cell(0, x, y) for x in range(10, 13) for y in range(2, 5)}
    game = game_with((), walls=walls, doors=((11, 5),), zones={"room-a": room})
    s = state(game)
    assert surroundings.environment(s, Cell(0, 11, 3)) == "closed"
    assert surroundings.environment(s, Cell(0, 3, 3)) == "open"
    s.board.set_terrain(Cell(0, 11, 5), Terrain.DOOR_OPEN)
    assert surroundings.environment(s, Cell(0, 11, 3)) == "vented"
    big = game_with((), zones={"large-hangar": room})
    assert surroundings.environment(state(big), Cell(0, 11, 3)) == "open"


def test_blast_in_a_closed_room_takes_every_man_and_stays_inside() -> None:
    walls = tuple((x, y) for x in range(9, 14) for y in (1, 5)) + \
        tuple((x, y) for x in (9, 13) for y in range(1, 6))
    room = {Cell(0, x, y) for x in range(10, 13) for y in range(2, 5)}
    men = [("kane", "raiders", (1, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (10, 3), ("pistol",), {}), ("g2", "guards", (11, 3), ("pistol",), {}),
           ("g3", "guards", (12, 4), ("pistol",), {}), ("g4", "guards", (14, 3), ("pistol",), {})]
    game = Game(arena(men, walls=walls, zones={"room-a": room}), seed=4)
    s = state(game)
    explosions.explode(s, "frag", Cell(0, 11, 3), "raiders", "kane", game.chance, game.log)
    [boom] = events(game, "explosion")
    assert boom["environment"] == "closed"
    caught = {e["figure"] for e in events(game, "blasted")}
    assert caught == {"g1", "g2", "g3"}  # g4 is behind the wall
    kill = [e for e in game.log.events if e.kind == "roll" and e.data["purpose"] == "blast kill"]
    assert len(kill) == 1  # one d100 against 2 x 3 = 6 (C-28)
    dmg = [e for e in game.log.events if e.kind == "roll" and e.data["purpose"] == "blast damage"]
    assert all(e.data["die"] == "2d6" for e in dmg)  # Closed: 2d6


def test_launchers_law_not_below_eleven_and_go_off_at_once() -> None:
    game = game_with(("law",), guard=(11, 4))  # range 10
    activate(game, "kane")
    assert "launch" not in kinds(game, "raiders")
    with pytest.raises(IllegalActionError, match="P"):
        declare(game, Action.make("raiders", "launch", figure="kane", device="law", at=[0, 11, 4]))
    game = game_with(("law",), guard=(12, 4))  # range 11
    activate(game, "kane")
    [launch] = kinds(game, "raiders")["launch"]
    declare(game, launch)
    s = state(game)
    assert s.men["kane"].tp == 25 and "law" not in s.men["kane"].carried
    assert events(game, "explosion")  # fired rounds go off at once (C-33)


def test_thump_gun_and_rocket_must_be_reloaded_and_rifle_grenades_affixed() -> None:
    game = game_with(("thump_gun",), guard=(20, 4))
    activate(game, "kane")
    s = state(game)
    declare(game, Action.make("raiders", "launch", figure="kane", device="thump_gun",
                              at=[0, 20, 4]))
    hold_windows(game)
    assert s.men["kane"].tp == 25
    assert "launch" not in kinds(game, "raiders")
    [load] = kinds(game, "raiders")["load"]
    game.apply(load)
    assert s.men["kane"].tp == 0  # Reload weapon, 25
    game = game_with(("rifle", "rifle_grenade"), guard=(6, 4))
    activate(game, "kane")
    s = state(game)
    assert "launch" not in kinds(game, "raiders")  # not yet affixed
    game.apply(Action.make("raiders", "load", figure="kane", device="rifle_grenade"))
    assert s.men["kane"].tp == 0  # Affix rifle grenade, 50
    assert s.ordnance.loaded["kane"] == {"rifle_grenade"}


def test_a_missed_throw_scatters_and_a_wall_stops_it() -> None:
    for seed in range(40):
        game = game_with(("frag",), guard=(12, 4), seed=seed, walls=((12, 6),))
        activate(game, "kane")
        game.apply(Action.make("raiders", "prepare", figure="kane", device="frag"))
        hold_windows(game)
        game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 12, 4]))
        [ev] = events(game, "throw")
        if not ev["on_target"] and ev["direction"] == "S" and ev["distance"] >= 2:
            assert ev["lands"] == (0, 12, 5) or ev["lands"] == [0, 12, 5]
            return
    pytest.fail("no southward scatter of 2+ in 40 seeds")


def plant_over_three_activations(seed: int) -> tuple[Game, dict[str, Any], int]:
    """Kane (Demolitions 10: 140 TP) works a charge with timer 1 over three activations."""
    game = game_with(("demolition",), guard=(30, 4), extra={"skills": {"demolitions": 10}},
                     seed=seed, turn_limit=10)
    s = state(game)
    activate(game, "kane")
    assert {a.get("timer") for a in kinds(game, "raiders")["plant"]} == set(range(6))
    for paid in (50, 100):
        turn = s.turn
        game.apply(Action.make("raiders", "plant", figure="kane", timer=1))
        assert s.men["kane"].task_paid == paid and not s.ordnance.live  # 140: 50 + 50 + 40
        hold_windows(game)
        finish_turn(game, turn)
        activate(game, "kane")
    game.apply(Action.make("raiders", "plant", figure="kane", timer=1))
    assert s.men["kane"].tp == 10
    [done] = [e for e in events(game, "plant") if e["done"]]
    assert done["chance"] == 35  # SDL 20 + 1, at least 35 (C-45)
    guards_know = [e.for_side("guards") for e in game.log.events if e.kind == "plant"]
    assert guards_know == [None, None, None]
    return game, dict(done), s.turn


def test_demolition_charge_over_activations_then_timer() -> None:
    for seed in range(30):
        game, done, set_turn = plant_over_three_activations(seed)
        if done["set"]:
            break
    else:
        pytest.fail("no successful Demolitions roll (35 %) in 30 seeds")
    s = state(game)
    assert devices.view(s, "guards")["live"] == []  # the charge is secret (C-63)
    assert len(devices.view(s, "raiders")["live"]) == 1
    hold_windows(game)
    finish_turn(game, set_turn)  # timer 1: waits one Bookkeeping ...
    assert s.turn == set_turn + 1
    assert not events(game, "explosion") and s.ordnance.live[0].timer == 0
    finish_turn(game)  # ... and goes off in the next (C-77)
    assert [e["device"] for e in events(game, "explosion")] == ["demolition"]
    assert s.turn == set_turn + 2


def test_claymore_placed_detonated_within_twenty_not_twenty_one() -> None:
    game = game_with(("claymore",), guard=(6, 4))
    s = state(game)
    activate(game, "kane")
    assert len(kinds(game, "raiders")["emplace"]) == 8
    game.apply(Action.make("raiders", "emplace", figure="kane", facing="E"))
    assert s.men["kane"].tp == 0
    [mine] = s.ordnance.mines
    assert [e.for_side("guards") for e in game.log.events if e.kind == "emplace"] == [None]
    assert devices.view(s, "guards")["mines"] == []
    assert devices.view(s, "raiders")["mines"][0]["facing"] == "E"
    finish_turn(game)
    activate(game, "kane")
    s.pos["kane"] = Cell(0, 21, 4)  # range 20 from the mine
    assert [a.get("mine") for a in kinds(game, "raiders")["detonate"]] == [mine.id]
    s.pos["kane"] = Cell(0, 22, 4)  # 21
    assert "detonate" not in kinds(game, "raiders")
    s.pos["kane"] = Cell(0, 1, 8)
    game.apply(Action.make("raiders", "detonate", figure="kane", mine=mine.id))
    assert s.men["kane"].tp == 30 and not s.ordnance.mines
    [hit] = events(game, "blasted")
    assert hit["figure"] == "g1" and hit["device"] == "claymore"


def test_smoke_blocks_sight_until_the_end_of_the_third_turn_after() -> None:
    game = game_with(("smoke",), guard=(12, 4), turn_limit=8)
    s = state(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "prepare", figure="kane", device="smoke"))
    hold_windows(game)
    ordnance_at = Cell(0, 6, 4)
    game.apply(Action.make("raiders", "throw", figure="kane", at=list(ordnance_at)))
    lands = Cell(*events(game, "throw")[0]["lands"])
    hold_windows(game)
    assert has_los(s, s.pos["kane"], s.pos["g1"])
    burst_turn = s.turn
    finish_turn(game)
    [burst] = events(game, "burst")
    assert burst["until"] == burst_turn + 3
    assert s.board.smoky(lands)
    assert lands == ordnance_at  # seed 3: on target
    assert not has_los(s, s.pos["kane"], s.pos["g1"])
    assert has_los(s, s.pos["kane"], Cell(0, 1, 8))  # sight that passes no smoke is kept
    for _ in range(3):
        finish_turn(game)
    assert s.turn == burst_turn + 4 and not s.board.smoky(lands)


def test_illumination_gives_day_range_within_five_squares_not_six() -> None:
    game = game_with((), guard=(21, 4), light="night")  # range 20: beyond night's 12
    s = state(game)
    assert not in_view(s, "kane", "g1")
    from killhouse.rulesets.commando import clouds

    s.ordnance.clouds.append(clouds.burst("illumination", Cell(0, 16, 4), s.turn))  # 5 away
    assert in_view(s, "kane", "g1")
    s.ordnance.clouds[0] = clouds.burst("illumination", Cell(0, 15, 4), s.turn)  # 6 away
    assert not in_view(s, "kane", "g1")


def test_a_prepared_grenade_drops_when_its_holder_falls() -> None:
    game = game_with(("frag",), guard=(30, 4))
    s = state(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "prepare", figure="kane", device="frag"))
    hold_windows(game)
    s.men["kane"].take_damage(s.men["kane"].end0())  # incapacitated
    explosions.bookkeeping(s, game.chance, game.log)
    [boom] = events(game, "explosion")
    assert boom["at"] in ((0, 1, 4), [0, 1, 4])
    assert "kane" not in s.ordnance.prepared


def test_a_preserving_man_throws_within_five_squares_and_not_six() -> None:
    game = game_with(("frag",), guard=(7, 4))  # range 6
    s = state(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "prepare", figure="kane", device="frag"))
    hold_windows(game)
    s.men["kane"].preserving = True
    assert "throw" not in kinds(game, "raiders")
    with pytest.raises(IllegalActionError, match="within 5"):
        game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 7, 4]))
    game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 6, 4]))  # range 5
    assert events(game, "throw")


def test_a_failed_demolitions_roll_keeps_the_charge() -> None:
    for seed in range(30):
        game, done, _ = plant_over_three_activations(seed)
        if not done["set"]:
            break
    else:
        pytest.fail("no failed Demolitions roll (65 %) in 30 seeds")
    s = state(game)
    assert "demolition" in s.men["kane"].carried and not s.ordnance.live  # C-96


def test_claymores_set_by_the_scenario_are_secret_and_checked() -> None:
    from killhouse import rulesets as registry

    men = [("kane", "raiders", (12, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (4, 4), ("pistol",), {})]
    mines = [{"side": "guards", "at": "ground:5,4", "facing": "E"}]
    scenario = arena(men, options={"claymores": mines})
    game = Game(scenario, seed=2)
    s = state(game)
    assert devices.view(s, "guards")["mines"] == [
        {"id": "m1", "at": [0, 5, 4], "facing": "E", "owner": "scenario"}]
    assert devices.view(s, "raiders")["mines"] == []
    assert "\"m1\"" not in canonical_json(game.view("raiders"))
    activate(game, "g1")
    game.apply(Action.make("guards", "detonate", figure="g1", mine="m1"))
    assert [e["figure"] for e in events(game, "blasted")] == ["kane"]
    ruleset = registry.get_ruleset("commando")
    bad = arena(men, options={"claymores": [{"side": "guards", "at": "ground:99,4",
                                             "facing": "E"},
                                            {"side": "guards", "at": "ground:5,4",
                                             "facing": "up"}, "mine",
                                            {"side": "guards", "at": "ground:8,8",
                                             "facing": "E"}]}, walls=((8, 8),))
    issues = ruleset.check_scenario(bad)
    paths = [i.path for i in issues]
    assert paths == ["options.claymores[0].at", "options.claymores[1].facing",
                     "options.claymores[2]", "options.claymores[3].at"]
    assert "wall" in issues[-1].message


@pytest.mark.parametrize(("device", "inside", "past"), [
    ("frag", 12, 13), ("smoke", 15, 16), ("illumination", 15, 16), ("satchel", 7, 8),
    ("rifle_grenade", 36, 37), ("thump_gun", 11, 10), ("thump_gun", 100, 101),
    ("law", 11, 10),
])
def test_every_device_table_edge_in_play(device: str, inside: int, past: int) -> None:
    """The last (or first) range each table allows, and one step past it (C-27, C-31)."""
    game = game_with((device,), guard=(1 + inside, 4), width=110)
    s = state(game)
    activate(game, "kane")
    man = s.men["kane"]
    if device in devices.THROWN:
        s.ordnance.prepared["kane"] = device
        check, kind = delivery.check_throw, "throw"
        args: dict[str, Any] = {}
    else:
        s.ordnance.loaded["kane"] = {device}
        check, kind, args = delivery.check_launch, "launch", {"device": device}
    check(s, Action.make("raiders", kind, figure="kane", at=[0, 1 + inside, 4], **args))
    with pytest.raises(IllegalActionError, match="P"):
        check(s, Action.make("raiders", kind, figure="kane", at=[0, 1 + past, 4], **args))
    assert man.tp == 50  # checks change nothing


def test_rocket_and_law_open_bands_reach_only_within_observation_range() -> None:
    # dusk: observation range 25; the rocket's "36+" needs LOS within it, its 26-35 does not
    game = game_with(("law",), guard=(30, 4), width=110, light="dusk")
    s = state(game)
    activate(game, "kane")
    s.ordnance.loaded["kane"] = {"rocket"}
    ok = Action.make("raiders", "launch", figure="kane", device="rocket", at=[0, 36, 4])  # 35
    delivery.check_launch(s, ok)
    far = Action.make("raiders", "launch", figure="kane", device="rocket", at=[0, 37, 4])  # 36
    with pytest.raises(IllegalActionError, match="observation range"):
        delivery.check_launch(s, far)
    day = game_with(("law",), guard=(30, 4), width=110)
    s = state(day)
    activate(day, "kane")
    s.ordnance.loaded["kane"] = {"rocket"}
    delivery.check_launch(s, Action.make("raiders", "launch", figure="kane", device="rocket",
                                         at=[0, 80, 4]))  # day: unlimited range
    law = Action.make("raiders", "launch", figure="kane", device="law", at=[0, 69, 4])  # 68
    delivery.check_launch(s, law)


def test_digest_17_item_12_in_play() -> None:
    """Dex 19 (+3), Hero 15, frag at range 6 (55), a door in between (-10): 48; prone: 24
    (the digest's woods -5 waits for terrain kinds on the map, C-83)."""
    stats = {"man": "commando", "stats": {"dex": 19, "hero": 15}}
    men = [("kane", "raiders", (1, 4), ("m16", "frag"), stats),
           ("g1", "guards", (7, 4), ("pistol",), {})]
    scenario = arena(men, doors=((4, 4),))
    game = Game(scenario, seed=1)
    s = state(game)
    s.board.set_terrain(Cell(0, 4, 4), Terrain.DOOR_OPEN)  # he sees through the open door
    activate(game, "kane")
    game.apply(Action.make("raiders", "prepare", figure="kane", device="frag"))
    hold_windows(game)
    s.men["kane"].posture = s.men["kane"].posture.__class__("prone")
    game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 7, 4]))
    [ev] = events(game, "throw")
    assert ev["chance"] == 24  # floor(48 x 0.5): the door in between counts open or shut
    if not ev["on_target"]:  # a miss scatters by the Grenade Scatter Table (1d6 -> 1, 2, 3)
        assert ev["distance"] in (1, 2, 3)


def test_demolition_work_skipped_for_an_activation_is_lost() -> None:
    game = game_with(("demolition",), guard=(30, 4), extra={"skills": {"demolitions": 10}},
                     seed=6, turn_limit=10)
    s = state(game)
    activate(game, "kane")
    turn = s.turn
    game.apply(Action.make("raiders", "plant", figure="kane", timer=0))
    hold_windows(game)
    assert s.men["kane"].task_paid == 50
    finish_turn(game, turn)
    activate(game, "kane")  # next activation: something else first ...
    turn = s.turn
    game.apply(Action.make("raiders", "posture", figure="kane", to="prone"))
    hold_windows(game)
    assert "plant" not in kinds(game, "raiders")  # ... so the work cannot go on now
    game.apply(Action.make("raiders", "end"))
    finish_turn(game, turn)
    activate(game, "kane")
    game.apply(Action.make("raiders", "plant", figure="kane", timer=0))
    assert s.men["kane"].task_paid == 50  # started again: the first 50 were lost (C-5)
