"""Traps set in play (§16.2 Technical; rulings F-235 … F-241): the Technical roll and its
results, the items, the reach of setting; a trap hidden from the other side, going off on an
unknowing enemy within 2 cm (and not one square past) or crossing its square; found by a
Search; disarmed like a counter; and never told to a side before it sees or springs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.traps import Trap
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.test_teams import Dice

TENEMENT = Path(__file__).parents[3] / "scenarios" / "firewall" / "swat_tenement.yaml"


def _game(at: tuple[int, int] = (20, 17), faces: list[int] | None = None, technical: int = 2,
          aware: bool = True) -> Game:
    """alpha-1 (the SWAT leader) at ``at`` in the street with Technical and a fragmentation
    grenade, its team active; the gang far off behind walls."""
    game = Game(load_scenario(TENEMENT), 1)
    state: FirewallState = game.state
    ground = state.board.levels[0].terrain
    ground[14][ground[14] == Terrain.WINDOW] = Terrain.WALL  # nobody inside looks out
    for t in state.teams.values():
        t.aware = aware
    f = state.figures["alpha-1"]
    f.level, f.cell = 0, at
    f.skills = {"technical": technical, "observation": 2} if technical else {"observation": 2}
    f.grenades = {"fragmentation": 1}
    state.active_team = None
    state.order, state.step = ("swat", "gang"), 0
    state.teams["alpha"].activated_this_turn = False
    game.apply(Action.make("swat", "activate", team="alpha"))
    if faces is not None:
        game.chance = Dice(faces)  # type: ignore[assignment]
    return game


def _set(game: Game, at: tuple[int, int], item: str = "fragmentation") -> None:
    game.apply(Action.make("swat", "set-trap", figure="alpha-1", at=[0, *at], item=item))


def _gang_trap(game: Game, at: tuple[int, int], result: str = "S", skill: int = 1) -> Trap:
    state: FirewallState = game.state
    trap = Trap("trap-9", "gang", 0, at, result, skill, "normal", {"gang"})
    state.traps.append(trap)
    return trap


def _walk(game: Game, to: tuple[int, int], fig: str = "alpha-1") -> None:
    game.apply(Action.make("swat", "move", figure=fig, speed="walk", path=[[0, *to]]))


# -- setting (F-235, F-236, F-237) -------------------------------------------------------

@pytest.mark.parametrize(("faces", "placed", "change", "grenades"), [
    ([1, 2], True, 0, 0),     # S
    ([1, 1], True, 1, 0),     # CS: +1
    ([5, 6], False, 0, 1),    # F: not set, the grenade kept
])
def test_setting_a_trap_is_a_technical_roll(faces: list[int], placed: bool, change: int,
                                            grenades: int) -> None:
    game = _game(faces=faces)
    state: FirewallState = game.state
    f = state.figures["alpha-1"]
    gutz = f.gutz
    _set(game, (20, 16))
    assert bool(state.traps) is placed and f.gutz == gutz + change
    assert f.grenades.get("fragmentation", 0) == grenades
    assert f.move_used and f.combat_used  # the whole Turn
    if placed:
        assert state.traps[0].spot == (0, 20, 16) and state.traps[0].known == {"swat"}


def test_a_critical_failure_sets_the_device_off_on_the_setter() -> None:
    game = _game(faces=[6, 6, 6, 6])  # CF, then the device's own roll: a dud (its CF)
    state: FirewallState = game.state
    f = state.figures["alpha-1"]
    gutz = f.gutz
    _set(game, (20, 16))
    assert not state.traps and f.gutz == gutz - 1 and not f.grenades
    event = [e for e in game.log.events if e.kind == "trap-off"][-1]
    assert event.data["figure"] == "alpha-1" and event.data["result"] == "CF"


def test_technical_level_one_rolls_against_half_the_gutz() -> None:
    """§16.1 level 1: non-doubles succeed up to ⌊Gutz/2⌋ (the edge) and fail one past."""
    for offset, placed in ((0, True), (1, False)):
        game = _game(technical=1)
        total = game.state.figures["alpha-1"].gutz // 2 + offset
        a = 1 if total - 1 != 1 else 2
        game.chance = Dice([a, total - a])  # type: ignore[assignment]
        _set(game, (20, 16))
        assert bool(game.state.traps) is placed


@pytest.mark.parametrize(("here", "at", "item", "technical", "aware", "match"), [
    ((20, 17), (20, 15), "fragmentation", 2, True, "within 2 cm"),  # two squares off: 2.5 cm
    ((20, 17), (20, 16), "fragmentation", 0, True, "Technical"),    # no Technical
    ((20, 17), (20, 16), "improvised_bomb_ap", 2, True, "carries no"),  # no bomb carried
    ((20, 17), (20, 16), "concussion", 2, True, "concussion"),          # not a trap item
    ((20, 17), (20, 16), "fragmentation", 2, False, "aware"),        # an unaware team
    ((20, 15), (19, 14), "fragmentation", 2, True, "not passable"),  # the wall by the window
])
def test_setting_refusals_leave_the_state_unchanged(here: tuple[int, int], at: tuple[int, int],
                                                    item: str, technical: int, aware: bool,
                                                    match: str) -> None:
    game = _game(at=here, faces=[], technical=technical, aware=aware)
    before = game.state_hash()
    with pytest.raises(IllegalActionError, match=match):
        _set(game, at, item)
    assert game.state_hash() == before


def test_a_diagonal_square_is_within_reach_and_a_kept_bomb_makes_a_trap() -> None:
    game = _game(faces=[1, 2])
    f = game.state.figures["alpha-1"]
    f.weapons = (*f.weapons, "improvised_bomb_ap")
    _set(game, (21, 16), "improvised_bomb_ap")
    assert game.state.traps[0].cell == (21, 16) and "improvised_bomb_ap" not in f.weapons


def test_set_trap_is_offered_with_its_schema() -> None:
    game = _game()
    offered = [a for a in game.legal_actions("swat") if a.kind == "set-trap"]
    assert {tuple(a.get("at")) for a in offered} >= {(0, 20, 17), (0, 19, 16), (0, 21, 18)}
    from killhouse.rulesets.firewall.flow import FLOW
    assert "fragmentation" in str(FLOW.moves["set-trap"].schema())


def test_an_unseen_setter_tells_the_other_side_nothing() -> None:
    game = _game(faces=[1, 2])
    _set(game, (20, 16))
    assert "traps" in game.view("swat", None) and "traps" not in game.view("gang", None)
    assert not [e for e in game.log.events if e.kind.startswith("trap") and e.for_side("gang")]


def test_a_side_that_watches_the_setter_learns_the_square() -> None:
    game = _game(faces=[1, 2])
    game.state.figures["vinny"].cell = (22, 18)  # out in the street, watching
    _set(game, (20, 16))
    copy = [e for e in game.log.events if e.kind == "trap-set"][-1].for_side("gang")
    assert copy is not None and copy["at"] == [0, 20, 16] and copy["dice"] is None
    assert game.view("gang", None)["traps"] == [{"at": [0, 20, 16], "own": False}]


# -- going off (F-238, F-239) ------------------------------------------------------------

@pytest.mark.parametrize(("end", "goes_off"), [
    ((20, 18), True),   # beside it: 0 cm apart
    ((21, 18), True),   # diagonal: within 2 cm (the edge)
    ((20, 19), False),  # two squares: 2.5 cm, one step past
    ((21, 19), False),
])
def test_a_trap_goes_off_on_an_enemy_ending_within_2_cm(end: tuple[int, int],
                                                        goes_off: bool) -> None:
    game = _game(at=(20, 19) if end != (20, 19) else (18, 19), faces=[1, 2, 6, 6])
    trap = _gang_trap(game, (20, 17))
    _walk(game, end)
    state: FirewallState = game.state
    assert (trap not in state.traps) is goes_off
    offs = [e for e in game.log.events if e.kind == "trap-off"]
    assert bool(offs) is goes_off
    if goes_off:
        assert offs[-1].data["figure"] == "alpha-1" and state.teams["alpha"].aware


def test_a_trap_goes_off_on_an_enemy_crossing_its_square() -> None:
    game = _game(at=(20, 19), faces=[1, 2, 1, 2])  # the move, then the bomb's S
    trap = _gang_trap(game, (20, 17))
    _walk(game, (20, 15))  # 2 squares past the trap when it stops
    assert trap not in game.state.traps
    assert [e for e in game.log.events if e.kind == "trap-off"]


def test_a_known_trap_and_a_friendly_one_stay_quiet() -> None:
    game = _game(at=(20, 19), faces=[1, 2])
    trap = _gang_trap(game, (20, 17))
    trap.known.add("swat")  # found by a search
    _walk(game, (20, 16))
    assert trap in game.state.traps
    own = Trap("trap-8", "swat", 0, (21, 16), "S", 2, "normal", {"swat"})
    game.state.traps.append(own)
    game.state.figures["alpha-1"].move_used = False
    game.chance = Dice([1, 2])  # type: ignore[assignment]
    _walk(game, (21, 17))
    assert own in game.state.traps


def test_the_gang_hears_its_trap_go_off_without_a_name_it_cannot_see() -> None:
    game = _game(at=(20, 19), faces=[1, 2, 6, 6])
    _gang_trap(game, (20, 17))
    _walk(game, (20, 18))
    copy = [e for e in game.log.events if e.kind == "trap-off"][-1].for_side("gang")
    assert copy is not None and copy["at"] == [0, 20, 17] and copy["figure"] is None


# -- finding and disarming (F-240, F-241) ------------------------------------------------

@pytest.mark.parametrize(("faces", "found"), [
    ([1, 2], False),  # S against the setter's S: Observation 2 against Technical... 1 wins
    ([1, 1], True),   # CS beats S
])
def test_a_search_contests_the_setters_roll(faces: list[int], found: bool) -> None:
    game = _game(at=(20, 19), faces=faces)
    game.state.skills = True  # Search needs the skills option (F-104)
    trap = _gang_trap(game, (20, 17), "S", skill=3)
    game.apply(Action.make("swat", "search", figure="alpha-1"))
    assert ("swat" in trap.known) is found
    assert ("traps" in game.view("swat", None)) is found
    assert not [e for e in game.log.events if e.kind == "trap-found" and e.for_side("gang")]


def test_a_search_tie_goes_to_the_higher_level() -> None:
    game = _game(at=(20, 19), faces=[1, 2])  # S against S: Observation 2 beats Technical 1
    game.state.skills = True
    trap = _gang_trap(game, (20, 17), "S", skill=1)
    game.apply(Action.make("swat", "search", figure="alpha-1"))
    assert "swat" in trap.known


@pytest.mark.parametrize(("faces", "removed", "went_off", "bomb"), [
    ([1, 1], True, False, True),    # CS: safe and kept as a bomb
    ([1, 2], True, False, False),   # S: removed
    ([5, 6, 6, 6], True, True, False),  # F: it goes off (the bomb's roll: a dud)
    ([6, 6], True, True, False),    # CF: the trap's CS on the figure, no roll
])
def test_disarming_a_found_trap(faces: list[int], removed: bool, went_off: bool,
                                bomb: bool) -> None:
    game = _game(at=(20, 18), faces=faces)
    trap = _gang_trap(game, (20, 17))
    trap.known.add("swat")
    game.apply(Action.make("swat", "disarm-trap", figure="alpha-1", at=[0, 20, 17]))
    state: FirewallState = game.state
    assert (trap not in state.traps) is removed
    assert bool([e for e in game.log.events if e.kind == "trap-off"]) is went_off
    assert ("improvised_bomb_ap" in state.figures["alpha-1"].weapons) is bomb


def test_an_unknown_trap_cannot_be_named_for_disarming() -> None:
    game = _game(at=(20, 18), faces=[])
    _gang_trap(game, (20, 17))
    with pytest.raises(IllegalActionError, match="knows of no trap"):
        game.apply(Action.make("swat", "disarm-trap", figure="alpha-1", at=[0, 20, 17]))


# -- the leak check ------------------------------------------------------------------------

def test_no_side_learns_a_trap_it_has_not_seen_over_random_play() -> None:
    """Random legal play of the SWAT tenement with every SWAT figure able to set traps and the
    skills option on: after every action no side's view or event copies name the square of a
    trap it does not know (its own, watched set, or found)."""
    checked = placed = 0
    for seed in (1, 2, 3, 4):
        game = Game(load_scenario(TENEMENT), seed)
        state: FirewallState = game.state
        state.skills = True
        for f in state.figures.values():
            if f.side == "swat":
                f.skills = {"technical": 2, "observation": 1}
                f.grenades = {"fragmentation": 2}
            elif f.side == "gang":
                f.skills = {"technical": 1, "observation": 1}
                f.weapons = (*f.weapons, "improvised_bomb_ap")
        pick = Rng.from_seed(seed + 31)
        for _ in range(500):
            if game.result is not None:
                break
            side = game.pending()[0].side
            actions = game.legal_actions(side)
            traps = [a for a in actions if a.kind in ("set-trap", "search", "disarm-trap")]
            choice = traps if traps and pick.below(2) == 0 else actions
            start = len(game.log)
            game.apply(choice[pick.below(len(choice))])
            for s in state.sides:
                told = [c for c in (e.for_side(s) for e in game.log.since(start)) if c]
                secret = {t.spot for t in state.traps if s not in t.known}
                v = game.view(s, None)
                assert not secret & {tuple(t["at"]) for t in v.get("traps", [])}
                for copy in told:
                    if str(copy["kind"]).startswith("trap-") and copy["kind"] != "trap-off":
                        assert tuple(copy["at"]) not in secret, f"{s} told of {copy}"
                checked += 1
        placed += state.traps_set
    assert checked >= 1000 and placed >= 3


def test_a_known_trap_two_squares_off_is_out_of_reach_for_disarming() -> None:
    game = _game(at=(20, 19), faces=[])  # 2.5 cm from the trap: one step past 2 cm
    trap = _gang_trap(game, (20, 17))
    trap.known.add("swat")
    assert not [a for a in game.legal_actions("swat") if a.kind == "disarm-trap"]
    with pytest.raises(IllegalActionError, match="within 2 cm"):
        game.apply(Action.make("swat", "disarm-trap", figure="alpha-1", at=[0, 20, 17]))


def test_a_search_does_not_find_a_trap_out_of_its_line_of_sight() -> None:
    game = _game(at=(20, 16), faces=[1, 1])  # a CS would beat the setter's S
    game.state.skills = True
    trap = _gang_trap(game, (18, 12))  # in the room behind the wall
    game.apply(Action.make("swat", "search", figure="alpha-1"))
    assert "swat" not in trap.known
