"""Who knows what, and when: secret orders, views, sound, doors, per-player maps, and leaks."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from killhouse.ai.registry import RandomBot
from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.rulesets.gogogo.state import HOSTAGE, GoState
from killhouse.scenario.loader import load_scenario

from .helpers import RULES, ScriptedDice, Table, fig, open_rows, scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"
ROOM = open_rows(20, 9)
SITE = {"bomb_a": ["ground:3,3-3,3"]}


def dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=str)


def strings(data: Any) -> set[str]:
    """Every string value and key in a JSON-like structure, and every word inside them."""
    out: set[str] = set()
    if isinstance(data, str):
        out.add(data)
        out.update(re.split(r"[\s:,;()\[\]]+", data))
    elif isinstance(data, dict):
        for k, v in data.items():
            out.add(str(k))
            out |= strings(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= strings(v)
    return out


# -- secret orders ---------------------------------------------------------------------------------


def what_t_can_read(table: Table) -> str:
    state = table.state
    return dump(
        {
            "view": RULES.view(state, "t"),
            "legal": [(a.to_json(), dict(a.hint)) for a in RULES.legal_actions(state, "t")],
            "pending": [(d.side, d.kind, d.prompt) for d in RULES.pending(state)],
            "known": sorted(RULES.known_ids(state, "t")),
            "events": [e.to_json() for e in table.log.events if e.visible_to("t")],
        }
    )


def test_orders_of_one_side_cannot_be_read_by_the_other_before_resolution() -> None:
    def game(ct_orders: dict[str, dict[str, Any]]) -> Table:
        table = Table(
            scenario(
                ROOM,
                [
                    fig("c1", "ct", 2, 4, "e"),
                    fig("c2", "ct", 2, 6, "e"),
                    fig("t1", "t", 12, 4, "e", equipment=["he", "bomb"]),
                ],
                mission="destruction",
                zones=SITE,
            ),
            seed=5,
        )
        for figure, order in ct_orders.items():
            table.order("ct", figure, **order)
        table.commit("ct")
        table.order("t", "t1", "hide", facing="w")  # half-way through T's own orders
        return table

    quiet = game({})
    loud = game(
        {
            "c1": {"posture": "move", "to": (7, 4), "facing": "ne"},
            "c2": {"task": "throw", "grenade": "smoke", "target": (6, 6), "facing": "s"},
        }
    )
    assert what_t_can_read(quiet) == what_t_can_read(loud)
    # and the CT's own view does show them
    assert loud.view("ct")["draft"]["orders"]["c1"]["posture"] == "move"


def test_fire_declarations_are_secret_until_resolved() -> None:
    def game(shoot: bool) -> Table:
        table = Table(
            scenario(
                ROOM,
                [
                    fig("c1", "ct", 2, 4, "e"),
                    fig("t1", "t", 8, 4, "w", equipment=["he", "bomb"]),
                    fig("t2", "t", 17, 7, "e"),
                ],
                mission="destruction",
                zones=SITE,
            ),
            seed=9,
        )
        table.orders()
        if shoot:
            table.act("ct", "fire", figure="c1", target="t1")
        table.commit("ct")
        return table

    assert what_t_can_read(game(False)) == what_t_can_read(game(True))


# -- what is shown ---------------------------------------------------------------------------------


def test_shots_tell_the_target_side_the_shooter_only_if_seen() -> None:
    dice = ScriptedDice([1, 1])
    table = Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 2, 4, "e"),
                fig("t1", "t", 8, 4, "e", equipment=["he", "bomb"]),
                fig("t2", "t", 10, 4, "w"),
            ],
            mission="destruction",
            zones=SITE,
        ),
        dice,
    )
    table.turn(fire_ct={"c1": "t1"})
    shot = table.events("shot")[-1]
    assert shot.audience == frozenset({"ct", "t"})  # named in full: no spectator reads it
    assert shot.for_side("t") == {  # t2 sees c1; no tier (G-68)
        "seq": shot.side_seq("t"),  # t's own dense numbering
        "kind": "shot",
        "target": "t1",
        "result": "miss",
        "by": "c1",
    }
    assert shot.for_side("spectator") is None
    table.state.fig("t2").facing = "e"
    table.orders(t={"t2": {"facing": "e"}})
    table.fire(ct={"c1": "t1"})
    copy = table.events("shot")[-1].for_side("t")
    assert copy is not None and copy["by"] is None


def test_enemies_unseen_this_turn_vanish_from_the_view() -> None:
    table = Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 2, 4, "e"),
                fig("t1", "t", 8, 4, "w", equipment=["he", "bomb"]),
            ],
            mission="destruction",
            zones=SITE,
        ),
        ScriptedDice(),
    )
    assert [s["id"] for s in table.view("ct")["seen"]] == ["t1"]
    assert set(table.view("ct")["seen"][0]) == {"id", "kind", "side", "at", "facing"}
    table.turn(ct={"c1": {"facing": "w"}})
    assert table.view("ct")["seen"] == [] and table.view("ct")["remembered"] == []


def test_footsteps_give_a_direction_not_a_place() -> None:
    table = Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 2, 4, "w"),
                fig("t1", "t", 9, 4, "e", equipment=["he", "bomb"]),
            ],
            mission="destruction",
            zones=SITE,
        ),
        ScriptedDice(),
    )
    table.orders(ct={"c1": {"posture": "move", "to": (6, 6), "facing": "w"}})
    markers = table.view("t")["sounds"]
    assert markers == [{"kind": "footsteps", "listener": "t1", "direction": "sw"}]
    table.fire()
    table.orders(ct={"c1": {"posture": "stealth", "to": (5, 6), "facing": "w"}})
    assert table.view("t")["sounds"] == []  # stealth is silent; old markers are gone


def test_footsteps_of_a_seen_mover_are_not_marked() -> None:
    table = Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 2, 4, "e"),
                fig("t1", "t", 9, 4, "w", equipment=["he", "bomb"]),
            ],
            mission="destruction",
            zones=SITE,
        ),
        ScriptedDice(),
    )
    table.orders(ct={"c1": {"posture": "move", "to": (4, 4), "facing": "e"}})
    assert "c1" in table.state.know["t"].seen and table.view("t")["sounds"] == []


def test_doors_seen_open_are_known_and_others_stay_closed_on_the_map() -> None:
    rows = [
        "####################",
        "#......#...........#",
        "#......+...........#",
        "#......#...........#",
        "####################",
    ]
    table = Table(
        scenario(
            rows,
            [
                fig("c1", "ct", 5, 2, "e"),
                fig("t1", "t", 16, 2, "e", equipment=["he", "bomb"]),
            ],
            mission="destruction",
            zones={"bomb_a": ["ground:1,1-1,1"]},
        ),
        ScriptedDice(),
    )
    door = Cell(0, 7, 2)
    table.orders(ct={"c1": {"posture": "move", "to": (9, 2), "facing": "w"}})
    assert door in table.state.know["ct"].open_doors
    assert door not in table.state.know["t"].open_doors  # t1 faces away
    assert [0, 7, 2] not in table.view("t")["map"]["open_doors"]
    table.fire()
    table.orders(t={"t1": {"facing": "w"}})
    assert door in table.state.know["t"].open_doors


# -- per-player maps (G-35) and voices (G-34) ------------------------------------------------------


def per_player_table() -> Table:
    return Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 2, 4, "e"),
                fig("c2", "ct", 2, 6, "w"),
                fig("t1", "t", 8, 4, "e", equipment=["he", "bomb"]),
            ],
            mission="destruction",
            zones=SITE,
            options={"per_player_views": True},
        ),
        ScriptedDice(),
    )


def test_each_player_sees_only_what_its_figure_sees() -> None:
    table = per_player_table()
    assert [s["id"] for s in table.view("c1")["seen"]] == ["t1"]
    assert table.view("c2")["seen"] == []
    assert [s["id"] for s in table.view("ct")["seen"]] == ["t1"]
    assert "t1" not in RULES.known_ids(table.state, "c2")
    assert {f["id"] for f in table.view("c2")["figures"]} == {"c1", "c2"}  # teammates' places
    assert table.view("c2")["seat"] == "c2"
    spotted = [e for e in table.log.events if e.kind == "spotted" and e.visible_to("c2")]
    assert spotted and all("t1" not in dump(e.to_json()) for e in spotted)


def test_voices_carry_to_enemy_operatives_within_ten() -> None:
    table = per_player_table()
    table.act("ct", "speak", figure="c2")
    table.orders()
    assert table.view("t")["sounds"] == [{"kind": "voices", "listener": "t1", "direction": "w"}]


def test_no_voices_with_one_player_per_side() -> None:
    table = Table(
        scenario(
            ROOM,
            [fig("c1", "ct", 2, 4, "e"), fig("t1", "t", 8, 4, "e", equipment=["he", "bomb"])],
            mission="destruction",
            zones=SITE,
        ),
        ScriptedDice(),
    )
    assert not [a for a in RULES.legal_actions(table.state, "ct") if a.kind == "speak"]


# -- the leak test over many random states ---------------------------------------------------------


def enemy_ids(state: GoState, side: str) -> set[str]:
    return {f.id for f in state.figures.values() if f.side not in (side, None)}


def hostage_ids(state: GoState) -> set[str]:
    return {f.id for f in state.figures.values() if f.kind == HOSTAGE}


def random_states(path: Path, seed: int) -> Iterator[tuple[Game, int]]:
    """Random legal play; yields the game and the first event of the latest step."""
    game = Game(load_scenario(path), seed)
    bot = RandomBot(game.scenario, "any")
    rng = Rng.from_seed(seed)
    while game.pending():
        pending = game.pending()
        decision = pending[rng.below(len(pending))]
        start = len(game.log)
        game.apply(bot.choose({}, game.legal_actions(decision.side), rng))
        yield game, start


def check_side(game: Game, side: str, start: int, seen_before: set[str]) -> None:
    state: GoState = game.state
    know = state.know[side]
    allowed = know.seen | seen_before | {f.id for f in state.side_figures(side)}
    team = state.team(side)
    led = {
        h.id
        for h in state.figures.values()
        if h.kind == HOSTAGE and h.leader is not None and state.fig(h.leader).team == team
    }
    allowed |= led
    secret = (enemy_ids(state, side) | hostage_ids(state)) - allowed
    view = RULES.view(state, side)
    words = strings(view)
    leaked = secret & words
    assert not leaked, f"{side}'s view names {leaked} (phase {state.phase}, turn {state.turn})"
    events = [e.for_side(side) for e in game.log.since(start) if e.visible_to(side)]
    leaked = secret & strings(events)
    assert not leaked, f"an event {side} sees names {leaked}"
    # the view's enemies are exactly the ones seen this turn and still in play
    shown = {s["id"] for s in view["seen"] if s["kind"] != HOSTAGE}
    assert shown == {i for i in know.seen if state.fig(i).kind != HOSTAGE and state.fig(i).active}
    # no enemy orders before resolution
    enemy = state.enemy_side(side)
    for figure in (f.id for f in state.side_figures(enemy)):
        assert figure not in (view.get("draft") or {}).get("orders", {})
    if team == "CT":
        text = dump(view) + dump(events)
        for key in ("detonates", "fuse_turns", "planted_turn"):
            assert key not in text, f"the CT can read the bomb's {key}"


@pytest.mark.parametrize("name", ["hostage", "destruction", "assassination"])
def test_no_view_leaks_in_random_play(name: str) -> None:
    states = 0
    for seed in (11, 12):
        seen_before: dict[str, set[str]] = {"ct": set(), "t": set()}
        for game, start in random_states(SCENARIOS / f"{name}.yaml", seed):
            for side in ("ct", "t"):
                check_side(game, side, start, seen_before[side])
                seen_before[side] = set(game.state.know[side].seen)
            states += 1
            if states >= 400 * (1 + (seed == 12)):
                break
    assert states >= 400  # three scenarios together: well over 1,000 states


def test_a_grenade_from_an_unseen_thrower_does_not_name_it() -> None:
    table = Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 4, 4, "w"),
                fig("t1", "t", 12, 4, "w", equipment=["he", "bomb"]),
            ],
            mission="destruction",
            zones=SITE,
        ),
        ScriptedDice([6, 3]),  # on target; the HE wounds c1
    )
    table.orders(t={"t1": {"task": "throw", "grenade": "he", "target": (4, 4)}})
    assert table.state.fig("c1").wounds == 1
    seen_by_ct = [e.to_json() for e in table.log.events if e.visible_to("ct")]
    assert "t1" not in strings(seen_by_ct)
    assert any(e["kind"] == "burst" for e in seen_by_ct)


# -- the firer learns nothing of its target's hidden state (issue 10 item 1, G-67) --------------


def _firer_copy(target_does: str, faces: list[int], per_player: bool) -> tuple[str, str]:
    """One turn in which c1 shoots t1; what the CT side (and c1's seat) read of it."""
    start = 8 if target_does == "stealth" else 7  # t1 ends on (7,4) in every case
    dice = ScriptedDice(faces)
    table = Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 2, 4, "w"),  # facing away at setup: nothing seen, no die
                fig("t1", "t", start, 4, "e", equipment=["he", "bomb"]),
            ],
            mission="destruction",
            zones=SITE,
            options={"per_player_views": per_player},
        ),
        dice,
    )
    order: dict[str, Any] = {"posture": target_does, "facing": "e"}
    if target_does == "stealth":
        order["to"] = (7, 4)
    table.turn(ct={"c1": {"facing": "e"}}, t={"t1": order}, fire_ct={"c1": "t1"})
    assert dice.faces == [] and table.state.fig("t1").pos == Cell(0, 7, 4)
    need = table.events("shot")[-1].data["need"]
    assert need == (2 if target_does == "hold" else 3)  # the umpire's copy has the truth
    out = []
    for who in ("ct", "c1") if per_player else ("ct",):
        # without seq: its gaps count the events hidden between (a core matter, not a rule's)
        copies = [
            {k: v for k, v in (e.for_side(who) or {}).items() if k != "seq"}
            for e in table.log.events
            if e.visible_to(who)
        ]
        out.append(dump({"events": copies, "view": RULES.view(table.state, who)}))
    return out[0], out[-1]


