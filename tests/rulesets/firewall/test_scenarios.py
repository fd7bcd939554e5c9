"""The shipped scenarios (§18 and our SWAT tenement) through the registered ruleset: they
validate, play to a result with every conformance check (three sides and a GM included),
and their mechanics — carrying, exits, the alarm, arrivals, counters, surrender, hidden
figures, the victory conditions — work at their edges."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, ScenarioError
from killhouse.rulesets import get_ruleset
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.objectives import (
    ALARM_TARGET,
    Objective,
    alarm_roll,
    on_edge,
    victory,
)
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from killhouse.rulesets.firewall.upkeep import after_action, begin_turn
from killhouse.scenario.loader import load_scenario
from tests.conformance import play_out
from tests.rulesets.firewall.park import as_written
from tests.rulesets.firewall.thames import choose_edges, thames

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = sorted((ROOT / "scenarios" / "firewall").glob("*.yaml"))
PARK = ROOT / "scenarios" / "firewall" / "a_walk_in_the_park.yaml"
THAMES = ROOT / "scenarios" / "firewall" / "triple_cross.yaml"
SWAT = ROOT / "scenarios" / "firewall" / "swat_tenement.yaml"


def test_the_issue_names_three_scenarios_and_each_validates_clean() -> None:
    assert [p.stem for p in SCENARIOS] == ["a_walk_in_the_park", "bonded_warehouse",
                                          "escape_from_ash_end", "swat_tenement",
                                          "triple_cross"]
    ruleset = get_ruleset("firewall")
    for path in SCENARIOS:
        scenario = load_scenario(path)
        assert ruleset.check_scenario(scenario) == [], path.name
        assert scenario.description.startswith("Briefing.")


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_random_play_of_each_scenario_keeps_every_check(path: Path) -> None:
    """Random legal play to the end, with invariants and the leak check after every step
    (Triple-Cross: three player sides and a GM side)."""
    game = play_out(load_scenario(path), 3)
    assert game.result is not None and game.result.reason


def _game(path: Path, seed: int = 1) -> Game:
    """A game at Turn 1; A Walk in the Park's set-up as the file has it (F-215, F-217)."""
    return as_written(Game(load_scenario(path), seed))


def _fresh(state: FirewallState) -> None:
    """Give the side of every team a clean Turn (tests set positions by hand)."""
    for f in state.figures.values():
        f.move_used = f.combat_used = f.failed_this_turn = False


def _activate(game: Game, side: str, team: str) -> None:
    state: FirewallState = game.state
    state.active_team = None
    state.order = (side, *[s for s in state.sides if s != side])
    state.step = 0
    state.teams[team].activated_this_turn = False
    game.apply(Action.make(side, "activate", team=team))


def _seen(game: Game, side: str) -> set[str]:
    return {s["id"] for s in game.view(side)["seen"]}


# -- A Walk in the Park: hidden squad, non-lethal snatch, carrying off, the alarm ------------

def test_the_squad_starts_hidden_and_kewell_team_unaware() -> None:
    game = _game(PARK)
    squad = {f"snatch-{i}" for i in range(2, 6)} | {"snatch-lead"}
    assert not _seen(game, "anfield") & squad
    assert all(game.state.figures[f].hidden for f in squad)
    assert game.state.teams["kewell"].aware is False
    assert "kewell" in _seen(game, "snatch")


def test_a_crawl_keeps_a_hidden_figure_hidden_and_a_walk_reveals_it() -> None:
    game = _game(PARK)
    state: FirewallState = game.state
    f = state.figures["snatch-2"]
    _activate(game, "snatch", "squad")
    game.apply(Action.make("snatch", "move", figure="snatch-2", speed="crawl",
                           path=[[0, f.cell[0], f.cell[1] - 1]]))
    assert state.figures["snatch-2"].hidden
    assert state.teams["kewell"].aware  # §18.1: the squad's first action wakes the team
    game.apply(Action.make("snatch", "move", figure="snatch-3", speed="walk",
                           path=[[0, 26, 19]]))
    assert not state.figures["snatch-3"].hidden


