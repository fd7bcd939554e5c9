"""Mobile Overwatch before every fire task and launch, not only the plain fire (digest 12.1;
rulings C-128, C-129, C-150, C-151)."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from tests.rulesets.commando.arena import activate, arena, events, registered, state

pytestmark = pytest.mark.usefixtures(registered.__name__)

SKILLED = {"man": "commando", "skills": {"mobile_overwatch": 25}}


def duel(kit: tuple[str, ...] = ("m16",), extra: dict[str, Any] | None = None,
         vex: tuple[int, int] = (11, 4), more: tuple[tuple[str, tuple[int, int]], ...] = (),
         seed: int = 1) -> Game:
    """Kane (raider, 10 squares west of vex) and vex, a guard with Mobile Overwatch."""
    men = [("kane", "raiders", (1, 4), kit, {"man": "commando", "wps": {"m16": 1},
                                             **(extra or {})}),
           ("vex", "guards", vex, ("m16",), dict(SKILLED))]
    men += [(ident, "guards", xy, ("m16",), dict(SKILLED)) for ident, xy in more]
    game = Game(arena(men), seed=seed)
    s = state(game)
    for side in s.sides:
        s.observed[side] = {m.id for m in s.side_men(s.enemy(side))}
    return game


def offered(game: Game) -> set[tuple[str, Any]]:
    return {(a.kind, a.get("figure")) for a in game.legal_actions("guards")}


@pytest.mark.parametrize("kind", ["aim", "semi", "snipe"])
def test_the_question_comes_before_every_single_target_task(kind: str) -> None:
    extra = {"skills": {"sniping": 20}} if kind == "snipe" else {}
    kit = ("rifle",) if kind == "snipe" else ("m16",)
    game = duel(kit, extra)
    activate(game, "kane")
    s = state(game)
    start = len(game.log)
    game.apply(Action.make("raiders", kind, figure="kane", target="vex"))
    # nothing is rolled or paid before the guards answer (C-128)
    assert [(d.side, d.kind) for d in game.pending()] == [("guards", "overwatch")]
    assert not [e for e in game.log.since(start) if e.kind in (kind, "roll")]
    assert s.men["kane"].tp == 50
    assert offered(game) == {("overwatch", "vex"), ("hold", None)}
    game.apply(Action.make("guards", "hold"))
    assert len(events(game, kind)) == 1


def test_an_answer_to_aimed_fire_fires_back_simultaneously() -> None:
    answered = 0
    for seed in range(30):
        game = duel(seed=seed)
        activate(game, "kane")
        s = state(game)
        game.apply(Action.make("raiders", "aim", figure="kane", target="vex"))
        start = len(game.log)
        game.apply(Action.make("guards", "overwatch", figure="vex", target="kane"))
        kinds = [e.kind for e in game.log.since(start) if e.kind in ("aim", "fire")]
        if kinds == ["aim"]:  # the skill roll failed: nothing paid (12.1)
            continue
        answered += 1
        assert kinds == ["aim", "fire"]  # the declared task first, then the answer (C-129)
        [back] = [e.data for e in game.log.since(start) if e.kind == "fire"]
        assert back["figure"] == "vex" and back["target"] == "kane"
        vex = s.men["vex"]
        if vex.active():
            assert vex.tp <= 50 - 18 - 9  # his m16's fire cost + 9
    assert answered > 0


def test_spray_fire_offers_the_answer_to_every_man_it_names() -> None:
    game = duel(more=(("wex", (11, 5)),))
    activate(game, "kane")
    game.apply(Action.make("raiders", "spray", figure="kane", target="vex",
                           split="vex,wex,vex"))
    assert offered(game) == {("overwatch", "vex"), ("overwatch", "wex"), ("hold", None)}
    game.apply(Action.make("guards", "overwatch", figure="wex", target="kane"))
    assert len(events(game, "spray")) == 1


def test_a_successful_sniper_leaves_the_answer_without_a_target() -> None:
    lapsed = fired = 0
    for seed in range(40):
        game = duel(("rifle",), {"skills": {"sniping": 20}}, seed=seed)
        activate(game, "kane")
        s = state(game)
        s.observed["guards"] = set()  # the sniper is unseen until he fires
        game.apply(Action.make("raiders", "snipe", figure="kane", target="vex"))
        start = len(game.log)
        game.apply(Action.make("guards", "overwatch", figure="vex", target="kane"))
        new = game.log.since(start)
        skill = [e.data["result"] for e in new
                 if e.kind == "roll" and e.data["purpose"] == "skill mobile_overwatch"]
        [shot] = [e.data for e in new if e.kind == "snipe"]
        if not skill:
            continue
        if shot["sniped"] and any(e.kind == "overwatch-lapses" for e in new):
            lapsed += 1
            assert not [e for e in new if e.kind == "fire"]
            lapse = next(e for e in new if e.kind == "overwatch-lapses")
            assert lapse.audience == frozenset({"guards"})  # C-150: the sniper learns nothing
            if s.men["vex"].damage == 0:
                assert s.men["vex"].tp == 50  # a lapsed answer costs nothing
        elif any(e.kind == "fire" for e in new):
            fired += 1
            assert not shot["sniped"]
    assert lapsed > 0 and fired > 0


def test_a_launch_asks_whoever_stands_in_the_aimed_square() -> None:
    game = duel(("m16", "thump_gun"), vex=(21, 4))  # range 20
    activate(game, "kane")
    game.apply(Action.make("raiders", "launch", figure="kane", device="thump_gun",
                           at=[0, 21, 4]))
    assert offered(game) == {("overwatch", "vex"), ("hold", None)}
    game.apply(Action.make("guards", "hold"))
    assert len(events(game, "launch")) == 1
    # an empty square is asked about too (C-151), and only hold is offered
    game = duel(("m16", "thump_gun"), vex=(21, 4))
    activate(game, "kane")
    game.apply(Action.make("raiders", "launch", figure="kane", device="thump_gun",
                           at=[0, 21, 6]))
    assert [(d.side, d.kind) for d in game.pending()] == [("guards", "overwatch")]
    assert offered(game) == {("hold", None)}


@pytest.mark.parametrize(("tp", "allowed"), [(27, True), (26, False)])
def test_the_launch_answer_needs_fire_cost_plus_nine(tp: int, allowed: bool) -> None:
    game = duel(("m16", "thump_gun"), vex=(21, 4))  # vex's m16: 18 + 9 = 27 TP
    activate(game, "kane")
    state(game).men["vex"].tp = tp
    game.apply(Action.make("raiders", "launch", figure="kane", device="thump_gun",
                           at=[0, 21, 4]))
    assert (("overwatch", "vex") in offered(game)) is allowed
