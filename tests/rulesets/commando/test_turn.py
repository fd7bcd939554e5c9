"""Map-free turn pieces: activation order, burning, charge timers, clouds, initiative."""

from __future__ import annotations

from collections.abc import Sequence

from killhouse.core.chance import Chance, enumerate_outcomes
from killhouse.core.events import Audience
from killhouse.rulesets.commando.men import Kind, ManState, Posture, Ratings
from killhouse.rulesets.commando.turn import (
    Charge,
    burn,
    cease_burning,
    charges_due,
    cloud_lasts_until,
    initiative_winner,
    next_side,
)
from killhouse.rulesets.commando.wounds import Wound


class Forced(Chance):
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self.faces.pop(0) - 1


def test_activation_alternates_then_repeats() -> None:
    sides = ("raiders", "guards")
    assert next_side("raiders", sides, {"raiders": 2, "guards": 1}) == "guards"
    assert next_side("guards", sides, {"raiders": 2, "guards": 0}) == "raiders"
    assert next_side("raiders", sides, {"raiders": 1, "guards": 0}) == "raiders"
    assert next_side("raiders", sides, {"raiders": 0, "guards": 0}) is None


def man() -> ManState:
    m = ManState("m", "x", Ratings(Kind.GRUNT, 13, 13, 13, 14), burning=True)
    m.start_turn()
    return m


def test_burning_and_cease_burning() -> None:
    m = man()
    assert burn(Forced([6]), m) is Wound.WOUNDED and m.damage == 6
    assert not cease_burning(m)  # must be prone
    m.posture = Posture.PRONE
    assert cease_burning(m) and not m.burning and m.tp == 25
    assert burn(Forced([]), m) is Wound.WOUNDED and m.damage == 6


def test_charges_go_off_in_order_of_placement() -> None:
    charges = [Charge("demo", "satchel", 1, timer=1), Charge("g2", "frag", 3),
               Charge("g1", "frag", 2)]
    due, waiting = charges_due(charges)
    assert [c.id for c in due] == ["g1", "g2"] and [c.id for c in waiting] == ["demo"]
    due, waiting = charges_due(waiting)
    assert [c.id for c in due] == ["demo"] and waiting == []


def test_clouds_last_three_more_turns() -> None:
    assert cloud_lasts_until(4) == 7


def test_initiative_is_even_and_rerolls_ties() -> None:
    assert initiative_winner(Forced([5, 5, 3, 7]), ("a", "b")) == "b"
    odds = enumerate_outcomes(lambda c: initiative_winner(c, ("a", "b")))
    assert odds == {"a": 0.5, "b": 0.5}
