"""Cybernetics in play (digest §14; rulings F-40, F-112 … F-114): the cyber-failure check
after every critical failure of an action roll, and Wired Reflexes' additional action.

After each action the figure's own action rolls that came up CF with a dice total below its
CP roll 1d6 on the §14.2 table: reboot (no actions this Turn and the next 1d6 or 2d6 Turns),
one, 1d6 or all systems stopped, or the figure explodes as a B(MG) CS centred on it.
"""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.chance import Chance
from killhouse.core.events import Event, EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.cyber import cyber_failure_due, cyber_failure_effect
from killhouse.rulesets.firewall.drugplay import after_drugs
from killhouse.rulesets.firewall.fire import apply_hit, infantry_outcome
from killhouse.rulesets.firewall.state import FirewallState, _who_sees, mine, team_figures
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status

#: the keys under which an action's own event names the figure that rolled
ACTOR_KEYS = ("figure", "firer", "attacker")
SLOTS = ("move", "combat")


def systems(f: Figure) -> list[str]:
    """The figure's working cyber systems (ruling F-112: a Cyber Eye is one system)."""
    table = tables().cyber_systems
    return sorted({str(table[c]) for c in f.cyber if c in table})


def _stop(f: Figure, stopped: Iterable[str]) -> list[str]:
    """Stop whole systems: their functions leave the working set (CP still counts)."""
    table = tables().cyber_systems
    gone = set(stopped)
    functions = {c for c in f.cyber if table.get(c) in gone}
    f.cyber = f.cyber - functions
    f.cyber_stopped = f.cyber_stopped | functions
    return sorted(gone)


def own_criticals(events: Iterable[Event], actor: str) -> list[int]:
    """Dice totals of the actor's action rolls that came up CF among ``events``."""
    totals = []
    for e in events:
        data = e.data or {}
        dice = data.get("dice")
        if (data.get("result") == "CF" and isinstance(dice, list) and len(dice) == 2
                and any(data.get(k) == actor for k in ACTOR_KEYS)):
            totals.append(int(dice[0]) + int(dice[1]))
    return totals


def check_cyber_failure(state: FirewallState, f: Figure, totals: list[int], chance: Chance,
                        log: EventLog) -> None:
    """Ruling F-40: each CF whose total is below the CP rolls on §14.2 (after the CF's own
    consequences); the die and the effect go to the figure's side, an explosion to all who
    see it."""
    own = frozenset({f.side})
    for total in totals:
        if not cyber_failure_due("CF", total, f.cp) or f.status not in (
                Status.ACTIVE, Status.INCAPACITATED):
            continue
        die = chance.roll(6, f"{f.id} cyber failure", own)
        effect = cyber_failure_effect(die)
        data: dict[str, object] = {"figure": f.id, "die": die, "effect": effect}
        if effect in ("power_down", "overload"):
            n = 1 if effect == "power_down" else 2
            turns = sum(chance.roll(6, f"{f.id} reboot Turns", own) for _ in range(n))
            f.no_action_until = state.turn + turns
            data["turns"] = turns
        elif effect == "one_system":
            # ruling F-112: the systems an action used are not tracked: one of all, at random
            working = systems(f)
            if working:
                data["stopped"] = _stop(f, [chance.pick(working, "system stopped", own)])
        elif effect == "d6_systems":
            working = systems(f)
            k = chance.roll(6, f"{f.id} systems stopped", own)
            chosen: list[str] = []
            for _ in range(min(k, len(working))):
                left = [w for w in working if w not in chosen]
                chosen.append(chance.pick(left, "system stopped", own))
            data["stopped"] = _stop(f, chosen)
        elif effect == "all_systems":
            data["stopped"] = _stop(f, systems(f))
        else:
            _explode(state, f, log)
            return
        log.emit("cyber-failure", data, own)


def _explode(state: FirewallState, f: Figure, log: EventLog) -> None:
    """§14.2 row 6: a B(MG) CS centred on the figure: it and all within 5 cm killed, all
    within 10 cm Suppressed; nobody gains."""
    audience = _who_sees(state, f)
    positions = {g.id: g.cell for g in state.figures.values() if g.level == f.level
                 and g.status in (Status.ACTIVE, Status.INCAPACITATED)}
    out = infantry_outcome(tables().cyber_explosion, "CS", f.id, positions, firer=None)
    f.status = Status.KILLED
    hurt = {}
    for fid, hit in out.hits.items():
        victim = state.figures[fid]
        if victim.id == f.id:
            continue
        after = apply_hit(victim.gutz, victim.status.value, victim.suppressed, hit, 0)
        victim.gutz, victim.status, victim.suppressed = (
            after.gutz, Status(after.status), after.suppressed)
        state.teams[victim.team].aware = True
        hurt[fid] = victim.status.value + (" suppressed" if victim.suppressed else "")
    seen = audience | frozenset({f.side})
    log.emit("cyber-failure", {"figure": f.id, "effect": "explodes", "affected": hurt}, seen,
             {s: {"figure": f.id, "effect": "explodes",
                  "affected": {k: v for k, v in hurt.items()
                               if s in _who_sees(state, state.figures[k])
                               or state.figures[k].side == s}}
              for s in seen})


def after_cyber(state: FirewallState, chance: Chance, log: EventLog, start: int) -> None:
    """The cyber-failure checks of the action whose events begin at ``start`` (§21.3 step 5)."""
    if state.last is None or state.last[0] not in state.figures:
        return
    f = state.figures[state.last[0]]
    totals = own_criticals(log.since(start), f.id)
    if totals and f.cp > 0:
        check_cyber_failure(state, f, totals, chance, log)
    if totals:
        after_drugs(state, f, len(totals), log)  # §21.3 step 5: then the end of drugs


# -- Wired Reflexes (§14.1, ruling F-113) ---------------------------------------------------

def reflex_problem(f: Figure, slot: str) -> str | None:
    if "wired_reflexes" not in f.cyber:
        return f"{f.id} has no working Wired Reflexes"
    if f.extra_used:
        return f"{f.id} has used its additional action this Turn"
    if slot not in SLOTS:
        return "slot is move or combat"
    if not (f.move_used if slot == "move" else f.combat_used):
        return f"{f.id} still has its {'Movement' if slot == 'move' else 'Combat'} action"
    return None


def reflex_options(state: FirewallState, side: str) -> Iterable[Action]:
    return [Action.make(side, "reflex", figure=f.id, slot=slot, hint={"role": "other"})
            for f in team_figures(state, side) for slot in SLOTS
            if reflex_problem(f, slot) is None]


def check_reflex(state: FirewallState, action: Action) -> None:
    problem = reflex_problem(mine(state, action), str(action.get("slot")))
    if problem is not None:
        raise IllegalActionError(problem)


def reflex(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-113: the figure spends its additional action as one more Movement or Combat
    action this Turn (the player's choice); no roll, told to its own side."""
    f = state.figures[str(action.get("figure"))]
    f.extra_used = True
    if action.get("slot") == "move":
        f.move_used = False
    else:
        f.combat_used = False
    log.emit("reflex", {"figure": f.id, "slot": action.get("slot")}, frozenset({f.side}))
