"""One ranged attack on a board: legality (§7.1), modifiers from the state, the order of
§21.3 / F-20, armour, F-33, malfunctions and leader loss."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.chance import Chance
from killhouse.core.events import Audience, EventLog
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall.fire import fire_modifier
from killhouse.rulesets.firewall.shooting import (
    Shot,
    resolve_shot,
    shot_problem,
    shot_situation,
)
from killhouse.rulesets.firewall.teams import Figure, Status, Team, new_figure


class Dice(Chance):
    """A chance that gives the listed die faces in order (1-based)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self.faces.pop(0) - 1


def _board() -> Board:
    return Board([Level.blank("street", 48, 48)])


def _game(
    target_cell: tuple[int, int] = (10, 4), extra: dict[str, tuple[int, int]] | None = None,
    weapons: tuple[str, ...] = ("corp_arms_shp",), gutz: int = 8,
) -> tuple[dict[str, Figure], dict[str, Team]]:
    figures = {
        "f": new_figure("f", "swat", "red", (6, 4), gutz=gutz, weapons=weapons, facing=(1, 0)),
        "lead": new_figure("lead", "gang", "blue", target_cell, gutz=8, is_leader=True,
                           armour="korlon_pleximesh"),
    }
    for fid, cell in (extra or {}).items():
        figures[fid] = new_figure(fid, "gang", "blue", cell, gutz=7)
    teams = {
        "red": Team("red", "swat", ("f",), "f"),
        "blue": Team("blue", "gang", tuple(f for f in figures if f != "f"), "lead"),
    }
    return figures, teams


def test_s1_on_the_board_light_cover_and_korlon() -> None:
    board = _board()
    board.levels[0].cover[4, 10] = 1  # light cover on the target's square
    figures, teams = _game()  # 4 squares: 7.5 cm, effective
    shot = Shot("f", "corp_arms_shp", "lead")
    assert fire_modifier(shot_situation(board, figures, teams, shot)) == 0
    report = resolve_shot(board, figures, teams, shot, Dice([3, 5]), EventLog())
    assert report.result == "S" and figures["lead"].gutz == 7  # −2, Korlon −1
    assert figures["f"].combat_used and not figures["f"].failed_this_turn
    assert teams["blue"].aware


def test_cover_from_the_square_the_line_enters_by() -> None:
    board = _board()
    board.levels[0].cover[4, 9] = 2  # medium cover next to the target, on the line
    figures, teams = _game()
    situation = shot_situation(board, figures, teams, Shot("f", "corp_arms_shp", "lead"))
    assert situation.cover == "medium" and not situation.intervening_cover
    board.levels[0].cover[4, 9] = 0
    board.levels[0].cover[4, 8] = 3  # heavy cover further back: intervening (−2)
    situation = shot_situation(board, figures, teams, Shot("f", "corp_arms_shp", "lead"))
    assert situation.cover == "none" and situation.intervening_cover


def test_critical_success_kills_the_leader_and_the_team_rolls() -> None:
    board = _board()
    figures, teams = _game(extra={"m": (20, 20)})
    report = resolve_shot(board, figures, teams, Shot("f", "corp_arms_shp", "lead"),
                          Dice([4, 4, 1, 5]), EventLog())
    assert figures["lead"].status is Status.KILLED and figures["f"].gutz == 9
    assert report.leader_losses["m"].result == "S"
    assert figures["m"].gutz == 6 and figures["m"].suppressed  # F-5
    assert teams["blue"].leader_lost


def test_critical_failure_jams_the_weapon() -> None:
    board = _board()
    figures, teams = _game()
    report = resolve_shot(board, figures, teams, Shot("f", "corp_arms_shp", "lead"),
                          Dice([5, 5, 3]), EventLog())
    assert report.result == "CF" and report.malfunction == "jammed"
    assert figures["f"].gutz == 7 and figures["f"].failed_this_turn
    assert figures["f"].weapon_state["corp_arms_shp"] == "jammed"
    assert shot_problem(board, figures, Shot("f", "corp_arms_shp", "lead")) is not None


def test_burst_hits_friends_of_the_target_never_the_firer() -> None:
    board = _board()
    figures, teams = _game(target_cell=(11, 4), extra={"b": (12, 5), "c": (13, 6), "d": (14, 5)},
                           weapons=("imi_buzzard",), gutz=7)
    report = resolve_shot(board, figures, teams, Shot("f", "imi_buzzard", "lead"),
                          Dice([1, 4]), EventLog())
    assert report.result == "S"
    assert figures["lead"].gutz == 8 and figures["lead"].suppressed  # Korlon: 0 net
    assert figures["b"].gutz == 6 and figures["c"].suppressed and not figures["d"].suppressed


