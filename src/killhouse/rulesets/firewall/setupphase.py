"""The set-up phase before Turn 1 (§18; rulings F-195, F-210 …): the players' and the game
master's set-up decisions, made in play as legal actions, one step after another.

Triple-Cross: the GM places the six counters (public), then secretly makes one the spike, then the
players roll for and choose their entry edges (they see where the counters lie). Ash End:
the edge roll and the higher roller's choice. A Walk in the Park: the squad's secret loadout
and its secret deployment, then the Anfield player's end of the path. A step nobody has to
take is skipped; when every step is done Turn 1 begins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.counterplace import place_deciders, place_prompt
from killhouse.rulesets.firewall.entryedges import (
    edge_deciders,
    edge_prompt,
    edges_done,
    edges_due,
    roll_edges,
)
from killhouse.rulesets.firewall.gmorders import gm_deciders
from killhouse.rulesets.firewall.loadout import begin as begin_kit
from killhouse.rulesets.firewall.loadout import kit_deciders, kit_done, kit_prompt
from killhouse.rulesets.firewall.parkdeploy import (
    begin,
    deploy_deciders,
    deploy_done,
    deploy_prompt,
    end_deciders,
    end_prompt,
)
from killhouse.rulesets.firewall.state import SETUP, FirewallState, _gm

Resolve = Callable[[FirewallState, Action, Chance, EventLog], None]

#: the set-up steps in order: who decides each (an empty list: nothing to decide there)
STEPS: tuple[tuple[Callable[[FirewallState], str], Callable[[FirewallState], list[str]]],
            ...] = (
    (place_prompt, place_deciders),
    (lambda s: "game master: choose which counter is the data-spike", gm_deciders),
    (edge_prompt, edge_deciders),
    (kit_prompt, kit_deciders),
    (deploy_prompt, deploy_deciders),
    (end_prompt, end_deciders),
)


def setup_deciders(state: FirewallState) -> list[str]:
    """Who decides now: the first set-up step with a decider."""
    for _, deciders in STEPS:
        who = deciders(state)
        if who:
            return who
    return []


def setup_prompt(state: FirewallState) -> str:
    for prompt, deciders in STEPS:
        if deciders(state):
            return prompt(state)
    return ""


def setup_finished(state: FirewallState) -> bool:
    """Every set-up decision is made: counters placed and the spike chosen by a GM side
    (F-195), every player side's edge chosen (F-210)."""
    spike = state.spike is not None or not state.counters or not _gm(state)
    return spike and not state.unplaced and edges_done(state) and kit_done(state) \
        and deploy_done(state)


def prepare(state: FirewallState) -> None:
    """Before the first set-up decision: a secret side's figures wait off the table; a
    side that picks its kit starts bare (F-270)."""
    begin(state)
    begin_kit(state)


def next_step(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Roll what the next step needs once the steps before it are done: the edge dice come
    after the game master's set-up (ruling F-210)."""
    if edges_due(state) and not gm_deciders(state) and not state.unplaced:
        roll_edges(state, chance, log)


def then_next(resolve: Resolve) -> Resolve:
    """A set-up decision, followed by the rolls of the next step."""
    def run(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
        resolve(state, action, chance, log)
        next_step(state, chance, log)
    return run


def setup_view(state: FirewallState, side: str) -> dict[str, Any]:
    """What ``side`` has still to decide in set-up, for a person choosing (only its own):
    a GM the counters still to place, a side picking its kit the figures still to equip and
    the kit so far, a secret side its figures still to deploy."""
    if state.phase != SETUP:
        return {}
    todo: dict[str, Any] = {}
    if side in _gm(state) and state.unplaced:
        todo["counters_to_place"] = [state.counters[c].number for c in state.unplaced]
    kit = state.loadout_plan
    if kit is not None and kit.side == side and state.kitting:
        todo["to_equip"] = list(state.kitting)
        f = state.figures[state.kitting[0]]
        todo["kit"] = {"figure": f.id, "weapons": list(f.weapons),
                       "grenades": dict(sorted(f.grenades.items())), "armour": f.armour,
                       "armour_chosen": state.kit_worn}
    plan = state.deploy_plan
    if plan is not None and plan.side == side and state.deploying:
        todo["to_deploy"] = list(state.deploying)
    if state.end_team is not None and state.teams[state.end_team].side == side:
        todo["end_to_choose"] = state.end_team
    return {"setup": todo} if todo else {}
