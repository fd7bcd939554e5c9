"""The gogogo role bot's own reasoning: rooms of the location, batched sight, hostage plans."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from killhouse.ai.roles.gogogo import FigurePlan, GoGoGoBot, Seen
from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.rulesets.gogogo.movement import enterable
from killhouse.scenario.loader import load_scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"


def test_the_location_splits_into_its_rooms_without_walls() -> None:
    scn = load_scenario(SCENARIOS / "hostage.yaml")
    bot = GoGoGoBot(scn, "ct")
    rooms = bot._rooms()
    assert len(rooms) == 2  # the two back rooms of the warehouse
    walk = enterable(scn.board, 0)
    inside = {c for c in scn.board.zones["location"] if walk[c.y, c.x]}
    assert set().union(*rooms) == inside
    assert not rooms[0] & rooms[1]


def test_batched_sight_matches_one_line_at_a_time() -> None:
    scn = load_scenario(SCENARIOS / "destruction.yaml")
    bot = GoGoGoBot(scn, "ct")
    bot.board.levels[0].smoke[5:8, 20:24] = True  # smoke must block the batch as it does one line
    rng = Rng.from_seed(7)
    h, w = bot.board.levels[0].smoke.shape
    pairs = [
        (Cell(0, rng.below(w), rng.below(h)), Cell(0, rng.below(w), rng.below(h)))
        for _ in range(300)
    ]
    bot._prime(pairs)
    opaque, smoke = bot.board.opaque(0), bot.board.smoke(0)
    for a, b in pairs:
        assert bot._sight(a, b) == line_of_sight(opaque, (a.x, a.y), (b.x, b.y), smoke)


def _ct_turn_one(name: str) -> tuple[GoGoGoBot, dict[str, Any]]:
    scn = load_scenario(SCENARIOS / f"{name}.yaml")
    game = Game(scn, 1)
    return GoGoGoBot(scn, "ct"), game.view("ct")


def test_counter_terrorists_split_over_the_hostage_rooms() -> None:
    bot, view = _ct_turn_one("hostage")
    own, enemies, hostages = bot._read(view)
    plans = {f["id"]: FigurePlan() for f in own}
    goals = bot._goals(view, own, enemies, hostages, plans)
    rooms = bot._rooms()
    chosen = {
        i for cells, _, _ in goals.values() for i, r in enumerate(rooms) if cells and cells <= r
    }
    assert chosen == {0, 1}  # both rooms get an assault team


def test_a_sniper_leading_a_hostage_walks_it_out() -> None:
    bot, view = _ct_turn_one("hostage")
    own, _, _ = bot._read(view)
    sniper = next(f for f in own if f.get("weapon") == "sniper")
    here = Cell(*sniper["at"])
    led = Seen("h1", "hostage", here.step(1, 0), led_by=sniper["id"])
    enemy = Seen("t1", "operative", here.step(3, 0))
    plans = {f["id"]: FigurePlan() for f in own}
    cells, posture, exposed = bot._ct_goal(
        view, sniper, here, True, False, own, [enemy], [led], plans
    )
    assert posture == "move" and exposed
    assert cells == bot.zones.rescue


def test_a_remembered_hostage_next_to_a_ct_is_told_to_follow() -> None:
    bot, view = _ct_turn_one("hostage")
    own, _, _ = bot._read(view)
    f = next(f for f in own if f.get("weapon") != "sniper")
    here = Cell(*f["at"])
    bot.hostage_memory["h2"] = here.step(0, 1)  # seen there before, out of its arc now
    plans = {g["id"]: FigurePlan() for g in own}
    _, posture, _ = bot._ct_goal(view, f, here, False, True, own, [], [], plans)
    assert plans[f["id"]].follows == ["h2"]
    assert posture == "move"


def test_the_bots_fields_from_a_square_answer_as_the_whole_field_within_a_move() -> None:
    """``_from`` searches only up to the longest allowance and ``_path`` walks back from the
    end alone: every square a move can reach has the whole field's cost and path, the edge
    square (cost equal to the longest allowance) included; one step past it reads as out of
    reach, which no caller asks; goal fields are the whole field on the kept step model."""
    from killhouse.rulesets.gogogo.facts import distance_from, distance_to
    from killhouse.rulesets.gogogo.orders import longest_move

    scn = load_scenario(SCENARIOS / "destruction.yaml")
    bot = GoGoGoBot(scn, "ct")
    bot.open_doors = set()
    longest = longest_move()
    rng = Rng.from_seed(4)
    walk = enterable(bot.board, 0)
    h, w = walk.shape
    starts = [Cell(0, x, y) for y in range(h) for x in range(w) if walk[y, x]]
    edges = past = 0
    for _ in range(12):
        start = starts[rng.below(len(starts))]
        whole = distance_from(bot.board, start, frozenset())
        near = bot._from(start)
        for cell in whole.reachable(longest + 1):
            cost = whole.cost(cell)
            assert cost is not None
            if cost <= longest:
                assert near.cost(cell) == cost
                assert bot._path(near, cell) == whole.path_to(cell)
                edges += cost == longest
            else:
                assert near.cost(cell) is None
                past += 1
    assert edges and past
    goals = frozenset(scn.board.zones["bomb_a"])
    kept = bot._goal_field(goals)
    fresh = distance_to(bot.board, bot._inside(goals), frozenset())
    assert kept is not None and fresh is not None
    assert all((a == b).all() for a, b in zip(kept.raw, fresh.raw, strict=True))


def test_the_standable_squares_of_an_area_are_the_square_by_square_answer_in_order() -> None:
    """``_inside`` reads each level's mask at once: the same squares as ``_enterable`` one by
    one, inserted in the area's own order (so the frozenset iterates alike), off-map squares
    and other levels left out."""
    scn = load_scenario(SCENARIOS / "hostage.yaml")
    bot = GoGoGoBot(scn, "ct")
    rng = Rng.from_seed(8)
    h, w = bot.board.levels[0].terrain.shape
    areas = [frozenset(z) for z in scn.board.zones.values()]
    for _ in range(20):
        areas.append(
            frozenset(
                Cell(
                    rng.below(3) - (1 if rng.below(5) == 0 else 0),
                    rng.below(w + 4) - 2,
                    rng.below(h + 4) - 2,
                )
                for _ in range(60)
            )
        )
    for area in areas:
        bot._inside_cache.clear()
        got = bot._inside(area)
        expected = frozenset(c for c in area if bot._enterable(c))
        assert got == expected and list(got) == list(expected)
