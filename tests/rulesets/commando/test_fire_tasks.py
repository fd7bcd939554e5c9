"""Aimed, semi-automatic, spray and sniping fire and fire into a hand-to-hand square as tasks in
play (digest 8.2, 8.4-8.6, 12.1; rulings C-20, C-24, C-25, C-37, C-86)."""

from __future__ import annotations

import pytest

from killhouse.engine.game import Game, canonical_json
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import fire
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

KANE = {"man": "commando", "wps": {"m16": 1}}


def duel(gun: str = "m16", at: tuple[int, int] = (11, 4), extra: dict[str, object] | None = None,
         more: tuple[tuple[str, tuple[int, int]], ...] = (), seed: int = 5) -> Game:
    men = [("kane", "raiders", (1, 4), (gun,), {**KANE, **(extra or {})}),
           ("g1", "guards", at, ("pistol",), {})]
    men += [(ident, "guards", xy, ("pistol",), {}) for ident, xy in more]
    game = Game(arena(men), seed=seed)
    s = state(game)
    for side in s.sides:  # both sides see each other: the tests are about the fire tasks
        s.observed[side] = {m.id for m in s.side_men(s.enemy(side))}
    return game


def test_aimed_fire_is_the_only_task_costs_all_tp_and_adds_ten() -> None:
    game = duel()
    activate(game, "kane")
    s = state(game)
    assert [a.get("target") for a in kinds(game, "raiders")["aim"]] == ["g1"]
    declare(game, Action.make("raiders", "aim", figure="kane", target="g1"))
    [ev] = events(game, "aim")
    # Mk 22 (+9), Hero 22 (+2), WP +1, range 10 (band 9-20: 69), aimed +10
    assert ev["chances"] == [69 + 9 + 2 + 1 + 10]
    assert ev["cost"] == 50 and len(ev["shots"]) == 3
    assert s.men["kane"].tp == 0  # all his TP: his activation is over once op fire is asked
    if s.active_man == "kane":
        assert game.pending()[0].kind == "opfire"
    [seen] = [e.for_side("guards") for e in game.log.events if e.kind == "aim"]
    assert seen is not None and "chances" not in seen and seen["shots"]  # C-99


def test_aimed_fire_not_after_another_task_and_needs_the_fire_cost() -> None:
    game = duel()
    activate(game, "kane")
    s = state(game)
    game.apply(Action.make("raiders", "posture", figure="kane", to="prone"))
    game.apply(Action.make("guards", "hold"))
    assert "aim" not in kinds(game, "raiders")  # C-24: his only task
    with pytest.raises(IllegalActionError):
        declare(game, Action.make("raiders", "aim", figure="kane", target="g1"))
    # the edge: 18 TP (the M16's fire cost) aims, 17 does not
    game2 = duel()
    activate(game2, "kane")
    s = state(game2)
    s.men["kane"].tp = 18
    assert "aim" in kinds(game2, "raiders")
    s.men["kane"].tp = 17
    assert "aim" not in kinds(game2, "raiders")


def test_semi_automatic_fire_one_fire_for_fifteen() -> None:
    game = duel()
    activate(game, "kane")
    declare(game, Action.make("raiders", "semi", figure="kane", target="g1"))
    [ev] = events(game, "semi")
    assert ev["cost"] == 15 and len(ev["shots"]) == 1
    assert state(game).men["kane"].tp == 35
    mag = [e for e in game.log.events if e.kind == "roll" and e.data.get("purpose") == "mag check"]
    assert len(mag) == 1  # the M16's Mag Chk, halved to 9 (C-20), is rolled once
    assert fire.mag_chance("m16", semi=True) == 9


def test_semi_only_for_the_automatic_weapons() -> None:
    game = duel(gun="rifle")
    activate(game, "kane")
    assert "semi" not in kinds(game, "raiders")
    assert "fire" in kinds(game, "raiders")


def test_spray_fire_reaches_two_squares_from_the_primary_and_not_three() -> None:
    game = duel(more=(("g2", (11, 6)), ("g3", (11, 7))))  # g2 2 squares from g1, g3 3
    activate(game, "kane")
    sprays = kinds(game, "raiders")["spray"]
    splits = {a.get("split") for a in sprays if a.get("target") == "g1"}
    assert "g1,g2,g2" in splits
    assert not any("g3" in str(a.get("split")) for a in sprays if a.get("target") == "g1")
    with pytest.raises(IllegalActionError, match="within 2 squares"):
        declare(game, Action.make("raiders", "spray", figure="kane", target="g1", split="g1,g3,g1"))
    with pytest.raises(IllegalActionError, match="makes 3 fires"):
        declare(game, Action.make("raiders", "spray", figure="kane", target="g1", split="g1,g2"))
    before = canonical_json(game.ruleset.snapshot(game.state))
    with pytest.raises(IllegalActionError, match="primary"):
        declare(game, Action.make("raiders", "spray", figure="kane", target="g1", split="g2,g1,g1"))
    assert canonical_json(game.ruleset.snapshot(game.state)) == before  # refusals change nothing
    declare(game, Action.make("raiders", "spray", figure="kane", target="g1", split="g1,g2,g1"))
    [ev] = events(game, "spray")
    assert ev["cost"] == 18 + 7
    assert [s["victim"] for s in ev["shots"]] == ["g1", "g2", "g1"]