@pytest.mark.parametrize(("dx", "revealed"), [(1, True), (2, False)])
def test_an_enemy_within_2_cm_reveals_a_hidden_figure(dx: int, revealed: bool) -> None:
    """2 cm is one square (model distance 0 cm diagonal or straight); two squares apart is
    2.5 cm, one step past."""
    game = _game(PARK)
    state: FirewallState = game.state
    hider = state.figures["snatch-lead"]
    state.figures["ed"].cell = (hider.cell[0] + dx, hider.cell[1])
    state.last = None
    after_action(state, game.chance, game.log)
    assert hider.hidden is not revealed


def test_a_hidden_figure_cannot_be_targeted() -> None:
    game = _game(PARK)
    state: FirewallState = game.state
    state.teams["kewell"].aware = True
    state.figures["ed"].cell = (20, 23)
    state.figures["ed"].facing = (0, -1)
    _activate(game, "anfield", "kewell")
    with pytest.raises(IllegalActionError, match="not a figure the side sees"):
        game.apply(Action.make("anfield", "shoot", figure="ed", weapon="colt_m2117",
                               target="snatch-lead"))


def _kewell_down_beside(game: Game, carrier: str, cell: tuple[int, int]) -> FirewallState:
    state: FirewallState = game.state
    state.figures["kewell"].status = Status.INCAPACITATED
    state.figures["kewell"].cell = (cell[0] + 1, cell[1])
    state.figures[carrier].cell = cell
    state.figures[carrier].hidden = False
    return state


def test_carrying_kewell_off_an_edge_wins_for_the_squad() -> None:
    game = _game(PARK)
    state = _kewell_down_beside(game, "snatch-2", (0, 30))
    _activate(game, "snatch", "squad")
    exits = [a for a in game.legal_actions("snatch") if a.get("exit") and a.get("carry")]
    assert exits, "a figure on an edge square beside Kewell may pick him up and leave"
    while game.result is None:
        game.apply(exits[0])
        if game.result is None:  # a CF: the pick-up failed (F-80); try again next Turn
            _fresh(state)
            _activate(game, "snatch", "squad")
    assert game.result is not None and game.result.winner == "snatch"
    assert state.figures["kewell"].status is Status.EXITED


def test_a_pick_up_needs_kewell_within_2_cm() -> None:
    game = _game(PARK)
    state = _kewell_down_beside(game, "snatch-2", (0, 30))
    state.figures["kewell"].cell = (2, 30)  # two squares: 2.5 cm, one step past 2 cm
    _activate(game, "snatch", "squad")
    with pytest.raises(IllegalActionError, match="within 2 cm"):
        game.apply(Action.make("snatch", "move", figure="snatch-2", speed="crawl", path=[],
                               carry="kewell"))


def test_a_carrier_may_not_shoot_and_carries_at_minus_2() -> None:
    game = _game(PARK)
    state = _kewell_down_beside(game, "snatch-2", (10, 30))
    _activate(game, "snatch", "squad")
    game.apply(Action.make("snatch", "move", figure="snatch-2", speed="crawl",
                           path=[[0, 10, 31]], carry="kewell"))
    carrier = state.figures["snatch-2"]
    if carrier.carrying is None:
        pytest.skip("the seeded roll was a CF")
    assert state.figures["kewell"].cell == carrier.cell
    assert not [a for a in game.legal_actions("snatch")
                if a.kind == "shoot" and a.get("figure") == "snatch-2"]
    from killhouse.rulesets.firewall.moving import MoveOrder, move_modifier
    order = MoveOrder("snatch-2", "walk", ((10, 32),))
    state.teams["squad"].leader = None
    assert move_modifier(state.board, state.figures, state.teams, order) == -2


def test_killing_kewell_wins_for_anfield() -> None:
    game = _game(PARK)
    state: FirewallState = game.state
    state.figures["kewell"].status = Status.KILLED
    after_action(state, game.chance, game.log)
    assert game.result is not None and game.result.winner == "anfield"


def test_a_squad_all_helpless_loses() -> None:
    game = _game(PARK)
    state: FirewallState = game.state
    for f in state.figures.values():
        if f.side == "snatch":
            f.status = Status.INCAPACITATED
    after_action(state, game.chance, game.log)
    assert game.result is not None and game.result.winner == "anfield"
    assert "removed or helpless" in game.result.reason


@pytest.mark.parametrize(("count", "sixes", "reached"), [(3, 1, True), (2, 1, False),
                                                         (2, 2, True), (0, 0, False)])
