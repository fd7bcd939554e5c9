"""Set-up decisions made in play (rulings F-210 …): the players' entry edges of Triple-Cross
(§18.3) and Ash End (§18.2), the game master's counters (§18.3), the deployment of "A Walk
in the Park" (§18.1): rolled and chosen as legal actions, refused with a reason and no
change, heard only by those who may know, and chosen by the role AI for its own side."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from killhouse.ai.registry import bot_for
from killhouse.cli import app
from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, ScenarioError
from killhouse.rulesets import get_ruleset
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.entryedges import roll_edges
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.scenario.loader import load_scenario
from tests.conformance import play_out
from tests.rulesets.firewall.park import kits_as_written

ROOT = Path(__file__).resolve().parents[3]
THAMES = ROOT / "scenarios" / "firewall" / "triple_cross.yaml"
ASH = ROOT / "scenarios" / "firewall" / "escape_from_ash_end.yaml"


class Dice(Chance):
    """A chance that gives the listed die faces in order (1-based)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self.faces.pop(0) - 1


def _snap(game: Game) -> str:
    return json.dumps(game.ruleset.snapshot(game.state), sort_keys=True)


def _gm_done(game: Game) -> None:
    """The game master's set-up of Triple-Cross, taken as the scenario file has it."""
    state: FirewallState = game.state
    while game.pending() and game.pending()[0].side == "gm":
        legal = game.legal_actions("gm")
        game.apply(legal[0])
    assert state.spike is not None


def _edge_game(faces: Sequence[int], seed: int = 1) -> Game:
    """Triple-Cross at the players' edge step, with the edge dice ``faces`` (daewoo, thorco,
    mafia, then any re-rolls)."""
    game = Game(load_scenario(THAMES), seed)
    _gm_done(game)
    state: FirewallState = game.state
    state.entry.clear()
    state.edge_order = None
    roll_edges(state, Dice(faces), game.log)
    return game


# -- Triple-Cross: each player rolls, then chooses in descending order (§18.3) -------------

def test_the_players_choose_their_edges_highest_roll_first() -> None:
    game = _edge_game([2, 5, 3])
    state: FirewallState = game.state
    assert state.edge_order == ["thorco", "mafia", "daewoo"]
    assert [d.side for d in game.pending()] == ["thorco"]
    assert state.turn == 0 and all(game.legal_actions(s) == [] for s in ("daewoo", "mafia",
                                                                          "gm"))
    assert sorted(a.get("edge") for a in game.legal_actions("thorco")) == ["e", "n", "w"]
    game.apply(Action.make("thorco", "edge", edge="w"))
    assert sorted(a.get("edge") for a in game.legal_actions("mafia")) == ["e", "n"]
    game.apply(Action.make("mafia", "edge", edge="n"))
    # ruling F-210: the last side takes the one edge left, and Turn 1 begins
    assert state.entry == {"thorco": "w", "mafia": "n", "daewoo": "e"}
    assert state.turn == 1 and state.phase == "act"
    last = [e for e in game.log.events if e.kind == "edge-chosen"][-1]
    assert last.data == {"side": "daewoo", "edge": "e", "how": "last"}


def test_tied_sides_re_roll_among_themselves() -> None:
    """Ruling F-210 (as F-8): daewoo and thorco tie on 4 and re-roll; mafia's 6 stands."""
    game = _edge_game([4, 4, 6, 1, 3])
    state: FirewallState = game.state
    assert state.edge_order == ["mafia", "thorco", "daewoo"]
    order = [e for e in game.log.events if e.kind == "edge-order"][-1]
    assert order.data["rolls"] == [{"daewoo": 4, "thorco": 4, "mafia": 6},
                                   {"daewoo": 1, "thorco": 3}]


@pytest.mark.parametrize(("side", "edge", "reason"), [
    ("thorco", "s", "closed"),         # the river (F-56)
    ("mafia", "w", "two sides"),       # thorco's already
    ("daewoo", "n", "not to decide"),  # not daewoo's turn to choose
])
def test_a_bad_edge_choice_is_refused_and_changes_nothing(side: str, edge: str,
                                                          reason: str) -> None:
    game = _edge_game([2, 5, 3])
    if side == "mafia":
        game.apply(Action.make("thorco", "edge", edge="w"))
    before = _snap(game)
    with pytest.raises(IllegalActionError, match=reason):
        game.apply(Action.make(side, "edge", edge=edge))
    assert _snap(game) == before


