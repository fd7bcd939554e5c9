"""``GoGoGoRuleset``: Jim Wallman's "Go! Go! Go!" through the engine protocol.

Both sides decide at once at every decision point (setup, orders, fire declaration);
each side's choices wait, unseen by the other, in its own draft until every pending
side has committed, and only then does the turn resolve (section 5.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import Event, EventLog
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError, KillhouseError
from killhouse.rulesets.base import JSON, Action, Decision, Result, RollSpec, Ruleset
from killhouse.rulesets.gogogo import declare, deploy, orders, views
from killhouse.rulesets.gogogo.movement import enterable
from killhouse.rulesets.gogogo.narrate import narrate as narrate_event
from killhouse.rulesets.gogogo.news import place, public, tell
from killhouse.rulesets.gogogo.rolls import ROLLS
from killhouse.rulesets.gogogo.scenario import SCENARIO_KEYS, plan_scenario
from killhouse.rulesets.gogogo.state import ACTIVE, CT, FIRE, HOSTAGE, OOA, ORDERS, SETUP, GoState
from killhouse.rulesets.gogogo.tables import tables
from killhouse.rulesets.gogogo.turn import (
    announce_start,
    build_state,
    finish_setup,
    resolve_fire_phase,
    resolve_orders,
)
from killhouse.scenario.model import Issue, Scenario

PROMPTS = {
    SETUP: "setup: secret loadouts and deployment",
    ORDERS: "orders for turn {turn}: posture, move, facing, throw, plant, defuse, follow",
    FIRE: "fire declarations for turn {turn}: one target or hold per figure",
}
KINDS = {
    SETUP: ("place", "face", "loadout", "carrier", "commit"),
    ORDERS: ("order", "target", "face", "follow", "speak", "commit"),
    FIRE: ("fire", "hold", "commit"),
}
#: the arguments each action kind takes (anything else is refused)
ARGS: dict[tuple[str, str], frozenset[str]] = {
    (SETUP, "place"): frozenset({"figure", "at"}),
    (SETUP, "face"): frozenset({"figure", "facing"}),
    (SETUP, "loadout"): frozenset({"figure", "grenade"}),
    (SETUP, "carrier"): frozenset({"figure"}),
    (ORDERS, "order"): frozenset({"figure", "posture", "to", "path", "task", "grenade"}),
    (ORDERS, "target"): frozenset({"figure", "at"}),
    (ORDERS, "face"): frozenset({"figure", "facing"}),
    (ORDERS, "follow"): frozenset({"figure", "hostage"}),
    (ORDERS, "speak"): frozenset({"figure"}),
    (FIRE, "fire"): frozenset({"figure", "target", "confirm"}),
    (FIRE, "hold"): frozenset({"figure"}),
}


class GoGoGoRuleset(Ruleset[GoState]):
    """Counter-terrorists against terrorists, simultaneous secret orders, strict sight."""

    id: ClassVar[str] = "gogogo"
    title: ClassVar[str] = "Go! Go! Go!"
    source: ClassVar[str] = (
        "Jim Wallman, 'Go! Go! Go!', a ripped-off counter-terrorist assault game "
        "(umpired figures game after Counter-Strike)"
    )
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = SCENARIO_KEYS
    default_turn_limit: ClassVar[int] = 30

    # -- scenarios -----------------------------------------------------------------------
    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        return plan_scenario(scenario).issues

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> GoState:
        plan = plan_scenario(scenario)
        if plan.issues:
            raise KillhouseError(
                "scenario does not suit gogogo: "
                + "; ".join(f"{i.path}: {i.message}" for i in plan.issues)
            )
        state = build_state(scenario, plan)
        announce_start(state, log)
        if any(deploy.setup_needed(state, side) for side in state.sides):
            state.phase = SETUP
            for side in state.sides:
                state.drafts[side].committed = not deploy.setup_needed(state, side)
        else:
            finish_setup(state, chance, log)
        return state

    # -- the loop ------------------------------------------------------------------------
    def pending(self, state: GoState) -> tuple[Decision, ...]:
        if state.over:
            return ()
        prompt = PROMPTS[state.phase].format(turn=state.turn)
        return tuple(
            Decision(side, state.phase, prompt)
            for side in state.sides
            if not state.drafts[side].committed
        )

    def legal_actions(self, state: GoState, side: str) -> list[Action]:
        if state.over or side not in state.sides or state.drafts[side].committed:
            return []
        if state.phase == SETUP:
            return deploy.setup_actions(state, side)
        if state.phase == ORDERS:
            return orders.order_actions(state, side)
        if state.phase == FIRE:
            return declare.fire_actions(state, side)
        return []

    def apply(self, state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
        side = action.side
        if state.over:
            raise IllegalActionError("the game is over")
        if side not in state.sides:
            raise IllegalActionError(f"no side {side!r} in this game")
        draft = state.drafts[side]
        if draft.committed:
            waiting = ", ".join(s for s, d in state.drafts.items() if not d.committed)
            raise IllegalActionError(
                f"{side} has nothing more to decide in the {state.phase} step; "
                f"waiting for {waiting}"
            )
        kinds = KINDS.get(state.phase, ())
        if action.kind not in kinds:
            raise IllegalActionError(
                f"{action.kind!r} is not an action of the {state.phase} step "
                f"(expected one of: {', '.join(kinds)})"
            )
        allowed = ARGS.get((state.phase, action.kind), frozenset())
        extra = sorted(k for k, _ in action.args if k not in allowed)
        if extra:
            takes = ", ".join(sorted(allowed)) or "no arguments"
            raise IllegalActionError(
                f"{action.kind!r} does not take {', '.join(extra)} (it takes {takes})"
            )
        if state.phase == SETUP:
            self._apply_setup(state, action, chance, log)
        elif state.phase == ORDERS:
            self._apply_orders(state, action, chance, log)
        else:
            self._apply_fire(state, action, chance, log)

    def _apply_setup(self, state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
        side = action.side
        draft = state.drafts[side]
        if action.kind == "place":
            fig, cell = deploy.check_place(state, side, action)
            draft.places[fig.id] = cell
            draft.pending = None if fig.kind == HOSTAGE else fig.id  # hostages have no facing
        elif action.kind == "face":
            fig, facing = deploy.check_face(state, side, action)
            draft.facings[fig.id] = facing
            draft.pending = None
        elif action.kind == "loadout":
            fig, grenade = deploy.check_loadout(state, side, action)
            draft.loadouts[fig.id] = grenade
        elif action.kind == "carrier":
            fig = deploy.check_carrier(state, side, action)
            draft.carrier = fig.id
        else:
            if not deploy.complete(state, side):
                raise IllegalActionError(
                    "setup is not complete: place, face and equip everyone first"
                )
            draft.committed = True
            tell(
                state,
                log,
                "deployed",
                {
                    "placed": {k: place(state, v) for k, v in sorted(draft.places.items())},
                    "loadouts": dict(sorted(draft.loadouts.items())),
                    "carrier": draft.carrier,
                },
                [side],
            )
            public(state, log, "setup-committed", {"side": side})
            if all(d.committed for d in state.drafts.values()):
                deploy.apply_setup(state)
                finish_setup(state, chance, log)

    def _apply_orders(self, state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
        side = action.side
        draft = state.drafts[side]
        if action.kind == "order":
            order = orders.check_order(state, side, action)
            ident = str(action.get("figure"))
            draft.orders[ident] = order
            draft.pending = ident
        elif action.kind == "target":
            fig, cell = orders.check_target(state, side, action)
            draft.orders[fig.id].target = cell
        elif action.kind == "face":
            fig, facing = orders.check_face(state, side, action)
            draft.orders[fig.id].facing = facing
            draft.pending = None
        elif action.kind == "follow":
            fig, hostage = orders.check_follow(state, side, action)
            draft.follows.setdefault(fig.id, []).append(hostage.id)
        elif action.kind == "speak":
            fig = orders.check_speak(state, side, action)
            draft.speak.append(fig.id)
        else:
            orders.check_commit(state, side)
            draft.committed = True
            public(state, log, "orders-committed", {"side": side})
            if all(d.committed for d in state.drafts.values()):
                resolve_orders(state, chance, log)

    def _apply_fire(self, state: GoState, action: Action, chance: Chance, log: EventLog) -> None:
        side = action.side
        draft = state.drafts[side]
        if action.kind == "fire":
            fig, target = declare.check_fire(state, side, action)
            draft.fire[fig.id] = target.id
        elif action.kind == "hold":
            fig = declare.check_hold(state, side, action)
            draft.fire[fig.id] = None
        else:
            draft.committed = True
            public(state, log, "fire-committed", {"side": side})
            if all(d.committed for d in state.drafts.values()):
                resolve_fire_phase(state, chance, log)

    def result(self, state: GoState) -> Result | None:
        if not state.over:
            return None
        return Result(state.winner, state.reason or "", dict(state.details))

    # -- information -----------------------------------------------------------------------
    def view(self, state: GoState, side: str) -> dict[str, JSON]:
        return views.view(state, side)

    def known_ids(self, state: GoState, side: str) -> frozenset[str]:
        return views.known_ids(state, side)

    def secret_ids(self, state: GoState, side: str) -> frozenset[str]:
        return views.secret_ids(state, side)

    def snapshot(self, state: GoState) -> dict[str, JSON]:
        return {
            "ruleset": self.id,
            "sides": list(state.sides),
            "teams": dict(sorted(state.team_of.items())),
            "mission": state.mission,
            "turn": state.turn,
            "turn_limit": state.turn_limit,
            "phase": state.phase,
            "per_player": state.per_player,
            "figures": [f.to_json() for f in state.ordered()],
            "bomb": state.bomb.to_json() if state.bomb is not None else None,
            "board": state.board.fingerprint(),
            "drafts": {s: d.to_json() for s, d in sorted(state.drafts.items())},
            "orders": {k: v.to_json() for k, v in sorted(state.orders.items())},
            "know": {s: k.to_json() for s, k in sorted(state.know.items())},
            "seat_know": {s: k.to_json() for s, k in sorted(state.seat_know.items())},
            "announcements": list(state.announcements),
            "reports": list(state.reports),
            "join_counter": state.join_counter,
            "hostages_total": state.hostages_total,
            "deploy": {
                k: sorted([c.level, c.x, c.y] for c in v) for k, v in sorted(state.deploy.items())
            },
            "needs_grenade": list(state.needs_grenade),
            "needs_carrier": state.needs_carrier,
            "result": (
                {"winner": state.winner, "reason": state.reason, **state.details}
                if state.over
                else None
            ),
        }

    def invariants(self, state: GoState) -> list[str]:
        problems: list[str] = []
        where: dict[Cell, str] = {}
        for f in state.ordered():
            if f.status != ACTIVE:
                continue
            if f.pos is None:
                if state.phase != SETUP:
                    problems.append(f"{f.id} is active but off the map")
                continue
            if f.pos in where:
                problems.append(f"{f.id} and {where[f.pos]} share {list(f.pos)}")
            where[f.pos] = f.id
            if (
                not state.board.in_bounds(f.pos)
                or not enterable(state.board, f.pos.level)[f.pos.y, f.pos.x]
            ):
                problems.append(f"{f.id} stands where nobody can stand: {list(f.pos)}")
            elif state.board.terrain(f.pos) == Terrain.DOOR_CLOSED:
                problems.append(f"{f.id} stands in a closed door")
            if f.wounds < 0 or any(n < 0 for n in f.grenades.values()):
                problems.append(f"{f.id} has negative wounds or grenades")
            if f.team == CT and f.grenades.get("he", 0) > 0:
                problems.append(f"{f.id} is a CT with an HE grenade")
            if f.stunned_until is not None and f.stunned_until < state.turn and not state.over:
                problems.append(f"{f.id}'s stun should have worn off")
            if f.kind == HOSTAGE and f.leader is not None and not state.fig(f.leader).active:
                problems.append(f"hostage {f.id} follows {f.leader}, who is out of play")
        bomb = state.bomb
        holders = [f.id for f in state.figures.values() if f.has_bomb]
        if bomb is not None:
            if bomb.carrier is not None and bomb.pos is not None:
                problems.append("the bomb is both carried and on the ground")
            if bomb.carrier is not None:
                if holders != [bomb.carrier]:
                    problems.append(f"bomb carrier {bomb.carrier} but holders {holders}")
                if state.fig(bomb.carrier).status != ACTIVE:
                    problems.append("the bomb is carried by a figure out of play")
            elif holders:
                problems.append(f"{holders} hold a bomb nobody carries")
            if bomb.planted and bomb.detonates != (bomb.planted_turn or 0) + tables().fuse_turns:
                problems.append("the bomb's fuse is not planted turn + 8")
        elif holders:
            problems.append("a figure holds a bomb in a mission without one")
        if not state.over and state.phase not in (SETUP, ORDERS, FIRE):
            problems.append(f"unknown phase {state.phase!r}")
        return problems

    def sides(self, state: GoState) -> tuple[str, ...]:
        return state.sides

    def casualties(self, state: GoState) -> dict[str, int]:
        return {
            side: sum(1 for f in state.side_figures(side) if f.status == OOA)
            for side in state.sides
        }

    def narrate(self, event: Event) -> str | None:
        return narrate_event(event)

    def rolls(self) -> Mapping[str, RollSpec]:
        return ROLLS

    def describe(self) -> dict[str, Any]:
        info = super().describe()
        info["missions"] = ["hostage", "destruction", "assassination"]
        return info