def test_the_alarm_count_calls_help_at_4(count: int, sixes: int, reached: bool) -> None:
    """§18.1: each six on 2d6 adds one; the edge is a count of 4, one short is 3."""
    from tests.rulesets.firewall.test_teams import Dice

    chance = Dice([6] * sixes + [2] * (2 - sixes))
    assert (alarm_roll(chance, count, frozenset({"anfield"})) >= ALARM_TARGET) is reached


def test_the_alarm_brings_the_response_team_the_turn_after_the_count_reaches_4() -> None:
    game = _game(PARK)
    state: FirewallState = game.state
    state.alarm_raised = state.turn
    state.alarm_count = ALARM_TARGET - 1
    log = EventLog()
    chance = SeededChance(Rng.from_seed(1), log)
    guard = state.figures["guard-1"]
    while "response" not in state.arrival:
        begin_turn(state, chance, log)
    due = state.arrival["response"]
    assert due == state.turn + 1
    assert guard.status.value == "reserve" and "guard-1" not in state.entering
    begin_turn(state, chance, log)
    # ruling F-198: the team may come on now, by moves; nobody is placed for it
    assert guard.status.value == "reserve" and "guard-1" in state.entering
    assert state.teams["response"].aware


def _response_due(seed: int = 1) -> Game:
    """A Walk in the Park with the response team due and active (its side to act)."""
    game = _game(PARK, seed)
    state: FirewallState = game.state
    state.entering.update(state.teams["response"].members)
    state.teams["response"].aware = True
    _activate(game, "anfield", "response")
    return game


def test_a_response_figure_enters_by_a_move_from_an_edge_its_player_chooses() -> None:
    game = _response_due()
    state: FirewallState = game.state
    options = [a for a in game.legal_actions("anfield") if a.kind == "enter"]
    assert {tuple(a.get("at")[1:]) for a in options} & {(1, 0), (0, 1), (47, 4), (4, 47)}
    game.apply(Action.make("anfield", "enter", figure="guard-1", at=[0, 10, 47], speed="walk",
                           path=[[0, 10, 44]], facing=0))
    guard = state.figures["guard-1"]
    assert guard.status is Status.ACTIVE and guard.move_used
    assert guard.cell[0] == 10 and 44 <= guard.cell[1] <= 47
    assert "guard-1" not in state.entering and state.team_edge == {"response": "s"}
    # ruling F-199: the rest of the team comes on over the same edge
    with pytest.raises(IllegalActionError, match=r"table edge \(s\)"):
        game.apply(Action.make("anfield", "enter", figure="guard-2", at=[0, 0, 10],
                               speed="walk", path=[]))
    assert all(tuple(a.get("at")[1:])[1] == 47 for a in game.legal_actions("anfield")
               if a.kind == "enter")


@pytest.mark.parametrize(("at", "ok"), [((0, 10, 47), True), ((0, 10, 46), False),
                                        ((0, 47, 20), True), ((0, 46, 20), False)])
def test_an_entry_starts_on_an_edge_square_and_one_in_is_refused(at: tuple[int, int, int],
                                                                 ok: bool) -> None:
    game = _response_due()
    state: FirewallState = game.state
    act = Action.make("anfield", "enter", figure="guard-2", at=list(at), speed="walk", path=[])
    if ok:
        game.apply(act)
        assert state.figures["guard-2"].cell == at[1:]
    else:
        before = len(game.log)
        with pytest.raises(IllegalActionError, match="table edge"):
            game.apply(act)
        assert len(game.log) == before and "guard-2" in state.entering


def test_an_entry_square_held_by_a_figure_is_refused() -> None:
    game = _response_due()
    state: FirewallState = game.state
    state.figures["kewell"].cell = (10, 47)
    with pytest.raises(IllegalActionError, match="held"):
        game.apply(Action.make("anfield", "enter", figure="guard-1", at=[0, 10, 47],
                               speed="walk", path=[]))


def test_triple_cross_teams_enter_over_their_own_edge_only() -> None:
    game = thames(on_table=False)
    state: FirewallState = game.state
    assert state.figures["deacon"].status is Status.RESERVE and "deacon" in state.entering
    side = game.pending()[0].side
    team = next(t for t in state.teams.values() if t.side == side)
    game.apply(Action.make(side, "activate", team=team.id))
    edge = state.entry.get(side)
    for a in game.legal_actions(side):
        if a.kind == "enter":
            x, y = a.get("at")[1:]
            assert {"n": y == 0, "w": x == 0, "e": x == 47}[str(edge)]
    fid = team.members[0]
    wrong = [0, 47, 20] if edge != "e" else [0, 0, 20]
    with pytest.raises(IllegalActionError, match="table edge"):
        game.apply(Action.make(side, "enter", figure=fid, at=wrong, speed="walk", path=[]))


