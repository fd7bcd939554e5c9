"""Execute on the flow kit (issue 8): declared phases and moves, schemas, refusals."""

from __future__ import annotations

import pytest

from killhouse.errors import IllegalActionError, MalformedActionError
from killhouse.rulesets.execute.flow import FLOW
from tests.rulesets.execute.helpers import RULESET, Dice, act, scenario, state_of, to_combat


def test_every_move_has_a_schema_and_a_phase() -> None:
    schemas = RULESET.schemas()
    assert set(schemas) == set(FLOW.moves)
    in_phases = {k for p in FLOW.phases.values() for k in p.moves}
    assert in_phases == set(FLOW.moves)
    assert schemas["move"]["properties"]["via"]["maxItems"] == 12
    assert RULESET.describe()["info"]["roles"] == ["fbi", "terrorists"]


@pytest.mark.parametrize(("kind", "args", "error", "code"), [
    ("teleport", {}, MalformedActionError, "malformed-action"),
    ("fire", {"figure": "zach"}, MalformedActionError, "malformed-action"),
    ("fire", {"figure": "zach", "target": 7}, MalformedActionError, "malformed-action"),
    ("throw", {"figure": "zach", "at": [0, 5, 2]}, IllegalActionError, "illegal-action"),
    ("fire", {"figure": "zach", "target": "t1"}, IllegalActionError, "illegal-action"),
])
def test_malformed_and_illegal_refusals_change_nothing(
    kind: str, args: dict[str, object], error: type[Exception], code: str
) -> None:
    st, log = state_of(scenario())
    to_combat(st, log)  # the FBI's grenade slot, zach still off the map
    before, events = RULESET.snapshot(st), len(log.events)
    with pytest.raises(error) as caught:
        act(st, log, Dice(), st.fbi, kind, **args)
    assert getattr(caught.value, "code", None) == code
    assert RULESET.snapshot(st) == before and len(log.events) == events


def test_decisions_name_their_phase() -> None:
    st, log = state_of(scenario())
    assert [d.kind for d in RULESET.pending(st)] == ["setup"]
    act(st, log, Dice(1), st.terrorists, "ready")
    assert {d.kind for d in RULESET.pending(st)} == {"negotiate"}
    assert len(RULESET.pending(st)) == 2  # both sides at once


def test_views_keep_the_kit_contract_through_a_game() -> None:
    """Issue 8 item 8: every view of a random game keeps the shared view contract."""
    from killhouse.rulesets.kit.view import view_problems
    from killhouse.scenario.loader import load_scenario
    from tests.conformance import random_playout, shipped_scenarios

    for path in shipped_scenarios("execute"):
        for step, game in enumerate(random_playout(load_scenario(path), 5, check_leaks=False)):
            if step % 7:
                continue
            for side in game.scenario.side_ids():
                assert view_problems(game.ruleset.view(game.state, side)) == [], (path, step)
