"""Technical repair of stopped cyber systems (§14.2; F-112, F-188) and the Medical skill in
play (§16.2; F-45, F-189 … F-191): legal actions, the skill rolls, their effects, the 2 cm
reach at its edge and one square past, and what the other sides hear."""

from __future__ import annotations

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from tests.rulesets.firewall.test_stealth import HIDE_AT, _activate, _stage
from tests.rulesets.firewall.test_teams import Dice

BESIDE = (HIDE_AT[0] + 1, HIDE_AT[1] + 1)  # diagonal neighbour: dx²+dy² = 2 ≤ 3 (2 cm)
PAST = (HIDE_AT[0] + 2, HIDE_AT[1])  # two squares: 4 > 3, one step past 2 cm


def _game(patient_at: tuple[int, int] = BESIDE, faces: list[int] | None = None,
          **patient: object) -> Game:
    """daewoo-1 (Gutz 6, Technical 1) beside daewoo-2, the daewoo team active."""
    game = _stage(keep=("daewoo-1", "daewoo-2", "thorco-1"))
    state: FirewallState = game.state
    p = state.figures["daewoo-2"]
    p.cell = patient_at
    for key, value in patient.items():
        setattr(p, key, value)
    _activate(game, "daewoo", "seoul")
    if faces is not None:
        game.chance = Dice(faces)  # type: ignore[assignment]
    return game


def _repair(game: Game, system: str = "cyber_eye") -> None:
    game.apply(Action.make("daewoo", "repair", figure="daewoo-1", patient="daewoo-2",
                           system=system))


STOPPED = {"cyber_stopped": frozenset({"lo_light", "target_optic"}), "cyber": frozenset()}


@pytest.mark.parametrize(("faces", "restored", "dead", "gutz"), [
    ([1, 2], True, False, 6),  # Technical 1 rolls against ⌊6/2⌋ = 3: 3 ≤ 3 (the edge)
    ([1, 3], False, False, 6),  # 4 > 3: F, one past; it may try again
    ([1, 1], True, False, 7),  # CS: +1 for the technician
    ([2, 2], False, True, 5),  # a double above 3: CF, −1 and the system dead (F-188)
])
def test_a_technical_roll_restores_one_stopped_system(
        faces: list[int], restored: bool, dead: bool, gutz: int) -> None:
    game = _game(faces=faces, **STOPPED)
    _repair(game)
    p = game.state.figures["daewoo-2"]
    assert ("lo_light" in p.cyber and "target_optic" in p.cyber) is restored
    assert bool(p.cyber_dead) is dead
    assert game.state.figures["daewoo-1"].gutz == gutz
    events = [e for e in game.log.events if e.kind == "repair"]
    assert events[-1].audience == frozenset({"daewoo"})  # cyber state is secret (§21.4)
    offered = [a for a in game.legal_actions("daewoo") if a.kind == "repair"]
    assert not offered  # its Movement action is spent
    game.state.figures["daewoo-1"].move_used = False
    game.state.figures["daewoo-1"].failed_this_turn = False
    _activate(game, "daewoo", "seoul")  # a later Turn
    again = [a for a in game.legal_actions("daewoo") if a.kind == "repair"
             and a.get("figure") == "daewoo-1"]
    assert bool(again) is (not restored and not dead)


def test_repair_reaches_two_cm_and_not_one_step_past() -> None:
    def offered(game: Game) -> list[Action]:
        return [a for a in game.legal_actions("daewoo") if a.kind == "repair"
                and a.get("figure") == "daewoo-1"]

    assert offered(_game(**STOPPED))
    game = _game(patient_at=PAST, **STOPPED)
    assert not offered(game)
    with pytest.raises(IllegalActionError, match="not within 2 cm"):
        _repair(game)
    assert game.state.figures["daewoo-2"].cyber_stopped == STOPPED["cyber_stopped"]


def test_a_figure_repairs_itself_and_only_stopped_systems() -> None:
    game = _game(faces=[1, 2])
    f = game.state.figures["daewoo-1"]
    f.cyber_stopped = frozenset({"cyber_ear"})
    with pytest.raises(IllegalActionError, match="no stopped system"):
        _repair(game, "cyber_eye")
    game.apply(Action.make("daewoo", "repair", figure="daewoo-1", patient="daewoo-1",
                           system="cyber_ear"))
    assert "cyber_ear" in f.cyber and not f.cyber_stopped


def _treat(game: Game, patient: str = "daewoo-2") -> None:
    game.apply(Action.make("daewoo", "treat", figure="daewoo-1", patient=patient))


MEDIC = {"medical": 2}