def test_the_alarm_is_a_task_of_a_figure_with_a_bleeper() -> None:
    game = _game(PARK)
    state: FirewallState = game.state
    state.teams["kewell"].aware = True
    _activate(game, "anfield", "kewell")
    kinds = {(a.get("figure"), a.get("task")) for a in game.legal_actions("anfield")
             if a.kind == "task"}
    assert kinds == {("ed", "alarm"), ("phil", "alarm")}
    with pytest.raises(IllegalActionError, match="no alarm bleeper"):
        game.apply(Action.make("anfield", "task", figure="kewell", task="alarm"))


# -- Triple-Cross: three sides and a GM, counters, the spike, Lonnie ------------------------

def test_triple_cross_has_three_player_sides_and_a_gm_who_rotate() -> None:
    game = thames()
    state: FirewallState = game.state
    assert state.players == ("daewoo", "thorco", "mafia")
    assert set(state.order) == {"daewoo", "thorco", "mafia", "gm"}
    assert state.spike in state.counters
    for side in state.players:
        assert "is" not in str(game.view(side)["counters"])  # the spike is the GM's secret
    assert game.view("gm")["spike"] == {"counter": state.spike}


def _at_counter(game: Game, fid: str, cid: str) -> FirewallState:
    state: FirewallState = game.state
    c = state.counters[cid]
    state.figures[fid].cell = (c.cell[0] + 1, c.cell[1])
    for t in state.teams.values():
        t.aware = True
    return state


def test_grabbing_the_spike_and_leaving_over_the_own_edge_wins() -> None:
    game = thames(4)
    state: FirewallState = game.state
    spike = str(state.spike)
    _at_counter(game, "deacon", spike)
    _activate(game, "thorco", "deacon")
    game.apply(Action.make("thorco", "task", figure="deacon", task="grab", counter=spike))
    if state.spike_holder != "deacon":
        pytest.skip("the seeded grab failed")
    state.figures["deacon"].cell = (23, 0)
    state.figures["deacon"].move_used = False
    state.figures["deacon"].failed_this_turn = False
    exit_ = Action.make("thorco", "move", figure="deacon", speed="crawl", path=[], exit=True)
    game.apply(exit_)
    if game.result is None:
        pytest.skip("the seeded exit roll was a CF")
    assert game.result.winner == "thorco"


def test_the_spike_leaves_only_over_its_side_s_entry_edge() -> None:
    game = thames()
    state: FirewallState = game.state
    state.spike_holder = "deacon"
    state.counters[str(state.spike)].resolved = True
    state.figures["deacon"].cell = (0, 3)  # the west edge: Daewoo's
    state.teams["deacon"].aware = True
    _activate(game, "thorco", "deacon")
    with pytest.raises(IllegalActionError, match="own entry edge"):
        game.apply(Action.make("thorco", "move", figure="deacon", speed="crawl", path=[],
                               exit=True))
    assert on_edge(state.board, 0, (0, 3)) == "w"


def test_a_move_onto_another_edge_does_not_carry_the_spike_off() -> None:
    """Ruling F-82 at the move's end: the edge is the one the move ends on, so a holder one
    square from Daewoo's edge is not offered (and may not order) an exit there, while the
    plain move is still his; at his own edge the exit is offered."""
    game = thames()
    state: FirewallState = game.state
    state.spike_holder = "deacon"
    state.counters[str(state.spike)].resolved = True
    state.figures["deacon"].cell = (1, 3)  # one square in from the west edge: Daewoo's
    state.teams["deacon"].aware = True
    _activate(game, "thorco", "deacon")
    to_edge = [a for a in game.legal_actions("thorco") if a.get("figure") == "deacon"
               and a.kind == "move" and [list(c) for c in a.get("path") or ()] == [[0, 0, 3]]]
    assert to_edge and not any(a.get("exit") for a in to_edge)
    before = game.state_hash()
    with pytest.raises(IllegalActionError, match="own entry edge"):
        game.apply(Action.make("thorco", "move", figure="deacon", speed="walk",
                               path=[[0, 0, 3]], facing=6, exit=True))
    assert game.state_hash() == before
    state.figures["deacon"].cell = (23, 1)  # one square in from the north edge: his own
    assert any(a.get("exit") and [list(c) for c in a.get("path") or ()] == [[0, 23, 0]]
               for a in game.legal_actions("thorco") if a.get("figure") == "deacon")


