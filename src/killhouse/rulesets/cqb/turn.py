"""The turn as section 14 lays it out: upkeep, contact, reaction cards, card-order activations,
non-contact activations with the sides alternating, interrupts, and the end of the turn.

Rulings applied here: Q-10 (contact), Q-11 (Hold lasts; one try per opposing action), Q-12
(ties), Q-36 (simultaneous shots alternate), Q-37 (act after recovering). Our own: Q-41 (in a
simultaneous group shots come first, against the positions when all have declared; other
actions follow), Q-42 (an interrupt tied with no precedence: the interrupted figure's current
step still happens, then the interrupter acts), Q-43 (three or more figures tied with equal
precedence: one figure per side per simultaneous group, by id), Q-44 (an interrupter's action,
and actions of a simultaneous group, cannot themselves be interrupted).
"""

from __future__ import annotations

from typing import Any

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.paths import distance_field
from killhouse.rulesets.base import Action, Result
from killhouse.rulesets.cqb import actions as act
from killhouse.rulesets.cqb.cards import card_label, draw, reaction_value
from killhouse.rulesets.cqb.fire import reload, reload_why_not
from killhouse.rulesets.cqb.resolve import difficulty_tn, stun_tn, test
from killhouse.rulesets.cqb.state import EXTRACTION, HOSTAGES, OVER, CqbState, Figure
from killhouse.rulesets.cqb.tables import tables
from killhouse.rulesets.cqb.world import (
    STEPS,
    enter_costs,
    inches,
    observers,
    occupied,
    refresh,
    sees,
)

STEPWISE = ("move", "fire")
CHECKED = ("aim", "task", "throw", "stand", "reload", "window")


def stationary(f: Figure) -> bool:
    """Ruling Q-12: did not move last turn and has not moved yet this turn."""
    return f.moved_last == 0 and f.moved_now == 0


def may_act_now(f: Figure) -> bool:
    return f.combatant and f.can_act() and not f.acted and not f.passed


# -- starting an action ---------------------------------------------------------------------


def context(state: CqbState, action: Action, interruptible: bool) -> dict[str, Any]:
    fig = state.figures[str(action.get("figure"))]
    if action.kind == "move":
        ctx = act.start_move(fig, action)
    elif action.kind == "fire":
        ctx = act.start_fire(state, fig, {k: v for k, v in action.args})
    else:
        ctx = {"kind": action.kind, "figure": fig.id}
    ctx.update({"action": action.to_json(), "interruptible": interruptible, "tried": [],
                "stage": state.stage})
    return ctx


def begin(state: CqbState, action: Action, chance: Chance, log: EventLog) -> None:
    """A figure's activation (section 14 Q or N): an action that interrupts may cut into."""
    ctx = context(state, action, True)
    fig = state.figures[ctx["figure"]]
    log.emit("activates", {"figure": fig.id, "action": action.kind}, audience_of(state, fig,
                                                                            action.kind))
    state.running = ctx
    carry_on(state, chance, log)


def audience_of(state: CqbState, fig: Figure, kind: str) -> frozenset[str]:
    """Who learns that a figure acts: those who see it, but Hold and waiting look alike from
    outside, so only its own side learns which it chose (section 14: Hold stays secret)."""
    if kind in ("hold", "wait"):
        return frozenset({fig.side})
    return observers(state, fig)


def carry_on(state: CqbState, chance: Chance, log: EventLog) -> None:
    """Run the activation in ``state.running`` until it ends or pauses for an interrupt."""
    ctx = state.running
    assert ctx is not None
    if not execute(state, ctx, chance, log):
        return
    state.running = None
    finish(state, ctx, log)
    for f in state.figures.values():  # knock-downs cut short only the action under way
        f.knocked = False
    if ctx["stage"] == "n":
        other = state.opponent(state.n_side)
        if n_eligible(state, other):
            state.n_side = other
    proceed(state, chance, log)


def execute(state: CqbState, ctx: dict[str, Any], chance: Chance, log: EventLog) -> bool:
    """Step the action; ``False`` when an interrupt window opened (resume later)."""
    from killhouse.rulesets.cqb.flow import FLOW  # the flow declares the windows

    fig = state.figures[ctx["figure"]]
    kind = ctx["kind"]
    while True:
        if kind == "move":
            if ctx.get("check"):
                ctx["check"] = False
                if ctx["interruptible"] and ask_interrupt(state, fig, ctx, log, FLOW):
                    return False
            if not act.move_more(state, ctx):
                return True
            act.move_next(state, ctx, log)
            ctx["check"] = True
        elif kind == "fire":
            if not act.fire_more(state, ctx):
                return True
            if ctx.get("checked") != ctx["fired"]:
                ctx["checked"] = ctx["fired"]
                if ctx["interruptible"] and ask_interrupt(state, fig, ctx, log, FLOW):
                    return False
                continue
            act.fire_next(state, ctx, chance, log)
            refresh(state)
        else:
            if kind in CHECKED and not ctx.get("checked"):
                ctx["checked"] = True
                if ctx["interruptible"] and ask_interrupt(state, fig, ctx, log, FLOW):
                    return False
                continue
            if fig.can_act() and not fig.knocked:
                single(state, fig, Action.from_json(ctx["action"]), chance, log)
            return True


