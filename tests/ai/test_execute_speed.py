"""The Execute role bots' fast paths answer exactly what the slow, obvious ways answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from killhouse.ai.roles.execute import FbiBot, TerroristBot, bot_for
from killhouse.ai.roles.execute.common import ExecuteBot, pack
from killhouse.core.cells import Cell
from killhouse.core.fov import fields_of_view
from killhouse.core.geometry import chebyshev, line_of_sight
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "execute"


def test_sight_counts_match_one_segment_at_a_time_and_follow_a_door() -> None:
    sc = load_scenario(SCENARIOS / "embassy.yaml")
    bot = FbiBot(sc, "fbi")
    plan = bot.plan
    cells = [Cell(lv, int(x), int(y)) for lv, level in enumerate(plan.levels)
             for y, x in zip(*np.nonzero(level.terrain != Terrain.WALL), strict=True)]
    rng = np.random.default_rng(5)
    others = [cells[i] for i in rng.choice(len(cells), 6, replace=False)]
    others.append(others[0])  # listed twice, counted twice
    door = next(c for c in cells if plan.terrain(c) in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN))

    def slow() -> dict[Cell, int]:
        return {c: sum(1 for o in others if o.level == c.level
                       and line_of_sight(plan.opaque(c.level), (c.x, c.y), (o.x, o.y)))
                for c in cells}

    assert bot.los_counts(cells, others) == slow()
    grids = bot.los_grids(others)
    assert {c: grids[c.level][c.y][c.x] if c.level in grids else 0 for c in cells} == slow()
    assert bot.los_count(cells[0], others) == slow()[cells[0]]
    # a door shut on the copy changes the sight masks: none is served stale
    shut = Terrain.DOOR_OPEN if plan.terrain(door) == Terrain.DOOR_CLOSED else Terrain.DOOR_CLOSED
    assert bot.mirror.set_terrain([(door, shut)])
    assert bot.los_counts(cells, others) == slow()
    grids = bot.los_grids(others)
    assert {c: grids[c.level][c.y][c.x] if c.level in grids else 0 for c in cells} == slow()


def test_move_list_reads_what_the_actions_say() -> None:
    sc = load_scenario(SCENARIOS / "bank.yaml")
    game = Game(sc, 3)
    bots = {side: bot_for(sc, side) for side in sc.side_ids()}
    rng = Rng.from_seed(3)
    while True:
        side = game.pending()[0].side
        actions = game.legal_actions(side)
        if any(a.kind == "move" for a in actions):
            break
        game.apply(bots[side].choose(game.view(side), actions, rng))
    bot = FbiBot(sc, "fbi")
    odd = Action.make("fbi", "move", {"to": [0, 1, 2]}, figure="x", to=[0, 1, 2], via=[])
    listed = bot.move_list([*actions, odd])
    expected = [(a, str(a.get("figure")), ExecuteBot.dest(a))
                for a in [*actions, odd] if a.kind == "move"]
    assert [m[:3] for m in listed] == expected
    assert all(m[3] == (-1 if m[2] is None else pack(m[2])) for m in listed)
    assert len({m[4] for m in listed if m[1] == "x"}) == 1
    assert listed[-1][2] == Cell(0, 1, 2)
    # read again from another list of the same actions (kept by identity), and a new one
    other = Action.make("fbi", "move", {"to": [0, 2, 2]}, figure="y", to=[0, 2, 2], via=[])
    again = bot.move_list([other, *reversed(actions)])
    assert [m[:3] for m in again] == [(other, "y", Cell(0, 2, 2)), *reversed(expected[:-1])]
    assert again[1] is listed[-2]  # the same read, kept by identity


def test_extraction_cells_and_deep_exits_match_the_plain_answers() -> None:
    sc = load_scenario(SCENARIOS / "embassy.yaml")
    bot = FbiBot(sc, "fbi")
    raw = [[0, x, 15] for x in range(24)] + [[0, x, 14] for x in range(24)]
    exits = bot.extraction(raw)
    assert exits == [Cell(0, x, y) for x, y in [(x, 15) for x in range(24)]
                     + [(x, 14) for x in range(24)]]
    assert bot.extraction([[0, 1, 15]]) == [Cell(0, 1, 15)]  # a different list: read again
    deep = bot.deep(exits)
    assert Cell(0, 5, 15) in deep and Cell(0, 5, 14) not in deep  # row 13 lies beyond


def test_deep_exits_equal_the_neighbour_by_neighbour_rule() -> None:
    sc = load_scenario(SCENARIOS / "embassy.yaml")
    bot = FbiBot(sc, "fbi")
    plan = bot.plan
    rng = np.random.default_rng(3)
    cells = [Cell(lv, x, y) for lv, level in enumerate(plan.levels)
             for y in range(level.terrain.shape[0]) for x in range(level.terrain.shape[1])]
    for _ in range(20):
        zone = [cells[i] for i in rng.choice(len(cells), 60, replace=False)]
        zone += [Cell(0, x, y) for x in range(24) for y in (13, 14, 15)]
        inside = set(zone)
        slow = [c for c in zone if not any(
            plan.in_bounds(n) and plan.passable(n) and n not in inside
            for n in (Cell(c.level, c.x + dx, c.y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)))]
        assert bot.deep(zone) == slow


def test_an_agent_on_a_stair_with_no_move_up_keeps_the_team_off_that_stairway() -> None:
    sc = load_scenario(SCENARIOS / "embassy.yaml")
    bot = FbiBot(sc, "fbi")
    stair, top = next(iter(sc.board.stairs.items()))

    def move(fid: str, to: Cell) -> Action:
        return Action.make("fbi", "move", {"to": list(to)}, figure=fid, to=list(to))

    figures = [{"id": "a", "at": list(stair), "status": "active"},
               {"id": "b", "at": [0, 2, 2], "status": "active"}]
    view = {"turn": 3, "figures": figures}
    beside = Cell(stair.level, stair.x - 1, stair.y)
    bot.watch_stairs(view, [move("a", beside), move("b", Cell(0, 3, 3))])
    assert bot.blocked == {top: 3, stair: 3}
    bot.blocked = {}
    bot.watch_stairs(view, [move("a", beside), move("a", top)])  # it can go up: no gunman
    assert bot.blocked == {}
    bot.watch_stairs(view, [move("b", Cell(0, 3, 3))])  # it has no move at all: no sign
    assert bot.blocked == {}
    bot.blocked = {top: 1}
    bot.watch_stairs({"turn": 5, "figures": []}, [])  # four turns on, the stairway is free
    assert bot.blocked == {}


def test_advance_from_a_cost_read_once_is_advance_score() -> None:
    """The movement scorer reads each agent's own distance to the goal once: the score is
    the one ``advance_score`` gives, on and off the map, reachable or not."""
    sc = load_scenario(SCENARIOS / "embassy.yaml")
    bot = FbiBot(sc, "fbi")
    bot.sync({"doors": [], "public": {"entry": []}})
    plan = bot.plan
    cells = [Cell(lv, int(x), int(y)) for lv, level in enumerate(plan.levels)
             for y, x in zip(*np.nonzero(level.terrain != Terrain.WALL), strict=True)]
    rng = np.random.default_rng(3)
    field = bot.distances([cells[int(i)] for i in rng.choice(len(cells), 2, replace=False)])
    assert field is not None
    picks = [cells[int(i)] for i in rng.choice(len(cells), 40, replace=False)]

    def plain(here: Cell | None, dest: Cell) -> float:
        to = field.cost(dest)
        if to is None:
            return -1.0
        if here is None:
            return 10.0 / (1 + to)
        now = field.cost(here)
        return float((now if now is not None else to + 1) - to)

    for here in [None, *picks[:8]]:
        now = None if here is None else field.cost(here)
        for dest in picks:
            assert FbiBot.advance_from(now, here, dest, field) == plain(here, dest)
            assert FbiBot.advance_score(here, dest, field) == plain(here, dest)
            assert FbiBot.advance_from(now, here, dest, None) == 0.0


def test_explored_squares_equal_every_field_seen_from_scratch() -> None:
    """``explore`` traces a field only from a square not traced under the plan as it stands:
    what it marks equals the union of every agent's field, decision after decision, and a
    door opened on the plan makes the squares traced again."""
    sc = load_scenario(SCENARIOS / "embassy.yaml")
    bot = FbiBot(sc, "fbi")
    bot.sync({"doors": [], "public": {"entry": []}})
    plan = bot.plan
    cells = [Cell(lv, int(x), int(y)) for lv, level in enumerate(plan.levels)
             for y, x in zip(*np.nonzero(level.terrain == Terrain.FLOOR), strict=True)]
    rng = np.random.default_rng(9)
    picks = [cells[int(i)] for i in rng.choice(len(cells), 6, replace=False)]
    door = next(c for lv, level in enumerate(plan.levels)
                for y, x in zip(*np.nonzero(level.terrain == Terrain.DOOR_CLOSED), strict=True)
                for c in [Cell(lv, int(x), int(y))])

    def view(at: list[Cell]) -> dict[str, Any]:
        return {"figures": [{"status": "active", "at": list(c)} for c in at]}

    def union(eyes: list[Cell]) -> list[np.ndarray[Any, Any]]:
        out = [np.zeros(lv.terrain.shape, dtype=bool) for lv in plan.levels]
        for c, seen in zip(eyes, fields_of_view(plan, [(c, None, 180.0) for c in eyes]),
                           strict=True):
            out[c.level] |= seen
        return out

    traced: list[Cell] = []
    for step in range(1, 4):
        at = picks[: 2 * step]
        bot.explore(view(at))
        traced += at
        assert all((a == b).all() for a, b in zip(bot.explored, union(traced), strict=True))
    bot.mirror.set_terrain([(door, Terrain.DOOR_OPEN)])
    bot.explore(view(picks))
    assert all((a | b == a).all() for a, b in zip(bot.explored, union(picks), strict=True))
    assert bot._explored_from == set(picks)


def test_plain_scores_equal_the_move_at_a_time_sums() -> None:
    """The compiled plain scores (``FbiBot.plain_scores``) equal the obvious loop: the goal
    gained (10 / (1 + cost) from off the map), -1 when the nearest teammate other than the
    mover ends more than 5 squares away on its level, +1.5 per gunman in sight (two at
    most); NaN for a figure not scored plainly, a move out of reach or not worth making.
    On the movement decisions of a game, with random goals, gunmen and plain figures."""
    sc = load_scenario(SCENARIOS / "embassy.yaml")
    game = Game(sc, 4)
    bots = {side: bot_for(sc, side) for side in sc.side_ids()}
    rng = Rng.from_seed(4)
    pick = np.random.default_rng(4)
    checked = 0
    for _ in range(600):
        pending = game.pending()
        if not pending or checked >= 12:
            break
        side = pending[0].side
        actions = game.legal_actions(side)
        view = game.view(side, events_since=None)
        bot = bots[side]
        if isinstance(bot, FbiBot) and any(a.kind == "move" for a in actions):
            bot.sync(view)
            plan = bot.plan
            cells = [Cell(lv, int(x), int(y)) for lv, level in enumerate(plan.levels)
                     for y, x in zip(*np.nonzero(level.terrain != Terrain.WALL), strict=True)]
            moves = bot.move_list(actions)
            mine = bot.own(view)
            where = bot.places(mine)
            team = [c for c in where.values() if c is not None]
            for _ in range(3):
                goals = [cells[int(i)] for i in pick.choice(len(cells), 3, replace=False)]
                enemies = [cells[int(i)] for i in pick.choice(len(cells), int(pick.integers(0, 4)),
                                                               replace=False)]
                field = bot.distances(goals)
                assert field is not None
                plain = {fid: bool(pick.integers(0, 4)) for fid in {m[1] for m in moves}}
                got = bot.plain_scores(moves, where, plain, field, team, enemies)
                assert np.array_equal(got, _plain_reference(bot, moves, where, plain, field,
                                                             team, enemies), equal_nan=True)
                checked += 1
        game.apply(bot.choose(view, actions, rng))
    assert checked >= 12


def _plain_reference(bot: FbiBot, moves: list[Any], where: dict[str, Cell | None],
                     plain: dict[str, bool], field: Any, team: list[Cell],
                     enemies: list[Cell]) -> np.ndarray[Any, Any]:
    """The plain scores a move at a time, as the bot once scored them."""
    shots = bot.los_grids(enemies)
    out = np.full(len(moves), np.nan)
    for i, (_, fid, dest, _, _) in enumerate(moves):
        here = where.get(fid)
        if dest is None or not plain[fid]:
            continue
        to = field.cost(dest)
        if to is None:
            continue
        if here is None:
            score = 10.0 / (1 + to)
        else:
            now = field.cost(here)
            score = float((now if now is not None else to + 1) - to)
        if score <= 0:
            continue
        others = [c for c in team if c != here and c.level == dest.level]
        if others and min(chebyshev(dest, c) for c in others) > 5:
            score -= 1.0
        seen_by = shots.get(dest.level)
        score += 1.5 * min(2, 0 if seen_by is None else seen_by[dest.y][dest.x])
        out[i] = score
    return out


def _movement_decisions(name: str, role: type, count: int) -> Any:
    """Up to ``count`` movement decisions of ``role``'s bot in a bot game on ``name``, as
    (bot, view, actions, walkable squares); the game goes on by the bots' choices."""
    sc = load_scenario(SCENARIOS / f"{name}.yaml")
    game = Game(sc, 6)
    bots = {side: bot_for(sc, side) for side in sc.side_ids()}
    rng = Rng.from_seed(6)
    found = 0
    for _ in range(2000):
        pending = game.pending()
        if not pending or found >= count:
            return
        side = pending[0].side
        actions = game.legal_actions(side)
        view = game.view(side, events_since=None)
        bot = bots[side]
        if isinstance(bot, role) and any(a.kind == "move" for a in actions):
            bot.sync(view)
            cells = [Cell(lv, int(x), int(y)) for lv, level in enumerate(bot.plan.levels)
                     for y, x in zip(*np.nonzero(level.terrain != Terrain.WALL), strict=True)]
            yield bot, view, actions, cells
            found += 1
        game.apply(bot.choose(view, actions, rng))


