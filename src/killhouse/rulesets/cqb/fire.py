"""The Fire action in play (section 8): shots one by one with their TNs, hits and their effects,
complete misses and the hostages in the line of fire."""

from __future__ import annotations

from typing import Any

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.cqb.resolve import (
    Hit,
    ShotFactors,
    actor_copies,
    recoil_of,
    resolve_hit,
    resolve_shot,
    resolve_stray,
    rounds_in_burst,
    shot_tn,
)
from killhouse.rulesets.cqb.state import HOSTAGES, CqbState, Figure
from killhouse.rulesets.cqb.tables import Weapon, tables
from killhouse.rulesets.cqb.world import hear, in_line_of_fire, inches, observers

COVER = {1: "light", 2: "medium", 3: "heavy"}


def may_fire(state: CqbState, fig: Figure) -> str:
    """Why ``fig`` may not fire now (empty if it may): section 8.1 step 1, rulings Q-8, Q-33."""
    weapon = fig.weapon_in_hand()
    if not fig.can_act():
        return f"{fig.id} is {'stunned' if fig.stunned else fig.condition}"
    if weapon is None:
        return f"{fig.id} has no weapon in hand (pick it up first)"
    if fig.jammed:
        return f"{fig.id}'s weapon is jammed (clear it first)"
    if empty(state, fig):  # ruling Q-61
        spare = fig.spares.get(fig.slot(), 0)
        more = (f"reload first: {spare} spare magazine{'s' if spare != 1 else ''} left" if spare
                else "and it has no spare magazine")
        return f"{fig.id}'s {weapon.name} is empty ({more}; ruling Q-61)"
    if fig.mode_last == "fast":
        return f"{fig.id} moved Fast last turn and may not fire this turn (ruling Q-8)"
    if fig.moved_now > 0:
        return f"{fig.id} has moved this turn (ruling Q-8)"
    if weapon.firing == "slow-single" and fig.fired_turn == state.turn - 1:
        return f"{fig.id}'s {weapon.name} fired last turn: one shot every other turn (Q-33)"
    if fig.overcome:
        return f"{fig.id} is overcome by gas and must move out first"
    return ""


def empty(state: CqbState, fig: Figure) -> bool:
    """With ``track_ammo`` (ruling Q-28): no round left in the weapon in hand."""
    return state.options.track_ammo and fig.loaded.get(fig.slot(), 0) <= 0


def reload_why_not(state: CqbState, fig: Figure) -> str:
    """Why ``fig`` may not reload now (empty if it may): ruling Q-60."""
    weapon = fig.weapon_in_hand()
    if not state.options.track_ammo:
        return "ammunition is not tracked in this game (option track_ammo)"
    if weapon is None:
        return f"{fig.id} has no weapon in hand to reload"
    if fig.spares.get(fig.slot(), 0) <= 0:
        return f"{fig.id} has no spare magazine for its {weapon.name}"
    if fig.loaded.get(fig.slot(), 0) >= weapon.magazine:
        return f"{fig.id}'s {weapon.name} is fully loaded"
    return ""


def reload(fig: Figure) -> None:
    """Ruling Q-60: a full magazine in; the rounds left in the old one are not used again."""
    weapon = fig.weapon_in_hand()
    assert weapon is not None
    fig.spares[fig.slot()] -= 1
    fig.loaded[fig.slot()] = weapon.magazine


