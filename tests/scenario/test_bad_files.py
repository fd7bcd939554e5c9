"""Each bad scenario file under ``bad/`` gets exactly the messages a user should see."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from killhouse.errors import ScenarioError
from killhouse.scenario.loader import check_file, load_scenario

BAD = Path(__file__).parent / "bad"


def _has_execute() -> bool:
    try:
        return importlib.util.find_spec("killhouse.rulesets.execute.ruleset") is not None
    except ImportError:
        return False


EXECUTE_CARD = pytest.param(
    "execute_card.yaml",
    [
        "execute_card.yaml:40: figures[0].card: no stat card 'zach_dant' in ruleset 'execute' "
        "(did you mean 'zach_dante'?)"
    ],
    id="execute_card.yaml",
    marks=pytest.mark.skipif(
        not _has_execute(),
        reason="the execute ruleset (killhouse.rulesets.execute) cannot be imported yet",
    ),
)
#: rows whose file the real ruleset checks: the expected message must be among the problems
SUBSET = {"execute_card.yaml"}

TABLE: list[tuple[str, list[str]]] = [
    (
        "syntax.yaml",
        [
            "syntax.yaml:4: YAML syntax: expected ',' or ']', but got ':' (column 8) "
            "(while parsing a flow sequence that starts on line 3)"
        ],
    ),
    (
        "duplicate_yaml_key.yaml",
        [
            'duplicate_yaml_key.yaml:17: YAML syntax: found duplicate key "name" with value '
            '"Again" (original value: "Bad") (column 1) '
            "(while constructing a mapping that starts on line 1)"
        ],
    ),
    (
        "empty.yaml",
        [
            "empty.yaml:1: the file is empty "
            "(a scenario is a mapping with name, ruleset, map, sides and figures)"
        ],
    ),
    (
        "top_list.yaml",
        [
            "top_list.yaml:1: expected a mapping at the top level, found a list "
            "(a scenario is a mapping with name, ruleset, map, sides and figures)"
        ],
    ),
    (
        "binary.yaml",
        [
            "binary.yaml:1: not a text file: byte 0x89 at offset 0 is not UTF-8 "
            "(scenario files are YAML text saved as UTF-8)"
        ],
    ),
    ("no_such_file.yaml", ["no_such_file.yaml: no such file (check the path)"]),
    (
        "missing_keys.yaml",
        [
            "missing_keys.yaml:1: missing required key 'sides'",
            "missing_keys.yaml:1: missing required key 'figures'",
        ],
    ),
    (
        "unknown_ruleset.yaml",
        ["unknown_ruleset.yaml:2: ruleset: unknown ruleset 'toyy' (did you mean 'toy'?)"],
    ),
    (
        "unknown_key_top.yaml",
        [
            "unknown_key_top.yaml:17: turnlimit: unknown key 'turnlimit' in a scenario "
            "(did you mean 'turn_limit'?)"
        ],
    ),
    (
        "unknown_key_figure.yaml",
        [
            "unknown_key_figure.yaml:17: figures[0].facng: unknown key 'facng' in a figure "
            "(did you mean 'facing'?)"
        ],
    ),
    (
        "unknown_object_key.yaml",
        [
            "unknown_object_key.yaml:18: objects[0].timr: unknown key 'timr' in an object "
            "(did you mean 'timer'?)"
        ],
    ),
    (
        "wrong_type.yaml",
        [
            "wrong_type.yaml:17: turn_limit: expected a number of turns from 1 to 200, "
            "found 'ten' (text) (write digits only, without quotes)"
        ],
    ),
    (
        "ragged.yaml",
        [
            "ragged.yaml:10: map.levels.ground: row 4 has 11 cells; the rows above have 10 "
            "(every row of a level has the same number of cells)"
        ],
    ),
    (
        "trimmed.yaml",
        [
            "trimmed.yaml:7: map.levels.ground: row 1 has 4 cells; the rows above have 7 "
            "(every row of a level has the same number of cells; if this row ends in outside "
            "cells, an editor may have trimmed its trailing spaces: end the row with a "
            "visible symbol)"
        ],
    ),
    (
        "folded.yaml",
        [
            "folded.yaml:5: map.levels.ground: the level is folded ('>'), which joins its rows "
            "into one line (start the drawing with '|' so each row keeps its own line)"
        ],
    ),
    (
        "unknown_symbol.yaml",
        [
            "unknown_symbol.yaml:7: map.levels.ground: unknown map symbol '?' at ground:2,1 "
            "and 1 more cell (add it to map.legend, or use a default symbol: "
            "# . + ' L = > < ~ , ; % 0-5 and space)"
        ],
    ),
    (
        "bad_legend.yaml",
        [
            "bad_legend.yaml:5: map.legend.c.terrain: expected a terrain, found 'flor' (text) "
            "(did you mean 'floor'?)",
            "bad_legend.yaml:5: map.legend.c.clutter: expected clutter 0 to 5, "
            "found 9 (a whole number)",
            "bad_legend.yaml:6: map.legend.D.state: only doors have a state "
            "(remove it, or use terrain: door)",
        ],
    ),
    (
        "redefine_default.yaml",
        [
            "redefine_default.yaml:5: map.legend.#: '#' is a default symbol (a wall) and may "
            "not be redefined (pick another character for a new kind of cell; an entry for a "
            "default symbol may only add lock or zone)"
        ],
    ),
    (
        "stairs_ambiguous.yaml",
        [
            "stairs_ambiguous.yaml:7: map.levels.ground: the stairs between levels 'ground' and "
            "'upper' cannot be paired by their symbols alone: '>' at ground:1,1, ground:4,1; "
            "'<' at upper:2,1, upper:3,1 (add a map.stairs entry for each pair, such as "
            '{from: "ground:1,1", to: "upper:2,1"})'
        ],
    ),
    (
        "stairs_nowhere.yaml",
        [
            "stairs_nowhere.yaml:11: map.levels.upper: the stairs up at upper:3,1 lead nowhere: "
            "there is no level above 'upper' "
            "(levels are listed bottom first; '>' leads to the next one)"
        ],
    ),
    (
        "stairs_entry.yaml",
        ["stairs_entry.yaml:14: map.stairs[0].from: 'ground:1,1' is floor, not stairs"],
    ),
    (
        "bad_at.yaml",
        [
            'bad_at.yaml:16: figures[0].at: expected a position such as "ground:3,4" '
            "(level:x,y), found 'ground 1,1' "
            "(x is the column and y the row, 0-based from the top-left corner)"
        ],
    ),
    (
        "outside.yaml",
        [
            "outside.yaml:25: figures[1].at: 'upper:3,9' is outside level 'upper' (10 x 4) "
            "(x is the column, 0-9; y is the row from the top, 0-3)",
            "outside.yaml:29: figures[2].at: 'upper:0,0' is a wall "
            "(a figure starts on a cell it may enter)",
        ],
    ),
    (
        "unknown_level.yaml",
        ["unknown_level.yaml:16: figures[0].at: unknown level 'grund' (did you mean 'ground'?)"],
    ),
    (
        "duplicate_id.yaml",
        [
            "duplicate_id.yaml:18: objects[0].id: duplicate id 'zach': figures[0] has it too "
            "(figures and objects share one set of ids)"
        ],
    ),
    (
        "duplicate_side.yaml",
        ["duplicate_side.yaml:12: sides[1].id: duplicate side id 'fbi': sides[0] has it too"],
    ),
    (
        "no_such_side.yaml",
        [
            "no_such_side.yaml:14: figures[0].side: no side 'fbii' in this scenario "
            "(did you mean 'fbi'?)"
        ],
    ),
    (
        "hostage_side.yaml",
        [
            "hostage_side.yaml:19: figures[1].side: a hostage belongs to no side "
            "(remove the side key: hostages belong to nobody)"
        ],
    ),
    (
        "facing.yaml",
        [
            "facing.yaml:17: figures[0].facing: expected a compass direction such as n, ne, "
            "east or degrees, found 'up' (text) "
            "(n, ne, e, se, s, sw, w, nw, north … north-west, or degrees with 0 = north)"
        ],
    ),
    (
        "equipment.yaml",
        [
            "equipment.yaml:17: figures[0].equipment: expected a list of equipment names "
            "such as [smg, grenade], found 'smg' (text)"
        ],
    ),
    (
        "zones.yaml",
        [
            'zones.yaml:10: map.zones.exit[0]: expected a cell "level:x,y" or a rectangle '
            "\"level:x1,y1-x2,y2\", found 'ground:0,2-4' "
            '(for example "ground:0,4-9,4" is the bottom row of a 10-wide level)',
            "zones.yaml:11: map.zones.vault[0]: 'ground:1,1-5,1' is outside level 'ground' "
            "(5 x 3) (x is the column, 0-4; y is the row from the top, 0-2)",
        ],
    ),
    (
        "controller.yaml",
        [
            "controller.yaml:12: sides[0].controller: expected human, ai or ai:<bot name>, "
            "found 'robot' (text)"
        ],
    ),
    (
        "unknown_card.yaml",
        [
            "unknown_card.yaml:15: figures[0].card: no stat card 'rokie' in ruleset 'toy' "
            "(did you mean 'rookie'?)"
        ],
    ),
    (
        "many.yaml",
        [
            "many.yaml:3: turn_limit: expected a number of turns from 1 to 200, "
            "found 0 (a whole number)",
            "many.yaml:18: figures[0].at: 'ground:0,0' is a wall "
            "(a figure starts on a cell it may enter)",
            "many.yaml:20: figures[1].side: no side 'fbii' in this scenario (did you mean 'fbi'?)",
            "many.yaml:23: figures[1].hidden: expected true or false, found 'maybe' (text)",
            "many.yaml:24: figures[2].id: duplicate id 'zach': figures[0] has it too "
            "(figures and objects share one set of ids)",
            "many.yaml:28: objects[0].at: 'ground:9,9' is outside level 'ground' (5 x 4) "
            "(x is the column, 0-4; y is the row from the top, 0-3)",
        ],
    ),
    (
        "alias_bomb.yaml",
        [
            "alias_bomb.yaml:17: options: the aliases (*name) here expand the document past "
            "20000 values, the limit (an alias repeats a whole list or mapping: write fewer "
            "of them)"
        ],
    ),
    (
        "tag_int.yaml",
        [
            "tag_int.yaml:17: turn_limit: explicit YAML tags such as !!int are not supported "
            "(write the plain value without the tag)"
        ],
    ),
    (
        "tag_python.yaml",
        [
            "tag_python.yaml:15: figures[0].card: explicit YAML tags such as "
            "!!python/object/apply:os.system are not supported "
            "(write the plain value without the tag)"
        ],
    ),
    (
        "huge_number.yaml",
        ["huge_number.yaml:17: turn_limit: a whole number with more than 20 digits, the limit"],
    ),
    (
        "turn_limit.yaml",
        [
            "turn_limit.yaml:17: turn_limit: expected a number of turns from 1 to 200, "
            "found 10000000 (a whole number)"
        ],
    ),
    (
        "huge_rectangle.yaml",
        [
            "huge_rectangle.yaml:9: map.levels.ground: row 3 has 4 cells; the rows above have 5 "
            "(every row of a level has the same number of cells; if this row ends in outside "
            "cells, an editor may have trimmed its trailing spaces: end the row with a "
            "visible symbol)",
            "huge_rectangle.yaml:11: map.zones.rescue[0]: 'ground:0,0-99999999999,99999999999' "
            "is outside every level: a coordinate is at most 199 "
            "(x is the column and y the row, 0-based from the top-left corner)",
        ],
    ),
    (
        "zone_cells.yaml",
        [
            "zone_cells.yaml:208: map.zones.vault[1]: the zones up to here cover 120000 cells; "
            "the limit over all zones is 100000 (a zone lists each cell or rectangle once)"
        ],
    ),
    (
        "combining.yaml",
        [
            "combining.yaml:7: map.levels.ground: U+0301 COMBINING ACUTE ACCENT at ground:3,1 "
            "joins the character before it: a map cell is one character (accents and emoji "
            "made of several characters draw several cells; use a plain symbol and give it a "
            "legend entry)"
        ],
    ),
    (
        "big_level.yaml",
        [
            "big_level.yaml:5: map.levels.ground: level 'ground' is 201 x 3 cells; the limit is "
            "200 x 200 (split a large building into levels, or draw only the part that is "
            "played)"
        ],
    ),
    (
        "many_figures.yaml",
        ["many_figures.yaml:12: figures: the scenario has 201 figures; the limit is 200"],
    ),
    (
        "many_values.yaml",
        [
            "many_values.yaml:18: options.padding[4969]: more than 5000 YAML values in one "
            "file, the limit for a scenario (a scenario is a map and a few dozen figures: "
            "is this the right file?)"
        ],
    ),
    (
        "deep.yaml",
        [
            "deep.yaml:18: options.deep" + "[0]" * 38 + ": lists and mappings nested more "
            "than 40 deep, the limit"
        ],
    ),
]


@pytest.mark.parametrize(
    ("name", "expected"), [*TABLE, EXECUTE_CARD], ids=[*(name for name, _ in TABLE), None]
)
def test_bad_file_messages(name: str, expected: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    found = [str(p) for p in check_file(name)]
    if name in SUBSET:
        assert set(expected) <= set(found), found
        return
    assert found == expected
    with pytest.raises(ScenarioError) as caught:
        load_scenario(name)
    assert [str(p) for p in caught.value.problems] == expected
    assert str(caught.value) == "\n".join(expected)


def test_every_bad_fixture_is_in_the_table() -> None:
    listed = {name for name, _ in TABLE} | {"execute_card.yaml"}
    on_disk = {p.name for p in BAD.iterdir()}
    assert on_disk <= listed, sorted(on_disk - listed)
    assert len(TABLE) >= 20
