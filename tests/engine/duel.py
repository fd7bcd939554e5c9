"""A two-figure duel ruleset that mixes the turn shapes the core must carry without special cases:
simultaneous secret orders (both sides pending at once, orders hidden until both are in), then a
one-side reaction decision (a figure that ducked may return fire), like cqb's interrupts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, Decision, Result, Ruleset
from killhouse.scenario.model import Issue, Scenario

ORDERS = ("fire", "duck")


@dataclass
class DuelState:
    sides: tuple[str, str]
    turn: int = 1
    hp: dict[str, int] = field(default_factory=dict)
    orders: dict[str, str] = field(default_factory=dict)
    reacting: str | None = None
    result: Result | None = None
    limit: int = 6


def hits(chance: Chance, ducking: bool, purpose: str) -> bool:
    """A shot hits on 4+ on a d6, or only on a 6 against a ducking target."""
    return chance.roll(6, purpose) >= (6 if ducking else 4)


class DuelRuleset(Ruleset[DuelState]):
    id: ClassVar[str] = "duel"
    title: ClassVar[str] = "Duel (engine test)"
    source: ClassVar[str] = "tests/engine"

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        return [] if len(scenario.sides) == 2 else [Issue("sides", "a duel has two sides")]

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> DuelState:
        a, b = (s.id for s in scenario.sides)
        log.emit("turn", {"turn": 1})
        return DuelState((a, b), hp={a: 2, b: 2}, limit=scenario.turn_limit or 6)

    def pending(self, state: DuelState) -> tuple[Decision, ...]:
        if state.result is not None:
            return ()
        if state.reacting is not None:
            return (Decision(state.reacting, "reaction"),)
        return tuple(Decision(s, "orders") for s in state.sides if s not in state.orders)

    def legal_actions(self, state: DuelState, side: str) -> list[Action]:
        if side not in {d.side for d in self.pending(state)}:
            return []
        if state.reacting == side:
            return [Action.make(side, "return-fire"), Action.make(side, "pass")]
        return [Action.make(side, "order", order=o) for o in ORDERS]

    def apply(self, state: DuelState, action: Action, chance: Chance, log: EventLog) -> None:
        if action not in self.legal_actions(state, action.side):
            raise IllegalActionError(f"{action} is not legal now")
        if state.reacting is not None:
            state.reacting = None
            if action.kind == "return-fire":
                foe = self.foe(state, action.side)
                if hits(chance, False, f"{action.side} returns fire"):
                    self.wound(state, foe, log)
            self.end_turn(state, log)
            return
        state.orders[action.side] = str(action.get("order"))
        log.emit("order-given", {"side": action.side}, audience=frozenset({action.side}))
        if len(state.orders) < 2:
            return
        log.emit("orders-revealed", dict(state.orders))
        for side in state.sides:
            foe = self.foe(state, side)
            if state.orders[side] == "fire" and hits(chance, state.orders[foe] == "duck", side):
                self.wound(state, foe, log)
        ducked = [s for s in state.sides if state.orders[s] == "duck" and state.hp[s] > 0]
        state.orders.clear()
        if state.result is None and len(ducked) == 1:
            state.reacting = ducked[0]
            return
        self.end_turn(state, log)

    def foe(self, state: DuelState, side: str) -> str:
        return state.sides[1] if side == state.sides[0] else state.sides[0]

    def wound(self, state: DuelState, side: str, log: EventLog) -> None:
        state.hp[side] -= 1
        log.emit("wounded", {"side": side, "hp": state.hp[side]})
        if state.hp[side] <= 0 and state.result is None:
            state.result = Result(self.foe(state, side), "opponent down")

    def end_turn(self, state: DuelState, log: EventLog) -> None:
        if state.result is None and state.turn >= state.limit:
            state.result = Result(None, "time")
        if state.result is None:
            state.turn += 1
            log.emit("turn", {"turn": state.turn})

    def result(self, state: DuelState) -> Result | None:
        return state.result

    def view(self, state: DuelState, side: str) -> dict[str, Any]:
        mine = {"order": state.orders[side]} if side in state.orders else {}
        return {"side": side, "turn": state.turn, "hp": dict(state.hp), **mine}

    def known_ids(self, state: DuelState, side: str) -> frozenset[str]:
        return frozenset(state.sides)

    def snapshot(self, state: DuelState) -> dict[str, Any]:
        return {
            "sides": list(state.sides),
            "turn": state.turn,
            "hp": state.hp,
            "orders": state.orders,
            "reacting": state.reacting,
        }
