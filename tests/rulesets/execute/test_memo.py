"""Results kept across actions in ``state.memo`` (each figure's reach and moves, each side's
sight) always equal what a fresh computation gives: a kept answer is never stale."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from killhouse.core.bounded import walk_back
from killhouse.core.cells import Cell
from killhouse.core.events import EventLog
from killhouse.core.paths import field_on
from killhouse.core.rng import Rng, derive_seed
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute import actions as actions_module
from killhouse.rulesets.execute import movement
from killhouse.rulesets.execute.actions import (
    figure_moves,
    fire_actions,
    fire_targets,
    loadout_listed,
    move_listed,
    movers,
    ready,
)
from killhouse.rulesets.execute.movement import Reach, reach, within_reach
from killhouse.rulesets.execute.rolls import shot_tn, success_chance
from killhouse.rulesets.execute.state import ExecuteState, Figure, Status
from killhouse.rulesets.execute.tables import tables
from killhouse.rulesets.execute.views import snapshot
from killhouse.rulesets.execute.vision import cells_in_sight, refresh
from killhouse.scenario.loader import load_scenario
from killhouse.sim.play import play
from tests.rulesets.execute.helpers import place, scenario, state_of, to_combat

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name", ["embassy", "airliner"])
def test_kept_moves_and_sight_equal_fresh_ones_through_a_game(name: str) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml")
    game = Game(scenario, derive_seed(5, 0))
    rng = Rng.from_seed(11)
    kept = 0
    for _ in range(400):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        state = game.state
        actions = game.legal_actions(side)
        kept += len(state.memo)
        fresh_state = copy.deepcopy(state)
        fresh_state.memo.clear()
        fresh_state.cache.clear()
        fresh = game.ruleset.legal_actions(fresh_state, side)
        assert actions == fresh
        assert [a.hint for a in actions] == [a.hint for a in fresh]
        cells = sorted({f.pos for f in state.figures.values() if f.pos is not None})
        for who in state.side_ids():
            fresh_state.memo.clear()
            assert cells_in_sight(state, who, cells) == cells_in_sight(fresh_state, who, cells)
        # mostly moves, so that the kept answers are put to the test after figures move
        moves = [a for a in actions if a.kind == "move"]
        pool = moves if moves and rng.below(4) else actions
        game.apply(pool[rng.below(len(pool))])
    assert kept > 0  # the memo was in use


@pytest.mark.parametrize("name", ["bank", "embassy", "airliner"])
def test_a_game_with_kept_answers_tells_and_remembers_what_one_without_them_does(
    name: str,
) -> None:
    """Two games on one seed take the same actions; the second forgets every kept answer
    before each action, so nothing (sight, moves, memories made this turn, a side's refresh
    or a whole refresh skipped for unchanged inputs) is reused. Their
    events, memories and views stay equal."""
    scenario = load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml")
    kept, fresh = Game(scenario, derive_seed(9, 1)), Game(scenario, derive_seed(9, 1))
    rng = Rng.from_seed(3)
    for _ in range(300):
        pending = kept.pending()
        if not pending:
            break
        side = pending[0].side
        actions = kept.legal_actions(side)
        moves = [a for a in actions if a.kind == "move"]
        pool = moves if moves and rng.below(3) else actions
        action = pool[rng.below(len(pool))]
        fresh.state.memo.clear()
        fresh.state.cache.clear()
        fresh.state.refreshed.clear()  # and every sight refresh runs in full
        kept.apply(action)
        fresh.apply(action)
        assert kept.log.for_public() == fresh.log.for_public()
        for who in kept.state.side_ids():
            assert kept.log.for_side(who) == fresh.log.for_side(who)
            assert kept.view(who, events_since=None) == fresh.view(who, events_since=None)
        assert kept.state.memory == fresh.state.memory


WALLED = (
    "############\n"
    "#....#.....#\n"
    "#....#.....#\n"
    "#....+.....#\n"
    "#....#.....#\n"
    "#....#.....#\n"
    "#####+######\n"
    "............\n"
)


def _in_sight_of_the_gunman() -> tuple[ExecuteState, EventLog]:
    """Zach at the open door of the gunman's room, the gunman and the clerk in his sight."""
    st, log = state_of(scenario(levels={"ground": WALLED}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gunman", "side": "terrorists", "card": "standard_terrorist",
         "at": "ground:8,2"},
        {"id": "clerk", "kind": "hostage", "card": "hostage_female", "at": "ground:9,4"},
    ]))
    to_combat(st, log)
    st.board.set_terrain(Cell(0, 5, 3), Terrain.DOOR_OPEN)
    place(st, "zach", 0, 4, 3)
    refresh(st, log)
    assert st.seen[st.fbi] == {"gunman", "clerk"}
    return st, log


