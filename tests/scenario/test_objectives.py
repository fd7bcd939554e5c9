"""The shared objective vocabulary: canonical names, older keys as aliases, both at once refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.errors import ScenarioError
from killhouse.rulesets import get_ruleset
from killhouse.scenario.loader import loads_scenario
from killhouse.scenario.model import Issue
from killhouse.scenario.objectives import VOCABULARY, canonical, read_objectives

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
DOC = Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md"

# older key -> canonical key, per shipped file
RENAMES = {
    "execute/embassy.yaml": {"extraction": "rescue_zone", "deployment": "defender_start"},
    "execute/airliner.yaml": {"extraction": "rescue_zone", "deployment": "defender_start"},
    "gogogo/hostage.yaml": {
        "ct_start": "attacker_start", "t_start": "defender_start",
        "location": "hostage_location", "rescue": "rescue_zone",
    },
    "gogogo/assassination.yaml": {
        "ct_start": "attacker_start", "t_start": "defender_start", "escape": "escape_points",
    },
    "gogogo/setup-destruction.yaml": {"ct_start": "attacker_start", "t_start": "defender_start"},
}


def _renamed(text: str, renames: dict[str, str]) -> str:
    """The file with its objective keys written in canonical names (keys only, not zone names)."""
    head, objectives = text.split("\nobjectives:\n", 1)
    lines = objectives.split("\n")
    for i, line in enumerate(lines):
        if not line.startswith("  "):
            break
        for old, new in renames.items():
            lines[i] = re.sub(rf"^  {old}:", f"  {new}:", lines[i])
    return head + "\nobjectives:\n" + "\n".join(lines)


def _start(text: str) -> str:
    scenario = loads_scenario(text, "s.yaml")
    rules = get_ruleset(scenario.ruleset)
    log = EventLog()
    state = rules.new_state(scenario, SeededChance(Rng(7)), log)
    return json.dumps(rules.snapshot(state), sort_keys=True) + json.dumps(
        [e.to_json() for e in log.events], sort_keys=True
    )


@pytest.mark.parametrize("name", sorted(RENAMES))
def test_alias_file_and_canonical_file_start_the_same_game(name: str) -> None:
    text = (SCENARIOS / name).read_text()
    canonical_text = _renamed(text, RENAMES[name])
    assert canonical_text != text
    for new in RENAMES[name].values():
        assert f"\n  {new}:" in canonical_text
    assert _start(canonical_text) == _start(text)


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("execute/embassy.yaml", "extraction", "rescue_zone"),
        ("execute/embassy.yaml", "deployment", "defender_start"),
        ("gogogo/hostage.yaml", "rescue", "rescue_zone"),
        ("gogogo/hostage.yaml", "ct_start", "attacker_start"),
        ("gogogo/assassination.yaml", "escape", "escape_points"),
    ],
)
def test_a_canonical_name_and_its_alias_at_once_is_one_clear_problem(
    name: str, old: str, new: str
) -> None:
    text = (SCENARIOS / name).read_text()
    value = re.search(rf"\n  {old}: (.*)\n", text)
    assert value is not None
    doubled = text.replace(f"\n  {old}: ", f"\n  {new}: {value.group(1)}\n  {old}: ", 1)
    line = doubled.split("\n").index(f"  {old}: {value.group(1)}") + 1
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(doubled, "s.yaml")
    problems = [str(p) for p in caught.value.problems]
    assert problems == [
        f"s.yaml:{line}: objectives.{old}: {old!r} and {new!r} name the same objective ({new}) "
        f"(give only one of them; {new} is the canonical name)"
    ]


def test_two_aliases_at_once_are_refused_on_the_later_key() -> None:
    objs, issues = read_objectives({"extraction": "a", "rescue": "b"}, ("rescue_zone",))
    assert objs.get("rescue_zone") == "a" and objs.written("rescue_zone") == "extraction"
    assert issues == [
        Issue(
            "objectives.rescue",
            "'rescue' and 'extraction' name the same objective (rescue_zone)",
            "give only one of them; rescue_zone is the canonical name",
        )
    ]


def test_a_key_the_ruleset_does_not_play_is_unknown_with_a_hint() -> None:
    _, issues = read_objectives({"bomb_sites": ["a"], "entri": "e"}, ("mission", "entry"))
    assert issues == [
        Issue("objectives.bomb_sites", "unknown objective key 'bomb_sites'",
              "expected: mission, entry"),
        Issue("objectives.entri", "unknown objective key 'entri'", "did you mean 'entry'?"),
    ]


def test_reading_by_canonical_name_reports_the_written_key() -> None:
    objs, issues = read_objectives({"escape": "out"}, ("escape_points",))
    assert not issues
    assert "escape_points" in objs and objs.get("escape_points") == "out"
    assert objs.path("escape_points") == "objectives.escape"
    assert objs.path("rescue_zone") == "objectives.rescue_zone"
    assert objs.get("rescue_zone", "x") == "x"


def test_every_alias_has_one_canonical_name() -> None:
    names = [o.key for o in VOCABULARY] + [a for o in VOCABULARY for a in o.aliases]
    assert len(names) == len(set(names))
    for o in VOCABULARY:
        assert canonical(o.key) == o.key
        assert all(canonical(a) == o.key for a in o.aliases)
    assert canonical("objective") is None


def test_the_format_page_lists_the_vocabulary_with_its_aliases() -> None:
    doc = DOC.read_text()
    for o in VOCABULARY:
        row = next((ln for ln in doc.splitlines() if ln.startswith(f"| `{o.key}` |")), None)
        assert row is not None, o.key
        for alias in o.aliases:
            assert f"`{alias}`" in row


def test_canonical_names_mixed_with_older_keys_start_the_same_game() -> None:
    # the map zones keep their names; only the objective keys are renamed
    text = (SCENARIOS / "gogogo/destruction.yaml").read_text()
    mixed = text.replace("\n  ct_start: ct_start", "\n  attacker_start: ct_start")
    assert mixed != text and "\n  t_start: t_start" in mixed
    assert _start(mixed) == _start(text)
