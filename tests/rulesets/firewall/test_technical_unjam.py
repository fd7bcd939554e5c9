"""Clearing a jam with a Technical roll instead of the Gutz roll (§11.2 "with optional skills
a Technical skill roll may be used instead", §16.1 levels; ruling F-203)."""

from __future__ import annotations

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from tests.rulesets.firewall.test_equipment import _act, _thames
from tests.rulesets.firewall.test_teams import Dice

WEAPON = "imi_buzzard"


def _jammed(level: int | None, *, aware: bool = True, skills: bool = True) -> Game:
    """daewoo-1 (Gutz 6, no leader on the table) with a jammed Buzzard, Technical ``level``."""
    game = _thames(("daewoo-1", "thorco-1"))
    state: FirewallState = game.state
    state.skills = skills
    f = state.figures["daewoo-1"]
    f.skills = {} if level is None else {"technical": level}
    f.weapon_state[WEAPON] = "jammed"
    _act(game, "daewoo", "seoul")
    state.teams["seoul"].aware = aware
    return game


def _unjam(game: Game, faces: list[int], by: str | None = "technical") -> dict[str, object]:
    game.chance = Dice(faces)  # type: ignore[assignment]
    start = len(game.log)
    args = {"by": by} if by is not None else {}
    game.apply(Action.make("daewoo", "unjam", figure="daewoo-1", weapon=WEAPON, **args))
    [event] = [e.data for e in game.log.since(start) if e.kind == "unjam"]
    return event


@pytest.mark.parametrize(("faces", "result", "state", "gutz"), [
    ([1, 2], "S", "ready", 6),  # 3: level 1 rolls against floor(6 / 2) = 3, the edge
    ([1, 3], "F", "jammed", 6),  # 4: one past it (the plain Gutz roll would clear it)
    ([1, 1], "CS", "ready", 7),  # a double at or under 3: critical success, +1
    ([2, 2], "CF", "useless", 5),  # a double above 3: critical failure, −1 (F-42)
])
def test_level_1_rolls_against_half_gutz(faces: list[int], result: str, state: str,
                                         gutz: int) -> None:
    game = _jammed(1)
    event = _unjam(game, faces)
    f = game.state.figures["daewoo-1"]
    assert (event["result"], event["by"], f.weapon_state[WEAPON], f.gutz) == (
        result, "technical", state, gutz)
    assert f.move_used
    assert f.failed_this_turn == (result in ("F", "CF"))


def test_the_plain_roll_clears_what_level_1_does_not() -> None:
    game = _jammed(1)
    event = _unjam(game, [1, 3], by=None)  # 4 <= Gutz 6
    assert event["result"] == "S" and "by" not in event
    assert game.state.figures["daewoo-1"].weapon_state[WEAPON] == "ready"


def test_level_3_outside_combat_needs_no_roll() -> None:
    game = _jammed(3, aware=False)
    event = _unjam(game, [])  # §16.1: automatic S; no die is drawn (an empty Dice would fail)
    assert (event["result"], event["dice"]) == ("S", [0, 0])  # the skill roll's "no dice"
    assert game.state.figures["daewoo-1"].weapon_state[WEAPON] == "ready"


@pytest.mark.parametrize(("faces", "result"), [([1, 1], "S"), ([2, 2], "CF"), ([1, 2], "F")])
def test_level_0_succeeds_only_on_double_one(faces: list[int], result: str) -> None:
    game = _jammed(None)  # unlisted: level 0, offered because the scenario uses skills
    assert _unjam(game, faces)["result"] == result


def test_offered_only_with_the_skills_option_or_technical_listed() -> None:
    listed = _jammed(1, skills=False)
    kinds = {(a.kind, a.get("by")) for a in listed.legal_actions("daewoo")}
    assert ("unjam", "technical") in kinds and ("unjam", None) in kinds
    game = _jammed(None, skills=False)
    kinds = {(a.kind, a.get("by")) for a in game.legal_actions("daewoo")}
    assert ("unjam", None) in kinds and ("unjam", "technical") not in kinds
    before = game.state_hash()
    with pytest.raises(IllegalActionError):
        game.apply(Action.make("daewoo", "unjam", figure="daewoo-1", weapon=WEAPON,
                               by="technical"))
    assert game.state_hash() == before
