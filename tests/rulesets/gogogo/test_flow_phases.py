"""gogogo's steps resolve through the kit: a commit only ends its side's part; the phase's
``done``/``advance`` resolve the step once every side has committed (issue 8, one layout)."""

from __future__ import annotations

from pathlib import Path

from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo.flow import FLOW
from killhouse.rulesets.gogogo.state import FIRE, ORDERS, SETUP
from killhouse.scenario.loader import load_scenario

from .helpers import RULES

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"


def test_every_phase_declares_when_it_is_done_and_what_follows() -> None:
    assert set(FLOW.phases) == {SETUP, ORDERS, FIRE}
    for phase in FLOW.phases.values():
        assert phase.done is not None and phase.advance is not None


def test_the_last_commit_only_commits_and_the_phase_advance_resolves_the_step() -> None:
    log = EventLog()
    chance = SeededChance(Rng.from_seed(3), log)
    state = RULES.new_state(load_scenario(SCENARIOS / "hostage.yaml"), chance, log)
    assert state.phase == ORDERS and state.turn == 1
    commit = FLOW.moves["commit"].resolve
    assert commit is not None
    for side in state.sides:
        FLOW.validate(state, Action.make(side, "commit"))
        commit(state, Action.make(side, "commit"), chance, log)
    # both sides are in, yet nothing resolved: the commit move wrote the drafts only
    assert state.phase == ORDERS and all(d.committed for d in state.drafts.values())
    assert [e.kind for e in log.since(len(log) - 2)] == ["orders-committed"] * 2
    done = FLOW.phases[ORDERS].done
    assert done is not None and done(state)
    FLOW.settle(state, chance, log)  # what ``apply`` runs after every resolution
    assert state.phase == FIRE and not any(d.committed for d in state.drafts.values())
    for side in state.sides:
        RULES.apply(state, Action.make(side, "commit"), chance, log)
    assert state.phase == ORDERS and state.turn == 2
