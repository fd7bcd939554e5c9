"""Hide and Search (digest §21.5, §16.1-16.2): a figure in cover hides with a Stealth roll;
a searcher's Observation roll contests the Stealth of every Hidden enemy in its line of sight.

Both are Movement actions and skill uses (§16.1): the leader's bonus applies, no clutter;
CS gives the user +1 Gutz, CF −1 (never below the starting Gutz at level 3), F or CF ends the
user's Turn (§21.3). They exist only in scenarios that use the skills option (ruling F-104).
"""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import line_of_sight
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.drugs import drug_bonus
from killhouse.rulesets.firewall.gutz import (
    contest_winner,
    gutz_roll,
)
from killhouse.rulesets.firewall.skillroll import in_combat, skill_level, skill_use
from killhouse.rulesets.firewall.state import FirewallState, _who_sees, mine, team_figures
from killhouse.rulesets.firewall.teams import Figure, bonus_for
from killhouse.rulesets.firewall.views import known_ids
from killhouse.rulesets.firewall.vision import VISIBLE, sees

#: ruling F-105: the cover a hider needs (Light or better) or, failing that, this clutter
HIDE_CLUTTER = 2
#: §16.2 Observation: Enhanced Vision +1 or Cyber Ear +2, the better one
SEARCH_CYBER = {"enhanced_vision": 1, "cyber_ear": 2}


def hide_problem(state: FirewallState, f: Figure) -> str | None:
    """Why ``f`` may not try to hide now, or ``None`` (§21.5; rulings F-104 … F-106)."""
    if not state.skills:
        return "Hide and Search need the skills option (F-104)"
    if f.move_used:
        return f"{f.id} has no Movement action left this Turn"
    if f.hidden:
        return f"{f.id} is already Hidden"
    if f.carrying is not None:
        return f"{f.id} carries {f.carrying} and cannot hide (F-106)"
    where = Cell(f.level, *f.cell)
    if state.board.cover(where) < 1 and state.board.clutter(where) < HIDE_CLUTTER:
        return (f"{f.id} stands in no cover and clutter below {HIDE_CLUTTER} (§21.5: Light, "
                "Medium or Heavy cover, or clutter 2 or more)")
    # ruling F-105: "no enemy currently sees it" as the hider's side can know it: an enemy
    # it sees that has line of sight to it (sight is symmetric); a Hidden watcher is secret
    for o in state.figures.values():
        if o.side != f.side and o.active and sees(state.board, f, o) and sees(state.board, o, f):
            return f"{o.id} sees {f.id} (§21.5: no enemy may see a figure that hides)"
    return None


def search_problem(state: FirewallState, f: Figure) -> str | None:
    """Why ``f`` may not search now, or ``None``."""
    if not state.skills:
        return "Hide and Search need the skills option (F-104)"
    if f.move_used:
        return f"{f.id} has no Movement action left this Turn"
    return None


def hide_options(state: FirewallState, side: str) -> Iterable[Action]:
    return [Action.make(side, "hide", figure=f.id, hint={"role": "hide"})
            for f in team_figures(state, side) if hide_problem(state, f) is None]


def search_options(state: FirewallState, side: str) -> Iterable[Action]:
    return [Action.make(side, "search", figure=f.id, hint={"role": "search"})
            for f in team_figures(state, side) if search_problem(state, f) is None]


def check_hide(state: FirewallState, action: Action) -> None:
    problem = hide_problem(state, mine(state, action))
    if problem is not None:
        raise IllegalActionError(problem)


def check_search(state: FirewallState, action: Action) -> None:
    problem = search_problem(state, mine(state, action))
    if problem is not None:
        raise IllegalActionError(problem)


def hide(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§21.5 Hide: a Stealth roll; S or CS makes the figure Hidden. The sides that saw it
    before (a Hidden watcher's side, F-105) see it try; the dice are its own side's."""
    f = state.figures[str(action.get("figure"))]
    f.move_used = True
    watchers = _who_sees(state, f)
    bonus = bonus_for(f, state.teams[f.team], state.figures) + drug_bonus(f.drug_effects,
                                                                          "movement")
    roll = skill_use(state, f, "stealth", bonus, chance, f"{f.id} hides",
                      frozenset({f.side}))
    if roll.success and f.active:
        f.hidden = True
    others = {s: {"figure": f.id, "dice": None, "result": None, "hidden": None}
              for s in watchers if s != f.side}
    log.emit("hide", {"figure": f.id, "dice": list(roll.dice), "result": roll.result,
                      "hidden": f.hidden}, watchers, others)
    state.last = (f.id, "hide", "")


def search(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§21.5 Search: the searcher rolls Observation once (leader bonus and the better of
    Enhanced Vision +1 / Cyber Ear +2); every Hidden enemy in its line of sight rolls Stealth
    (unmodified, its own result not applied, ruling F-107) and the contest of §16.1 decides;
    a searcher who wins reveals the hider. A hider's roll and a contest it wins are told to
    its own side only, so a search that finds nothing tells the searcher nothing."""
    f = state.figures[str(action.get("figure"))]
    f.move_used = True
    own = frozenset({f.side})
    gear = max((v for k, v in SEARCH_CYBER.items() if k in f.cyber), default=0)
    bonus = (bonus_for(f, state.teams[f.team], state.figures) + gear
             + drug_bonus(f.drug_effects, "movement"))
    roll = skill_use(state, f, "observation", bonus, chance, f"{f.id} searches", own)
    log.emit("search", {"figure": f.id, "dice": list(roll.dice), "result": roll.result},
             _who_sees(state, f),
             {s: {"figure": f.id, "dice": None, "result": None}
              for s in _who_sees(state, f) if s != f.side})
    opaque = state.board.opaque(f.level)
    hiders = sorted(
        (o for o in state.figures.values()
         if o.hidden and o.side != f.side and o.level == f.level and o.status in VISIBLE
         and line_of_sight(opaque, f.cell, o.cell, mode="supercover")),
        key=lambda o: o.id)
    for o in hiders:
        theirs = frozenset({o.side})
        # a Hidden searcher stays unnamed to a side that cannot name it (§21.4)
        by = f.id if f.id in known_ids(state, o.side) else None
        level = skill_level(o, "stealth")
        other = gutz_roll(chance, o.gutz, 0, f"{o.id} stays hidden", theirs, skill_level=level,
                          in_combat=in_combat(state, o), start_gutz=o.start_gutz)
        won = contest_winner((roll.result, skill_level(f, "observation"), f.experience),
                             (other.result, level, o.experience), chance,
                             f"search contest for {o.id}", theirs) == 0
        data = {"figure": o.id, "by": by, "dice": list(other.dice), "result": other.result}
        if not won:
            log.emit("unseen", data, theirs)
            continue
        o.hidden = False
        audience = _who_sees(state, o)
        log.emit("revealed", {**data, "by": f.id}, audience, {
            s: {"figure": o.id, "by": f.id if f.id in known_ids(state, s) else None,
                "dice": None, "result": None} if s != o.side else data
            for s in audience})
    from killhouse.rulesets.firewall.trapplay import find_traps  # fwdoors hook (F-240)
    find_traps(state, f, roll, chance, log)
    state.last = (f.id, "search", "")
