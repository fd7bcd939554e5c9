"""Phase 1's observation procedure and the loss of observation (ruling C-11)."""

from __future__ import annotations

from collections.abc import Sequence

from killhouse.core.chance import Chance, enumerate_outcomes
from killhouse.core.events import Audience
from killhouse.rulesets.commando.observation import kept, observation_phase
from killhouse.rulesets.commando.panic import preservation_conditions


class Forced(Chance):
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.rolls = 0

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        self.rolls += 1
        return self.faces.pop(0) - 1


LOS = {("o1", "t1"), ("o2", "t1"), ("o1", "t2"), ("o2", "t3")}


def can_roll(o: str, t: str) -> bool:
    return (o, t) in LOS


def pct(o: str, t: str) -> int:
    return 25


def test_first_success_stops_the_rolls_and_targets_go_in_id_order() -> None:
    chance = Forced([25, 26])  # t1: o1 succeeds at once; t2: o1 fails; t3: (o2) -> needs more
    chance.faces.append(99)
    seen = observation_phase(chance, ["o2", "o1"], ["t3", "t2", "t1"], frozenset(), can_roll, pct,
                             lambda o, t: False)
    assert seen == {"t1"}
    assert chance.rolls == 3  # o1 v t1, o1 v t2, o2 v t3; o2 never rolls at t1


def test_already_observed_and_automatic_need_no_roll() -> None:
    chance = Forced([])
    seen = observation_phase(chance, ["o1", "o2"], ["t1", "t2", "t3"], frozenset({"t1", "t3"}),
                             can_roll, pct, lambda o, t: (o, t) == ("o1", "t2"))
    assert seen == {"t1", "t2", "t3"} and chance.rolls == 0


def test_out_of_sight_never_rolls() -> None:
    seen = observation_phase(Forced([]), ["o1"], ["t9"], frozenset(), can_roll, pct,
                             lambda o, t: False)
    assert seen == frozenset()


def test_three_observers_exact() -> None:
    def run(c: Chance) -> bool:
        return "t" in observation_phase(c, ["a", "b", "c"], ["t"], frozenset(),
                                        lambda o, t: True, pct, lambda o, t: False)

    assert enumerate_outcomes(run)[True] == 1 - (enumerate_outcomes(run)[False])
    assert float(enumerate_outcomes(run)[True]) == 0.578125


def test_observation_is_lost_without_anyone_in_view() -> None:
    assert kept(frozenset({"t1", "t2"}), ["o1"], lambda o, t: t == "t1") == {"t1"}


def test_preservation_conditions_count() -> None:
    assert preservation_conditions(wounded=True, fired_at=True, friend_fell_nearby=False,
                                   leader_gone=False, no_ammunition=False,
                                   outnumbered=True) == 3


def test_searchlight_lights_a_clipped_5x5_block() -> None:
    from killhouse.rulesets.commando.observation import lit_square

    assert len(lit_square(10, 10, 30, 30)) == 25
    assert len(lit_square(0, 0, 30, 30)) == 9
    assert (12, 12) in lit_square(10, 10, 30, 30) and (13, 12) not in lit_square(10, 10, 30, 30)


def test_searchlight_nearby_edge_and_lit_observer() -> None:
    from killhouse.rulesets.commando.observation import light_flags, lit_square

    lit = lit_square(30, 10, 60, 30)
    assert light_flags((10, 10), (30, 10), lit) == (True, False)   # 20 squares: nearby
    assert light_flags((9, 10), (30, 10), lit) == (False, False)   # 21: not nearby
    assert light_flags((30, 10), (40, 10), lit) == (False, True)   # lit, looking out
    assert light_flags((30, 10), (31, 10), lit) == (True, False)   # both lit: no −30
