"""The Turn on the flow kit (§5, §21.2): activations alternate and rotate, the 1/3 rule stops a
team, and seeded random legal play reaches an end with the invariants holding throughout."""

from __future__ import annotations

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.flow import FLOW
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Figure, Team, new_figure
from killhouse.rulesets.firewall.upkeep import new_game

WEAPONS = ("corp_arms_shp", "imi_buzzard")


def _forces(sides: tuple[str, ...], teams_per_side: int = 2, size: int = 3) -> tuple[
    dict[str, Figure], dict[str, Team]
]:
    figures: dict[str, Figure] = {}
    teams: dict[str, Team] = {}
    for s, side in enumerate(sides):
        for t in range(teams_per_side):
            tid = f"{side}{t}"
            members = []
            for i in range(size):
                fid = f"{tid}-{i}"
                x = 4 + 10 * t + 2 * i
                y = 3 + 12 * s
                figures[fid] = new_figure(
                    fid, side, tid, (x, y), kind="ganger", is_leader=i == 0, weapons=WEAPONS,
                    facing=(0, 1) if s == 0 else (0, -1),
                    grenades={"fragmentation": 1, "concussion": 1},
                )
                members.append(fid)
            teams[tid] = Team(tid, side, tuple(members), members[0])
    return figures, teams


def _game(sides: tuple[str, ...], seed: int = 1, limit: int = 15) -> tuple[
    FirewallState, SeededChance, EventLog
]:
    figures, teams = _forces(sides)
    board = Board([Level.blank("street", 30, 30)])
    board.levels[0].clutter[10:14, 5:20] = 3
    log = EventLog()
    chance = SeededChance(Rng.from_seed(seed), log)
    return new_game(board, figures, teams, sides, chance, log, limit), chance, log


def _invariants(state: FirewallState) -> list[str]:
    problems = []
    for f in state.figures.values():
        if f.active and not 2 <= f.gutz <= 11:
            problems.append(f"{f.id} active with Gutz {f.gutz}")
    cells = [(f.level, f.cell) for f in state.figures.values()
             if f.status.value not in ("routed", "exited", "reserve") and f.carried_by is None]
    if len(cells) != len(set(cells)):
        problems.append("two figures share a square")
    if state.active_team is not None and not state.teams[state.active_team].activated_this_turn:
        problems.append("the active team is not marked activated")
    return problems


def _play(state: FirewallState, chance: SeededChance, log: EventLog, seed: int) -> int:
    pick = Rng.from_seed(seed + 1000)
    steps = 0
    while state.result is None:
        pending = FLOW.pending(state)
        assert len(pending) == 1
        actions = FLOW.legal_actions(state, pending[0].side)
        assert actions, f"no legal action in turn {state.turn}"
        FLOW.apply(state, actions[pick.below(len(actions))], chance, log)
        assert _invariants(state) == []
        steps += 1
        assert steps < 20_000
    return steps


@pytest.mark.parametrize("seed", range(1, 4))
def test_random_play_ends_with_a_result(seed: int) -> None:
    state, chance, log = _game(("swat", "gang"), seed)
    _play(state, chance, log, seed)
    assert state.result is not None and state.result.reason
    assert FLOW.pending(state) == ()
    thrown = [e for e in log.events if e.kind == "shot" and e.data["weapon"] == "Hand Grenade"]
    left = sum(sum(f.grenades.values()) for f in state.figures.values())
    assert left == 2 * len(state.figures) - len(thrown)  # each throw uses one grenade


def test_three_sides_rotate_and_end() -> None:
    state, chance, log = _game(("daewoo", "thorco", "mafia"), seed=3)
    first = state.order
    assert sorted(first) == ["daewoo", "mafia", "thorco"]
    seen: list[str] = []
    while state.turn == 1 and state.result is None:
        side = FLOW.pending(state)[0].side
        if state.active_team is None:
            seen.append(side)
        FLOW.apply(state, Action.make(side, "activate", team=FLOW.legal_actions(state, side)[0]
                                      .get("team")) if state.active_team is None
                   else Action.make(side, "end"), chance, log)
    assert seen == [*first, *first]  # two teams each: rotate in initiative order
    _play(state, chance, log, 3)
    assert state.result is not None


def test_same_seed_same_game() -> None:
    def transcript(seed: int) -> list[str]:
        state, chance, log = _game(("swat", "gang"), seed)
        _play(state, chance, log, seed)
        return [f"{e.kind} {e.data}" for e in log.events]

    assert transcript(5) == transcript(5)


def test_one_third_rule_ends_the_activation() -> None:
    state, chance, log = _game(("swat", "gang"))
    side = FLOW.pending(state)[0].side
    team = FLOW.legal_actions(state, side)[0].get("team")
    FLOW.apply(state, Action.make(side, "activate", team=team), chance, log)
    member = state.teams[team].members[1]
    state.figures[member].failed_this_turn = True  # 3 members: the limit is 1 (F-7)
    assert FLOW.legal_actions(state, side) == [Action.make(side, "end")]
    with pytest.raises(IllegalActionError):
        FLOW.apply(state, Action.make(side, "move", figure=state.teams[team].members[0],
                                      speed="walk", path=[[0, 4, 8]]), chance, log)


def test_illegal_action_changes_nothing() -> None:
    state, chance, log = _game(("swat", "gang"))
    side = FLOW.pending(state)[0].side
    other = next(s for s in state.sides if s != side)
    before = (repr(state.figures), len(log.events))
    with pytest.raises(IllegalActionError, match="not to decide"):
        FLOW.apply(state, Action.make(other, "end"), chance, log)
    assert (repr(state.figures), len(log.events)) == before


def test_unaware_teams_walk_without_rolls_until_they_see_the_enemy() -> None:
    figures, teams = _forces(("swat", "gang"))
    board = Board([Level.blank("street", 30, 30)])
    board.levels[0].terrain[9, :] = Terrain.WALL  # the sides cannot see each other
    log = EventLog()
    chance = SeededChance(Rng.from_seed(4), log)
    state = new_game(board, figures, teams, ("swat", "gang"), chance, log)
    assert not any(t.aware for t in state.teams.values())
    side = FLOW.pending(state)[0].side
    FLOW.apply(state, FLOW.legal_actions(state, side)[0], chance, log)  # activate
    actions = FLOW.legal_actions(state, side)
    assert {a.kind for a in actions} == {"move", "end"}
    assert {a.get("speed") for a in actions if a.kind == "move"} == {"walk"}
    walker = state.figures[str(actions[0].get("figure"))]
    step = [[0, walker.cell[0] + 1, walker.cell[1]]]
    with pytest.raises(IllegalActionError, match="only walks"):
        FLOW.apply(state, Action.make(side, "move", figure=walker.id, speed="run", path=step),
                   chance, log)
    rolls = sum(1 for e in log.events if e.kind == "roll")
    FLOW.apply(state, next(a for a in actions if a.kind == "move"), chance, log)
    assert sum(1 for e in log.events if e.kind == "roll") == rolls  # no roll (F-16)
    board.levels[0].terrain[9, :] = Terrain.FLOOR  # the wall is gone: they see each other
    FLOW.apply(state, Action.make(side, "end"), chance, log)
    assert all(t.aware for t in state.teams.values())
    aware_events = [e for e in log.events if e.kind == "aware"]
    assert aware_events and all(e.audience is not None for e in aware_events)