def factors(state: CqbState, fig: Figure, target: Figure, called: str | None, first: bool,
            weapon: Weapon) -> ShotFactors:
    """The TN factors of ``fig``'s next shot at ``target`` (section 8.2)."""
    aimed = fig.aim_turn is not None and fig.aim_turn < state.turn and (
        fig.aim_target == target.id or (  # ruling Q-15: a point covers figures within 1"
            fig.aim_at is not None and fig.aim_at.level == target.at.level
            and inches(fig.aim_at, target.at) <= tables().aim_point_reach))
    change = 0
    if fig.last_target is not None and fig.last_target != target.id:
        old = state.figures.get(fig.last_target)
        if old is not None:
            change = int(inches(old.at, target.at))  # ruling Q-16: full inches
    one_handed = fig.one_handed() and weapon.hands == 2
    cover = 0
    if state.options.cover_modifiers:  # ruling Q-27
        level = state.board.cover(target.at)
        cover = tables().cover[COVER[level]] if level in COVER else 0
    return ShotFactors(
        range=inches(fig.at, target.at),
        firer_moved=fig.moved_last,
        target_moved=max(target.moved_last, target.moved_now),  # ruling Q-9
        aim=weapon.aim if aimed else None,
        scope=weapon.scope and aimed and first,
        called=called,
        shot=fig.shots + 1,
        heavy=recoil_of(weapon, one_handed),
        automatic=weapon.automatic,
        wounds=fig.wounds(),
        weak_hand=fig.strong_arm_ooa,
        one_handed_long=one_handed and weapon.round in ("rifle", "shotgun", "fifty"),
        change=change,
        cs=fig.cs,
        cover=cover,
    )


def start_fire(state: CqbState, fig: Figure, args: dict[str, Any]) -> dict[str, Any]:
    """A Fire action's plan: volleys (shots, or bursts whose rounds are dealt as they start)."""
    volleys = [[args["target"], args.get("called"), int(args.get("count") or 1)]]
    if args.get("second"):
        volleys.append([args["second"], args.get("called"), int(args.get("second_count") or 1)])
    return {"kind": "fire", "figure": fig.id, "volleys": volleys, "v": 0, "left": None,
            "fired": 0}


def fire_more(state: CqbState, ctx: dict[str, Any]) -> bool:
    fig = state.figures[ctx["figure"]]
    if not fig.active or fig.knocked or fig.stunned or fig.jammed or fig.weapon_in_hand() is None:
        return False  # section 8.1 step 3.4: a knocked-down firer loses the rest
    if empty(state, fig):
        return False  # ruling Q-61: the magazine ran dry, the rest of the action is lost
    while ctx["v"] < len(ctx["volleys"]):
        target = state.figures[ctx["volleys"][ctx["v"]][0]]
        if target.active and ctx["volleys"][ctx["v"]][2] > 0:
            return True
        ctx["v"] += 1
        ctx["left"] = None
    return False


def fire_next(state: CqbState, ctx: dict[str, Any], chance: Chance, log: EventLog) -> None:
    """Fire one round of the plan: a card, then a hit, a miss and its strays, or a joker."""
    fig = state.figures[ctx["figure"]]
    weapon = fig.weapon_in_hand()
    assert weapon is not None
    volley = ctx["volleys"][ctx["v"]]
    target = state.figures[volley[0]]
    called = volley[1]
    audience = observers(state, fig)
    if weapon.automatic and ctx["left"] is None:
        ctx["left"] = rounds_in_burst(chance, weapon, state.options.fixed_auto_burst, audience)
        if state.options.track_ammo:  # ruling Q-61: a burst is cut short by an empty magazine
            ctx["left"] = min(int(ctx["left"] or 0), fig.loaded[fig.slot()])
    f = factors(state, fig, target, called, ctx["fired"] == 0, weapon)
    tn = shot_tn(f)
    shot = resolve_shot(chance, state.deck_of(fig), tn, called, "to hit", audience,
                        state.options.draw_with_replacement)
    fig.shots += 1
    if state.options.track_ammo:  # every shot, a stoppage included, uses a round
        fig.loaded[fig.slot()] -= 1
        if fig.loaded[fig.slot()] == 0:
            log.emit("empty", {"figure": fig.id}, frozenset({fig.side}))
    fig.last_target = target.id
    fig.fired_turn = state.turn
    ctx["fired"] += 1
    if weapon.automatic:
        ctx["left"] -= 1
        if ctx["left"] <= 0:
            volley[2] -= 1
            ctx["left"] = None
    else:
        volley[2] -= 1
    told = (audience | {target.side} if fig.side in audience and target.side in audience
            else audience)
    data = {"firer": fig.id, "target": target.id, "shot": fig.shots, "tn": tn,
            "card": shot.card, "value": shot.value, "outcome": shot.outcome, "called": called}
    # ruling W-12: the TN is the firer's side's to know; the others see card and outcome
    log.emit("shot", data, told, actor_copies(data, fig.side, told))
    t = tables().tests["noise"]
    hear(state, fig.at, "gunfire", t["gunfire_same_level"], t["gunfire_other_level"], fig)
    if shot.outcome == "joker":
        if weapon.misfire:  # section 13: revolvers and pump shotguns misfire
            log.emit("misfire", {"firer": fig.id}, audience)
        else:
            fig.jammed = True
            log.emit("jam", {"firer": fig.id}, audience)
        return
    if shot.outcome in ("hit", "graze"):
        hit = resolve_hit(chance, state.deck_of(fig), weapon.round,
                          None if shot.outcome == "graze" else called, target.protection(),
                          state.options.armour_knockdown, "hit location", audience,
                          replace=state.options.draw_with_replacement)
        apply_hit(state, target, hit, fig, log)
        return
    stray(state, fig, target, weapon, chance, log)