def test_a_refresh_with_nothing_changed_tells_nothing_and_changes_nothing() -> None:
    st, log = _in_sight_of_the_gunman()
    before, told = snapshot(st), len(log.since(0))
    refresh(st, log)
    assert snapshot(st) == before
    st.figures["zach"].grenades = 0  # nobody's sight reads a figure's grenades
    refresh(st, log)
    after = snapshot(st)
    assert len(log.since(0)) == told
    assert {k: v for k, v in after.items() if k != "figures"} == {
        k: v for k, v in before.items() if k != "figures"
    }


def test_a_seen_figure_changed_where_it_stands_is_seen_again() -> None:
    """The skip reads every field a sighting is made of: a seen gunman's new weapon or a
    seen hostage's new status is remembered at the next refresh, and a new turn too."""
    st, log = _in_sight_of_the_gunman()
    st.figures["gunman"].weapon = "sniper"
    refresh(st, log)
    assert st.memory[st.fbi]["gunman"].info["weapon"] == "sniper"
    st.figures["clerk"].status = Status.INCAPACITATED
    refresh(st, log)
    assert st.memory[st.fbi]["clerk"].info["status"] == "incapacitated"
    assert log.since(0)[-1].kind == "observed"  # E-7: the new status is told
    st.turn += 1
    refresh(st, log)
    assert st.memory[st.fbi]["gunman"].turn == st.turn


def test_a_door_opening_shows_a_hidden_bomb_to_an_agent_who_has_not_moved() -> None:
    """E-23: the bombs' check is skipped only while the agents' squares, the terrain and
    the hidden bombs are those of a check that found none."""
    st, log = state_of(scenario(levels={"ground": WALLED}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gunman", "side": "terrorists", "card": "standard_terrorist",
         "at": "ground:10,1"},
    ], objects=[{"type": "bomb", "id": "b1", "at": "ground:8,3"}]))
    to_combat(st, log)
    place(st, "zach", 0, 4, 3)
    refresh(st, log)
    refresh(st, log)
    assert not st.bombs["b1"].seen_by_fbi
    st.board.set_terrain(Cell(0, 5, 3), Terrain.DOOR_OPEN)
    refresh(st, log)
    assert st.bombs["b1"].seen_by_fbi


@pytest.mark.parametrize("name", ["airliner", "bank"])
def test_shots_listed_in_one_batch_are_each_firers_own_targets(name: str) -> None:
    """``fire_actions`` traces every firer's lines at once: per firer, in order, the shots it
    lists are at exactly ``fire_targets``'s figures, with their TN and odds (checked at
    every firing decision of a bot game)."""
    checked = []

    def check(game: Game) -> None:
        state = game.state
        pending = game.pending()
        if state.phase != "firing" or not pending:
            return
        side = pending[0].side
        listed = [(a.get("figure"), a.get("target"), a.hint["tn"], a.hint["p"])
                  for a in fire_actions(state, side)]
        expected = []
        for f in ready(state, side):
            if f.weapon is None or f.kind not in ("agent", "terrorist"):
                continue
            die = tables().weapons[f.weapon].die
            for t in fire_targets(state, f):
                tn = shot_tn(t.card.evasion, f.card.firearms, f.damage)
                expected.append((f.id, t.id, tn, float(success_chance(die, tn))))
        assert listed == expected
        checked.extend(listed)

    play(load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml"), derive_seed(1, 0),
         on_step=check)
    assert len({(f, t) for f, t, _, _ in checked}) > 3