def test_a_trap_goes_off_on_the_grabber() -> None:
    for seed in range(1, 40):
        game = thames(seed)
        state: FirewallState = game.state
        trap = next(c for c in sorted(state.counters) if c != state.spike)
        _at_counter(game, "mr-seoul", trap)
        _activate(game, "daewoo", "seoul")
        game.apply(Action.make("daewoo", "task", figure="mr-seoul", task="grab", counter=trap))
        if state.counters[trap].resolved:
            events = [e for e in game.log.events if e.kind == "counter"]
            assert events[-1].data["is"] == "trap"
            assert "thorco" not in events[-1].audience  # type: ignore[operator]
            return
    raise AssertionError("no seed grabbed a trap")


@pytest.mark.parametrize(("dx", "surrenders"), [(1, True), (2, False)])
def test_lonnie_surrenders_to_an_enemy_within_2_cm(dx: int, surrenders: bool) -> None:
    game = thames()
    state: FirewallState = game.state
    lonnie = state.figures["lonnie"]
    state.figures["deacon"].cell = (lonnie.cell[0] + dx, lonnie.cell[1])
    after_action(state, game.chance, game.log)
    assert lonnie.captured is surrenders
    assert (lonnie.status is Status.INCAPACITATED) is surrenders


def test_lonnie_stands_still_until_he_sees_an_enemy_or_a_shot() -> None:
    game = thames()
    state: FirewallState = game.state
    _activate(game, "gm", "lonnie")
    state.teams["lonnie"].aware = False  # as if the streets were empty of enemies in sight
    assert not [a for a in game.legal_actions("gm") if a.kind == "move"]
    state.combat_happened = True
    assert [a for a in game.legal_actions("gm") if a.kind == "move"]


# -- the SWAT tenement: hostages and the rescue condition ------------------------------------

def _rescue(killed: int, gang_out: bool) -> str | None:
    game = _game(SWAT)
    state: FirewallState = game.state
    hostages = [f for f in state.figures.values() if f.side == "hostages"]
    for f in hostages[:killed]:
        f.status = Status.KILLED
    if gang_out:
        for f in state.figures.values():
            if f.side == "gang":
                f.status = Status.ROUTED
    result = victory(state.objective, state.figures, state.sides, state.players)
    return None if result is None else result.winner


@pytest.mark.parametrize(("killed", "gang_out", "winner"), [
    (1, True, "swat"),  # the edge: one hostage lost is allowed
    (2, True, "gang"),  # one past it
    (2, False, "gang"),
    (1, False, None),
    (0, True, "swat"),
])
def test_the_rescue_condition(killed: int, gang_out: bool, winner: str | None) -> None:
    assert _rescue(killed, gang_out) == winner


def test_hostages_are_helpless_and_never_act() -> None:
    game = _game(SWAT)
    state: FirewallState = game.state
    for f in state.figures.values():
        if f.side == "hostages":
            assert f.status is Status.INCAPACITATED
    assert "hostages" not in state.order


def test_the_time_limit_goes_to_the_gang() -> None:
    game = _game(SWAT)
    state: FirewallState = game.state
    side = game.pending()[0].side
    game.apply(next(a for a in game.legal_actions(side) if a.kind == "activate"))
    state.turn = state.turn_limit
    for t in state.teams.values():
        t.activated_this_turn = True
    game.apply(Action.make(side, "end"))
    assert game.result is not None and game.result.winner == "gang"
    assert game.result.reason.startswith(f"end of Turn {state.turn_limit}")