def test_spray_needs_an_automatic_weapon_with_three_fires() -> None:
    game = duel(gun="rifle", more=(("g2", (11, 5)),))
    activate(game, "kane")
    assert "spray" not in kinds(game, "raiders")
    with pytest.raises(IllegalActionError, match="automatic weapon"):
        declare(game, Action.make("raiders", "spray", figure="kane", target="g1", split="g1"))


def test_sniping_keeps_the_firer_unobserved_on_success_only() -> None:
    outcomes = set()
    for seed in range(12):
        game = duel(gun="rifle", extra={"skills": {"sniping": 16}, "wps": {"rifle": 0}},
                    seed=seed)
        s = state(game)
        activate(game, "kane")
        s.observed["guards"].discard("kane")
        declare(game, Action.make("raiders", "snipe", figure="kane", target="g1"))
        [ev] = events(game, "snipe")
        assert ev["cost"] == 13 + 10
        assert ("kane" in s.observed["guards"]) is not ev["sniped"]
        guards_see = [e.for_side("guards") for e in game.log.events if e.kind == "snipe"]
        if ev["sniped"]:
            assert guards_see == [None]  # the guards learn only what hit them
            assert events(game, "fired-upon")
        outcomes.add(ev["sniped"])
        if outcomes == {True, False}:
            break
    assert outcomes == {True, False}


def test_snipe_needs_the_skill_and_a_rifle_or_carbine() -> None:
    game = duel(gun="m16", extra={"skills": {"sniping": 16}})
    activate(game, "kane")
    assert "snipe" not in kinds(game, "raiders")
    game = duel(gun="rifle")
    activate(game, "kane")
    assert "snipe" not in kinds(game, "raiders")


def test_fire_into_hand_to_hand_draws_each_victim_from_the_square() -> None:
    game = duel(more=(("g2", (11, 4)),))
    s = state(game)
    activate(game, "kane")
    # g1 and g2 stand in one square; engaged there (set after phase 4 would have settled it)
    s.men["g1"].engaged = s.men["g2"].engaged = True
    game.apply(Action.make("raiders", "fire", figure="kane", target="g1"))
    hold_windows(game)  # the guards' Mobile Overwatch question comes before the fire (C-128)
    picks = [e for e in game.log.events
             if e.kind == "pick" and e.data.get("purpose") == "victim in hand-to-hand"]
    assert len(picks) == 3  # one draw per fire of the M16 (C-37)


def test_empty_magazine_blocks_every_fire_task_until_reloaded() -> None:
    game = duel()
    activate(game, "kane")
    s = state(game)
    s.men["kane"].empty = frozenset({"m16"})
    got = kinds(game, "raiders")
    assert not {"fire", "aim", "semi", "spray"} & set(got)
    assert "reload" in got


def test_a_preserving_man_fires_within_five_squares_and_not_six() -> None:
    game = duel(at=(6, 4), more=(("g2", (7, 6)),))  # g1 at range 5, g2 at 6
    s = state(game)
    activate(game, "kane")
    s.men["kane"].preserving = True
    targets = {a.get("target") for a in kinds(game, "raiders")["aim"]}
    assert targets == {"g1"}
    assert {a.get("target") for a in kinds(game, "raiders")["semi"]} == {"g1"}


def test_aimed_fire_ends_the_activation_even_with_movement_tp_left() -> None:
    game = duel()
    s = state(game)
    activate(game, "kane")
    s.men["kane"].move_tp = 10  # Move Swiftly & Silently
    declare(game, Action.make("raiders", "aim", figure="kane", target="g1"))
    hold_windows(game)
    assert s.active_man != "kane" and s.men["kane"].move_tp == 0


def test_a_flamethrower_hit_sets_him_burning_until_he_ceases_prone() -> None:
    for seed in range(30):
        game = duel(gun="flamethrower", at=(4, 4), seed=seed)  # range 3: 80 + mods
        s = state(game)
        activate(game, "kane")
        game.apply(Action.make("raiders", "fire", figure="kane", target="g1"))
        hold_windows(game)  # Mobile Overwatch is asked before the fire resolves (C-128)
        if s.men["g1"].burning and s.men["g1"].active():
            break
    else:
        pytest.fail("no burning hit in 30 seeds")
    hold_windows(game)
    from killhouse.rulesets.commando import explosions

    before = s.men["g1"].damage
    explosions.bookkeeping(s, game.chance, game.log)
    [burns] = events(game, "burns")
    assert 1 <= burns["damage"] == s.men["g1"].damage - before <= 6  # 1d6 (C-34)
    g1 = s.men["g1"]
    s.active_side, s.active_man, s.tasks_done = "guards", "g1", 0
    g1.tp = 25
    assert "cease" not in kinds(game, "guards")  # standing
    g1.posture = g1.posture.__class__("prone")
    g1.tp = 24
    assert "cease" not in kinds(game, "guards")  # 24 TP
    g1.tp = 25
    game.apply(Action.make("guards", "cease", figure="g1"))
    assert not g1.burning and g1.tp == 0