def test_edges_and_their_rolls_are_public() -> None:
    """Ruling F-211: every side hears the dice and the choices and sees who chooses next."""
    game = _edge_game([2, 5, 3])
    game.apply(Action.make("thorco", "edge", edge="w"))
    for kind in ("edge-order", "edge-chosen"):
        assert all(e.audience is None for e in game.log.events if e.kind == kind)
    for side in ("daewoo", "thorco", "mafia", "gm"):
        public = game.view(side)["public"]
        assert public["entry"] == {"thorco": "w"}
        assert public["edge_choice"]["order"] == ["mafia", "daewoo"]
        assert public["edge_choice"]["free"] == ["n", "e"]
    assert "open n, e; taken: thorco w" in game.pending()[0].prompt


def test_a_team_enters_over_the_edge_its_side_chose_only() -> None:
    game = _edge_game([2, 5, 3])
    game.apply(Action.make("thorco", "edge", edge="w"))
    game.apply(Action.make("mafia", "edge", edge="n"))
    state: FirewallState = game.state
    while game.pending()[0].side != "daewoo":
        side = game.pending()[0].side
        game.apply(next(a for a in game.legal_actions(side) if a.kind in ("activate", "end")))
    game.apply(next(a for a in game.legal_actions("daewoo") if a.kind == "activate"))
    enters = [a for a in game.legal_actions("daewoo") if a.kind == "enter"]
    assert enters and all(a.get("at")[1] == 47 for a in enters)  # the east edge: x = 47
    before = _snap(game)
    with pytest.raises(IllegalActionError, match="table edge"):
        game.apply(Action.make("daewoo", "enter", figure="mr-seoul", at=[0, 0, 18],
                               speed="walk", path=[]))
    assert _snap(game) == before
    assert state.entry["daewoo"] == "e"


def test_the_hunters_bot_chooses_the_free_edge_nearest_the_counters() -> None:
    """With every counter moved near the north edge, a hunter takes the north edge; with
    them near the west edge, the west one."""
    for edge, cells in (("n", [(10 + 5 * i, 7) for i in range(6)]),
                        ("w", [(7, 8 + 5 * i) for i in range(6)])):
        game = _edge_game([2, 5, 3])
        state: FirewallState = game.state
        for c, cell in zip(sorted(state.counters.values(), key=lambda c: c.number), cells,
                           strict=True):
            c.cell = cell
        bot = bot_for(game.scenario, "thorco")
        act = bot.choose(game.view("thorco"), game.legal_actions("thorco"), Rng.from_seed(1))
        assert act.kind == "edge" and act.get("edge") == edge


def test_cli_play_offers_the_edge_choice_to_a_human_side() -> None:
    """``killhouse play --as daewoo`` reaches the set-up and takes a numbered edge."""
    result = CliRunner().invoke(app, ["play", str(THAMES), "--as", "daewoo", "--seed", "1"],
                                input="2\n")
    out = result.output
    assert "daewoo decides (setup): choose your table edge" in out
    assert "edge edge=n" in out and "edge edge=s" not in out
    assert "daewoo chooses the east edge." in out


# -- scenario files --------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "message"), [
    ("  edges: choose\n", "  edges: sideways\n", "options.edges: unknown edge rule"),
    ("  closed_edges: [s]\n", "  closed_edges: [south]\n", "options.closed_edges: expected"),
    ("    controller: ai\n  - id: thorco", "    controller: ai\n    entry: w\n  - id: thorco",
     "edges are chosen in play"),
])
def test_bad_edge_options_get_one_clear_message(tmp_path: Path, old: str, new: str,
                                                message: str) -> None:
    text = THAMES.read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        scenario = load_scenario(bad)
        if get_ruleset("firewall").check_scenario(scenario):
            Game(scenario, 1)
    assert message in str(info.value)
    assert str(info.value).count("bad.yaml:") == 1