def _lead_reference(here: Cell | None, dest: Cell, hostages: list[Cell], field: Any,
                    extraction: set[Cell]) -> float:
    """A leader's move scored on its own, as the bot once scored each."""
    if field is None:
        return 0.0
    to = field.cost(dest)
    if to is None:
        return -1.0
    now = field.cost(here) if here is not None else None
    gain = float((now if now is not None else to + 1) - to)
    lag = max((chebyshev(dest, h) for h in hostages if h.level == dest.level), default=0)
    if here is not None and here in extraction:
        return 5.0 - lag
    return gain - 0.3 * max(0, lag - 6) + 0.1


def test_lead_scores_equal_a_leader_move_at_a_time() -> None:
    """``FbiBot.lead_scores`` (compiled) equals each leader's move scored on its own, on bank
    movement decisions with random leaders, hostages, ways out (a leader's own square among
    them) and no way out at all."""
    pick = np.random.default_rng(8)
    checked = scored = 0
    for bot, view, actions, cells in _movement_decisions("bank", FbiBot, 10):
        moves = bot.move_list(actions)
        where = bot.places(bot.own(view))
        fids = sorted({m[1] for m in moves})
        for _ in range(3):
            led = {fid: [cells[int(i)] for i in pick.choice(len(cells), int(pick.integers(1, 4)),
                                                           replace=False)]
                   for fid in fids if pick.integers(0, 2)}
            exits = {cells[int(i)] for i in pick.choice(len(cells), 20, replace=False)}
            exits |= {c for c in where.values() if c is not None and pick.integers(0, 2)}
            field = bot.distances(sorted(exits)) if pick.integers(0, 4) else None
            got = bot.lead_scores(moves, where, led, field, exits)
            want = np.array([np.nan if fid not in led or dest is None
                             else _lead_reference(where.get(fid), dest, led[fid], field, exits)
                             for _, fid, dest, _, _ in moves])
            assert np.array_equal(got, want, equal_nan=True)
            checked += 1
            scored += int(np.count_nonzero(~np.isnan(want)))
    assert checked >= 30 and scored > 100