def single(state: CqbState, fig: Figure, action: Action, chance: Chance, log: EventLog) -> None:
    audience = observers(state, fig)
    if action.kind == "aim":
        fig.clear_aim()
        if action.get("at") is not None:  # ruling Q-15: a point
            fig.aim_at = act.cell_of(action.get("at"))
        else:
            fig.aim_target = str(action.get("target"))
        fig.aim_turn = state.turn
        data = {"figure": fig.id, "target": fig.aim_target,
                "at": list(fig.aim_at) if fig.aim_at else None}
        # what it aims at is its own side's secret (section 14): others see it take aim
        log.emit("aim", data, audience, {s: {"figure": fig.id} for s in audience
                                         if s != fig.side})
    elif action.kind == "hold":
        fig.hold = True
        fig.passed = True
        log.emit("hold", {"figure": fig.id}, frozenset({fig.side}))  # Hold stays secret (14)
    elif action.kind == "wait":
        log.emit("wait", {"figure": fig.id}, frozenset({fig.side}))
    elif action.kind == "stand":
        fig.posture = "standing"
        log.emit("stands", {"figure": fig.id}, audience)
    elif action.kind == "window":
        act.do_window(state, fig, action, log)
    elif action.kind == "reload":
        if not reload_why_not(state, fig):  # ruling Q-60: no test
            reload(fig)
            log.emit("reload", {"figure": fig.id}, audience)
    elif action.kind == "task":
        act.do_task(state, fig, action, chance, log)
    elif action.kind == "throw":
        act.do_throw(state, fig, action, chance, log)
    refresh(state)


def finish(state: CqbState, ctx: dict[str, Any], log: EventLog) -> None:
    """The figure has used its action: Hold ends unless it chose Hold; aim ends (Q-15)."""
    fig = state.figures[ctx["figure"]]
    kind = ctx["kind"]
    if kind != "hold":
        fig.acted = True
        fig.hold = False
    if kind == "move":
        fig.overcome = False
        act.back_off(state, fig, ctx, log)
        act.follow(state, fig, log)
    if kind not in ("hold", "wait") and kind != "aim":
        fig.clear_aim()
    fig.knocked = False
    refresh(state)


# -- interrupts (section 14 I) -----------------------------------------------------------------


def interrupters(state: CqbState, a: Figure, ctx: dict[str, Any]) -> list[Figure]:
    """Opposing figures that see ``a`` now and are on Hold, or have not acted and were not in
    contact with ``a`` at the start of the turn; each tries once per action (Q-11)."""
    out = []
    for b in state.figures.values():
        if b.side in (a.side, HOSTAGES) or not b.combatant or not b.can_act():
            continue
        if b.id in ctx["tried"] or not sees(state, b, a):
            continue
        fresh = not b.acted and not b.passed and a.id not in state.contact.get(b.id, [])
        if b.hold or fresh:
            out.append(b)
    return out


def ask_interrupt(state: CqbState, a: Figure, ctx: dict[str, Any], log: EventLog,
                  flow: Any) -> bool:
    if not a.can_act():
        return False
    eligible = interrupters(state, a, ctx)
    if not eligible:
        return False
    side = eligible[0].side
    ids = [b.id for b in eligible if b.side == side]
    flow.open(state, "interrupt", [side], {"actor": a.id, "eligible": ids})
    log.emit("asked", {"question": "interrupt", "actor": a.id, "eligible": ids},
             frozenset({side}))
    return True