def test_triple_cross_plays_out_with_the_edges_chosen_in_play() -> None:
    game = play_out(load_scenario(THAMES), 2)
    state: FirewallState = game.state
    assert sorted(state.entry.values()) == ["e", "n", "w"] and game.result is not None


def test_the_edge_rolls_are_seeded_events() -> None:
    a, b = Game(load_scenario(THAMES), 4), Game(load_scenario(THAMES), 4)
    _gm_done(a)
    _gm_done(b)
    assert a.state.edge_order == b.state.edge_order
    rolls = [e for e in a.log.events if e.kind == "roll"
             and str(e.data.get("purpose", "")).startswith("entry edge")]
    assert len(rolls) >= 3 and all(e.audience is None for e in rolls)


# -- Escape from Ash End: the higher roller chooses, the other takes the opposite (§18.2) ---

def _ash(faces: Sequence[int], seed: int = 1) -> Game:
    """Ash End at its edge choice, with the edge dice ``faces`` (mayor, gang, re-rolls)."""
    game = Game(load_scenario(ASH), seed)
    state: FirewallState = game.state
    assert state.phase == "setup" and state.turn == 0
    state.entry.clear()
    state.edge_order = None
    roll_edges(state, Dice(faces), game.log)
    return game


def test_ash_end_the_higher_roller_chooses_and_the_other_takes_the_opposite_edge() -> None:
    game = _ash([2, 5])
    state: FirewallState = game.state
    assert [d.side for d in game.pending()] == ["gang"]
    assert sorted(a.get("edge") for a in game.legal_actions("gang")) == ["e", "n", "s", "w"]
    before = _snap(game)
    with pytest.raises(IllegalActionError, match="not to decide"):
        game.apply(Action.make("mayor", "edge", edge="e"))
    assert _snap(game) == before
    game.apply(Action.make("gang", "edge", edge="w"))
    assert state.entry == {"gang": "w", "mayor": "e"} and state.turn == 1
    told = [e.data for e in game.log.events if e.kind == "edge-chosen"]
    assert told == [{"side": "gang", "edge": "w", "how": "chose"},
                    {"side": "mayor", "edge": "e", "how": "opposite"}]
    assert "opposite" in game.ruleset.narrate(
        next(e for e in game.log.events if e.kind == "edge-chosen" and e.data["side"] == "mayor"))


def test_ash_end_ties_re_roll() -> None:
    game = _ash([3, 3, 1, 6])
    assert game.state.edge_order == ["gang", "mayor"]


@pytest.mark.parametrize(("edge", "uav", "apc"), [
    # (mayor's edge, the UAV's place and facing, the APC's place and facing)
    ("s", ((22, 43), "n"), ((26, 0), "s")),  # as drawn: nothing turns
    ("n", ((23, 0), "s"), ((20, 44), "n")),  # half a turn: each on the other's edge
    ("e", ((43, 28), "w"), ((0, 18), "e")),  # a quarter: along the east and west edges
])
def test_ash_end_vehicles_arrive_turned_with_their_side_s_edge(
        edge: str, uav: tuple[tuple[int, int], str], apc: tuple[tuple[int, int], str]) -> None:
    """Ruling F-212: a side's vehicle arrives over its chosen edge, its footprint touching
    that edge, facing into the table."""
    game = _ash([6, 1])
    game.apply(Action.make("mayor", "edge", edge=edge))
    state: FirewallState = game.state
    width = state.board.levels[0].width
    for vid, (anchor, facing), side in (("uav", uav, "mayor"), ("apc", apc, "gang")):
        v = state.vehicles[vid]
        assert (v.anchor, v.facing) == (anchor, facing), vid
        feet = v.squares()
        on = {"n": any(y == 0 for _, y in feet), "s": any(y == width - 1 for _, y in feet),
              "w": any(x == 0 for x, _ in feet), "e": any(x == width - 1 for x, _ in feet)}
        assert on[state.entry[side]], vid