@pytest.mark.parametrize("name", ["embassy", "airliner"])
def test_each_figures_checked_arguments_are_its_listed_ones_through_a_game(name: str) -> None:
    """``move_listed`` and ``loadout_listed`` (what a move or loadout is checked against,
    without making the list) accept exactly the listed actions of that kind by that figure,
    for every figure at every step: each listed one, and none of the others' arguments given
    to another figure or to nobody; a move off the list is refused with the reason and
    changes nothing."""
    scenario = load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml")
    game = Game(scenario, derive_seed(6, 0))
    rng = Rng.from_seed(12)
    checked = refused = 0
    for _ in range(300):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        state = game.state
        actions = game.legal_actions(side)
        for kind in ("move", "loadout"):
            listed = {a.args for a in actions if a.kind == kind}
            # every listed argument set, and each given to every other figure and to nobody
            tried = {
                tuple((k, fid if k == "figure" else v) for k, v in args)
                for args in listed
                for fid in [*state.figures, "nobody"]
            }
            for args in tried:
                if kind == "move":
                    ok = move_listed(state, side, args)
                else:
                    ok = side == state.fbi and loadout_listed(state, args)
                assert ok == (args in listed), (kind, args)
            checked += len(tried)
        moves = [a for a in actions if a.kind == "move"]
        if moves:
            fid = str(moves[0].get("figure"))
            wall = next(Cell(lv, int(x), int(y)) for lv, level in enumerate(state.board.levels)
                        for y, x in zip(*np.nonzero(level.terrain == Terrain.WALL), strict=True))
            before = game.state_hash()
            with pytest.raises(IllegalActionError, match="not a free square"):
                game.apply(Action.make(side, "move", figure=fid, to=tuple(wall)))
            assert game.state_hash() == before
            refused += 1
        # mostly moves; now and then on to the next step, so that play reaches combat
        onward = [a for a in actions if a.kind in ("ready", "end_negotiation", "continue")]
        pool = moves if moves and rng.below(4) else onward if onward and rng.below(3) else actions
        game.apply(pool[rng.below(len(pool))])
    assert checked > 0 and refused > 0


def test_every_write_and_every_copy_of_a_figure_takes_a_stamp_no_other_has() -> None:
    """``Figure.stamp``, what the sight refresh keeps its figure inputs under: a read leaves
    it, a write to a figure on the map (even of the same value), to an off-map figure's
    square, status or side, and a copy (``copy``, ``pickle``) each take a new number; an
    off-map figure's loadout does not; it is no field (equality and the snapshot do not see
    it)."""
    st, log = _in_sight_of_the_gunman()
    gunman = st.figures["gunman"]
    first = gunman.stamp
    assert gunman.pos is not None and gunman.stamp == first
    gunman.weapon = gunman.weapon
    written = gunman.stamp
    assert written != first
    twin = copy.deepcopy(gunman)
    thawed = pickle.loads(pickle.dumps(gunman))
    assert twin == gunman == thawed
    assert len({gunman.stamp, twin.stamp, thawed.stamp, first}) == 4
    # an agent off the map: its loadout leaves the stamp, a step onto the map does not
    agent = next(f for f in st.figures.values() if f.side == st.fbi)
    agent.pos = None
    off = agent.stamp
    agent.weapon, agent.armour = "shotgun", 2
    assert agent.stamp == off
    agent.status = agent.status
    assert agent.stamp != off
    off = agent.stamp
    agent.pos = Cell(0, 1, 1)
    assert agent.stamp != off
    st, log = _in_sight_of_the_gunman()
    twin = copy.deepcopy(st.figures["gunman"])
    before = snapshot(st)
    st.figures["gunman"] = twin  # the same figure, another object: the inputs are read again
    refresh(st, log)
    assert st.refreshed[("figures",)][0] == tuple(f.stamp for f in st.figures.values())
    assert snapshot(st) == before