def test_terrorist_scores_equal_a_move_at_a_time() -> None:
    """``TerroristBot.close_in_scores`` (compiled) equals the loop the bot once ran: close on
    the field, +2 with a shot at one agent or -1 per agent with a shot, -3 at a cost of 1 or
    less, kept above 0; guards and figures with a shot where they stand hold."""
    pick = np.random.default_rng(5)
    checked = scored = 0
    for bot, view, actions, cells in _movement_decisions("embassy", TerroristBot, 8):
        moves = bot.move_list(actions)
        where = bot.places(bot.own(view))
        for _ in range(3):
            agents = [cells[int(i)] for i in pick.choice(len(cells), int(pick.integers(0, 4)),
                                                         replace=False)]
            goals = agents or [cells[int(pick.integers(0, len(cells)))]]
            field = bot.distances(goals)
            got = bot.close_in_scores(moves, where, field, agents)
            shots = bot.los_grids(agents) if agents else {}
            rows = field.visible_rows if field is not None else None
            want = np.full(len(moves), np.nan)
            for i, (_, fid, dest, _, _) in enumerate(moves):
                here = where.get(fid)
                if here is None or dest is None or fid in bot.guards or rows is None:
                    continue
                grid = shots.get(here.level)
                if grid is not None and grid[here.y][here.x]:
                    continue
                to, now = rows[dest.level][dest.y][dest.x], rows[here.level][here.y][here.x]
                if to < 0 or now < 0 or now - to <= 0:
                    continue
                grid = shots.get(dest.level)
                exposure = 0 if grid is None else grid[dest.y][dest.x]
                score = float(now - to) + (2.0 if exposure == 1 else -1.0 * exposure)
                if to <= 1:
                    score -= 3.0
                if score > 0:
                    want[i] = score
            assert np.array_equal(got, want, equal_nan=True)
            checked += 1
            scored += int(np.count_nonzero(~np.isnan(want)))
    assert checked >= 24 and scored > 100


def test_eyes_noted_and_traced_later_explore_what_tracing_at_once_does() -> None:
    """The movement notes its agents' squares and traces their fields only when the frontier
    is read or before the plan takes new doors: through a bot game's views, the frontier and
    the explored squares equal those of a bot that traces at every decision."""
    sc = load_scenario(SCENARIOS / "embassy.yaml")
    game = Game(sc, 7)
    bots = {side: bot_for(sc, side) for side in sc.side_ids()}
    now, later = FbiBot(sc, "fbi"), FbiBot(sc, "fbi")
    rng = Rng.from_seed(7)
    compared = 0
    for step in range(3000):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        actions = game.legal_actions(side)
        view = game.view(side, events_since=None)
        if side == "fbi" and view.get("phase") == "movement":
            for bot in (now, later):
                bot.sync(view)
            now.explore(view)
            later.note_eyes(view)
            if step % 5 == 0:
                assert later.frontier() == now.frontier()
                assert all((a == b).all() for a, b in zip(later.explored, now.explored,
                                                          strict=True))
                compared += 1
        game.apply(bots[side].choose(view, actions, rng))
    assert compared > 5 and now.mirror.terrain_version > 1