@pytest.mark.parametrize("per_player", [False, True])
@pytest.mark.parametrize("faces", [[6, 4], [6, 1], [1]], ids=["wound", "kill", "miss"])
def test_the_firers_copy_is_the_same_whether_the_target_hid_moved_or_neither(
    faces: list[int], per_player: bool
) -> None:
    copies = {
        does: _firer_copy(does, list(faces), per_player) for does in ("hold", "hide", "stealth")
    }
    assert copies["hold"] == copies["hide"] == copies["stealth"]
    assert '"need"' not in copies["hold"][0] and "needs" not in copies["hold"][0]


def test_the_target_side_is_not_told_the_shooters_tier() -> None:
    table = Table(
        scenario(
            ROOM,
            [fig("c1", "ct", 2, 4, "e"), fig("t1", "t", 7, 4, "e", equipment=["he", "bomb"])],
            mission="destruction",
            zones=SITE,
        ),
        ScriptedDice([6, 4]),
    )
    table.turn(ct={"c1": {"posture": "stealth", "to": (3, 4)}}, fire_ct={"c1": "t1"})
    shot = table.events("shot")[-1]
    assert shot.data["tier"] == 2
    copy = shot.for_side("t")
    assert copy is not None and "tier" not in copy and copy["by"] is None


def test_each_player_lists_its_own_sighted_hostages_and_goals() -> None:
    """Issue 10 item 2 (G-35): a player's hostages and goals are its figure's, not the team's."""
    table = Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 2, 4, "e"),  # sees h1 ahead
                fig("c2", "ct", 2, 6, "w"),  # faces the wall
                fig("t1", "t", 17, 7, "e"),
                fig("h1", None, 6, 4, kind="hostage"),
            ],
            zones={"location": ["ground:5,1-8,7"], "rescue": ["ground:1,1-1,1"]},
            options={"per_player_views": True},
        ),
        ScriptedDice(),
    )
    assert table.view("ct")["hostages"] == ["h1"]
    assert table.view("c1")["hostages"] == ["h1"] and table.view("c2")["hostages"] == []
    assert table.view("c1")["goals"] == [[0, 6, 4]]
    assert [0, 6, 4] in table.view("c2")["goals"] and len(table.view("c2")["goals"]) > 1
    assert "h1" not in strings(table.view("c2"))


