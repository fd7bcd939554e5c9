"""Mission triggers and the end check (section 6, rulings G-17, G-38, G-39, G-40).

The check runs after the grenade step, after movement, after each fire tier and at the
end of the turn. It gathers every trigger that holds: only CT failures give a T victory,
only T failures a CT victory, both a draw. Time-out counts only at the end of the last
turn and only if nothing else fired.
"""

from __future__ import annotations

from killhouse.core.events import EventLog
from killhouse.rulesets.gogogo.news import public
from killhouse.rulesets.gogogo.state import (
    ACTIVE,
    ASSASSINATION,
    CT,
    DESTRUCTION,
    ESCAPED,
    HOSTAGE,
    HOSTAGE_MISSION,
    OOA,
    OPERATIVE,
    OVER,
    RESCUED,
    VIP,
    GoState,
    T,
)


def outcome_counts(state: GoState) -> dict[str, int]:
    """The counts every ruleset's result details share (hostages, bombs) for game summaries."""
    hostages = [f for f in state.figures.values() if f.kind == HOSTAGE]
    bomb = state.bomb
    return {
        "hostages": len(hostages),
        "rescued": sum(1 for f in hostages if f.status == RESCUED),
        "hostages_killed": sum(1 for f in hostages if f.status == OOA),
        "bombs_exploded": int(bomb is not None and bomb.detonated),
        "bombs_defused": int(bomb is not None and bomb.defused),
    }


def triggers(state: GoState, end_of_turn: bool) -> list[tuple[str, str]]:
    """Every failure trigger that holds now: (failing team, reason)."""
    out: list[tuple[str, str]] = []
    ops = {
        team: [f for f in state.figures.values() if f.kind == OPERATIVE and f.team == team]
        for team in (CT, T)
    }
    hostages = [f for f in state.figures.values() if f.kind == HOSTAGE]
    vip = [f for f in state.figures.values() if f.kind == VIP]
    bomb = state.bomb
    if all(f.status != ACTIVE for f in ops[CT]):
        out.append((CT, "all CT operatives are out of action"))
    t_down = all(f.status != ACTIVE for f in ops[T])
    if state.mission == HOSTAGE_MISSION:
        for h in hostages:
            if h.status == OOA and h.killed_by == CT:
                out.append((CT, "the CT killed a hostage"))
                break
        for h in hostages:
            if h.status == OOA and h.killed_by == T:
                out.append((T, "the terrorists killed a hostage"))
                break
        if hostages and all(h.status == RESCUED for h in hostages):
            out.append((T, "all hostages rescued"))
        if t_down:
            out.append((T, "all terrorists are out of action"))
    elif state.mission == DESTRUCTION:
        if bomb is not None and bomb.detonated:
            out.append((CT, "the bomb detonated"))
        if bomb is not None and bomb.defused:
            out.append((T, "the bomb was defused"))
        if t_down and (bomb is None or not bomb.planted):
            # ruling G-40: with no bomb ticking the terrorists can no longer succeed
            out.append((T, "all terrorists are out of action and no bomb is planted"))
    elif state.mission == ASSASSINATION:
        if any(v.status == OOA for v in vip):
            out.append((CT, "the VIP was killed"))
        if any(v.status == ESCAPED for v in vip):
            out.append((T, "the VIP escaped"))
        if t_down:
            out.append((T, "all terrorists are out of action"))
    if not out and end_of_turn and state.turn >= state.turn_limit:
        # ruling G-38 and section 6.2: the time-out fallback
        if state.mission == DESTRUCTION:
            out.append((T, f"turn {state.turn_limit} ended without a detonation"))
        else:
            out.append((CT, f"turn {state.turn_limit} ended: the CT mission is bungled"))
    return out


def end_check(state: GoState, log: EventLog, step: str, end_of_turn: bool = False) -> bool:
    """Run the end check after ``step``; on an end, record the result and announce it."""
    if state.over:
        return True
    found = triggers(state, end_of_turn)
    if not found:
        return False
    failing = {team for team, _ in found}
    if failing == {CT, T}:
        winner = None
    elif failing == {CT}:
        winner = state.side_of[T]
    else:
        winner = state.side_of[CT]
    reasons = [reason for _, reason in found]
    state.over = True
    state.phase = OVER
    state.winner = winner
    state.reason = "; ".join(reasons)
    state.details = {
        "mission": state.mission,
        "turn": state.turn,
        "step": step,
        "failed": sorted(failing),
        "triggers": reasons,
        **outcome_counts(state),
    }
    public(
        state,
        log,
        "game-over",
        {"winner": winner, "reason": state.reason, "turn": state.turn, "step": step},
    )
    return True