@pytest.mark.parametrize(("faces", "gutz", "healed"), [
    ([2, 4], 5, True),  # Medical 2 is the plain roll: 6 ≤ 6, S restores 2 (3 → 5)
    ([3, 4], 3, False),  # 7 > 6: F, the patient unchanged and not yet treated
    ([1, 1], 6, True),  # CS: one more, 3 → 6 (its start), the medic +1
    ([4, 4], 2, False),  # CF: the patient −1
])
def test_medical_heals_up_to_the_level(faces: list[int], gutz: int, healed: bool) -> None:
    game = _game(faces=faces, gutz=3)
    game.state.figures["daewoo-1"].skills = {**game.state.figures["daewoo-1"].skills, **MEDIC}
    _treat(game)
    p = game.state.figures["daewoo-2"]
    assert p.gutz == gutz and p.healed is healed
    assert [e.audience for e in game.log.events if e.kind == "treat"] == [
        frozenset({"daewoo"})]


def test_a_patient_is_healed_once_a_game_and_never_above_its_start() -> None:
    game = _game(faces=[1, 1], gutz=5)
    medic = game.state.figures["daewoo-1"]
    medic.skills = {**medic.skills, **MEDIC}
    _treat(game)
    assert game.state.figures["daewoo-2"].gutz == 6  # start 6: 5 + 3 capped
    medic.move_used = False
    with pytest.raises(IllegalActionError, match="one treatment"):
        _treat(game)


def test_medical_reach_and_level_zero() -> None:
    game = _game(patient_at=PAST, gutz=3)
    medic = game.state.figures["daewoo-1"]
    medic.skills = {**medic.skills, **MEDIC}
    with pytest.raises(IllegalActionError, match="not within 2 cm"):
        _treat(game)
    game = _game(gutz=3)
    assert not [a for a in game.legal_actions("daewoo") if a.kind == "treat"]
    with pytest.raises(IllegalActionError, match="no Medical skill"):
        _treat(game)


@pytest.mark.parametrize(("faces", "revived"), [([1, 2], False), ([3, 3], True)])
def test_a_revive_needs_a_critical_success(faces: list[int], revived: bool) -> None:
    game = _game(faces=faces, status=Status.KILLED, gutz=7)
    medic = game.state.figures["daewoo-1"]
    medic.skills = {**medic.skills, **MEDIC}
    _treat(game)
    p = game.state.figures["daewoo-2"]
    if not revived:
        assert p.status is Status.KILLED
        return
    assert p.status is Status.INCAPACITATED and p.gutz == 3  # ⌊7/2⌋
    seen = [e.audience for e in game.log.events if e.kind == "revived"]
    assert seen and "daewoo" in seen[0]
    # Incapacitated until the next Turn: it stands up in that Turn's upkeep
    state: FirewallState = game.state
    from killhouse.rulesets.firewall.skillplay import wake_revived
    wake_revived(state)
    assert p.status is Status.INCAPACITATED
    state.turn += 1
    wake_revived(state)
    assert p.status is Status.ACTIVE


def test_a_revive_gives_at_least_two() -> None:
    game = _game(faces=[3, 3], status=Status.KILLED, gutz=1)
    medic = game.state.figures["daewoo-1"]
    medic.skills = {**medic.skills, **MEDIC}
    _treat(game)
    assert game.state.figures["daewoo-2"].gutz == 2


def test_play_that_prefers_repairs_and_treatments_leaks_nothing() -> None:
    """Random legal Triple-Cross play where every figure is a medic, half have a stopped
    Cyber Eye and all have lost Gutz, preferring repair and treat: the invariants, the view
    contract and the leak check for every side after every action."""
    from pathlib import Path

    from killhouse.core.rng import Rng
    from killhouse.rulesets.kit.view import view_problems
    from killhouse.scenario.loader import load_scenario
    from tests.conformance import assert_no_leak

    thames = Path(__file__).parents[3] / "scenarios" / "firewall" / "triple_cross.yaml"
    kinds: list[str] = []
    for seed in (1, 2):
        game = Game(load_scenario(thames), seed)
        rng = Rng.from_seed(seed)
        state: FirewallState = game.state
        sides = list(state.sides)
        for i, f in enumerate(state.figures.values()):
            f.skills = {**f.skills, "medical": 1 + i % 3}
            f.gutz = max(2, f.gutz - 2)
            if i % 2 == 0 and "lo_light" in f.cyber:
                f.cyber = f.cyber - {"lo_light"}
                f.cyber_stopped = frozenset({"lo_light"})
        for _ in range(500):
            pending = game.pending()
            if not pending:
                break
            side = pending[0].side
            actions = [a for a in game.legal_actions(side) if not a.get("exit")]
            wanted = [a for a in actions if a.kind in ("repair", "treat")]
            pool = wanted if wanted and rng.below(3) else actions
            action = pool[rng.below(len(pool))]
            before = {s: game.ruleset.known_ids(game.state, s) for s in sides}
            start = len(game.log)
            game.apply(action)
            assert not game.ruleset.invariants(game.state)
            for other in sides:
                assert not view_problems(game.view(other))
                assert_no_leak(game, other, before[other], start)
            kinds += [e.kind for e in game.log.since(start)]
    assert {"repair", "treat"} <= set(kinds)