def test_every_write_of_a_figure_takes_a_written_number_off_the_map_too() -> None:
    """``Figure.written``, what a view keeps a figure's entry under: every write (an off-map
    agent's loadout too) and every copy takes a new number, a read none."""
    st, _ = _in_sight_of_the_gunman()
    agent = next(f for f in st.figures.values() if f.side == st.fbi)
    agent.pos = None
    first = agent.written
    assert agent.to_json() and agent.written == first
    agent.armour = agent.armour
    assert agent.written != first
    again = agent.written
    agent.weapon = "smg"
    assert agent.written != again
    twin = copy.deepcopy(agent)
    assert twin == agent and twin.written != agent.written


@pytest.mark.parametrize("name", ["bank", "airliner"])
def test_a_view_kept_in_parts_equals_one_made_afresh_through_a_bot_game(name: str) -> None:
    """Each side's view, whose parts (figures, memories, doors, devices) are kept under what
    they are made from, equals the view of a copy of the state with nothing kept, after
    every action of a bot game (the planning's loadouts included)."""
    scenario = load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml")
    views = 0

    def check(game: Game) -> None:
        nonlocal views
        fresh = copy.deepcopy(game.state)
        fresh.memo.clear()
        fresh.cache.clear()
        for who in game.state.side_ids():
            assert game.view(who, events_since=None) == game.ruleset.view(fresh, who)
            views += 1

    play(scenario, derive_seed(2, 0), on_step=check)
    assert views > 100


def test_a_second_game_lists_the_very_move_actions_of_the_first() -> None:
    """The move pools are kept for the process: the same game played again lists equal moves
    that are the same objects, with the same hints; a full pool starts afresh."""
    scenario = load_scenario(ROOT / "scenarios" / "execute" / "bank.yaml")

    def first_moves(seed: int) -> list[Action]:
        game = Game(scenario, derive_seed(7, 0))
        rng = Rng.from_seed(seed)
        for _ in range(400):
            side = game.pending()[0].side
            actions = game.legal_actions(side)
            moves = [a for a in actions if a.kind == "move"]
            if moves:
                return moves
            onward = [a for a in actions if a.kind in ("ready", "end_negotiation", "continue")]
            pool = onward if onward else actions
            game.apply(pool[rng.below(len(pool))])
        raise AssertionError("no movement step reached")

    one, two = first_moves(3), first_moves(3)
    assert one == two and all(a is b for a, b in zip(one, two, strict=True))
    assert [a.hint for a in one] == [a.hint for a in two]
    side, fid = one[0].side, str(one[0].get("figure"))
    pool = actions_module._move_pool(side, fid)
    assert pool and actions_module._move_pool(side, fid) is pool
    for i in range(actions_module.MOVE_POOL_LIMIT - len(pool)):
        pool[(Cell(9, i, 0), 0)] = one[0]
    assert actions_module._move_pool(side, fid) == {}


def _movement_steps(
    name: str, seed: int, choices: int, steps: int
) -> Iterator[tuple[ExecuteState, str]]:
    """A game played on towards combat (no concession, the pre-game steps ended now and
    then), yielding the state and side at each step where that side moves figures."""
    game = Game(load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml"),
                derive_seed(seed, 0))
    rng = Rng.from_seed(choices)
    for _ in range(steps):
        pending = game.pending()
        if not pending:
            return
        side = pending[0].side
        if game.state.phase == "movement" and side == game.state.acting_side():
            yield game.state, side
        legal = [a for a in game.legal_actions(side) if a.kind not in ("concede", "meet_demands")]
        onward = [a for a in legal if a.kind in ("ready", "end_negotiation", "continue")]
        pool = onward if onward and rng.below(3) == 0 else legal
        game.apply(pool[rng.below(len(pool))])


@pytest.mark.parametrize("name", ["airliner", "bank"])
def test_a_figures_moves_read_one_by_one_are_those_read_whole(name: str) -> None:
    """A figure's move group (``FigureMoves``) makes each move when read; read index by index
    (a random draw) it gives exactly the moves, in order, that it gives read whole (a bot),
    with the held squares and the figure's own left out, at every movement step of a game."""
    compared = 0
    for state, side in _movement_steps(name, 3, 5, 2000):
        for fig in movers(state, side):
            one_by_one = figure_moves(state, side, fig).make()
            by_index = [one_by_one[i] for i in range(len(one_by_one))]
            whole = list(figure_moves(state, side, fig).make())
            assert by_index == whole
            assert all(a.get("figure") == fig.id for a in whole)
            held = {f.pos for f in state.figures.values() if f.active and f.pos is not None}
            assert not any(Cell(*a.get("to")) in held for a in whole)
            compared += len(whole)
    assert compared > 100