def test_each_player_knows_the_bomb_square_only_from_its_own_figure() -> None:
    """Issue 10 item 2 (G-35): a dropped bomb seen by c1 is not on c2's map."""
    table = Table(
        scenario(
            ROOM,
            [
                fig("c1", "ct", 2, 4, "e"),
                fig("c2", "ct", 2, 6, "w"),
                fig("t1", "t", 17, 7, "e"),
            ],
            mission="destruction",
            zones=SITE,
            objects=[{"id": "bomb", "type": "bomb", "at": "ground:6,4"}],
            options={"per_player_views": True},
        ),
        ScriptedDice(),
    )
    assert table.view("ct")["explosive"]["at"] == [0, 6, 4]
    assert table.view("c1")["explosive"]["at"] == [0, 6, 4]
    assert table.view("c1")["goals"] == [[0, 6, 4]]
    assert table.view("c2")["explosive"]["at"] is None and not table.view("c2")["explosive"][
        "in_sight"
    ]
    assert table.view("c2")["goals"] == [[0, 3, 3]]  # the bomb sites, as briefed
    assert "bomb" in RULES.known_ids(table.state, "c1")
    assert "bomb" not in RULES.known_ids(table.state, "c2")


def check_seat(game: Game, seat: str, start: int, seen_before: set[str]) -> None:
    """The per-player leak check: a player names only what its own figure saw (G-35)."""
    state: GoState = game.state
    side = state.fig(seat).side
    assert side is not None
    team = state.team(side)
    allowed = state.seat_know[seat].seen | seen_before | {f.id for f in state.side_figures(side)}
    allowed |= {
        h.id
        for h in state.figures.values()
        if h.kind == HOSTAGE and h.leader is not None and state.fig(h.leader).team == team
    }
    # the side decides together (G-53): hostages its orders name are the team's decision
    draft = state.drafts[side]
    allowed |= {h for hs in draft.follows.values() for h in hs}
    secret = (enemy_ids(state, side) | hostage_ids(state)) - allowed
    view = RULES.view(state, seat)
    view = {k: v for k, v in view.items() if k not in ("draft", "orders")}
    leaked = secret & strings(view)
    assert not leaked, f"{seat}'s view names {leaked} (phase {state.phase}, turn {state.turn})"
    events = [
        e.for_side(seat)
        for e in game.log.since(start)
        if e.visible_to(seat) and e.kind not in ("orders", "hostage-follows")
    ]
    leaked = secret & strings(events)
    assert not leaked, f"an event {seat} reads names {leaked}"


@pytest.mark.parametrize("name", ["hostage", "destruction"])
def test_no_per_player_view_leaks_in_random_play(name: str) -> None:
    """Issue 10 item 2: the leak test over per-player views (every seat of both sides)."""
    base = load_scenario(SCENARIOS / f"{name}.yaml")
    scn = dataclasses.replace(base, options={**base.options, "per_player_views": True})
    game = Game(scn, 21)
    bot = RandomBot(game.scenario, "any")
    rng = Rng.from_seed(21)
    seats = [f.id for f in game.state.ordered() if f.fighter]
    seen_before: dict[str, set[str]] = {s: set() for s in seats}
    states = 0
    while game.pending() and states < 300:
        pending = game.pending()
        decision = pending[rng.below(len(pending))]
        start = len(game.log)
        game.apply(bot.choose({}, game.legal_actions(decision.side), rng))
        for seat in seats:
            check_seat(game, seat, start, seen_before[seat])
            seen_before[seat] = set(game.state.seat_know[seat].seen)
        states += 1
    assert states >= 100
