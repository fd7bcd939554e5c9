"""Legal actions built once per step and kept until the side's draft changes (issue 8 item 4):
the cached lists are exactly what a fresh build gives, at every decision of random games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from killhouse.core.cells import Cell
from killhouse.core.geometry import cells_on_segment
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo import deploy, orders
from killhouse.rulesets.gogogo.state import ORDERS
from killhouse.scenario.loader import load_scenario

from .helpers import Table, fig, open_rows, scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"


def _listed(actions: list[Action]) -> list[tuple[Any, ...]]:
    return [(a.side, a.kind, a.args, sorted(a.hint.items())) for a in actions]


@pytest.mark.parametrize("name", ["hostage.yaml", "setup-destruction.yaml"])
def test_cached_legal_actions_equal_a_fresh_build_at_every_decision(name: str) -> None:
    game = Game(load_scenario(SCENARIOS / name), 5)
    rng = Rng.from_seed(11)
    for _ in range(400):
        pending = game.pending()
        if not pending:
            break
        side = pending[rng.below(len(pending))].side
        cached = game.legal_actions(side)
        again = game.legal_actions(side)
        game.state.cache.clear()
        game.state.memo.clear()
        fresh = game.legal_actions(side)
        assert _listed(cached) == _listed(fresh) == _listed(again)
        game.apply(cached[rng.below(len(cached))])


def test_a_figures_orders_are_built_once_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(load_scenario(SCENARIOS / "hostage.yaml"), 1)
    assert game.state.phase == ORDERS
    built: list[str] = []
    real = orders._figure_orders

    def counting(state: Any, side: str, f: Any, facts: Any) -> Any:
        built.append(f.id)
        return real(state, side, f, facts)

    monkeypatch.setattr(orders, "_figure_orders", counting)
    side = game.pending()[0].side
    first = game.legal_actions(side)
    fighters = [f.id for f in game.state.active_fighters(side)]
    assert sorted(built) == sorted(fighters)
    hold = next(a for a in first if a.kind == "order" and a.get("posture") == "hold")
    game.apply(hold)  # the draft changed: the list is rebuilt, the figures' orders are not
    game.apply(game.legal_actions(side)[0])  # its facing
    after = game.legal_actions(side)
    assert sorted(built) == sorted(fighters)
    assert not any(a.kind == "order" and a.get("figure") == hold.get("figure") for a in after)


def test_a_move_order_made_directly_is_the_action_make_builds() -> None:
    direct = orders._move_order("ct", "c1", "move", 0, 3, 4)
    made = Action.make(
        "ct", "order", {"role": "move", "to": [0, 3, 4], "posture": "move"},
        figure="c1", posture="move", to=[0, 3, 4],
    )
    assert direct == made and hash(direct) == hash(made)
    assert direct.hint == made.hint and direct.to_json() == made.to_json()
    assert orders._move_order("ct", "c1", "stealth", 0, 3, 4) != direct


def test_move_orders_from_the_tables_are_the_square_by_square_list() -> None:
    rng = np.random.default_rng(3)
    for trial in range(20):
        reach = rng.random((7, 9)) < 0.4
        quiet = reach & (rng.random((7, 9)) < 0.5)
        if trial % 3 == 0:
            quiet |= rng.random((7, 9)) < 0.2  # STEALTH marks outside the reach are ignored
        expected = []
        for y in range(7):
            for x in range(9):
                if reach[y, x]:
                    if quiet[y, x]:
                        expected.append(orders._move_order("ct", "c9", "stealth", 1, x, y))
                    expected.append(orders._move_order("ct", "c9", "move", 1, x, y))
        listed = orders._move_orders("ct", "c9", 1, reach, quiet)
        assert _listed(listed) == _listed(expected)
    # asked again, the same squares give the very actions made the first time
    again = orders._move_orders("ct", "c9", 1, reach, quiet)
    assert all(a is b for a, b in zip(again, listed, strict=True))
    assert orders._move_orders("ct", "c9", 1, np.zeros((7, 9), dtype=bool), quiet) == []


def test_facings_are_the_actions_action_make_builds_at_the_map_edge() -> None:
    table = Table(scenario(open_rows(8, 6), [fig("c1", "ct", 2, 2), fig("t1", "t", 6, 4)]))
    state = table.state
    faces = orders._facings(state, "ct", "c1", Cell(0, 0, 0))  # the corner: five off the map
    made = []
    for name, ahead in (
        ("n", None), ("ne", None), ("e", [0, 1, 0]), ("se", [0, 1, 1]),
        ("s", [0, 0, 1]), ("sw", None), ("w", None), ("nw", None),
    ):
        hint: dict[str, Any] = {"role": "other", "facing": name}
        if ahead is not None:
            hint = {"role": "move", "to": ahead, "facing": name}
        made.append(Action.make("ct", "face", hint, figure="c1", facing=name))
    assert _listed(list(faces)) == _listed(made)
    assert orders._facings(state, "ct", "c1", Cell(0, 0, 0)) is faces


def test_the_role_bots_legal_test_agrees_with_a_set_of_actions() -> None:
    from killhouse.ai.roles.gogogo.bot import Legal

    game = Game(load_scenario(SCENARIOS / "hostage.yaml"), 2)
    side = game.pending()[0].side
    actions = game.legal_actions(side)
    hold = next(a for a in actions if a.kind == "order")
    other = "t" if side != "t" else "ct"
    questions = [
        (Action.make(other, hold.kind, **dict(hold.args)), False),  # another side's
        (Action.make(side, "order", figure="nobody", posture="hold"), False),
        # equality ignores the hint, as a set of actions does
        (Action.make(side, hold.kind, hint={"x": 1}, **dict(hold.args)), True),
        (actions[-1], True),
    ]
    # the first questions are answered by a scan, the later ones by a set: the same answers
    for first in range(len(questions)):
        legal = Legal(actions)
        order = questions[first:] + questions[:first]
        assert [q in legal for q, _ in order * 2] == [want for _, want in order * 2]
    legal = Legal(actions)
    assert all(a in legal for a in actions)


def _can_throw_matches(rows: list[str], x: int, y: int) -> bool:
    table = Table(
        scenario(
            rows,
            [fig("c1", "ct", 1, 1), fig("t1", "t", x, y, equipment=["he", "bomb"])],
            mission="destruction",
        )
    )
    state = table.state
    t1 = state.fig("t1")
    quick = orders.can_throw(state, "t", t1)
    state.cache.clear()
    full = bool(orders.throw_targets(state, "t", t1))
    assert quick == full
    return quick


def test_can_throw_agrees_with_the_full_line_test() -> None:
    # open room: a square beside the thrower answers at once
    assert _can_throw_matches(open_rows(8, 6), 4, 3)
    # walled in on all eight sides: nothing to throw at
    shut = ["#######", "#.....#", "#.###.#", "#.#.#.#", "#.###.#", "#.....#", "#######"]
    assert not _can_throw_matches(shut, 3, 3)
    # walls beside, the diagonals open: the full line test decides
    corners = ["#######", "#.....#", "#..#..#", "#.#.#.#", "#..#..#", "#.....#", "#######"]
    _can_throw_matches(corners, 3, 3)


def test_orders_of_a_figure_whose_inputs_are_unchanged_come_from_the_memo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # two rooms with no way between: nobody sees anybody, nothing changes while all hold
    rows = ["#########", "#...#...#", "#...#...#", "#...#...#", "#########"]
    table = Table(scenario(rows, [fig("c1", "ct", 1, 2), fig("t1", "t", 6, 2)]))
    built: list[str] = []
    real = orders._figure_orders

    def counting(state: Any, side: str, f: Any, facts: Any) -> Any:
        built.append(f.id)
        return real(state, side, f, facts)

    monkeypatch.setattr(orders, "_figure_orders", counting)
    state = table.state
    first = orders.order_options(state, "ct")["order"]
    assert built == ["c1"]
    table.turn()
    assert state.turn == 2 and state.phase == ORDERS
    again = orders.order_options(state, "ct")["order"]
    assert built == ["c1"]
    assert _listed(again) == _listed(first)
    # a door the side knows open is another map: the orders are built anew
    state.know["ct"].open_doors.add(Cell(0, 3, 2))
    state.cache.clear()
    orders.order_options(state, "ct")["order"]
    assert built == ["c1", "c1"]
    # so is a change of terrain (a door breaks, a wall falls)
    state.board.set_terrain(Cell(0, 4, 2), Terrain.FLOOR)
    state.cache.clear()
    after = orders.order_options(state, "ct")["order"]
    assert built == ["c1", "c1", "c1"]
    assert any(a.get("to") == (0, 5, 2) for a in after)  # through the fallen wall
    assert not any(a.get("to") == (0, 5, 2) for a in first)


def test_a_destination_one_past_the_allowance_is_refused_with_its_cost() -> None:
    # the listing's search stops at the longest allowance; a refusal still names the cost
    rows = open_rows(20, 8)
    table = Table(scenario(rows, [fig("c1", "ct", 2, 3), fig("t1", "t", 17, 3)]))
    with pytest.raises(IllegalActionError, match="costs 7, more than the move allowance of 6"):
        table.act("ct", "order", figure="c1", posture="move", to=[0, 9, 3])
    with pytest.raises(IllegalActionError, match="costs 14, more than the move allowance"):
        table.act("ct", "order", figure="c1", posture="move", to=[0, 16, 3])
    table.act("ct", "order", figure="c1", posture="move", to=[0, 8, 3])  # costs 6: the edge
    assert table.state.drafts["ct"].orders["c1"].path[-1] == Cell(0, 8, 3)


def test_through_an_opening_agrees_with_tracing_every_throw_line() -> None:
    # windows in a wall and a door the side knows open: the quick box test never changes
    # the answer of tracing the segment's squares (G-18: -1 through an opening)
    rows = [
        "############",
        "#....=.....#",
        "#....#.....#",
        "#....+.....#",
        "#....=.....#",
        "#..........#",
        "############",
    ]
    table = Table(scenario(rows, [fig("c1", "ct", 2, 3), fig("t1", "t", 9, 5)]))
    state = table.state
    state.know["ct"].open_doors.add(Cell(0, 5, 3))
    c1 = state.fig("c1")
    opening = orders.side_opening(state, "ct", 0)
    answers = set()
    for y in range(len(rows)):
        for x in range(len(rows[0])):
            target = Cell(0, x, y)
            traced = cells_on_segment((2, 3), (x, y))[1:-1]
            expected = any(bool(opening[ty, tx]) for tx, ty in traced)
            assert orders.through_opening(state, "ct", c1, target) == expected, target
            answers.add(expected)
    assert answers == {True, False}


def test_an_own_entry_is_the_figure_record_cut_to_the_own_keys() -> None:
    from killhouse.rulesets.gogogo import views

    game = Game(load_scenario(SCENARIOS / "destruction.yaml"), 3)
    state = game.state
    some = next(f for f in state.figures.values() if f.kind != "hostage")
    some.status = "ooa"  # shown in the kit's word for it
    some.stunned_until = 4
    for one in state.figures.values():
        data = one.to_json()
        before = {k: data[k] for k in views.OWN_KEYS}
        before["status"] = views.VIEW_STATUS.get(before["status"], before["status"])
        before["stunned"] = one.stunned
        before["active"] = one.active
        entry = views.own_entry(one)
        assert entry == before and list(entry) == list(before)


@pytest.mark.parametrize("name", ["hostage.yaml", "setup-destruction.yaml", "assassination.yaml"])
def test_views_kept_for_the_step_equal_a_fresh_build_at_every_decision(name: str) -> None:
    """A view is built once per step and viewer; the draft, reports and announcements are
    filled in afresh: at every decision (setup, orders, fire) each side's view and the
    spectator's equal a view built whole, key order included."""
    from killhouse.rulesets.gogogo import views

    scn = load_scenario(SCENARIOS / name)
    game = Game(scn, 7)
    rng = Rng.from_seed(3)
    viewers = [s.id for s in scn.sides] + ["spectator"]
    for _ in range(600):
        pending = game.pending()
        if not pending:
            break
        for who in viewers:
            kept = views.view(game.state, who)
            assert kept == views._view(game.state, who)
            assert list(kept) == list(views._view(game.state, who))
        side = pending[rng.below(len(pending))].side
        actions = game.legal_actions(side)
        game.apply(actions[rng.below(len(actions))])
    for who in viewers:
        assert views.view(game.state, who) == views._view(game.state, who)