@pytest.mark.parametrize("name", ["airliner", "embassy"])
def test_a_reach_walks_back_the_path_path_to_gives(name: str) -> None:
    """A figure's reach from its square is one compiled bounded search (``core.bounded``):
    its field equals ``field_on``'s, and the walk to each square it reaches, read back from
    the end alone, is ``path_to``'s, at every movement step of a game."""
    walked = 0
    for state, side in _movement_steps(name, 4, 9, 1500):
        for fig in movers(state, side):
            if fig.pos is None:
                continue
            r = movement.reach(state, fig, fig.card.movement)
            ((fld, _, _),) = r.fields
            assert r.steps is not None
            expected = field_on(state.board, r.steps, [fig.pos], fig.card.movement)
            assert all(np.array_equal(a, b) for a, b in zip(fld.raw, expected.raw,
                                                            strict=True))
            for cell, _ in movement.within_reach(state, fig):
                assert r.path(state, cell) == expected.path_to(cell)
                walked += 1
    assert walked > 200


def test_a_figure_made_in_one_step_equals_one_made_field_by_field() -> None:
    """``Figure.made`` writes every field at once: the figure equals the dataclass's own, has
    fresh stamps, and a field left out or unknown is refused."""
    card = tables().fbi_cards["zach_dante"]
    fields = {"id": "a1", "kind": "agent", "side": "fbi", "card": card, "name": "Zach",
              "grenades": 2, "pos": Cell(0, 1, 2)}
    before = Figure(**fields)
    made = Figure.made(**fields)
    assert made == before and vars(made).keys() == vars(before).keys()
    assert made.stamp > before.stamp and made.written == made.stamp
    with pytest.raises(TypeError, match="missing"):
        Figure.made(**{k: v for k, v in fields.items() if k != "card"})
    with pytest.raises(TypeError, match="unknown"):
        Figure.made(**fields, colour="red")


@pytest.mark.parametrize("name", ["embassy", "airliner", "bank"])
def test_a_walk_read_back_over_stairs_is_the_fields_own_path(name: str) -> None:
    """On a map with stair links a move's walk is read back from its end alone
    (``movement.walk_back``): through a bot game, every square within each ready figure's
    reach gets the path ``path_to`` gives, stairs and off-map entries included, and
    ``Reach.path`` through it the path it gave reading ``path_to``."""
    scenario = load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml")
    checked = 0

    def check(game: Game) -> None:
        nonlocal checked
        state = game.state
        if state.phase != "movement" or state.result is not None:
            return
        for figure in ready(state, state.acting_side(), on_map=False):
            r = reach(state, figure, figure.card.movement)
            assert r.steps is not None
            for fld, _, _ in r.fields:
                for cell in fld.reachable(figure.card.movement):
                    assert walk_back(fld, r.steps, cell) == fld.path_to(cell)
                    checked += 1
            for cell, _ in within_reach(state, figure):
                assert r.path(state, cell) == _reach_path(r, cell)

    play(scenario, derive_seed(4, 0), on_step=check)
    assert checked > 1000


def _reach_path(r: Reach, cell: Cell) -> list[Cell]:
    """``Reach.path`` as it read the fields' own ``cost`` and ``path_to``."""
    best = min(c + extra for fld, extra, _ in r.fields if (c := fld.cost(cell)) is not None)
    for fld, extra, starts in r.fields:
        c = fld.cost(cell)
        if c is None or c + extra != best:
            continue
        tail = fld.path_to(cell)
        if not extra:
            return tail
        if not tail:
            return [cell]
        for s in starts:
            step = fld.step_cost(s, tail[0])
            if step is not None and step == fld.cost(tail[0]):
                return [s, *tail]
    raise AssertionError(f"{cell} cannot be reached")