# -- bad scenarios: one line each -------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "message"), [
    ("equipment: [hk_mp5261v, colt_m2117]", "equipment: [phaser]", "no weapon 'phaser'"),
    ("team: alpha, leader: true", "team: swat, leader: true", "has a side's name"),
    ("type: police_swat, experience: experienced, at: \"ground:10,16\"",
     "type: cop, experience: experienced, at: \"ground:10,16\"", "unknown figure type 'cop'"),
    ("max_hostage_losses: 1", "max_hostage_losses: -1", "expected a whole number"),
    ("type: rescue", "type: capture", "unknown objective 'capture'"),
])
def test_bad_scenarios_get_one_clear_message(tmp_path: Path, old: str, new: str,
                                             message: str) -> None:
    text = SWAT.read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        scenario = load_scenario(bad)
        issues = get_ruleset("firewall").check_scenario(scenario)
        if issues:
            Game(scenario, 1)
    assert message in str(info.value)
    assert "bad.yaml:" in str(info.value)


def test_eliminate_is_the_default_objective() -> None:
    assert Objective().kind == "eliminate"


@pytest.mark.parametrize(("speed", "hidden"), [("crawl", True), ("walk", False), ("run", False)])
def test_which_moves_reveal_a_hidden_figure(speed: str, hidden: bool) -> None:
    """§21.5: a Walk or Run move reveals; a Crawl does not (whatever its result)."""
    game = _game(PARK)
    state: FirewallState = game.state
    f = state.figures["snatch-5"]
    _activate(game, "snatch", "squad")
    game.apply(Action.make("snatch", "move", figure="snatch-5", speed=speed,
                           path=[[0, f.cell[0] + 1, f.cell[1]]]))
    assert f.hidden is hidden


def test_a_combat_action_reveals_the_firer() -> None:
    game = _game(PARK)
    state: FirewallState = game.state
    state.figures["kewell"].cell = (21, 25)  # in front of the hidden leader, 4 squares off
    _activate(game, "snatch", "squad")
    shots = [a for a in game.legal_actions("snatch") if a.kind == "shoot"
             and a.get("figure") == "snatch-lead"]
    assert shots
    game.apply(shots[0])
    assert not state.figures["snatch-lead"].hidden
    assert "snatch-lead" in _seen(game, "anfield") or not state.figures["kewell"].active


@pytest.mark.parametrize("armour", ["street_clothing", "korlon_pleximesh", "bi_phase"])
def test_a_trap_s_is_an_improvised_ap_bomb_b_hit_reduced_by_armour(armour: str) -> None:
    """§18.3 / ruling F-94: Gutz 7, no modifiers; dice 1+3 = 4 is an S: the B table's loss
    less the armour's reduction."""
    from killhouse.rulesets.firewall import armour as arm
    from killhouse.rulesets.firewall.objectives import trap_attack
    from killhouse.rulesets.firewall.tables import tables
    from killhouse.rulesets.firewall.teams import new_figure
    from tests.rulesets.firewall.test_teams import Dice

    victim = new_figure("v", "a", "t", (5, 5), gutz=9, armour=armour)
    result = trap_attack({"v": victim}, victim, Dice([1, 3]), None)
    loss = tables().results["B"].s_loss
    r = arm.reduction(tables().armour[armour], tables().weapons["improvised_bomb_ap"].armour)
    assert result == "S"
    assert victim.gutz == 9 - max(0, loss - r)


def test_a_trap_double_six_is_a_dud() -> None:
    from killhouse.rulesets.firewall.objectives import trap_attack
    from killhouse.rulesets.firewall.teams import new_figure
    from tests.rulesets.firewall.test_teams import Dice

    victim = new_figure("v", "a", "t", (5, 5), gutz=9)
    assert trap_attack({"v": victim}, victim, Dice([6, 6]), None) == "CF"
    assert victim.gutz == 9


# -- Triple-Cross GM play: disarming, making Lonnie talk, going for a swim -------------------

def _captured_lonnie(game: Game, fid: str) -> FirewallState:
    state: FirewallState = game.state
    lonnie = state.figures["lonnie"]
    state.figures[fid].cell = (lonnie.cell[0] + 1, lonnie.cell[1])
    after_action(state, game.chance, game.log)
    assert lonnie.captured
    for t in state.teams.values():
        t.aware = True
    return state


def _scripted(game: Game, faces: list[int]) -> None:
    from tests.rulesets.firewall.test_teams import Dice

    game.chance = Dice(faces)  # type: ignore[assignment]


