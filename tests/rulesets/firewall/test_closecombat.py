"""One close-combat attack on a board (§10, F-31, F-32): vector C1 in play, reach edge."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.chance import Chance
from killhouse.core.events import Audience, EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall.closecombat import (
    best_weapon_class,
    melee_situation,
    resolve_melee,
)
from killhouse.rulesets.firewall.melee import melee_modifier
from killhouse.rulesets.firewall.teams import Figure, Status, Team, new_figure


class Dice(Chance):
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self.faces.pop(0) - 1


def _c1() -> tuple[Board, dict[str, Figure], dict[str, Team]]:
    board = Board([Level.blank("street", 20, 20)])
    board.levels[0].clutter[5, 6] = 3  # the target's square
    figures = {
        "a": new_figure("a", "swat", "red", (5, 5), gutz=8),
        "friend": new_figure("friend", "swat", "red", (7, 6), gutz=7),  # next to the target
        "t": new_figure("t", "gang", "blue", (6, 5), gutz=8, armour="piece_metal"),
        "e": new_figure("e", "gang", "blue", (4, 4), gutz=7),  # next to the attacker only
    }
    teams = {
        "red": Team("red", "swat", ("a", "friend"), None, aware=True),
        "blue": Team("blue", "gang", ("t", "e"), None, aware=True),
    }
    return board, figures, teams


def test_c1_modifiers_from_the_board() -> None:
    board, figures, teams = _c1()
    s = melee_situation(board, figures, teams, "a", "t", items=("sword",))
    assert (s.weapon, s.extra_friends, s.extra_enemies, s.clutter) == ("close_combat", 1, 1, 3)
    assert melee_modifier(s) == -1
    teams["blue"].aware = False  # F-32: an unaware target is surprised (+2)
    assert melee_modifier(melee_situation(board, figures, teams, "a", "t", ("sword",))) == 1


@pytest.mark.parametrize(
    ("dice", "target_gutz", "target_status", "attacker_gutz", "attacker_status"),
    [
        ((3, 4), 6, Status.ACTIVE, 8, Status.ACTIVE),  # S: −4, Piece Metal melee 2
        ((4, 4), 8, Status.KILLED, 9, Status.ACTIVE),
        ((5, 5), 9, Status.ACTIVE, 8, Status.KILLED),
    ],
)
def test_c1_results(
    dice: tuple[int, int], target_gutz: int, target_status: Status, attacker_gutz: int,
    attacker_status: Status,
) -> None:
    board, figures, teams = _c1()
    resolve_melee(board, figures, teams, "a", "t", Dice(dice), EventLog(), items=("sword",))
    assert (figures["t"].gutz, figures["t"].status) == (target_gutz, target_status)
    assert (figures["a"].gutz, figures["a"].status) == (attacker_gutz, attacker_status)


def test_reach_is_the_king_move_neighbours() -> None:
    board, figures, teams = _c1()
    figures["t"].cell = (7, 7)  # dx²+dy² = 8 > 3: out of reach
    with pytest.raises(IllegalActionError, match="within 2 cm"):
        resolve_melee(board, figures, teams, "a", "t", Dice([]), EventLog())
    assert not figures["a"].combat_used
    figures["t"].cell = (6, 6)  # diagonal neighbour: 2 <= 3
    resolve_melee(board, figures, teams, "a", "t", Dice([1, 2]), EventLog())
    assert figures["a"].combat_used


def test_best_weapon_class_does_not_stack() -> None:
    f = new_figure("x", "s", "t", (0, 0), gutz=7, weapons=("hk_mp5261v", "corp_arms_shp"))
    assert best_weapon_class(f) == "machine_pistol"
    assert best_weapon_class(f, ("knife",)) == "machine_pistol"
    f.weapons = ("corp_arms_riot_gun",)
    assert best_weapon_class(f) == "improvised"
    f.cyber = frozenset({"cyber_legs_basic"})
    assert best_weapon_class(f) == "knife"
