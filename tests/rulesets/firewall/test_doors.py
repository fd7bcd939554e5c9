"""Doors in play (rulings F-230 … F-234): a move through a closed door opens it and sight then
passes; a door beside the figure is opened or closed as a Movement action, a locked one broken
down by a task roll; each side knows a door as it last saw it, and hears of a change only
when it sees the door."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.doors import STATES, door_cells, doors_seen, remember_doors
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.vision import sees
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.test_teams import Dice

TENEMENT = Path(__file__).parents[3] / "scenarios" / "firewall" / "swat_tenement.yaml"
DOOR = Cell(0, 12, 14)  # the street door of the room vinny holds (x 9..15, y 10..13)
SIDE_DOOR = Cell(0, 4, 9)  # the corridor door of the empty room at the west end


def _game(at: tuple[int, int], faces: list[int] | None = None, aware: bool = True) -> Game:
    """alpha-1 (the SWAT leader) at ``at`` on the ground floor, its team active."""
    game = Game(load_scenario(TENEMENT), 1)
    state: FirewallState = game.state
    for t in state.teams.values():
        t.aware = aware
    f = state.figures["alpha-1"]
    f.level, f.cell = 0, at
    state.active_team = None
    state.order, state.step = ("swat", "gang"), 0
    state.teams["alpha"].activated_this_turn = False
    game.apply(Action.make("swat", "activate", team="alpha"))
    if faces is not None:
        game.chance = Dice(faces)  # type: ignore[assignment]
    return game


def _terrain(game: Game, c: Cell) -> Terrain:
    return game.state.board.terrain(c)


def _door_view(game: Game, side: str, c: Cell) -> str:
    v = game.view(side, None)
    return next(d["state"] for d in v["doors"] if d["at"] == [c.level, c.x, c.y])


def _walk(game: Game, to: tuple[int, int], fig: str = "alpha-1") -> None:
    game.apply(Action.make("swat", "move", figure=fig, speed="walk", path=[[0, *to]]))


# -- moving through (F-230) ------------------------------------------------------------------

def test_a_move_through_a_closed_door_opens_it_and_it_stays_open() -> None:
    game = _game((12, 16), faces=[1, 2])  # S
    assert _terrain(game, DOOR) is Terrain.DOOR_CLOSED
    _walk(game, (12, 12))
    assert game.state.figures["alpha-1"].cell == (12, 12)
    assert _terrain(game, DOOR) is Terrain.DOOR_OPEN
    event = [e for e in game.log.events if e.kind == "door"][-1]
    assert event.data["at"] == [0, 12, 14] and event.data["state"] == "open"


@pytest.mark.parametrize(("start", "opens"), [
    ((12, 17), True),   # F: half of 17.5 cm is 8.75; the door 7.5 cm on is reached (the edge)
    ((12, 18), False),  # one square further back: the door is 10 cm on, past the 9 cm
])
def test_a_failed_move_opens_the_door_only_if_it_reached_it(start: tuple[int, int],
                                                             opens: bool) -> None:
    game = _game(start, faces=[5, 6])  # 11: F at any Gutz with the room's clutter 3
    _walk(game, (12, 10))
    f = game.state.figures["alpha-1"]
    assert f.failed_this_turn
    assert (f.cell == (12, 14)) is opens
    assert (_terrain(game, DOOR) is Terrain.DOOR_OPEN) is opens


def test_a_route_that_stops_before_the_door_leaves_it_shut() -> None:
    game = _game((12, 18), faces=[1, 2])
    _walk(game, (12, 15))
    assert _terrain(game, DOOR) is Terrain.DOOR_CLOSED


def test_an_unaware_walk_opens_doors_too() -> None:
    game = _game((12, 16), faces=[], aware=False)
    _walk(game, (12, 13))
    assert _terrain(game, DOOR) is Terrain.DOOR_OPEN


def test_sight_passes_an_open_door_and_not_a_closed_one() -> None:
    game = _game((12, 16))
    state: FirewallState = game.state
    vinny = state.figures["vinny"]
    vinny.cell = (12, 11)
    looker = state.figures["alpha-1"]
    assert not sees(state.board, looker, vinny)
    state.board.set_terrain(DOOR, Terrain.DOOR_OPEN)
    assert sees(state.board, looker, vinny)


def test_a_locked_door_cannot_be_walked_through() -> None:
    game = _game((12, 16), faces=[1, 2])
    game.state.board.set_terrain(DOOR, Terrain.DOOR_LOCKED)
    with pytest.raises(IllegalActionError, match="not passable"):
        _walk(game, (12, 12))


# -- the door action (F-231, F-232) ----------------------------------------------------------

def _door(game: Game, c: Cell, to: str, fig: str = "alpha-1") -> None:
    game.apply(Action.make("swat", "door", figure=fig, at=[c.level, c.x, c.y], to=to))


@pytest.mark.parametrize("at", [(12, 15), (11, 15), (13, 13)])
def test_opening_and_closing_from_beside_needs_no_roll(at: tuple[int, int]) -> None:
    game = _game(at, faces=[])  # any die asked for would fail the test
    _door(game, DOOR, "open")
    assert _terrain(game, DOOR) is Terrain.DOOR_OPEN
    f = game.state.figures["alpha-1"]
    assert f.move_used and not f.failed_this_turn
    f.move_used = False
    _door(game, DOOR, "closed")
    assert _terrain(game, DOOR) is Terrain.DOOR_CLOSED


def test_a_door_two_squares_off_is_out_of_reach() -> None:
    game = _game((12, 16), faces=[])  # 5 cm: one step past the 2 cm of "beside"
    with pytest.raises(IllegalActionError, match="beside the door"):
        _door(game, DOOR, "open")
    assert _terrain(game, DOOR) is Terrain.DOOR_CLOSED


def test_door_refusals_leave_the_state_unchanged() -> None:
    game = _game((12, 15), faces=[])
    before = game.state_hash()
    with pytest.raises(IllegalActionError, match="not open"):
        _door(game, DOOR, "closed")
    with pytest.raises(IllegalActionError, match="no door"):
        _door(game, Cell(0, 12, 16), "open")
    game.state.board.set_terrain(DOOR, Terrain.DOOR_OPEN)
    game.state.figures["vinny"].cell = (12, 14)
    with pytest.raises(IllegalActionError, match="doorway"):
        _door(game, DOOR, "closed")
    game.state.figures["vinny"].cell = (11, 11)
    game.state.board.set_terrain(DOOR, Terrain.DOOR_CLOSED)
    assert game.state_hash() == before


def test_the_door_action_is_offered_with_its_schema() -> None:
    game = _game((12, 15))
    offered = [a for a in game.legal_actions("swat") if a.kind == "door"]
    assert [(a.get("figure"), a.get("at"), a.get("to")) for a in offered] == [
        ("alpha-1", (0, 12, 14), "open")]
    from killhouse.rulesets.firewall.flow import FLOW
    schema = FLOW.moves["door"].schema()
    assert "figure" in str(schema) and "to" in str(schema) and "closed" in str(schema)


@pytest.mark.parametrize(("faces", "state", "failed", "change"), [
    ([1, 2], Terrain.DOOR_OPEN, False, 0),     # S: broken open
    ([1, 1], Terrain.DOOR_OPEN, False, 1),     # CS: +1
    ([5, 6], Terrain.DOOR_LOCKED, True, 0),    # F: still locked, the figure has failed
    ([6, 6], Terrain.DOOR_LOCKED, True, -1),   # CF: −1
])
def test_breaking_down_a_locked_door_is_a_task_roll(faces: list[int], state: Terrain,
                                                    failed: bool, change: int) -> None:
    game = _game((12, 15), faces=faces)
    game.state.board.set_terrain(DOOR, Terrain.DOOR_LOCKED)
    f = game.state.figures["alpha-1"]
    gutz = f.gutz
    _door(game, DOOR, "open")
    assert _terrain(game, DOOR) is state
    assert f.failed_this_turn is failed and f.gutz == gutz + change


def test_breaking_down_a_door_at_the_gutz_edge() -> None:
    """The roll has no clutter (F-30): a total equal to the Gutz succeeds, one more fails."""
    for offset, opens in ((0, True), (1, False)):
        game = _game((12, 15))
        game.state.board.set_terrain(DOOR, Terrain.DOOR_LOCKED)
        total = game.state.figures["alpha-1"].gutz + offset
        a = 1 if total - 1 != 1 else 2
        game.chance = Dice([a, total - a])  # type: ignore[assignment]
        _door(game, DOOR, "open")
        assert (_terrain(game, DOOR) is Terrain.DOOR_OPEN) is opens


def test_strength_breaks_a_door_without_a_roll() -> None:
    game = _game((12, 15), faces=[])
    game.state.board.set_terrain(DOOR, Terrain.DOOR_LOCKED)
    game.state.figures["alpha-1"].skills = {"strength": 1}
    _door(game, DOOR, "open")
    assert _terrain(game, DOOR) is Terrain.DOOR_OPEN


def test_an_unaware_team_may_not_break_down_a_door() -> None:
    game = _game((12, 15), faces=[], aware=False)
    game.state.board.set_terrain(DOOR, Terrain.DOOR_LOCKED)
    with pytest.raises(IllegalActionError, match="aware"):
        _door(game, DOOR, "open")


# -- knowledge (F-233, F-234) ----------------------------------------------------------------

def test_a_side_knows_a_door_as_it_last_saw_it() -> None:
    game = _game((4, 8), faces=[])
    state: FirewallState = game.state
    assert SIDE_DOOR not in doors_seen(state, "gang")
    _door(game, SIDE_DOOR, "open")
    assert _door_view(game, "swat", SIDE_DOOR) == "open"
    assert _door_view(game, "gang", SIDE_DOOR) == "closed"  # nobody of the gang saw it
    assert not [e for e in game.log.events if e.kind == "door" and e.for_side("gang")]
    state.figures["vinny"].cell = (4, 12)  # a gangster now looks at it from the room
    remember_doors(state)
    assert _door_view(game, "gang", SIDE_DOOR) == "open"
    state.figures["vinny"].cell = (11, 11)
    state.board.set_terrain(SIDE_DOOR, Terrain.DOOR_CLOSED)  # shut where the gang cannot see
    remember_doors(state)
    assert _door_view(game, "gang", SIDE_DOOR) == "open"


def test_a_side_that_sees_the_door_hears_it_open_without_the_opener_it_cannot_see() -> None:
    game = _game((12, 15), faces=[])
    state: FirewallState = game.state
    state.figures["vinny"].cell = (12, 11)  # inside, looking at the door
    assert DOOR in doors_seen(state, "gang")
    _door(game, DOOR, "open")
    copy = [e for e in game.log.events if e.kind == "door"][-1].for_side("gang")
    assert copy is not None and copy["state"] == "open"
    # the door is open now, so vinny sees alpha-1 beyond it and may name it
    assert copy["figure"] == "alpha-1"
    assert _door_view(game, "gang", DOOR) == "open"


def test_door_state_never_leaks_over_random_play() -> None:
    """Random legal play of the SWAT tenement: each side's view of every door is the truth
    for the doors it sees now and, for the others, a state it saw that door in; every door
    event reaches only the actor's side and the sides that see the door."""
    checked = events = 0
    for seed in (1, 2, 3):
        game = Game(load_scenario(TENEMENT), seed)
        state: FirewallState = game.state
        history = {s: {(c.level, c.x, c.y): {STATES[int(state.board.terrain(c))]}
                       for c in door_cells(state)} for s in state.sides}
        pick = Rng.from_seed(seed + 5)
        start = len(game.log)
        for _ in range(600):
            if game.result is not None:
                break
            side = game.pending()[0].side
            actions = game.legal_actions(side)
            doors_first = [a for a in actions if a.kind == "door"]
            choice = (doors_first or actions) if pick.below(3) == 0 else actions
            game.apply(choice[pick.below(len(choice))])
            for s in state.sides:
                seen = {(c.level, c.x, c.y) for c in doors_seen(state, s)}
                for spot in seen:
                    history[s][spot].add(STATES[int(state.board.terrain(Cell(*spot)))])
                for d in game.view(s, None)["doors"]:
                    spot = tuple(d["at"])
                    if spot in seen:
                        assert d["state"] == STATES[int(state.board.terrain(Cell(*spot)))]
                    assert d["state"] in history[s][spot], f"{s} knows {spot} unseen"
                    checked += 1
            for e in game.log.since(start):
                if e.kind != "door":
                    continue
                actor = state.figures[e.data["figure"]].side
                for s in e.audience or state.sides:
                    if s != actor:
                        assert Cell(*e.data["at"]) in doors_seen(state, s), f"{s} told of a door"
                        events += 1
            start = len(game.log)
    assert checked >= 1000 and events >= 1