@pytest.mark.parametrize("grenade", ["he", "smoke"])
def test_throw_targets_are_the_actions_action_make_builds(grenade: str) -> None:
    """The ``target`` actions made directly equal ``Action.make``'s, hints included, through
    an open window (the chance through an opening) or not."""
    from killhouse.rulesets.gogogo import dice
    from killhouse.rulesets.gogogo.state import HOLD, Order

    rows = open_rows(12, 7)
    rows[3] = rows[3][:5] + "=" + rows[3][6:]  # a window between the thrower and the east
    table = Table(scenario(rows, [fig("t1", "t", 2, 3), fig("c1", "ct", 10, 5)]))
    state = table.state
    thrower = state.fig("t1")
    listed = orders.target_actions(state, "t", thrower, Order(HOLD, task="throw", grenade=grenade))
    assert listed
    cells = orders.throw_targets(state, "t", thrower)
    assert {orders.through_opening(state, "t", thrower, c) for c in cells} == {False, True}
    made = []
    for cell in cells:
        through = orders.through_opening(state, "t", thrower, cell)
        hint: dict[str, Any] = {
            "role": "attack" if grenade == "he" else "other",
            "p": dice.chance_of(dice.grenade_need(through, thrower.wounds, thrower.stunned)),
            "target": list(cell),
            "grenade": grenade,
        }
        made.append(Action.make("t", "target", hint, figure="t1", at=list(cell)))
    assert _listed(listed) == _listed(made)
    assert [a.to_json() for a in listed] == [a.to_json() for a in made]


