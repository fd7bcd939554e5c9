"""``GoGoGoBot``: plans the whole team each orders step and feeds the plan to the engine.

At the start of each orders step it plans the team's turn from its own view (goals,
grenades, destinations rehearsed in lock-step, facings) and then gives one action at a
time. Fire goes to the best shot by the bot's own values, the VIP first for terrorists.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from killhouse.ai.roles.gogogo.common import FigurePlan
from killhouse.ai.roles.gogogo.scoring import shot_value, throw_value
from killhouse.ai.roles.gogogo.setup import Setup
from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo.facts import AIM, HIDE, HOLD, STEALTH, T


class Legal:
    """``in`` tests against the legal actions, on what makes actions equal (side, kind,
    arguments). A decision asks a few times, and its answer is mostly near the front (the
    next figure's orders): the first questions scan, and only a decision that asks more
    builds a set. Hashing every figure's orders at every decision grew with figures squared."""

    #: questions answered by a scan before a set is built
    SCANS = 3

    def __init__(self, actions: Sequence[Action]) -> None:
        self._actions = actions
        self._asked = 0
        self._keys: set[tuple[str, str, Any]] | None = None

    def __contains__(self, action: Action) -> bool:
        side, kind, args = action.side, action.kind, action.args
        if self._keys is None:
            self._asked += 1
            if self._asked <= self.SCANS:
                return any(
                    a.args == args and a.kind == kind and a.side == side for a in self._actions
                )
            self._keys = {(a.side, a.kind, a.args) for a in self._actions}
        return (side, kind, args) in self._keys


class GoGoGoBot(Setup):
    """A bot for either side of a gogogo scenario."""

    name = "gogogo-role"

    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        phase = view.get("phase")
        if phase == "orders":
            return self._orders(view, actions, rng)
        if phase == "fire":
            return self._fire(view, actions, rng)
        if phase == "setup":
            return self._setup(view, actions, rng)
        return super().choose(view, actions, rng)

    def _plan(self, view: dict[str, Any], rng: Rng) -> None:
        self._sync(view)
        own, enemies, hostages = self._read(view)
        self._prime((Cell(*f["at"]), e.at) for f in own for e in enemies)
        turn = int(view.get("turn", 1))
        if self.site_roll < 0:
            self.site_roll = rng.below(3)  # T: one game in three goes for the farther site
        self._heat(enemies)
        for f in own:
            self.posts.setdefault(f["id"], Cell(*f["at"]))
        self._search(own)
        plans: dict[str, FigurePlan] = {f["id"]: FigurePlan() for f in own}
        heard = {m["listener"]: m["direction"] for m in view.get("sounds", [])}
        goals = self._goals(view, own, enemies, hostages, plans)
        self._grenades(view, own, enemies, hostages, plans)
        taken: set[Cell] = set()
        positions: dict[str, Cell] = {f["id"]: Cell(*f["at"]) for f in own}
        for s in enemies + hostages:
            positions.setdefault(s.id, s.at)
        paths: dict[str, list[Cell]] = {}
        order = sorted(own, key=lambda f: (0 if goals[f["id"]][2] else 1, f["id"]))
        for f in order:
            fid = f["id"]
            plan = plans[fid]
            here = Cell(*f["at"])
            cells, posture, urgent = goals[fid]
            if plan.task is not None or posture in (HOLD, HIDE, AIM) or not cells:
                if plan.task is None:
                    plan.posture = posture if posture in (HOLD, HIDE, AIM) else HOLD
                    if plan.posture == AIM and f.get("weapon") != "sniper":
                        plan.posture = HOLD
                taken.add(here)
                continue
            choice = self._destination(
                f, here, cells, posture, enemies, taken, positions, paths, exposed=urgent, rng=rng
            )
            if choice is None:
                plan.posture = HOLD
                taken.add(here)
                continue
            plan.posture, plan.to = posture, choice
            paths[fid] = self._path(self._from(here), choice)
            taken.add(choice)
        self._unjam(own, order, goals, plans, enemies, taken, positions, paths, rng)
        ends = [plans[f["id"]].to or Cell(*f["at"]) for f in own]
        self._prime((end, e.at) for end in ends for e in enemies)
        for f in own:
            plan = plans[f["id"]]
            end = plan.to or Cell(*f["at"])
            plan.facing = self._facing(f, end, enemies, heard, goals[f["id"]][0], plan)
        self.plans = plans
        self.plan_turn = turn

    def _orders(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        turn = int(view.get("turn", 0))
        draft = view.get("draft") or {}
        fresh = (
            not draft.get("orders") and not draft.get("follows") and draft.get("pending") is None
        )
        if self.plan_turn != turn or (fresh and self.issued_turn == turn):
            self._plan(view, rng)  # a new turn, or a new game reusing this bot
            self.issued_turn = -1
        else:
            self.issued_turn = turn
        legal = Legal(actions)
        pending = draft.get("pending")
        if pending is not None:
            return self._stage(view, pending, draft, actions, legal, rng)
        for fid, plan in sorted(self.plans.items()):
            done = draft.get("follows", {}).get(fid, [])
            for h in plan.follows:
                act = Action.make(self.side, "follow", figure=fid, hostage=h)
                if h not in done and act in legal:
                    return act
        for fid, plan in sorted(self.plans.items()):
            if fid in draft.get("orders", {}):
                continue
            for act in self._order_actions(fid, plan):
                if act in legal:
                    return act
        commit = Action.make(self.side, "commit")
        if commit in legal:
            return commit
        return super().choose(view, actions, rng)

    def _order_actions(self, fid: str, plan: FigurePlan) -> list[Action]:
        side = self.side
        out: list[Action] = []
        if plan.task in ("plant", "defuse"):
            out.append(Action.make(side, "order", figure=fid, posture=HOLD, task=plan.task))
        if plan.task == "throw":
            out.append(
                Action.make(
                    side, "order", figure=fid, posture=HOLD, task="throw", grenade=plan.grenade
                )
            )
        if plan.to is not None:
            to = [plan.to.level, plan.to.x, plan.to.y]
            out.append(Action.make(side, "order", figure=fid, posture=plan.posture, to=to))
            out.append(Action.make(side, "order", figure=fid, posture=STEALTH, to=to))
        out.append(Action.make(side, "order", figure=fid, posture=plan.posture))
        out.append(Action.make(side, "order", figure=fid, posture=HOLD))
        return out

    def _stage(
        self,
        view: dict[str, Any],
        fid: str,
        draft: dict[str, Any],
        actions: Sequence[Action],
        legal: Legal,
        rng: Rng,
    ) -> Action:
        plan = self.plans.get(fid, FigurePlan())
        order = draft.get("orders", {}).get(fid, {})
        if order.get("task") == "throw" and order.get("target") is None:
            if plan.target is not None:
                act = Action.make(
                    self.side,
                    "target",
                    figure=fid,
                    at=[plan.target.level, plan.target.x, plan.target.y],
                )
                if act in legal:
                    return act
            targets = [a for a in actions if a.kind == "target"]
            return max(
                targets,
                key=lambda a: (
                    float(a.hint.get("p", 0)) * throw_value(view, a),
                    -targets.index(a),
                ),
            )
        act = Action.make(self.side, "face", figure=fid, facing=plan.facing or "n")
        if act in legal:
            return act
        return actions[rng.below(len(actions))]

    def _fire(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        shots = [a for a in actions if a.kind == "fire" and a.hint.get("role") == "attack"]
        holds = [a for a in actions if a.kind == "hold"]
        first = next((a.get("figure") for a in actions if a.kind in ("fire", "hold")), None)
        if first is None:
            return next(a for a in actions if a.kind == "commit")
        mine = [a for a in shots if a.get("figure") == first]

        def worth(a: Action) -> float:
            bonus = 3.0 if self.team == T and a.get("target") in self._vip_ids(view) else 1.0
            return float(a.hint.get("p", 0)) * shot_value(view, a) * bonus

        if mine:
            best = max(mine, key=lambda a: (worth(a), str(a.get("target"))))
            if worth(best) > 0:
                return best
        hold = next((a for a in holds if a.get("figure") == first), None)
        return hold if hold is not None else next(a for a in actions if a.kind == "commit")

    def _vip_ids(self, view: dict[str, Any]) -> set[str]:
        return {s["id"] for s in view.get("seen", []) if s.get("kind") == "vip"}