def test_the_role_ai_opens_the_doors_on_its_route() -> None:
    """Bots on both sides of the SWAT tenement: the assault moves through the street doors
    into the rooms, and those doors stand open after it (F-230)."""
    from killhouse.ai.roles.firewall import bot_for

    scenario = load_scenario(TENEMENT)
    game = Game(scenario, 1)
    state: FirewallState = game.state
    bots = {s: bot_for(scenario, s) for s in state.sides}
    pick = Rng.from_seed(1)
    opened: set[tuple[int, int, int]] = set()
    for _ in range(400):
        if game.result is not None:
            break
        side = game.pending()[0].side
        action = bots[side].choose(game.view(side, None), game.legal_actions(side), pick)
        for e in game.apply(action):
            if e.kind == "door" and e.data.get("by") == "move" and side == "swat":
                opened.add(tuple(e.data["at"]))  # type: ignore[arg-type]
        if len(opened) >= 2:
            break
    assert len(opened) >= 2
    assert all(state.board.terrain(Cell(*c)) is Terrain.DOOR_OPEN for c in opened)
    assert not [a for a in game.actions if a.kind == "door"]  # nobody closed one again


def _pick(game: Game) -> None:
    game.apply(Action.make("swat", "door", figure="alpha-1", at=[0, 12, 14], to="open",
                           by="pick"))


