"""A ruleset of three or more sides and an umpire, for the engine, sim and conformance tests.

Players shoot in turn at any other living side (4+ on a d6 wounds; 5+ in a storm the umpire
calls after each round). Each player holds a secret agent id that only it may learn. The game
ends when one player or none is left, or at the turn limit, when every living side with the
most hit points wins: a result may name several winners, or none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, Decision, Result, Ruleset
from killhouse.rulesets.kit.view import viewer
from killhouse.scenario.model import Issue, Scenario


@dataclass
class MeleeState:
    players: tuple[str, ...]
    umpire: str | None
    turn: int = 1
    to_move: int = 0
    hp: dict[str, int] = field(default_factory=dict)
    storm: bool = False
    umpire_due: bool = False
    result: Result | None = None
    limit: int = 4


class MeleeRuleset(Ruleset[MeleeState]):
    id: ClassVar[str] = "melee"
    title: ClassVar[str] = "Melee (engine test, three or more sides)"
    source: ClassVar[str] = "tests/engine"

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        players = scenario.player_sides()
        if len(players) < 3:
            return [Issue("sides", f"a melee has three or more players, found {len(players)}")]
        return []

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> MeleeState:
        umpires = [s.id for s in scenario.sides if s.role == "umpire"]
        players = tuple(scenario.player_sides())
        log.emit("turn", {"turn": 1})
        return MeleeState(
            players,
            umpires[0] if umpires else None,
            hp={p: 2 for p in players},
            limit=scenario.turn_limit or 4,
        )

    def alive(self, state: MeleeState) -> list[str]:
        return [p for p in state.players if state.hp[p] > 0]

    def pending(self, state: MeleeState) -> tuple[Decision, ...]:
        if state.result is not None:
            return ()
        if state.umpire_due and state.umpire is not None:
            return (Decision(state.umpire, "weather"),)
        return (Decision(state.players[state.to_move], "fire"),)

    def legal_actions(self, state: MeleeState, side: str) -> list[Action]:
        if side not in {d.side for d in self.pending(state)}:
            return []
        if side == state.umpire:
            return [Action.make(side, "weather", storm=s) for s in (False, True)]
        targets = [p for p in self.alive(state) if p != side]
        return [Action.make(side, "shoot", target=t) for t in targets] + [Action.make(side, "hide")]

    def apply(self, state: MeleeState, action: Action, chance: Chance, log: EventLog) -> None:
        if action not in self.legal_actions(state, action.side):
            raise IllegalActionError(f"{action} is not legal now")
        if action.kind == "weather":
            state.storm = bool(action.get("storm"))
            state.umpire_due = False
            log.emit("weather", {"storm": state.storm})
            return
        if action.kind == "shoot":
            target = str(action.get("target"))
            need = 5 if state.storm else 4
            if chance.roll(6, f"{action.side} shoots {target}") >= need:
                state.hp[target] -= 1
                log.emit("wounded", {"side": target, "hp": state.hp[target]})
        else:
            # the hider's agent is its own secret: only it hears of it
            log.emit("hid", {"agent": f"agent-{action.side}"}, audience=frozenset({action.side}))
        self.advance(state, log)

    def advance(self, state: MeleeState, log: EventLog) -> None:
        alive = self.alive(state)
        if len(alive) <= 1:
            state.result = Result.shared(tuple(alive), "last standing")
            return
        n = len(state.players)
        for _ in range(n):
            state.to_move = (state.to_move + 1) % n
            if state.to_move == 0:
                if state.turn >= state.limit:
                    best = max(state.hp[p] for p in alive)
                    winners = tuple(p for p in alive if state.hp[p] == best)
                    state.result = Result.shared(winners, "time")
                    return
                state.turn += 1
                state.umpire_due = state.umpire is not None
                log.emit("turn", {"turn": state.turn})
            if state.hp[state.players[state.to_move]] > 0:
                return

    def result(self, state: MeleeState) -> Result | None:
        return state.result

    def view(self, state: MeleeState, side: str) -> dict[str, Any]:
        own = {"agent": f"agent-{side}"} if side in state.players else {}
        return {
            "side": side,
            "viewer": viewer(side),
            "turn": state.turn,
            "phase": "round",
            "figures": [],
            "seen": [],
            "remembered": [],
            "sounds": [],
            "goals": [],
            "public": {"hp": dict(state.hp), "storm": state.storm},
            "hp": dict(state.hp),
            "storm": state.storm,
            **own,
        }

    def known_ids(self, state: MeleeState, side: str) -> frozenset[str]:
        return frozenset(state.players) | frozenset({f"agent-{side}"})

    def secret_ids(self, state: MeleeState, side: str) -> frozenset[str]:
        return frozenset(f"agent-{p}" for p in state.players if p != side)

    def snapshot(self, state: MeleeState) -> dict[str, Any]:
        sides = [*state.players, *([state.umpire] if state.umpire else [])]
        return {"sides": sides, "turn": state.turn, "hp": state.hp, "storm": state.storm}