@pytest.mark.parametrize(("edge", "squares", "facing"), [
    ("n", [(17, 0), (18, 0), (19, 0), (20, 0)], (0, 1)),     # as drawn
    ("e", [(47, 17), (47, 18), (47, 19), (47, 20)], (-1, 0)),  # a quarter turn
    ("s", [(30, 47), (29, 47), (28, 47), (27, 47)], (0, -1)),  # half a turn
])
def test_ash_end_gang_first_team_stands_on_the_gang_s_edge(
        edge: str, squares: list[tuple[int, int]], facing: tuple[int, int]) -> None:
    """Ruling F-212: the first team's squares on the drawn edge turn with the gang's edge."""
    game = _ash([1, 6])
    game.apply(Action.make("gang", "edge", edge=edge))
    state: FirewallState = game.state
    team = ["mildred", "theo", "yardie-1", "yardie-2"]
    assert [state.figures[f].cell for f in team] == squares
    assert all(state.figures[f].facing == facing for f in team)
    assert {tuple(s["at"][1:]) for s in game.view("gang")["figures"]
            if s["id"] in team} == set(squares)


def test_the_extract_bot_chooses_the_edge_nearest_the_mayor() -> None:
    """The Mayor lies at the central ruin's east doorway: the east edge is nearest."""
    game = _ash([6, 1])
    bot = bot_for(game.scenario, "mayor")
    act = bot.choose(game.view("mayor"), game.legal_actions("mayor"), Rng.from_seed(3))
    assert act == Action.make("mayor", "edge", edge="e")


