"""Building sections in play (§12, ruling F-36): only SS(A) weapons, Guns and improvised
bombs affect them; the SS(A) table, the AV matrix, the AP bomb's B table; destruction below
Gutz 2 or by a kill; the collapse costs everyone inside 4 Gutz and leaves Clutter 5 rubble."""

from __future__ import annotations

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.events import EventLog
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.buildings import (
    Section,
    collapse,
    damage,
    section_effect,
)
from killhouse.rulesets.firewall.flow import FLOW
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Team, new_figure
from killhouse.rulesets.firewall.upkeep import new_game
from tests.rulesets.firewall.test_teams import Dice


@pytest.mark.parametrize(("weapon", "grenade", "result", "armour", "effect"), [
    ("improvised_bomb_ap", None, "CS", "light", "kill"),
    ("improvised_bomb_ap", None, "S", "heavy", 1),
    ("improvised_bomb_ap", None, "F", "soft", 0),
    ("guo_peng_p_law", None, "CS", "light", "kill"),
    ("hand_grenade", "heat", "CS", "medium", "kill"),
    ("improvised_bomb_av", None, "F", "light", 0),
])
def test_the_effect_table(weapon: str, grenade: str | None, result: str, armour: str,
                          effect: object) -> None:
    assert section_effect(weapon, grenade, result, armour) == effect  # type: ignore[arg-type]


def test_ssa_and_guns_read_their_tables() -> None:
    t = tables()
    assert section_effect("guo_peng_p_law", None, "S", "light") == t.ssa_loss["light"]
    assert section_effect("guo_peng_p_law", None, "CS", "heavy") == t.ssa_cs_heavy_loss
    cell = t.av["AV(L)"]["medium"]["S"]
    assert section_effect("korolev_rail_gun", None, "S", "medium") == (
        "kill" if cell == "kill" else int(cell))


@pytest.mark.parametrize(("loss", "destroyed"), [(5, False), (6, True)])
def test_a_section_falls_below_gutz_2(loss: int, destroyed: bool) -> None:
    """Gutz 7 − 5 = 2 stands (the edge); − 6 = 1 falls (one past)."""
    section = Section("s", 0, ((0, 0),))
    assert damage(section, loss) is destroyed


def _board() -> Board:
    board = Board([Level.blank("street", 40, 20)])
    board.levels[0].terrain[4:8, 30:34] = Terrain.WALL
    return board


def test_a_collapse_hurts_those_inside_and_leaves_rubble() -> None:
    board = _board()
    inside = new_figure("in", "b", "tb", (31, 5), gutz=8, armour="high_threat_suit")
    outside = new_figure("out", "b", "tb", (29, 5), gutz=8)
    section = Section("s", 0, tuple((x, y) for y in range(4, 8) for x in range(30, 34)))
    assert collapse(board, {"in": inside, "out": outside}, section) == ["in"]
    assert inside.gutz == 4 and outside.gutz == 8  # no armour reduction (F-36)
    lv = board.levels[0]
    assert (lv.clutter[4:8, 30:34] == 5).all() and not board.opaque(0)[4:8, 30:34].any()


def _state(weapon: str, x: int) -> tuple[FirewallState, EventLog, Dice]:
    figures = {
        "a": new_figure("a", "a", "ta", (x, 5), gutz=9, is_leader=True, facing=(1, 0),
                        weapons=(weapon, "colt_m2117")),
        "b": new_figure("b", "b", "tb", (38, 18), gutz=8, is_leader=True, facing=(0, -1)),
    }
    teams = {"ta": Team("ta", "a", ("a",), "a", aware=True),
             "tb": Team("tb", "b", ("b",), "b", aware=True)}
    log = EventLog()
    chance = Dice([6, 1])
    state = new_game(_board(), figures, teams, ("a", "b"), chance, log, 15)
    state.sections = {"s": Section("s", 0, tuple((x, y) for y in range(4, 8)
                                                 for x in range(30, 34)))}
    FLOW.apply(state, Action.make("a", "activate", team="ta"), chance, log)
    return state, log, chance


def test_blasting_a_section_in_play() -> None:
    state, log, chance = _state("guo_peng_p_law", 20)
    chance.faces.extend([1, 1])  # a CS: a kill against Light armour
    FLOW.apply(state, Action.make("a", "blast", figure="a", weapon="guo_peng_p_law",
                                  section="s"), chance, log)
    assert state.sections["s"].destroyed
    assert state.board.passable(Cell(0, 31, 5))  # rubble: passable
    assert [e.kind for e in log.events][-1] == "blast"


def test_only_ssa_guns_and_bombs_affect_a_section() -> None:
    state, log, chance = _state("guo_peng_p_law", 20)
    with pytest.raises(IllegalActionError, match="only SS"):
        FLOW.apply(state, Action.make("a", "blast", figure="a", weapon="colt_m2117",
                                      section="s"), chance, log)


@pytest.mark.parametrize(("x", "ok"), [(5, True), (4, False)])
def test_the_long_range_to_a_section(x: int, ok: bool) -> None:
    """P-LAW Long 60 cm: dx²+dy² ≤ 625, 25 squares to the nearest section square (30, 5);
    from x = 5 it is 25 (the edge), from x = 4 it is 26 (one past)."""
    state, log, chance = _state("guo_peng_p_law", x)
    blast = Action.make("a", "blast", figure="a", weapon="guo_peng_p_law", section="s")
    if ok:
        chance.faces.extend([6, 5])
        FLOW.apply(state, blast, chance, log)
        assert not state.sections["s"].destroyed
    else:
        with pytest.raises(IllegalActionError, match="Long range"):
            FLOW.apply(state, blast, chance, log)