@pytest.mark.parametrize(("faces", "named"), [
    ([1, 1], "spike"),  # CS: the true counter
    ([1, 2, 4], 4),  # S: a d6 counter number, right or wrong
    ([6, 5], None),  # F: nothing
])
def test_making_lonnie_talk(faces: list[int], named: object) -> None:
    game = thames()
    state = _captured_lonnie(game, "deacon")
    _activate(game, "thorco", "deacon")
    _scripted(game, faces)
    game.apply(Action.make("thorco", "task", figure="deacon", task="talk"))
    says = game.view("thorco")["lonnie_says"]
    if named == "spike":
        assert says == state.counters[str(state.spike)].number
    else:
        assert says == named
    assert game.view("mafia")["lonnie_says"] is None
    deacon = state.figures["deacon"]
    assert deacon.move_used and deacon.combat_used  # the whole Turn


def test_a_cf_talk_asks_the_game_master_which_trap_lonnie_names() -> None:
    """Ruling F-197: on a CF Lonnie lies; the GM names the trap (a legal action of the GM),
    told to the talking side and the GM only."""
    game = thames()
    state = _captured_lonnie(game, "deacon")
    _activate(game, "thorco", "deacon")
    _scripted(game, [6, 6])
    game.apply(Action.make("thorco", "task", figure="deacon", task="talk"))
    assert [d.side for d in game.pending()] == ["gm"]
    assert game.view("gm")["question"]["reaction"] == "lie"
    assert "question" not in game.view("thorco")
    spike = state.counters[str(state.spike)].number
    traps = sorted(c.number for c in state.counters.values() if c.number != spike)
    assert sorted(a.get("counter") for a in game.legal_actions("gm")) == traps
    assert game.legal_actions("thorco") == []
    before = len(game.log)
    with pytest.raises(IllegalActionError, match="unresolved trap"):
        game.apply(Action.make("gm", "lie", counter=spike))
    assert len(game.log) == before
    game.apply(Action.make("gm", "lie", counter=traps[-1]))
    assert game.view("thorco")["lonnie_says"] == traps[-1]
    assert game.view("mafia")["lonnie_says"] is None
    told = [e for e in game.log.events if e.kind == "lonnie-names"]
    assert told and told[-1].audience == frozenset({"thorco", "gm"})


def test_the_game_master_chooses_the_spike_before_turn_1() -> None:
    """Ruling F-195: the GM's first decision is which counter is the spike; nobody else
    decides until then and only the GM hears it."""
    game = Game(load_scenario(THAMES), 3)
    state: FirewallState = game.state
    assert state.spike is None and state.turn == 0
    for cid in list(state.unplaced):  # first the counters go down (ruling F-214)
        c = state.counters[cid]
        game.apply(Action.make("gm", "place-counter", counter=cid, at=[c.level, *c.cell]))
    assert [d.side for d in game.pending()] == ["gm"]
    assert sorted(a.get("counter") for a in game.legal_actions("gm")) == sorted(state.counters)
    assert all(game.legal_actions(s) == [] for s in state.players)
    with pytest.raises(IllegalActionError):
        game.apply(Action.make("gm", "spike", counter="c9"))
    game.apply(Action.make("gm", "spike", counter="c4"))
    assert state.spike == "c4" and state.turn == 0  # the players' edges follow (F-210)
    choose_edges(game)
    assert state.turn == 1
    told = [e for e in game.log.events if e.kind == "spike-is"]
    assert [e.audience for e in told] == [frozenset({"gm"})]
    for side in state.players:
        assert "is" not in str(game.view(side)["counters"])
    assert game.view("gm")["spike"] == {"counter": "c4"}


def test_the_game_master_sees_the_whole_table_and_the_players_do_not() -> None:
    """Ruling F-196: a GM side sees every figure on the table, Hidden ones too; a player
    side still sees only what its own figures see."""
    game = thames()
    state: FirewallState = game.state
    seoul = state.figures["mr-seoul"]
    seoul.cell, seoul.hidden = (10, 8), True  # inside the north-west warehouse, Hidden
    gm_seen = {s["id"] for s in game.view("gm")["seen"]}
    assert {"mr-seoul", "deacon", "porky"} <= gm_seen
    assert "gutz" not in next(s for s in game.view("gm")["seen"] if s["id"] == "deacon")
    assert "mr-seoul" not in _seen(game, "thorco") and "mr-seoul" not in _seen(game, "mafia")