def resume_interrupt(state: CqbState, window: Any, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.cqb.flow import FLOW

    ctx = state.running
    assert ctx is not None
    (side,) = window.asked
    answer: Action = window.answers[side]
    ctx["tried"].extend(window.context["eligible"])
    if answer.kind != "interrupt":
        log.emit("no-interrupt", {}, frozenset({side}))
        carry_on(state, chance, log)
        return
    a = state.figures[ctx["figure"]]
    b = state.figures[str(answer.get("figure"))]
    audience = observers(state, a) | observers(state, b)
    ca = draw(chance, state.deck_of(a), "reaction", audience,
              state.options.draw_with_replacement)
    cb = draw(chance, state.deck_of(b), "reaction", audience,
              state.options.draw_with_replacement)
    va, vb = reaction_value(ca), reaction_value(cb)
    if vb != va:
        outcome = "wins" if vb > va else "loses"
    elif b.hold or (stationary(b) and not stationary(a)):
        outcome = "wins"
    elif stationary(a) and not stationary(b):
        outcome = "loses"
    else:
        outcome = "together"
    log.emit("interrupt", {"figure": b.id, "against": a.id, "card": card_label(cb), "value": vb,
                           "against_card": card_label(ca), "against_value": va,
                           "outcome": outcome}, audience)
    if outcome == "loses":
        carry_on(state, chance, log)
        return
    if outcome == "together" and ctx["kind"] == "fire" and act.fire_more(state, ctx):
        act.fire_next(state, ctx, chance, log)  # ruling Q-42
        ctx["checked"] = ctx["fired"]
        refresh(state)
    if not b.can_act():
        carry_on(state, chance, log)
        return
    FLOW.open(state, "act", [b.side], {"figures": {b.side: b.id}})
    log.emit("asked", {"question": "act", "figure": b.id}, frozenset({b.side}))


def resume_act(state: CqbState, window: Any, chance: Chance, log: EventLog) -> None:
    (side,) = window.asked
    answer: Action = window.answers[side]
    ctx = context(state, answer, False)
    execute(state, ctx, chance, log)
    finish(state, ctx, log)
    b = state.figures[ctx["figure"]]
    b.acted = True
    b.hold = False
    b.passed = True
    check_end(state, chance, log)
    if state.result is None and state.running is not None:
        carry_on(state, chance, log)
    else:
        state.running = None
        proceed(state, chance, log)


def resume_together(state: CqbState, window: Any, chance: Chance, log: EventLog) -> None:
    """Ruling Q-36/Q-41: shots alternate, first shots first, each applied at once; then the
    other declared actions."""
    ctxs = [context(state, window.answers[s], False) for s in window.asked]
    for ctx in ctxs:
        fig = state.figures[ctx["figure"]]
        log.emit("activates", {"figure": fig.id, "action": ctx["kind"], "together": True},
                 audience_of(state, fig, ctx["kind"]))
    fires = [c for c in ctxs if c["kind"] == "fire"]
    while any(act.fire_more(state, c) for c in fires):
        for c in fires:
            if act.fire_more(state, c):
                act.fire_next(state, c, chance, log)
        refresh(state)
    for ctx in ctxs:
        if ctx["kind"] != "fire":
            execute(state, ctx, chance, log)
    for ctx in ctxs:
        finish(state, ctx, log)
        state.figures[ctx["figure"]].acted = ctx["kind"] != "hold"
    proceed(state, chance, log)


# -- the order of the turn -------------------------------------------------------------------


def n_eligible(state: CqbState, side: str) -> list[Figure]:
    return [f for f in state.side_figures(side) if may_act_now(f) and not f.hold]


def actors(state: CqbState, side: str) -> list[Figure]:
    """The figures ``side`` may give an action to now."""
    if state.result is not None:
        return []
    if state.windows:
        w = state.windows[-1]
        if w.reaction in ("act", "together") and side in w.context["figures"]:
            return [state.figures[w.context["figures"][side]]]
        return []
    if state.running is not None:
        return []
    if state.stage == "q":
        if not state.queue:
            return []
        return [state.figures[i] for i in state.queue[0] if state.figures[i].side == side]
    return n_eligible(state, side) if side == state.n_side else []


def deciders(state: CqbState) -> list[str]:
    if state.result is not None or state.windows or state.running is not None:
        return []
    if state.stage == "q":
        return sorted({state.figures[i].side for i in state.queue[0]}) if state.queue else []
    return [state.n_side] if n_eligible(state, state.n_side) else []


def proceed(state: CqbState, chance: Chance, log: EventLog) -> None:
    """The automatic steps until someone must decide (section 14)."""
    from killhouse.rulesets.cqb.flow import FLOW

    for _ in range(10_000):
        check_end(state, chance, log)
        if state.result is not None:
            state.phase = OVER
            return
        if state.windows or state.running is not None:
            return
        if state.stage == "q":
            while state.queue:
                entry = [i for i in state.queue[0] if may_act_now(state.figures[i])]
                if entry:
                    state.queue[0] = entry
                    break
                state.queue.pop(0)
            if state.queue:
                sides = sorted({state.figures[i].side for i in state.queue[0]})
                if len(sides) > 1:
                    figures = {s: next(i for i in state.queue[0] if state.figures[i].side == s)
                               for s in sides}
                    state.queue[0] = [i for i in state.queue[0] if i not in figures.values()]
                    if not state.queue[0]:
                        state.queue.pop(0)
                    FLOW.open(state, "together", sides, {"figures": figures})
                    for s in sides:
                        log.emit("asked", {"question": "together", "figure": figures[s]},
                                 frozenset({s}))
                return
            state.stage = "n"
        if n_eligible(state, state.n_side):
            return
        other = state.opponent(state.n_side)
        if n_eligible(state, other):
            state.n_side = other
            return
        end_turn(state, chance, log)
        if state.result is None:
            start_turn(state, chance, log)
    raise AssertionError("the turn did not come to a decision")


def start_turn(state: CqbState, chance: Chance, log: EventLog) -> None:
    """U (upkeep), C (contact), R (reaction draw) and the card order Q (section 14)."""
    log.emit("turn", {"turn": state.turn})
    rep = state.options.draw_with_replacement
    for f in state.figures.values():
        f.shots, f.last_target, f.moved_now, f.mode_now = 0, None, 0.0, None
        f.acted = f.passed = f.hesitant = f.knocked = False
        f.card = f.card_label = None
    refresh(state)
    for f in state.figures.values():  # U3: stun recovery (section 10, Q-37)
        if f.active and f.stunned_turn is not None and f.stunned_turn < state.turn:
            r = test(chance, state.deck_of(f), stun_tn(state.turn - f.stunned_turn),
                     "stun recovery", observers(state, f), rep)
            if r.passed:
                f.stunned_turn = None
            log.emit("stun-recovery", {"figure": f.id, **r.to_json()}, observers(state, f))
    for room, since in sorted(state.gas.items()):  # U4: CS (section 11)
        if since < state.turn and act.room_is_gassed(state, room):
            for f in act.in_room(state, room):
                act.cs_test(state, f, state.turn - since, chance, log)
    fire_tn = difficulty_tn("moderate")
    for room, since in sorted(state.fires.items()):  # U5: fire (section 13)
        if since >= state.turn:
            continue
        for f in act.in_room(state, room):
            r = test(chance, state.deck_of(f), fire_tn, "fire", observers(state, f), rep)
            f.cs += 0 if r.passed else 1
            log.emit("fire-test", {"figure": f.id, **r.to_json()}, observers(state, f))
        if state.turn - since >= tables().tests["fire"]["smoke_from_upkeep"]:
            act.fire_smoke(state, room)
    for device in state.devices.values():  # U6: scenario timers (ruling Q-64)
        if device.state == "armed" and device.timer is not None and device.timer <= state.turn:
            act.device_goes_off(state, device, chance, log)
    refresh(state)
    state.contact = {}
    for f in state.figures.values():  # C: contact (ruling Q-10)
        if not f.combatant or not f.can_act():
            continue
        foes = [o.id for o in state.figures.values() if o.side not in (f.side, HOSTAGES)
                and o.combatant and o.active and sees(state, f, o)]
        if f.hold or foes:
            state.contact[f.id] = foes
    for fid in sorted(state.contact):  # R: reaction cards (section 6)
        f = state.figures[fid]
        card = draw(chance, state.deck_of(f), "reaction", observers(state, f), rep)
        f.card, f.card_label = reaction_value(card), card_label(card)
        f.hesitant = card.is_joker  # section 13: hesitation
        if f.hesitant:
            f.hold = False
        log.emit("reaction-card", {"figure": f.id, "card": f.card_label, "value": f.card},
                 observers(state, f))
    state.queue = order(state, sorted(state.contact))
    state.stage = "q"
    best = max((state.figures[i].card or 0 for i in state.contact), default=None)
    tops = {state.figures[i].side for i in state.contact if state.figures[i].card == best}
    state.n_side = next(iter(tops)) if len(tops) == 1 else state.rescuers


def order(state: CqbState, ids: list[str]) -> list[list[str]]:
    """Section 14 Q: by card, highest first; ties: Hold first, then stationary (Q-12); equal
    precedence across sides is simultaneous (one figure per side per group, Q-43); a side
    orders its own tied figures."""
    def key(i: str) -> tuple[int, int, int]:
        f = state.figures[i]
        return (f.card or 0, int(f.hold), int(stationary(f)))

    out: list[list[str]] = []
    for k in sorted({key(i) for i in ids}, reverse=True):
        group = sorted(i for i in ids if key(i) == k)
        by_side: dict[str, list[str]] = {}
        for i in group:
            by_side.setdefault(state.figures[i].side, []).append(i)
        if len(by_side) == 1:
            out.append(group)
            continue
        while any(by_side.values()):
            out.append([lst.pop(0) for lst in by_side.values() if lst])
    return out


def end_turn(state: CqbState, chance: Chance, log: EventLog) -> None:
    """E: panicking hostages run, movement is recorded, the turn counter moves on."""
    for h in state.figures.values():
        if h.side == HOSTAGES and h.active and h.panic_from is not None and not h.stunned:
            panic_run(state, h, log)
    for f in state.figures.values():
        f.moved_last, f.mode_last = f.moved_now, f.mode_now
    if state.turn >= state.turn_limit:
        end_game(state, Result(state.opponent(state.rescuers), "time: the turn limit passed",
                               summary(state)), chance, log)
        return
    state.turn += 1


def panic_run(state: CqbState, h: Figure, log: EventLog) -> None:
    """Section 13: a panicking hostage moves Fast, 12", away from the firer, or drops prone."""
    away = state.figures[h.panic_from or ""]
    field = distance_field(state.board, [h.at], enter_costs(state, h), STEPS)
    spots = [c for c in field.reachable(24) if not occupied(state, c, h.id)
             and c.level == away.at.level]
    best = max(spots, key=lambda c: (inches(c, away.at), -c.y, -c.x), default=None)
    h.panic_from = None
    if best is None or inches(best, away.at) <= inches(h.at, away.at):
        h.posture = "prone"
        log.emit("drops", {"hostage": h.id}, observers(state, h))
        return
    h.at = best
    h.moved_now = 12
    refresh(state)
    log.emit("runs", {"hostage": h.id}, observers(state, h))


# -- the end ----------------------------------------------------------------------------------


def summary(state: CqbState) -> dict[str, Any]:
    lost = sum(1 for f in state.figures.values() if f.side == HOSTAGES
               and f.condition != "active")
    alive = sum(1 for f in state.figures.values() if f.side == HOSTAGES
                and f.condition == "active")
    out: dict[str, Any] = {"hostages_alive": alive, "hostages_down": lost, "turn": state.turn}
    restrained = sum(1 for f in state.figures.values() if f.restrained_by is not None)
    if restrained:  # ruling Q-63
        out["restrained"] = restrained
    if state.board.zone_cells(EXTRACTION):  # ruling Q-66, in the summary's words (K-14)
        out["hostages"] = sum(1 for f in state.figures.values() if f.side == HOSTAGES)
        out["rescued"] = sum(1 for f in state.figures.values() if f.extracted)
    if state.devices:  # ruling Q-64, in the summary's words (K-14)
        out["bombs_exploded"] = sum(1 for d in state.devices.values() if d.state == "exploded")
        out["bombs_defused"] = sum(1 for d in state.devices.values() if d.state == "disarmed")
    return out


def check_end(state: CqbState, chance: Chance, log: EventLog) -> None:
    if state.result is not None:
        return
    terror = state.opponent(state.rescuers)
    if not any(f.active for f in state.side_figures(terror) if f.combatant):
        s = summary(state)
        limit = state.options.max_hostage_losses
        if limit is not None and s["hostages_down"] > limit:
            end_game(state, Result(None, f"the terrorists are down but {s['hostages_down']} "
                                         "hostages are casualties", s), chance, log)
        else:
            end_game(state, Result(state.rescuers, "every terrorist is down", s), chance, log)
    elif not any(f.active for f in state.side_figures(state.rescuers) if f.combatant):
        end_game(state, Result(terror, "the assault team is down", summary(state)), chance,
                 log)


def end_game(state: CqbState, result: Result, chance: Chance, log: EventLog) -> None:
    """Ruling Q-21: one hostage-deck card per incapacitated figure: red dead, else alive."""
    for f in state.figures.values():
        if f.condition == "incapacitated":
            card = draw(chance, state.hostage_deck, "possibly dead", None,
                        state.options.draw_with_replacement)
            f.dead_at_end = card.colour == "red"
            knows = frozenset(s for s in state.sides
                              if s == f.side or f.id in state.memory.get(s, {}))
            log.emit("fate", {"figure": f.id, "card": card_label(card),
                              "dead": f.dead_at_end}, knows)
    dead_hostages = sum(1 for f in state.figures.values() if f.side == HOSTAGES and (
        f.condition == "dead" or f.dead_at_end))
    state.result = Result(result.winner, result.reason,
                          {**result.details, "hostages_dead": dead_hostages})
    state.phase = OVER
    state.windows.clear()
    state.running = None
    log.emit("game-over", state.result.to_json())