def test_nonlethal_stunner_incapacitates() -> None:
    board = _board()
    figures, teams = _game(weapons=("isuku_stunner",))
    resolve_shot(board, figures, teams, Shot("f", "isuku_stunner", "lead"), Dice([2, 2]),
                 EventLog())
    assert figures["lead"].status is Status.INCAPACITATED  # F-33


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("adjacent", "close combat only"),
        ("behind", "front arc"),
        ("far", "Long range"),
        ("wall", "line of sight"),
        ("used", "no Combat action"),
        ("weapon", "does not carry"),
    ],
)
def test_illegal_shots_change_nothing(change: str, reason: str) -> None:
    board = _board()
    figures, teams = _game(extra={"e": (30, 30)})
    shot = Shot("f", "corp_arms_shp", "lead")
    if change == "adjacent":
        figures["e"].cell = (7, 5)  # king-move neighbour: within 2 cm
    elif change == "behind":
        figures["f"].facing = (-1, 0)
    elif change == "far":
        figures["lead"].cell = (15, 5)  # 9² + 1² = 82 > 81: past 20 cm
    elif change == "wall":
        board.levels[0].terrain[4, 8] = Terrain.WALL
    elif change == "used":
        figures["f"].combat_used = True
    else:
        shot = Shot("f", "colt_m2117", "lead")
    before = repr(figures)
    with pytest.raises(IllegalActionError, match=reason):
        resolve_shot(board, figures, teams, shot, Dice([]), EventLog())
    assert repr(figures) == before


def test_long_range_edge_is_legal() -> None:
    board = _board()
    figures, _teams = _game(target_cell=(15, 4))  # 9² = 81: exactly 20 cm
    assert shot_problem(board, figures, Shot("f", "corp_arms_shp", "lead")) is None


def _thrower(grenades: dict[str, int]) -> tuple[Board, dict[str, Figure], dict[str, Team]]:
    board = _board()
    figures, teams = _game(target_cell=(9, 4), gutz=7)  # 3 squares: 5 cm, effective
    figures["f"].grenades = dict(grenades)
    return board, figures, teams


def test_s16_thrown_fragmentation_grenade() -> None:
    board, figures, teams = _thrower({"fragmentation": 2})
    shot = Shot("f", "hand_grenade", "lead", grenade="fragmentation")
    assert fire_modifier(shot_situation(board, figures, teams, shot)) == 0
    report = resolve_shot(board, figures, teams, shot, Dice([2, 3]), EventLog())
    assert report.result == "S" and figures["lead"].suppressed
    assert figures["lead"].gutz == 8  # B −1, Korlon −1
    assert figures["f"].grenades["fragmentation"] == 1  # consumed


def test_concussion_ignores_non_powered_armour_and_tangler_incapacitates() -> None:
    board, figures, teams = _thrower({"concussion": 1, "tangler": 1})
    resolve_shot(board, figures, teams, Shot("f", "hand_grenade", "lead", grenade="concussion"),
                 Dice([2, 3]), EventLog())
    assert figures["lead"].gutz == 7  # Korlon does not count against Concussion
    figures["f"].combat_used = False
    resolve_shot(board, figures, teams, Shot("f", "hand_grenade", "lead", grenade="tangler"),
                 Dice([1, 1]), EventLog())
    assert figures["lead"].status is Status.INCAPACITATED  # F-33


def test_x4_grenade_critical_failure_lands_on_the_thrower() -> None:
    board, figures, teams = _thrower({"fragmentation": 1})
    figures["lead"].cell = (10, 4)  # 4 squares: 7.5 cm, beyond the 5 cm suppression radius
    report = resolve_shot(board, figures, teams,
                          Shot("f", "hand_grenade", "lead", grenade="fragmentation"),
                          Dice([4, 4, 5]), EventLog())
    assert report.malfunction == "grenade_s_on_firer"
    assert figures["f"].gutz == 5 and figures["f"].suppressed  # −1 CF, −1 own grenade's S
    assert figures["lead"].gutz == 8 and not figures["lead"].suppressed


@pytest.mark.parametrize(
    ("grenades", "kind", "reason"),
    [({"fragmentation": 0}, "fragmentation", "no Fragmentation grenade left"),
     ({"smoke": 1}, "smoke", "target a square: use the cloud action"),
     ({"fragmentation": 1}, "photon", "no grenade type")],
)
def test_grenade_refusals(grenades: dict[str, int], kind: str, reason: str) -> None:
    board, figures, _teams = _thrower(grenades)
    assert reason in str(shot_problem(board, figures, Shot("f", "hand_grenade", "lead",
                                                           grenade=kind)))