def test_move_tables_start_afresh_at_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(orders, "_TABLES", {})
    monkeypatch.setattr(orders, "TABLES_SIZE", 2)
    reach = np.zeros((3, 3), dtype=bool)
    reach[1, 2] = True
    first = orders._move_orders("ct", "c1", 0, reach, reach)  # two tables: MOVE and STEALTH
    assert len(orders._TABLES) == 2
    orders._move_orders("ct", "c2", 0, reach, reach)  # past the bound: afresh, then two more
    assert len(orders._TABLES) == 2
    again = orders._move_orders("ct", "c1", 0, reach, reach)  # made anew, the same values
    assert _listed(again) == _listed(first)


@pytest.mark.parametrize("name", ["setup-hostage.yaml", "setup-destruction.yaml", "hostage.yaml"])
def test_actions_kept_across_games_equal_fresh_ones(name: str) -> None:
    """Zone places, setup actions, throw orders, commits and move orders kept process-wide
    (one game's listing fills them for the next) are what a fresh build makes, hints included."""
    sc = load_scenario(SCENARIOS / name)
    first = Game(sc, 3)
    for _ in range(200):  # a first game fills the kept actions
        pending = first.pending()
        if not pending:
            break
        legal = first.legal_actions(pending[0].side)
        first.apply(legal[0])
    game = Game(sc, 5)
    rng = Rng.from_seed(2)
    for _ in range(300):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        kept = game.legal_actions(side)
        for table in (deploy._MADE, deploy._ZONES, orders._MADE, orders._TABLES):
            table.clear()
        game.state.cache.clear()
        game.state.memo.clear()
        assert _listed(game.legal_actions(side)) == _listed(kept)
        game.apply(kept[rng.below(len(kept))])


