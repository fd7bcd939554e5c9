"""No input, however broken, ends in anything but problems: never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from killhouse import rulesets
from killhouse.errors import ScenarioError
from killhouse.scenario.loader import check_file, load_scenario, loads_scenario
from killhouse.scenario.model import Scenario
from tests.scenario.toy_ruleset import CrashingRuleset

GOOD = Path(__file__).parent / "good"
EXAMPLE = (GOOD / "embassy.yaml").read_text()
HEADER = 'name: X\nruleset: toy\nmap: {levels: {g: "#..#"}}\nsides: [{id: a}]\n'


def _problems(text: str | bytes) -> list[str]:
    try:
        loads_scenario(text, "s.yaml")
    except ScenarioError as exc:
        assert exc.problems, "a ScenarioError always names at least one problem"
        return [str(p) for p in exc.problems]
    return []


def test_directory_and_missing_file(tmp_path: Path) -> None:
    assert [str(p) for p in check_file(tmp_path)] == [
        f"{tmp_path}: this is a directory, not a scenario file"
    ]
    with pytest.raises(ScenarioError, match="no such file"):
        load_scenario(tmp_path / "nope.yaml")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("42\n", "s.yaml:1: expected a mapping at the top level, found 42 (a whole number)"),
        ("# only a comment\n", "s.yaml:1: the file is empty"),
        ("a: \x07\n", "s.yaml:1: YAML syntax: character 0x0007 is not allowed in YAML text"),
        ("---\na: 1\n---\nb: 2\n", "s.yaml:3: YAML syntax: but found another document"),
        ("a:\n\tb: 1\n", "s.yaml:2: YAML syntax: found character '\\t' that cannot start any"),
        ("a: *nowhere\n", "s.yaml:1: YAML syntax: found undefined alias 'nowhere'"),
    ],
)
def test_documents_that_are_not_scenarios(text: str, expected: str) -> None:
    (message,) = _problems(text)
    assert message.startswith(expected), message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("figures: {a: 1}", "s.yaml:5: figures: expected a list of figures, found a mapping"),
        (
            "figures: [1]",
            "s.yaml:5: figures[0]: expected a mapping describing a figure, found 1 (a",
        ),
        ("figures: [{id: 7, side: a}]", "s.yaml:5: figures[0].id: expected a figure id of"),
        ("figures: [{id: b, side: a, stats: 3}]", "s.yaml:5: figures[0].stats: expected a"),
        ("figures: [{id: b, side: a, stats: {m: !x 1}}]", "s.yaml:5: figures[0].stats.m: custom"),
        ("figures: [{id: b, side: a, at: [1, 2]}]", "s.yaml:5: figures[0].at: expected a position"),
        ("figures: [{id: b, side: a, equipment: [smg, 3]}]", "s.yaml:5: figures[0].equipment[1]"),
        ("figures: [{id: b, side: a, kind: dog}]", "s.yaml:5: figures[0].kind: expected operative"),
        ("figures: [{id: b}]", "s.yaml:5: figures[0]: missing required key 'side'"),
        ("figures: [{id: b, side: a, facing: true}]", "s.yaml:5: figures[0].facing: expected a"),
        ("figures: []\nseed: -1", "s.yaml:6: seed: expected a seed from 0 to"),
        ("figures: []\nobjectives: [a]", "s.yaml:6: objectives: expected a mapping of keys"),
        ("figures: []\nobjects: [{type: bomb}]", "s.yaml:6: objects[0]: missing required key 'id'"),
        ("figures: []\ndescription: [3]", "s.yaml:6: description: expected text, found a list"),
        ("figures: []\n7: x", "s.yaml:6: 7: unknown key '7' in a scenario"),
    ],
)
def test_wrong_shapes_are_problems(body: str, expected: str) -> None:
    messages = _problems(HEADER + body + "\n")
    assert any(m.startswith(expected) for m in messages), messages


def test_broken_map_still_checks_positions_syntax_and_level_names() -> None:
    text = (
        "name: X\nruleset: toy\nmap:\n  levels:\n    g: |\n      ###\n      #.\n"
        "  stairs: [{from: 'g:1,1', to: 'h:1,1'}]\n  zones: {z: ['g:1']}\n"
        "sides: [{id: a}]\nfigures: [{id: b, side: a, at: 'q:1,1'}]\n"
    )
    assert _problems(text) == [
        "s.yaml:7: map.levels.g: row 1 has 2 cells; the rows above have 3 (every row of a level "
        "has the same number of cells; if this row ends in outside cells, an editor may have "
        "trimmed its trailing spaces: end the row with a visible symbol)",
        "s.yaml:8: map.stairs[0].to: unknown level 'h' (the levels are: g)",
        's.yaml:9: map.zones.z[0]: expected a cell "level:x,y" or a rectangle '
        "\"level:x1,y1-x2,y2\", found 'g:1' "
        '(for example "ground:0,4-9,4" is the bottom row of a 10-wide level)',
        "s.yaml:11: figures[0].at: unknown level 'q' (the levels are: g)",
    ]


def test_aliases_are_shared_not_expanded() -> None:
    # a "billion laughs" of aliases (10**9 leaves) must neither hang nor blow up memory
    lines = ["  a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"  a{i}: &a{i} [{', '.join(['*a' + str(i - 1)] * 10)}]" for i in range(1, 9)]
    text = HEADER + "figures: []\noptions:\n" + "\n".join(lines) + "\n  bomb: *a8\n"
    scenario = loads_scenario(text)
    bomb = scenario.options["bomb"]
    assert len(bomb) == 10 and bomb[0] is bomb[9] is scenario.options["a7"]


def test_unloadable_ruleset_is_a_problem_on_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.REGISTRY, "broken", "killhouse.no_such_module:Nothing")
    (message,) = _problems(HEADER.replace("ruleset: toy", "ruleset: broken") + "figures: []\n")
    assert message.startswith(
        "s.yaml:2: ruleset: ruleset 'broken' could not be loaded (ModuleNotFoundError:"
    )
    assert message.endswith("(this is a fault in killhouse, not in the scenario: please report it)")


def test_crashing_ruleset_check_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    target = f"{CrashingRuleset.__module__}:CrashingRuleset"
    monkeypatch.setitem(rulesets.REGISTRY, "crashing", target)
    rulesets._LOADED.pop("crashing", None)
    (message,) = _problems(HEADER.replace("ruleset: toy", "ruleset: crashing") + "figures: []\n")
    assert message.startswith(
        "s.yaml:1: ruleset 'crashing' failed while checking the scenario "
        "(RuntimeError: table 'cards' is missing)"
    )
    rulesets._LOADED.pop("crashing", None)


_FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_never_crash(data: bytes) -> None:
    _problems(data)


@_FUZZ
@given(st.text(alphabet="abc:-[]{}|>&*!#'\" \n\t,.0123456789", max_size=200))
def test_yaml_like_text_never_crashes(text: str) -> None:
    _problems(text)


@_FUZZ
@given(st.data())
def test_mutated_example_never_crashes(data: st.DataObject) -> None:
    lines = EXAMPLE.splitlines(keepends=True)
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["drop", "copy", "poke", "indent"]))
        if action == "drop":
            del lines[index]
        elif action == "copy":
            lines.insert(index, lines[index])
        elif action == "poke" and lines[index].strip():
            at = data.draw(st.integers(0, len(lines[index]) - 1))
            char = data.draw(st.sampled_from(list("#.<>+:,-x9 {}[]'\"")))
            lines[index] = lines[index][:at] + char + lines[index][at + 1 :]
        else:
            lines[index] = "  " + lines[index]
        if not lines:
            break
    try:
        scenario = loads_scenario("".join(lines), "s.yaml")
    except ScenarioError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
    else:
        assert isinstance(scenario, Scenario)