def test_a_scripted_human_game_master_plays_triple_cross_to_the_end() -> None:
    """The GM's seat taken by a person (a script): every GM decision is one of its legal
    actions, the bots play the three teams, and the game ends with a result."""
    from killhouse.ai.registry import bot_for

    game = Game(load_scenario(THAMES), 5)
    state: FirewallState = game.state
    bots = {s: bot_for(game.scenario, s) for s in state.players}
    rng = Rng.from_seed(5)
    gm_kinds: list[str] = []
    for _ in range(6000):
        if game.result is not None:
            break
        side = game.pending()[0].side
        legal = game.legal_actions(side)
        if side == "gm":
            # the person: the spike under counter 6, Lonnie lies about the highest trap,
            # his team ends its activation unless it may walk away
            pick = {"spike": "c6"}
            by_kind = {a.kind: a for a in legal}
            if "place-counter" in by_kind:  # the counters where the file has them (F-214)
                c = state.counters[str(by_kind["place-counter"].get("counter"))]
                act = Action.make("gm", "place-counter", counter=c.id, at=[c.level, *c.cell])
                game.apply(act)
                gm_kinds.append(act.kind)
                continue
            if "spike" in by_kind:
                act = next(a for a in legal if a.get("counter") == pick["spike"])
            elif "lie" in by_kind:
                act = max(legal, key=lambda a: a.get("counter"))
            else:
                act = by_kind.get("activate") or by_kind.get("end") or legal[0]
            assert act in legal
            gm_kinds.append(act.kind)
        else:
            act = bots[side].choose(game.view(side), legal, rng)
        game.apply(act)
    assert game.result is not None and game.result.reason
    assert gm_kinds[:7] == ["place-counter"] * 6 + ["spike"]
    assert state.spike == "c6" and "activate" in gm_kinds


def test_talk_needs_the_captive_within_2_cm() -> None:
    game = thames()
    state = _captured_lonnie(game, "deacon")
    lonnie = state.figures["lonnie"]
    state.figures["deacon"].cell = (lonnie.cell[0] + 2, lonnie.cell[1])  # 2.5 cm
    _activate(game, "thorco", "deacon")
    with pytest.raises(IllegalActionError, match="no captured figure within 2 cm"):
        game.apply(Action.make("thorco", "task", figure="deacon", task="talk"))


@pytest.mark.parametrize(("row", "ok"), [(44, True), (43, False)])
def test_a_swim_needs_the_river_edge(row: int, ok: bool) -> None:
    """The Thames is the map's outside from row 45: a captor on row 44 is beside it (the
    edge), on row 43 one square past."""
    game = thames()
    state = _captured_lonnie(game, "deacon")
    lonnie = state.figures["lonnie"]
    state.figures["deacon"].cell = (10, row)
    lonnie.cell = (11, row)
    _activate(game, "thorco", "deacon")
    swim = Action.make("thorco", "task", figure="deacon", task="swim")
    if ok:
        game.apply(swim)
        assert lonnie.status is Status.EXITED and state.brownie == {"thorco": 1}
    else:
        with pytest.raises(IllegalActionError, match="river edge"):
            game.apply(swim)


@pytest.mark.parametrize(("faces", "kept", "hurt"), [
    ([1, 1], True, False),  # CS: safe, the bomb is kept
    ([1, 2], False, False),  # S: removed
    ([6, 5, 6, 5], False, False),  # F: the trap goes off (its own roll, here an F)
    ([6, 6], False, True),  # CF: the trap's CS on the figure
])
def test_disarming_a_trap(faces: list[int], kept: bool, hurt: bool) -> None:
    game = thames()
    state: FirewallState = game.state
    trap = next(c for c in sorted(state.counters) if c != state.spike)
    _at_counter(game, "deacon", trap)  # Technical 2: a plain roll
    _activate(game, "thorco", "deacon")
    _scripted(game, faces)
    game.apply(Action.make("thorco", "task", figure="deacon", task="disarm", counter=trap))
    deacon = state.figures["deacon"]
    assert state.counters[trap].resolved
    assert ("improvised_bomb_ap" in deacon.weapons) is kept
    assert (deacon.status is Status.KILLED) is hurt


def test_disarming_the_spike_picks_it_up() -> None:
    game = thames()
    state: FirewallState = game.state
    spike = str(state.spike)
    _at_counter(game, "deacon", spike)
    _activate(game, "thorco", "deacon")
    _scripted(game, [1, 2])
    game.apply(Action.make("thorco", "task", figure="deacon", task="disarm", counter=spike))
    assert state.spike_holder == "deacon"
