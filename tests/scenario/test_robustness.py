"""No input, however broken, ends in anything but problems: never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from killhouse import rulesets
from killhouse.errors import ScenarioError
from killhouse.scenario import limits
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
        (
            "figures: [{id: b, side: a, stats: {m: !x 1}}]",
            "s.yaml:5: figures[0].stats.m: explicit YAML tags such as !x are not supported",
        ),
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


def test_aliases_are_refused_before_they_expand() -> None:
    # a "billion laughs" of aliases (10**9 leaves) is refused, never expanded
    lines = ["  a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"  a{i}: &a{i} [{', '.join(['*a' + str(i - 1)] * 10)}]" for i in range(1, 9)]
    text = HEADER + "figures: []\noptions:\n" + "\n".join(lines) + "\n  bomb: *a8\n"
    assert _problems(text) == [
        "s.yaml:6: options: the aliases (*name) here expand the document past 20000 values, "
        "the limit (an alias repeats a whole list or mapping: write fewer of them)"
    ]


def test_a_few_aliases_are_shared_not_copied() -> None:
    text = HEADER + "figures: []\noptions:\n  a: &a [1, 2]\n  b: [*a, *a]\n"
    scenario = loads_scenario(text)
    b = scenario.options["b"]
    assert b == [[1, 2], [1, 2]] and b[0] is b[1] is scenario.options["a"]


def test_alias_count_is_capped() -> None:
    refs = ", ".join(["*a"] * (limits.MAX_ALIASES + 1))
    text = HEADER + f"figures: []\noptions:\n  a: &a 1\n  b: [{refs}]\n"
    assert _problems(text) == [
        f"s.yaml:8: options.b[{limits.MAX_ALIASES}]: more than {limits.MAX_ALIASES} aliases "
        "(*name) in one file, the limit (write the values out, or use fewer aliases)"
    ]
    # at the limit itself the file loads
    refs = ", ".join(["*a"] * limits.MAX_ALIASES)
    ok = HEADER + f"figures: []\noptions:\n  a: &a 1\n  b: [{refs}]\n"
    assert len(loads_scenario(ok).options["b"]) == limits.MAX_ALIASES


def test_node_cap_at_the_edge() -> None:
    base = HEADER + "figures: []\noptions:\n  pad: [PAD]\n"
    used = _count_values(base.replace("PAD", "")) + 1  # the first 1 replaces the word PAD
    at_limit = base.replace("PAD", ", ".join(["1"] * (limits.MAX_NODES - used + 1)))
    assert _problems(at_limit) == []
    past = base.replace("PAD", ", ".join(["1"] * (limits.MAX_NODES - used + 2)))
    (message,) = _problems(past)
    assert f"more than {limits.MAX_NODES} YAML values in one file" in message


def _count_values(text: str) -> int:
    from ruamel.yaml import YAML
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    def count(node: object) -> int:
        if isinstance(node, MappingNode):
            return 1 + sum(count(k) + count(v) for k, v in node.value)
        if isinstance(node, SequenceNode):
            return 1 + sum(count(v) for v in node.value)
        return 1

    return count(YAML(typ="rt").compose(text))


def test_file_over_one_mebibyte_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (limits.MAX_FILE_BYTES + 1))
    assert [str(p) for p in check_file(big)] == [
        f"{big}: the file is larger than 1048576 bytes (1 MiB), the limit for a scenario "
        "(a scenario is a map and a few dozen figures: is this the right file?)"
    ]
    exact = tmp_path / "exact.yaml"
    exact.write_bytes(b"#" * limits.MAX_FILE_BYTES)
    (message,) = [str(p) for p in check_file(exact)]
    assert message.startswith(f"{exact}:1: the file is empty"), message


@pytest.mark.parametrize(
    ("zone", "expected"),
    [
        ("g:0,0-199,0", None),
        ("g:0,0-200,0", "'g:0,0-200,0' is outside every level: a coordinate is at most 199"),
        ("g:0,0-1000000,0", "'g:0,0-1000000,0' is outside every level"),
    ],
)
def test_rectangles_on_a_broken_map_are_bounded(zone: str, expected: str | None) -> None:
    text = (
        "name: X\nruleset: toy\nmap:\n  levels:\n    g: |\n      ###\n      #.\n"
        f"  zones: {{z: ['{zone}']}}\nsides: [{{id: a}}]\nfigures: []\n"
    )
    messages = [m for m in _problems(text) if "map.zones" in m]
    if expected is None:
        assert messages == []
    else:
        assert len(messages) == 1 and expected in messages[0], messages


def test_many_unknown_symbols_are_counted_not_listed() -> None:
    row = "".join(chr(0x4E00 + i) for i in range(150))
    text = f"name: X\nruleset: toy\nmap:\n  levels:\n    g: |\n      {row}\n"
    text += "sides: [{id: a}]\nfigures: []\n"
    messages = _problems(text)
    assert len(messages) == 11
    assert messages[-1] == "s.yaml:6: map.levels.g: and 140 more unknown map symbols on level 'g'"


def test_emoji_joined_by_zero_width_joiner_is_named() -> None:
    text = HEADER.replace('"#..#"', '"#\U0001f468\u200d\U0001f469#"') + "figures: []\n"
    messages = _problems(text)
    assert messages[0].startswith(
        "s.yaml:3: map.levels.g: U+200D ZERO WIDTH JOINER at g:2,0 joins the character before it"
    ), messages


@pytest.mark.parametrize(
    ("lock", "ok"), [(limits.MAX_LOCK, True), (limits.MAX_LOCK + 1, False), (10**30, False)]
)
def test_lock_level_has_a_maximum(lock: int, ok: bool) -> None:
    text = (
        f"name: X\nruleset: toy\nmap:\n  legend: {{D: {{terrain: door, lock: {lock}}}}}\n"
        '  levels: {g: "#.D.#"}\nsides: [{id: a}]\nfigures: []\n'
    )
    messages = _problems(text)
    assert (messages == []) is ok, messages


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


@_FUZZ
@given(
    width=st.integers(1, 40),
    depth=st.integers(1, 12),
    where=st.sampled_from(["options", "objectives", "figures"]),
)
def test_alias_bombs_load_or_are_refused_by_a_limit(width: int, depth: int, where: str) -> None:
    """Any shape of nested aliases either fits the caps or is refused naming a limit."""
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, depth)]
    body = "".join(f"  {line}\n" for line in lines)
    if where == "figures":
        text = HEADER + f"options:\n{body}figures: [*a{depth - 1}]\n"
    else:
        text = HEADER + f"figures: []\n{where}:\n{body}  all: *a{depth - 1}\n"
    expanded = sum(width**i for i in range(1, depth + 1))
    messages = _problems(text)
    if expanded > limits.MAX_EXPANDED or width * (depth - 1) + 1 > limits.MAX_ALIASES:
        assert any("the limit" in m for m in messages), messages


@_FUZZ
@given(
    st.lists(
        st.sampled_from(
            [
                "&a ",
                "*a",
                "!!int ",
                "!!python/object ",
                "[",
                "]",
                "{",
                "}",
                "- ",
                ": ",
                ", ",
                "\n",
                "  ",
                "x",
                "9" * 25,
                "\u0301",
                "g:0,0-99999999999,9",
            ]
        ),
        max_size=80,
    )
)
def test_hostile_fragments_never_crash(parts: list[str]) -> None:
    _problems(HEADER + "".join(parts))


def test_the_scenario_layer_does_not_import_the_ruleset_registry() -> None:
    """scenario/ sits below rulesets/: loading it pulls in no ruleset (issue 8, item 9)."""
    import subprocess
    import sys

    code = (
        "import sys, killhouse.scenario.loader, killhouse.scenario.reach\n"
        "print(sorted(m for m in sys.modules if m.startswith('killhouse.rulesets')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_a_catalogue_can_be_passed_in() -> None:
    from tests.scenario.toy_ruleset import ToyRuleset

    class Only:
        def ids(self) -> list[str]:
            return ["mine"]

        def get(self, ruleset_id: str) -> ToyRuleset:
            return ToyRuleset()

    text = HEADER.replace("ruleset: toy", "ruleset: mine") + "figures: []\n"
    assert loads_scenario(text, rulesets=Only()).ruleset == "mine"
    with pytest.raises(ScenarioError, match="unknown ruleset 'toy'"):
        loads_scenario(HEADER + "figures: []\n", rulesets=Only())
