"""The baseline bot scores attacks itself: it never fires at a hostage or a friend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from killhouse.ai.baseline import BaselineBot
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def bot() -> BaselineBot:
    return BaselineBot(load_scenario(ROOT / "scenarios" / "execute" / "embassy.yaml"), "fbi")


VIEW: dict[str, Any] = {
    "figures": [{"id": "a1", "side": "fbi", "at": [0, 5, 5], "status": "active"}],
    "seen": [
        {"id": "h1", "kind": "hostage", "side": "hostages", "at": [0, 6, 5], "status": "active"},
        {"id": "t1", "kind": "terrorist", "side": "terrorists", "at": [0, 9, 5],
         "status": "active"},
    ],
}


def fire(target: str, p: float) -> Action:
    return Action.make("fbi", "fire", {"role": "attack", "target": target, "p": p},
                       figure="a1", target=target)


DONE = Action.make("fbi", "done", {"role": "pass"})


def test_a_likely_shot_at_a_hostage_loses_to_an_unlikely_one_at_a_gunman() -> None:
    actions = [fire("h1", 0.9), fire("t1", 0.2), DONE]
    assert bot().choose(VIEW, actions, Rng.from_seed(1)) == actions[1]


def test_with_only_a_hostage_in_the_sights_the_bot_holds_its_fire() -> None:
    assert bot().choose(VIEW, [fire("h1", 0.9), DONE], Rng.from_seed(1)) == DONE


def test_no_friend_is_a_target_and_no_grenade_lands_on_one() -> None:
    b = bot()
    assert b.attack_worth(VIEW, fire("a1", 0.9)) == -1.0
    throw_on_hostage = Action.make("fbi", "throw", {"role": "attack", "p": 0.8},
                                   figure="a1", at=[0, 6, 5])
    throw_on_gunman = Action.make("fbi", "throw", {"role": "attack", "p": 0.8},
                                  figure="a1", at=[0, 9, 5])
    assert b.attack_worth(VIEW, throw_on_hostage) == -1.0
    assert b.attack_worth(VIEW, throw_on_gunman) == 1.0


def test_a_value_the_ruleset_still_gives_is_kept() -> None:
    shot = Action.make("fbi", "fire", {"role": "attack", "target": "t1", "p": 0.5, "value": 2.0},
                       figure="a1", target="t1")
    assert bot().attack_worth(VIEW, shot) == 2.0