def test_throw_targets_read_one_by_one_are_the_full_list() -> None:
    """``Targets`` makes each action when read: any index, a slice or a full read give the
    same actions, and reading one makes that one alone."""
    from killhouse.rulesets.gogogo.state import HOLD, Order

    rows = open_rows(12, 7)
    rows[3] = rows[3][:5] + "=" + rows[3][6:]
    table = Table(scenario(rows, [fig("t1", "t", 2, 3), fig("c1", "ct", 10, 5)]))
    state = table.state
    thrower = state.fig("t1")
    order = Order(HOLD, task="throw", grenade="he")
    full = list(orders.target_actions(state, "t", thrower, order))
    lazy = orders.target_actions(state, "t", thrower, order)
    assert len(lazy) == len(full) == len(orders.throw_targets(state, "t", thrower)) > 40
    for i in (len(full) - 1, 0, 17, -1, 17):
        assert lazy[i] == full[i] and lazy[i].hint == full[i].hint
    assert lazy[17] is lazy[17]  # made once
    assert sum(made is not None for made in lazy._made) == 3
    assert _listed(list(lazy[5:40:3])) == _listed(full[5:40:3])
    assert _listed(list(lazy)) == _listed(full)


def test_an_order_is_parsed_once_as_it_is_checked_and_resolved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The resolution takes the order its check just parsed; an order resolved without that
    check (or after another action's check) is parsed again, to the same draft."""
    from killhouse.rulesets.gogogo import flow

    rows = open_rows(12, 7)
    table = Table(
        scenario(rows, [fig("c1", "ct", 2, 3), fig("c2", "ct", 2, 5), fig("t1", "t", 9, 3)])
    )
    parsed: list[str] = []
    real = orders.check_order

    def counting(state: Any, side: str, action: Action) -> Any:
        parsed.append(str(action.get("figure")))
        return real(state, side, action)

    monkeypatch.setattr(orders, "check_order", counting)
    table.act("ct", "order", figure="c1", posture="move", to=[0, 6, 3])
    assert parsed == ["c1"]
    assert table.state.drafts["ct"].orders["c1"].path[-1] == Cell(0, 6, 3)
    table.act("ct", "face", figure="c1", facing="e")
    # checked, then another action checked and resolved: the order is parsed again
    move = Action.make("ct", "order", figure="c2", posture="move", to=[0, 5, 5])
    order_move = flow.FLOW.moves["order"]
    assert order_move.check is not None and order_move.resolve is not None
    order_move.check(table.state, move)
    table.state.cache[("checked", "ct")] = (Action.make("ct", "commit"), None)
    order_move.resolve(table.state, move, table.chance, table.log)
    assert parsed == ["c1", "c2", "c2"]
    assert table.state.drafts["ct"].orders["c2"].path[-1] == Cell(0, 5, 5)


def test_the_orders_listing_reaches_the_kit_as_one_group_per_figure() -> None:
    """Each figure's orders are one counted group over its kept list, the same group at every
    listing of the step; the groups read in order are ``legal_actions``."""
    game = Game(load_scenario(SCENARIOS / "hostage.yaml"), 1)
    side = game.pending()[0].side
    state = game.state
    parts = orders.order_parts(state, side)
    fighters = state.active_fighters(side)
    assert [len(p) for p in parts["order"]] == [
        len(orders.figure_orders(state, side, f)) for f in fighters
    ]
    legal = game.legal(side)
    assert _listed(list(legal)) == _listed(game.legal_actions(side))
    first = game.legal_actions(side)[0]
    game.apply(first)
    game.apply(game.legal_actions(side)[0])  # its facing
    later = orders.order_parts(state, side)["order"]
    assert len(later) == len(fighters) - 1
    assert all(a is b for a, b in zip(later, parts["order"][1:], strict=True))
    assert _listed(list(game.legal(side))) == _listed(game.legal_actions(side))


@pytest.mark.parametrize("name", ["hostage.yaml", "destruction.yaml"])
def test_a_figures_orders_read_one_by_one_are_the_whole_list(name: str) -> None:
    """``FigureOrders`` counts a figure's orders at once and takes a single move order from
    the move tables when read: every index, read alone in any order on a fresh list, is the
    action the whole list has there (STEALTH before MOVE on a square, level by level)."""
    game = Game(load_scenario(SCENARIOS / name), 4)
    state = game.state
    rng = Rng.from_seed(5)
    for side in state.sides:
        for f in state.active_fighters(side):
            facts = orders._figure_facts(state, side, f)
            whole = list(orders._figure_orders(state, side, f, facts))
            single = orders._figure_orders(state, side, f, facts)
            assert len(single) == len(whole) > 10
            indices = list(range(len(whole)))
            for i in range(len(indices) - 1, 0, -1):
                j = rng.below(i + 1)
                indices[i], indices[j] = indices[j], indices[i]
            for i in indices:
                assert single[i] is whole[i]
            assert single[-1] is whole[-1]
            with pytest.raises(IndexError):
                single[len(whole)]
            assert list(single) == whole and single[2:9] == tuple(whole[2:9])


def test_the_sides_opaque_squares_kept_across_steps_follow_its_doors_and_the_terrain() -> None:
    """``side_opaque`` is kept under the side's known doors and the terrain (``memo``): a door
    the side learns is open, or a wall that falls, gives a fresh answer, equal to a build."""
    rows = ["#########", "#...+...#", "#...#...#", "#########"]
    table = Table(scenario(rows, [fig("c1", "ct", 2, 2), fig("t1", "t", 6, 2)]))
    state = table.state
    first = orders.side_opaque(state, "ct", 0)
    assert first[1, 4] and first[2, 4]
    state.cache.clear()
    assert orders.side_opaque(state, "ct", 0) is first  # nothing changed: the kept answer
    state.board.set_terrain(Cell(0, 4, 1), Terrain.DOOR_OPEN)
    state.cache.clear()
    assert orders.side_opaque(state, "ct", 0)[1, 4]  # open, but not known to be
    state.know["ct"].open_doors.add(Cell(0, 4, 1))
    state.cache.clear()
    known = orders.side_opaque(state, "ct", 0)
    assert not known[1, 4] and known[2, 4]
    state.board.set_terrain(Cell(0, 4, 2), Terrain.FLOOR)
    state.cache.clear()
    fallen = orders.side_opaque(state, "ct", 0)
    assert not fallen[2, 4]
    assert (fallen == orders._side_opaque(state, "ct", 0)).all()


def test_facings_read_one_by_one_are_the_whole_list() -> None:
    """``Facings`` makes a facing when read: any index read first on a fresh list, a slice
    and a full read give the actions ``Action.make`` builds, hints included."""
    table = Table(scenario(open_rows(8, 6), [fig("c1", "ct", 2, 2), fig("t1", "t", 6, 4)]))
    shapes = tuple(lv.terrain.shape for lv in table.state.board.levels)
    for end in (Cell(0, 0, 0), Cell(0, 3, 2), Cell(0, 7, 5)):
        whole = list(orders.Facings("ct", "c1", end, shapes))
        assert len(whole) == 8
        for i in (5, 0, 7, 3, -1):
            lazy = orders.Facings("ct", "c1", end, shapes)
            assert lazy[i] == whole[i] and lazy[i].hint == whole[i].hint
            assert lazy[i] is lazy[i]
        lazy = orders.Facings("ct", "c1", end, shapes)
        assert _listed(list(lazy[1:6:2])) == _listed(whole[1:6:2])
        assert _listed(list(lazy)) == _listed(whole)