def test_ash_end_needs_opposite_drawn_edges(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(ASH.read_text().replace("Janga Yardies, entry: n}", "Janga Yardies, entry: e}"))
    with pytest.raises(ScenarioError) as info:
        scenario = load_scenario(bad)
        if get_ruleset("firewall").check_scenario(scenario):
            Game(scenario, 1)
    assert "options.edges: edges: opposite needs two player sides" in str(info.value)
    assert str(info.value).count("bad.yaml:") == 1


# -- the game master's counters (§18.3, rulings F-213, F-214) ------------------------------

def _at_counters(seed: int = 1, upto: int = 0) -> Game:
    """Triple-Cross with the first ``upto`` counters placed on the file's squares."""
    game = Game(load_scenario(THAMES), seed)
    state: FirewallState = game.state
    for cid in list(state.unplaced)[:upto]:
        c = state.counters[cid]
        game.apply(Action.make("gm", "place-counter", counter=cid, at=[c.level, *c.cell]))
    return game


def _place(game: Game, cell: tuple[int, int], counter: str | None = None) -> None:
    state: FirewallState = game.state
    game.apply(Action.make("gm", "place-counter", counter=counter or state.unplaced[0],
                           at=[0, *cell]))


def test_the_game_master_places_the_counters_first_in_number_order() -> None:
    game = _at_counters()
    state: FirewallState = game.state
    assert state.unplaced == ["c1", "c2", "c3", "c4", "c5", "c6"] and state.turn == 0
    assert [d.side for d in game.pending()] == ["gm"]
    assert all(game.legal_actions(s) == [] for s in state.players)
    legal = game.legal_actions("gm")
    assert {a.kind for a in legal} == {"place-counter"}  # no spike before the counters
    assert {a.get("counter") for a in legal} == {"c1"}
    assert list(legal[0].get("at")) == [0, 9, 8] and legal[0].hint.get("scenario")  # the file's
    for side in ("daewoo", "thorco", "mafia", "gm"):
        assert game.view(side)["counters"] == []  # nothing on the table yet
    before = _snap(game)
    with pytest.raises(IllegalActionError, match="number order"):
        _place(game, (20, 20), counter="c2")
    with pytest.raises(IllegalActionError, match="not to decide"):
        game.apply(Action.make("mafia", "place-counter", counter="c1", at=[0, 20, 20]))
    assert _snap(game) == before


@pytest.mark.parametrize(("cell", "ok"), [
    ((6, 20), True), ((5, 20), False),      # the west edge: 6 squares in, and one short
    ((20, 6), True), ((20, 5), False),      # the north edge
    ((41, 20), True), ((42, 20), False),    # the east edge (x = 47)
    ((20, 44), True),                       # the river edge is closed: the wharf is fair
])
def test_a_counter_lies_at_least_6_squares_in_from_an_open_edge(cell: tuple[int, int],
                                                               ok: bool) -> None:
    game = _at_counters()
    state: FirewallState = game.state
    before = _snap(game)
    if ok:
        _place(game, cell)
        assert state.counters["c1"].cell == cell and state.unplaced[0] == "c2"
    else:
        with pytest.raises(IllegalActionError, match=r"from the [nsew] edge"):
            _place(game, cell)
        assert _snap(game) == before


@pytest.mark.parametrize(("offset", "ok"), [
    ((6, 0), True), ((5, 0), False),        # 10 cm edge to edge is 5 squares (F-1)
    ((4, 4), True), ((3, 4), False),        # on the diagonal: 32 > 25 ≥ 25
])
def test_counters_lie_more_than_10_cm_apart(offset: tuple[int, int], ok: bool) -> None:
    game = _at_counters()
    _place(game, (20, 10))
    state: FirewallState = game.state
    cell = (20 + offset[0], 10 + offset[1])
    before = _snap(game)
    if ok:
        _place(game, cell)
        assert state.counters["c2"].cell == cell
    else:
        with pytest.raises(IllegalActionError, match="within 10 cm of counter 1"):
            _place(game, cell)
        assert _snap(game) == before


@pytest.mark.parametrize(("cell", "reason"), [
    ((23, 22), "held by a figure"),   # Lonnie's square
    ((4, 4), "not passable"),        # the warehouse's wall corner (and near the edge)
    ((15, 9), "not passable"),       # a warehouse wall
])
def test_a_counter_goes_on_a_free_passable_square(cell: tuple[int, int], reason: str) -> None:
    game = _at_counters()
    before = _snap(game)
    with pytest.raises(IllegalActionError, match=reason):
        _place(game, cell)
    assert _snap(game) == before


def test_counters_are_public_as_they_go_down_and_the_spike_stays_the_gm_s() -> None:
    game = _at_counters(upto=6)
    placed = [e for e in game.log.events if e.kind == "counter-placed"]
    assert len(placed) == 6 and all(e.audience is None for e in placed)
    assert game.ruleset.narrate(placed[0]) == "the game master places counter 1 at (9,8)."
    for side in ("daewoo", "thorco", "mafia"):
        shown = game.view(side)["counters"]
        assert [c["number"] for c in shown] == [1, 2, 3, 4, 5, 6]
        assert all("is" not in c for c in shown)
    game.apply(Action.make("gm", "spike", counter="c3"))
    assert [e.audience for e in game.log.events if e.kind == "spike-is"] == [frozenset({"gm"})]
    assert all("is" not in c for s in ("daewoo", "thorco", "mafia")
               for c in game.view(s)["counters"])


def test_the_computer_gm_places_its_counters_spread_and_seeded() -> None:
    """The GM's bot places six legal counters, none within 10 cm of another, the same for
    the same seed; then chooses the spike among them."""
    def setup(seed: int) -> list[tuple[int, int]]:
        game = Game(load_scenario(THAMES), seed)
        bot = bot_for(game.scenario, "gm")
        rng = Rng.from_seed(seed)
        state: FirewallState = game.state
        while state.unplaced or state.spike is None:
            game.apply(bot.choose(game.view("gm"), game.legal_actions("gm"), rng))
        return [state.counters[c].cell for c in sorted(state.counters)]
    first = setup(2)
    assert first == setup(2)
    for i, a in enumerate(first):
        for b in first[i + 1:]:
            assert (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 > 25
        assert 6 <= a[0] <= 41 and a[1] >= 6


def test_without_a_game_master_the_file_s_squares_are_the_table(tmp_path: Path) -> None:
    text = THAMES.read_text()
    gm_side = text[text.index("  - id: gm\n"):text.index("\nobjectives:")]
    lonnie = text[text.index("  - {id: lonnie"):]
    text = text.replace(gm_side, "").replace(lonnie, "")
    text = text.replace("  still: [lonnie]\n  surrenders: [lonnie]\n", "")
    path = tmp_path / "no_gm.yaml"
    path.write_text(text)
    game = Game(load_scenario(path), 1)
    state: FirewallState = game.state
    assert state.unplaced == [] and state.spike is not None  # drawn (F-85)
    assert state.counters["c1"].cell == (9, 8)
    assert {d.side for d in game.pending()} <= {"daewoo", "thorco", "mafia"}


def test_cli_play_offers_the_counters_to_a_human_game_master() -> None:
    result = CliRunner().invoke(app, ["play", str(THAMES), "--as", "gm", "--seed", "1"],
                                input="1\n2\n1\n1\n1\n1\n1\n")
    out = result.output
    assert "gm decides (setup): game master: place counter 1" in out
    assert "place-counter at=0:9,8 counter=c1" in out
    assert "the game master places counter 1 at (9,8)." in out
    assert "the game master places counter 6 at" in out
    assert "gm decides (setup): game master: choose which counter is the data-spike" in out


# -- A Walk in the Park: the squad deploys in secret, Anfield chooses its end (§18.1) ------

PARK = ROOT / "scenarios" / "firewall" / "a_walk_in_the_park.yaml"
SQUAD = ["snatch-lead", "snatch-2", "snatch-3", "snatch-4", "snatch-5"]


def _park(seed: int = 1) -> Game:
    """The Park at its deployment: the squad has taken the file's kits (F-270)."""
    return kits_as_written(Game(load_scenario(PARK), seed))


def _deploy(game: Game, cells: Sequence[tuple[int, int] | None]) -> None:
    for fid, cell in zip(SQUAD, cells, strict=True):
        args = {"at": [0, *cell]} if cell is not None else {}
        game.apply(Action.make("snatch", "deploy", figure=fid, **args))


#: the file's squares (all in cover), the squad's suggestions
FILE_SQUARES = [(20, 21), (23, 21), (26, 21), (24, 26), (28, 26)]


def test_the_squad_deploys_first_in_secret_and_off_the_table_until_then() -> None:
    game = _park()
    state: FirewallState = game.state
    assert state.turn == 0 and [d.side for d in game.pending()] == ["snatch"]
    assert game.legal_actions("anfield") == []
    assert all(state.figures[f].status.value == "reserve" for f in SQUAD)
    legal = game.legal_actions("snatch")
    assert {a.get("figure") for a in legal} == {"snatch-lead"}
    assert list(legal[0].get("at")) == [0, 20, 21] and legal[-1].get("at") is None
    _deploy(game, FILE_SQUARES)
    assert all(state.figures[f].hidden and state.figures[f].active for f in SQUAD)
    assert [d.side for d in game.pending()] == ["anfield"]


@pytest.mark.parametrize(("cell", "ok"), [
    ((12, 20), True), ((11, 20), False),   # a bush (Light cover) and the grass beside it
    ((18, 15), True), ((18, 14), False),   # a wood (Medium cover) and the grass above it
    ((10, 23), False),                     # the path: no cover
])
def test_a_snatcher_deploys_only_in_light_or_medium_cover(cell: tuple[int, int],
                                                          ok: bool) -> None:
    game = _park()
    before = _snap(game)
    act = Action.make("snatch", "deploy", figure="snatch-lead", at=[0, *cell])
    if ok:
        game.apply(act)
        assert game.state.figures["snatch-lead"].cell == cell
    else:
        with pytest.raises(IllegalActionError, match="Light or Medium cover"):
            game.apply(act)
        assert _snap(game) == before


def test_bad_deployments_are_refused_with_a_reason_and_no_change() -> None:
    game = _park()
    game.apply(Action.make("snatch", "deploy", figure="snatch-lead", at=[0, 20, 21]))
    before = _snap(game)
    for act, reason in (
        (Action.make("snatch", "deploy", figure="snatch-3", at=[0, 26, 21]), "next is snatch-2"),
        (Action.make("snatch", "deploy", figure="snatch-2", at=[0, 20, 21]), "held"),
        (Action.make("anfield", "path-end", end="e"), "not to decide"),
    ):
        with pytest.raises(IllegalActionError, match=reason):
            game.apply(act)
        assert _snap(game) == before


@pytest.mark.parametrize(("end", "cells", "facing"), [
    ("w", {"kewell": (1, 24), "ed": (2, 23), "phil": (2, 24)}, (1, 0)),
    ("e", {"kewell": (46, 24), "ed": (45, 23), "phil": (45, 24)}, (-1, 0)),
])
def test_anfield_chooses_the_end_of_the_path_kewell_starts_at(
        end: str, cells: dict[str, tuple[int, int]], facing: tuple[int, int]) -> None:
    game = _park()
    _deploy(game, FILE_SQUARES)
    assert sorted(a.get("end") for a in game.legal_actions("anfield")) == ["e", "w"]
    game.apply(Action.make("anfield", "path-end", end=end))
    state: FirewallState = game.state
    assert {f: state.figures[f].cell for f in cells} == cells
    assert all(state.figures[f].facing == facing for f in cells)
    assert state.turn == 1 and state.phase == "act"
    told = [e for e in game.log.events if e.kind == "path-end"]
    assert [e.audience for e in told] == [frozenset({"anfield"})]


def test_the_secret_deployment_tells_anfield_nothing() -> None:
    """Two different secret deployments (one with a snatcher off the table): Anfield's view,
    its copies of the events, its choices and its prompt are the same until it decides."""
    seen = []
    for cells in (FILE_SQUARES, [(7, 40), (12, 20), None, (44, 28), (38, 10)]):
        game = _park(3)
        _deploy(game, cells)
        copies = [e.for_side("anfield") for e in game.log.events]
        seen.append((json.dumps(game.view("anfield"), sort_keys=True),
                     [(c.kind, c.data) for c in copies if c is not None],
                     game.legal_actions("anfield"), game.pending()[0].prompt))
    assert seen[0] == seen[1]
    told = [e for e in game.log.events if e.kind == "deployed"]
    assert len(told) == 5 and all(e.audience == frozenset({"snatch"}) for e in told)


def test_a_snatcher_kept_off_the_table_enters_over_any_edge() -> None:
    game = _park()
    _deploy(game, [None, None, (26, 21), (24, 26), (28, 26)])
    game.apply(Action.make("anfield", "path-end", end="w"))
    assert game.result is None  # still to come: not removed (ruling F-216)
    while game.pending()[0].side != "snatch":
        side = game.pending()[0].side
        game.apply(next(a for a in game.legal_actions(side) if a.kind in ("activate", "end")))
    game.apply(Action.make("snatch", "activate", team="squad"))
    enters = [a for a in game.legal_actions("snatch") if a.kind == "enter"]
    edges = {(a.get("at")[1] in (0, 47), a.get("at")[2] in (0, 47)) for a in enters
             if a.get("figure") == "snatch-lead"}
    assert edges == {(True, False), (False, True)}  # west/east and north/south squares
    game.apply(Action.make("snatch", "enter", figure="snatch-lead", at=[0, 0, 10],
                           speed="crawl", path=[]))
    again = {a.get("at")[1] for a in game.legal_actions("snatch") if a.kind == "enter"
             and a.get("figure") == "snatch-2"}
    assert 47 in again and 0 in again  # no team edge is fixed by the first entry


def test_the_escort_bot_strolls_away_from_its_end() -> None:
    for end, far_x in (("w", 47), ("e", 0)):
        game = _park()
        _deploy(game, FILE_SQUARES)
        game.apply(Action.make("anfield", "path-end", end=end))
        bot = bot_for(game.scenario, "anfield")
        side = game.pending()[0].side
        legal = game.legal_actions(side)
        if side == "anfield":
            bot.choose(game.view("anfield"), legal, Rng.from_seed(1))
        else:
            bot.choose(game.view("anfield"), [Action.make("anfield", "end")], Rng.from_seed(1))
        me = bot._mine(game.view("anfield"))["kewell"]
        assert {c.x for c in bot.targets_for(game.view("anfield"), me)} == {far_x}


def test_the_squad_bot_deploys_hidden_near_the_path() -> None:
    game = _park(2)
    bot = bot_for(game.scenario, "snatch")
    rng = Rng.from_seed(2)
    while game.pending()[0].side == "snatch":
        game.apply(bot.choose(game.view("snatch"), game.legal_actions("snatch"), rng))
    state: FirewallState = game.state
    for f in SQUAD:
        assert state.figures[f].hidden and 18 <= state.figures[f].cell[1] <= 29


def test_cli_play_offers_the_end_of_the_path_to_anfield() -> None:
    result = CliRunner().invoke(app, ["play", str(PARK), "--as", "anfield", "--seed", "1"],
                                input="2\n")
    out = result.output
    assert "anfield decides (setup): choose the end of the path" in out
    assert "path-end end=e" in out and "kewell starts at the east end of the path." in out
    assert "deploys hidden" not in out  # the squad's deployment is never told to Anfield


def test_kewell_s_team_is_off_the_table_until_its_end_is_chosen() -> None:
    """Ruling F-218: the squad deploys seeing nothing of Kewell's team (its end is not yet
    chosen); the team comes on at its end when Anfield has chosen."""
    game = _park()
    state: FirewallState = game.state
    assert all(state.figures[f].status.value == "reserve" for f in ("kewell", "ed", "phil"))
    game.apply(Action.make("snatch", "deploy", figure="snatch-lead", at=[0, 12, 22]))
    assert game.view("snatch")["seen"] == [] and game.view("snatch")["remembered"] == []
    _deploy_rest = [(23, 21), (26, 21), (24, 26), (28, 26)]
    for fid, cell in zip(SQUAD[1:], _deploy_rest, strict=True):
        game.apply(Action.make("snatch", "deploy", figure=fid, at=[0, *cell]))
    assert all(state.figures[f].status.value == "reserve" for f in ("kewell", "ed", "phil"))
    game.apply(Action.make("anfield", "path-end", end="w"))
    assert all(state.figures[f].active for f in ("kewell", "ed", "phil"))


@pytest.mark.parametrize(("kind", "data", "line"), [
    ("edge-order", {"order": ["mafia", "daewoo"], "rolls": [{"daewoo": 2, "mafia": 5}]},
     "entry edges are chosen in the order mafia, daewoo (1d6: daewoo 2, mafia 5)."),
    ("edge-chosen", {"side": "gang", "edge": "w", "how": "chose"},
     "gang chooses the west edge."),
    ("edge-chosen", {"side": "mafia", "edge": "e", "how": "last"},
     "mafia takes the edge left, the east edge."),
    ("counter-placed", {"counter": "c2", "number": 2, "at": [1, 4, 9]},
     "the game master places counter 2 at (4,9 level 1)."),
    ("deployed", {"figure": "snatch-2", "at": [0, 12, 20]},
     "snatch-2 deploys hidden at (12,20)."),
    ("deployed", {"figure": "snatch-3", "at": None},
     "snatch-3 waits off the table, to come on over any edge."),
    ("path-end", {"team": "kewell", "end": "e"}, "kewell starts at the east end of the path."),
])
def test_every_set_up_event_has_a_line(kind: str, data: dict[str, object], line: str) -> None:
    from killhouse.core.events import Event

    assert get_ruleset("firewall").narrate(Event(0, kind, data)) == line


@pytest.mark.parametrize(("old", "new", "message"), [
    ("  hidden_deploy: snatch\n", "  hidden_deploy: ninjas\n",
     "options.hidden_deploy: no player side 'ninjas'"),
    ("  path_end: kewell\n", "  path_end: barry\n", "options.path_end: no team 'barry'"),
])
def test_bad_deployment_options_get_one_clear_message(tmp_path: Path, old: str, new: str,
                                                      message: str) -> None:
    text = PARK.read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        scenario = load_scenario(bad)
        if get_ruleset("firewall").check_scenario(scenario):
            Game(scenario, 1)
    assert message in str(info.value)
    assert str(info.value).count("bad.yaml:") == 1


def test_each_side_s_view_shows_only_its_own_set_up_still_to_do() -> None:
    thames = Game(load_scenario(THAMES), 1)
    assert thames.view("gm")["setup"] == {"counters_to_place": [1, 2, 3, 4, 5, 6]}
    assert all("setup" not in thames.view(s) for s in ("daewoo", "thorco", "mafia"))
    park = _park()
    assert park.view("snatch")["setup"] == {"to_deploy": SQUAD}
    assert park.view("anfield")["setup"] == {"end_to_choose": "kewell"}
    _deploy(park, FILE_SQUARES)
    assert "setup" not in park.view("snatch")
    park.apply(Action.make("anfield", "path-end", end="e"))
    assert "setup" not in park.view("anfield")
