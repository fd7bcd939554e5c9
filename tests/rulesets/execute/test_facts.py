"""The public facts module bots read (issue 8 item 7): it agrees with the engine."""

from __future__ import annotations

import ast
from pathlib import Path

from killhouse.core.cells import Cell
from killhouse.rulesets.execute import facts
from killhouse.rulesets.execute.movement import enter_costs
from tests.rulesets.execute.helpers import RULESET, Dice, act, place, scenario, state_of, to_combat


def test_rehearsal_matches_the_engine_walk() -> None:
    """A move rehearsed on the floor plan walks the path and cost the engine walks (E-59)."""
    st, log = state_of(scenario())
    to_combat(st, log)
    place(st, "zach", 0, 1, 1)
    st.figures["t1"].pos = Cell(0, 10, 5)
    st.touch()
    for _ in range(3):
        act(st, log, Dice(), st.acting_side(), "done")
    plan = st.board.copy()
    rehearsed = facts.rehearse(plan, facts.step_costs(plan, st.entry), Cell(0, 1, 1),
                               Cell(0, 9, 4))
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 9, 4])
    moved = [e for e in log.events if e.kind == "moved"][-1].data
    assert rehearsed is not None
    path, cost = rehearsed
    assert ([[c.level, c.x, c.y] for c in path], cost) == (moved["path"], moved["cost"])


def test_step_costs_are_the_engines_without_figures() -> None:
    st, _ = state_of(scenario())
    engine = enter_costs(st, "nobody")
    for ours, theirs in zip(facts.step_costs(st.board), engine, strict=True):
        assert (ours == theirs).all()


def test_movement_allowance_from_a_view() -> None:
    st, log = state_of(scenario())
    to_combat(st, log)
    own = RULESET.view(st, st.fbi)["figures"][0]
    assert facts.movement_allowance(own) == 9  # Zach Dante
    assert facts.movement_allowance({**own, "status": "incapacitated"}) == 0


def test_the_role_ai_imports_only_the_protocol_and_facts() -> None:
    """Issue 8 item 7: ai/ reads the ruleset through ``facts`` alone."""
    package = Path(__file__).resolve().parents[3] / "src/killhouse/ai/roles/execute"
    names: set[str] = set()
    for source in package.glob("*.py"):
        tree = ast.parse(source.read_text())
        names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    inner = {n for n in names if n.startswith("killhouse.rulesets.execute")}
    assert inner <= {"killhouse.rulesets.execute", "killhouse.rulesets.execute.facts"}