def stray(state: CqbState, fig: Figure, target: Figure, weapon: Weapon, chance: Chance,
          log: EventLog) -> None:
    """A complete miss: hostages in the line of fire, nearest first (section 8.5, Q-6, Q-7)."""
    others = [f for f in state.figures.values()
              if (f.side == HOSTAGES or state.options.bystanders_in_line) and f.active]
    line = in_line_of_fire(state, fig, target, others)
    if not line:
        return
    audience = observers(state, fig)
    result = resolve_stray(chance, state.hostage_deck, len(line), audience,
                           state.options.draw_with_replacement)
    for i in result.panicked:  # section 13: hostage panics
        line[i].panic_from = fig.id
        log.emit("panic", {"hostage": line[i].id}, observers(state, line[i]))
    if result.hit is None:
        return
    victim = line[result.hit]
    hit = resolve_hit(chance, state.hostage_deck, weapon.round, None, victim.protection(),
                      state.options.armour_knockdown, "hostage hit location",
                      observers(state, victim), redraw_jokers=True,
                      replace=state.options.draw_with_replacement)
    apply_hit(state, victim, hit, fig, log, stray=True)


def apply_hit(state: CqbState, target: Figure, hit: Hit, firer: Figure, log: EventLog,
              stray: bool = False) -> None:
    """Section 9.5: knock-downs, wounds, out-of-action locations and incapacitation."""
    if hit.effect == "dead":
        target.condition = "dead"
    elif hit.effect == "flesh":
        target.flesh += 1
    elif hit.effect == "ooa":
        target.ooa_hits += 1
        loc = hit.location
        if loc in ("head", "torso") or target.ooa_hits >= 2:
            target.condition = "incapacitated"
        elif loc == "leg":
            target.legs_ooa += 1
        elif loc == "strong-arm":
            target.strong_arm_ooa = True
            target.dropped = True
        elif loc == "weak-arm":
            target.weak_arm_ooa = True
            target.dropped = True
    if hit.knocked_down and target.active:
        knock_down(target)
    if not target.active:
        target.hold = False
        target.stunned_turn = None
        target.clear_aim()
        target.secured_by = None
        for f in state.figures.values():
            if f.secured_by == target.id:
                f.secured_by = None
    data = {"firer": firer.id, "target": target.id, **hit.to_json(),
            "condition": target.condition, "stray": stray}
    seen_firer = observers(state, firer)
    seen_target = observers(state, target)
    views = {}
    for side in seen_target - seen_firer:
        views[side] = {k: v for k, v in data.items() if k != "firer"}
    log.emit("hit", data, seen_firer | seen_target, views)


def knock_down(fig: Figure) -> None:
    """Ruling Q-20: prone; an action not yet taken this turn is lost; aim ends."""
    fig.posture = "prone"
    fig.knocked = True
    fig.clear_aim()
    fig.acted = True
    fig.hold = False