@pytest.mark.parametrize(("offset", "state", "failed"), [
    (0, Terrain.DOOR_CLOSED, False),  # Intrusion 1: a total of ⌊Gutz/2⌋ picks it (the edge)
    (1, Terrain.DOOR_LOCKED, True),   # one past: still locked, the figure has failed
])
def test_picking_a_lock_with_intrusion_leaves_the_door_shut(offset: int, state: Terrain,
                                                            failed: bool) -> None:
    game = _game((12, 15))
    game.state.board.set_terrain(DOOR, Terrain.DOOR_LOCKED)
    f = game.state.figures["alpha-1"]
    f.skills = {"intrusion": 1}
    total = f.gutz // 2 + offset
    a = 1 if total - 1 != 1 else 2
    game.chance = Dice([a, total - a])  # type: ignore[assignment]
    assert any(a.get("by") == "pick" for a in game.legal_actions("swat") if a.kind == "door")
    _pick(game)
    assert _terrain(game, DOOR) is state and f.failed_this_turn is failed


def test_picking_needs_intrusion_and_a_locked_door() -> None:
    game = _game((12, 15), faces=[])
    before = game.state_hash()
    with pytest.raises(IllegalActionError, match="locked door's lock"):
        _pick(game)  # the door is only closed
    game.state.board.set_terrain(DOOR, Terrain.DOOR_LOCKED)
    with pytest.raises(IllegalActionError, match="Intrusion"):
        _pick(game)
    game.state.board.set_terrain(DOOR, Terrain.DOOR_CLOSED)
    assert game.state_hash() == before
