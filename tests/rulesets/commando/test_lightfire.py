"""Every fire task at a searchlight (rulings C-194, C-195): aimed, semi-automatic, spray over
lights within 2 squares and a sniper's shot, at the costs and modifiers of fire at men; no op
fire at a light."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game, canonical_json
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import lightfire
from killhouse.scenario.model import ObjectSpec
from tests.rulesets.commando.arena import (
    activate,
    arena,
    events,
    hold_windows,
    kinds,
    registered,
    state,
)

pytestmark = pytest.mark.usefixtures(registered.__name__)

SNIPER = {"man": "commando", "skills": {"sniping": 20}, "wps": {"rifle": 0}}


def lit(weapon: str = "m16", *, second: tuple[int, int] | None = None, seed: int = 3,
        extra: dict[str, Any] | None = None) -> Game:
    """Kane at (20, 4) with ``weapon``; a light at (30, 4) and maybe a second one."""
    men = [("kane", "raiders", (20, 4), (weapon,), extra or {"man": "commando"}),
           ("g1", "guards", (38, 8), ("pistol",), {})]
    scenario = arena(men, light="night")
    objects = [ObjectSpec("sl", "searchlight", "objects[0]", at=Cell(0, 30, 4),
                          extra={"aim": "ground:25,4"})]
    if second is not None:
        objects.append(ObjectSpec("sl2", "searchlight", "objects[1]", at=Cell(0, *second),
                                  extra={"aim": "ground:25,6"}))
    return Game(replace(scenario, objects=objects), seed=seed)


def modes(game: Game) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for a in kinds(game, "raiders").get("shoot_light", []):
        out.setdefault(str(a.get("mode") or "fire"), []).append(a)
    return out


def test_an_m16_offers_plain_aimed_and_semi_fire_and_a_pistol_plain_and_aimed() -> None:
    game = lit()
    activate(game, "kane")
    assert set(modes(game)) == {"fire", "aim", "semi"}  # one light: no spray
    pistol = lit("pistol")
    activate(pistol, "kane")
    assert set(modes(pistol)) == {"fire", "aim"}


def test_aimed_fire_is_his_only_task_all_his_tp_and_ten_more_to_hit() -> None:
    game = lit()
    s = state(game)
    activate(game, "kane")
    kane = s.men["kane"]
    plain = lightfire.chance_to_hit(s, kane, "sl")
    assert plain is not None
    assert lightfire.chance_to_hit(s, kane, "sl", aimed=True) == plain + 10
    kane.move_tp = 10
    game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl", mode="aim"))
    [shot] = events(game, "shoot-light")
    assert shot["mode"] == "aim" and shot["cost"] == 50 and shot["chance"] == plain + 10
    assert len(shot["rolls"]) == 3  # an M16's three fires
    assert kane.tp == 0 and kane.move_tp == 0


def test_aimed_fire_only_as_the_first_task() -> None:
    game = lit()
    activate(game, "kane")
    game.apply(Action.make("raiders", "posture", figure="kane", to="prone"))
    hold_windows(game)
    assert "aim" not in modes(game) and "fire" in modes(game)
    s = state(game)
    before = canonical_json(game.ruleset.snapshot(s))
    with pytest.raises(IllegalActionError, match="only task"):
        game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl",
                               mode="aim"))
    assert canonical_json(game.ruleset.snapshot(s)) == before


@pytest.mark.parametrize(("tp", "offered"), [(15, True), (14, False)])
def test_semi_automatic_fire_costs_fifteen_and_rolls_once(tp: int, offered: bool) -> None:
    game = lit()
    activate(game, "kane")
    state(game).men["kane"].tp = tp
    assert ("semi" in modes(game)) is offered
    if offered:
        game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl",
                               mode="semi"))
        [shot] = events(game, "shoot-light")
        assert len(shot["rolls"]) == 1 and state(game).men["kane"].tp == 0
        mag = [e for e in game.log.events if e.kind == "roll" and "mag" in e.data["purpose"]]
        assert len(mag) <= 1


@pytest.mark.parametrize(("second", "offered"), [((32, 4), True), ((33, 4), False)])
def test_spray_sweeps_a_second_light_within_two_squares_not_three(
        second: tuple[int, int], offered: bool) -> None:
    game = lit(second=second)
    activate(game, "kane")
    sprays = modes(game).get("spray", [])
    assert bool(sprays) is offered
    split = "sl,sl2,sl"
    action = Action.make("raiders", "shoot_light", figure="kane", light="sl", mode="spray",
                         split=split)
    if not offered:
        before = canonical_json(game.ruleset.snapshot(state(game)))
        with pytest.raises(IllegalActionError, match="within 2 squares"):
            game.apply(action)
        assert canonical_json(game.ruleset.snapshot(state(game))) == before
        return
    assert split in {a.get("split") for a in sprays}
    game.apply(action)
    s = state(game)
    [shot] = events(game, "shoot-light")
    assert shot["split"] == ["sl", "sl2", "sl"] and shot["cost"] == 25
    assert s.men["kane"].tp == 50 - 25
    hits = {ident for ident, r, c in zip(shot["split"], shot["rolls"], shot["chances"],
                                         strict=True) if r <= c}
    assert set(shot["out"]) == hits
    assert {i for i, light in s.lights.items() if light.aim is None} == hits


def test_a_spray_split_must_name_one_light_per_fire_starting_with_the_light() -> None:
    game = lit(second=(31, 4))
    activate(game, "kane")
    for split, message in (("sl,sl2", "one light per fire"),
                           ("sl2,sl,sl", "first fire"), ("sl,g1,sl", "no burning light")):
        with pytest.raises(IllegalActionError, match=message):
            game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl",
                                   mode="spray", split=split))
    with pytest.raises(IllegalActionError, match="only spray"):
        game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl",
                               split="sl,sl,sl"))


def test_a_sniper_who_makes_his_roll_stays_unobserved() -> None:
    seen = set()
    for seed in range(1, 30):
        game = lit("rifle", seed=seed, extra=SNIPER)
        s = state(game)
        activate(game, "kane")
        assert "snipe" in modes(game)
        game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl",
                               mode="snipe"))
        [event] = [e for e in game.log.events if e.kind == "shoot-light"]
        sniped = bool(event.data["sniped"])
        assert event.data["cost"] == 23 and s.men["kane"].tp == 50 - 23
        # night: 20 squares is past the guards' sight, so "seen once" is what marks it (C-86)
        assert ("kane" in s.ever_seen["guards"]) is not sniped
        assert (event.for_side("guards") is None) is sniped
        if event.data["hit"]:  # the light going out is public either way
            assert any(e.kind == "searchlight" and e.audience is None
                       for e in game.log.events)
        seen.add(sniped)
        if seen == {True, False}:
            break
    assert seen == {True, False}


@pytest.mark.parametrize(("tp", "offered"), [(23, True), (22, False)])
def test_sniping_costs_ten_more(tp: int, offered: bool) -> None:
    game = lit("rifle", extra=SNIPER)
    activate(game, "kane")
    state(game).men["kane"].tp = tp
    assert ("snipe" in modes(game)) is offered
    no_skill = lit("rifle")
    activate(no_skill, "kane")
    assert "snipe" not in modes(no_skill)


def test_op_fire_is_never_at_a_light() -> None:
    game = lit()
    s = state(game)
    for side in s.sides:
        s.observed[side] = {m.id for m in s.side_men(s.enemy(side))}
    activate(game, "kane")
    game.apply(Action.make("raiders", "posture", figure="kane", to="prone"))
    pending = game.pending()
    assert pending and pending[0].kind == "opfire"
    targets = {a.get("target") for a in game.legal_actions("guards") if a.kind == "opfire"}
    assert "sl" not in targets


def test_the_narration_names_the_fire_task_and_the_lights_put_out() -> None:
    from killhouse.rulesets.commando.narrate import narrate

    game = lit(second=(31, 4))
    activate(game, "kane")
    game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl", mode="spray",
                           split="sl,sl2,sl"))
    event = next(e for e in game.log.events if e.kind == "shoot-light")
    line = narrate(event)
    assert line is not None and line.startswith("kane puts spray fire from his m16 on "
                                                 "searchlight sl, sl2, sl (25 TP, needs ")
    theirs = event.for_side("guards")
    assert theirs is not None and "chance" not in theirs and "chances" not in theirs
