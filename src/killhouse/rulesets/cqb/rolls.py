"""The named rolls of CQB for ``killhouse odds cqb``: each runs the real resolution functions
(``resolve.py``) on fresh decks, so ``enumerate_outcomes`` gives exact odds from the code that
plays (section 15)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from killhouse.core.chance import Chance
from killhouse.core.deck import Card
from killhouse.rulesets.base import Param, RollSpec
from killhouse.rulesets.cqb.cards import ability_deck, hostage_deck, reaction_value, roll_luck
from killhouse.rulesets.cqb.resolve import (
    Protection,
    ShotFactors,
    cs_failures,
    cs_tn,
    judge,
    resolve_hit,
    resolve_shot,
    resolve_stray,
    shot_tn,
    stun_tn,
    test,
)
from killhouse.rulesets.cqb.tables import ABILITIES, ROUNDS, tables

CATEGORIES = (
    "junk-gun", "general-pistol", "target-pistol", "smg", "smg-plus", "poor-rifle", "rifle",
    "sniper-rifle", "shotgun",
)
CALLED = ("none", "brain-stem", "head", "strong-arm", "weak-arm", "leg", "torso")


def _ability(p: Mapping[str, Any], key: str = "ability") -> str:
    value = str(p[key])
    if value not in ABILITIES:
        raise ValueError(f"--{key} must be one of {', '.join(ABILITIES)}; got {value!r}")
    return value


def _jokers(p: Mapping[str, Any]) -> int:
    j = int(p.get("jokers", 2))
    if j not in (1, 2, 3):
        raise ValueError("--jokers must be 1, 2 or 3 (Luck, section 3.3)")
    return j


def odds_test(chance: Chance, p: Mapping[str, Any]) -> str:
    deck = ability_deck("deck", _ability(p), _jokers(p), colour=False)
    result = test(chance, deck, int(p["tn"]), "test")
    return "joker" if result.joker else ("pass" if result.passed else "fail")


def factors(p: Mapping[str, Any], shot: int, automatic: bool) -> ShotFactors:
    """The shot's TN factors from the command line's words."""
    aimed = p.get("aimed") or None
    called = p.get("called") or None
    called = None if called == "none" else called
    if aimed is not None and aimed not in CATEGORIES:
        raise ValueError(f"--aimed must be one of {', '.join(CATEGORIES)}")
    if called is not None and called not in CALLED:
        raise ValueError(f"--called must be one of {', '.join(CALLED)}")
    aim = int(tables().categories[aimed]["aim"]) if aimed else None
    return ShotFactors(
        range=float(p["range"]),
        firer_moved=1.0 if p.get("firer-moved") else 0.0,
        target_moved=float(p.get("target-moved") or 0),
        aim=aim,
        scope=bool(p.get("scope")) and aim is not None and shot == 1,
        called=called,
        shot=shot,
        heavy=p.get("recoil", "light") == "heavy",
        automatic=automatic,
        wounds=int(p.get("wounds") or 0),
        weak_hand=bool(p.get("weak-hand")),
    )


def odds_shot(chance: Chance, p: Mapping[str, Any]) -> str:
    fire = p.get("fire", "single")
    f = factors(p, int(p.get("shot") or 1), fire in ("burst", "auto"))
    deck = ability_deck("firer", _ability(p), _jokers(p), colour=False)
    shot = resolve_shot(chance, deck, shot_tn(f), f.called)
    return {"hit": "hit", "graze": "hit", "miss": "miss", "joker": "joker"}[shot.outcome]


def odds_burst(chance: Chance, p: Mapping[str, Any]) -> str:
    """One burst of ``rounds`` from one fresh deck, from shot number ``shot`` on."""
    deck = ability_deck("firer", _ability(p), _jokers(p), colour=False)
    first = int(p.get("shot") or 1)
    hits = 0
    for n in range(first, first + int(p.get("rounds") or 3)):
        f = factors(p, n, True)
        shot = resolve_shot(chance, deck, shot_tn(f), f.called)
        if shot.outcome == "joker":
            return f"jam-after-{hits}-hits"
        hits += shot.outcome in ("hit", "graze")
    return f"{hits}-hits"


def odds_reaction(chance: Chance, p: Mapping[str, Any]) -> str:
    first = ability_deck("a", _ability(p), _jokers(p), colour=False)
    second = ability_deck("b", _ability(p, "against"), _jokers(p), colour=False)
    a = reaction_value(chance.draw(first, "reaction"))
    b = reaction_value(chance.draw(second, "reaction"))
    return "first" if a > b else ("second" if b > a else "tie")


def _passes(tn: int) -> Callable[[Card], Hashable]:
    def key(card: Card) -> Hashable:
        return judge(card, tn).passed

    return key


def odds_stun(chance: Chance, p: Mapping[str, Any]) -> str:
    ability, jokers = _ability(p), _jokers(p)
    for k in range(int(p.get("tests") or 1)):
        deck = ability_deck("deck", ability, jokers)
        tn = stun_tn(k)
        deck.key = _passes(tn)  # the rule reads pass or fail only
        if test(chance, deck, tn, "stun").passed:
            return "recovered"
    return "stunned"


def odds_cs(chance: Chance, p: Mapping[str, Any]) -> str:
    deck = ability_deck("deck", _ability(p), _jokers(p), colour=False)
    n = cs_failures(test(chance, deck, cs_tn(int(p.get("turn") or 0)), "cs"))
    return {0: "pass", 1: "fail", 2: "overcome"}[n]


def odds_hostage(chance: Chance, p: Mapping[str, Any]) -> str:
    deck = hostage_deck()
    stray = resolve_stray(chance, deck, 1)
    if stray.hit is None:
        return "panic" if stray.panicked else "not-hit"
    rnd = str(p.get("round") or "pistol")
    if rnd not in ROUNDS:
        raise ValueError(f"--round must be one of {', '.join(ROUNDS)}")
    hit = resolve_hit(chance, deck, rnd, None, Protection(), redraw_jokers=True)
    return f"{hit.location}-{hit.effect}"


def odds_luck(chance: Chance, p: Mapping[str, Any]) -> str:
    return roll_luck(chance, "side")[0]


ABILITY = Param("ability", str, "experienced", "novice, experienced, veteran or elite", ABILITIES)
JOKERS = Param("jokers", int, 2, "jokers in the deck: 1 (good luck), 2, or 3 (bad luck)")
SHOT_PARAMS = (
    ABILITY,
    Param("range", float, 6.0, "range in inches (real distance)"),
    JOKERS,
    Param("firer-moved", bool, False, "the firer moved up to 6\" last turn (+2)"),
    Param("target-moved", float, 0.0, "inches the target moved (+1 up to 6\", +2 over)"),
    Param("aimed", str, "", "aimed with this weapon category", CATEGORIES),
    Param("scope", bool, False, "telescopic sight (aimed, first shot: -1)"),
    Param("called", str, "none", "called location", CALLED),
    Param("shot", int, 1, "the shot's number this turn (recoil)"),
    Param("recoil", str, "light", "light or heavy recoil", ("light", "heavy")),
    Param("fire", str, "single", "single shots, or burst or auto fire (recoil table)",
          ("single", "burst", "auto")),
    Param("wounds", int, 0, "the firer's wounds (+1 each)"),
    Param("weak-hand", bool, False, "firing with the weak hand (+2)"),
)

ROLLS: dict[str, RollSpec] = {
    "test": RollSpec("test", "A test (3.1, 12.1): one card from the ability deck against a TN; "
                     "a joker fails (Q-2).",
                     (ABILITY, Param("tn", int, 8, "the target number"), JOKERS), odds_test),
    "shot": RollSpec("shot", "One shot (8.2): TN 8 and every modifier; a card ≥ TN hits, a "
                     "joker is a stoppage.", SHOT_PARAMS, odds_shot),
    "burst": RollSpec("burst", "One burst of ROUNDS rounds from a fresh deck, each its own shot "
                      "with recoil (8.3.5); a joker jams and ends it.",
                      (*SHOT_PARAMS, Param("rounds", int, 3, "rounds in the burst (2-5)")),
                      odds_burst),
    "reaction": RollSpec("reaction", "A reaction test (6): one card each from fresh decks; "
                         "jokers count 0.",
                         (ABILITY, Param("against", str, "experienced", "the other figure's "
                                         "ability", ABILITIES), JOKERS), odds_reaction),
    "stun": RollSpec("stun", "A stun grenade (10): TN 8, then recovery tests at 7, 6, ... ; "
                     "stunned means still stunned after TESTS tests.",
                     (ABILITY, Param("tests", int, 1, "the first test and TESTS-1 recovery "
                                     "tests"), JOKERS), odds_stun),
    "cs": RollSpec("cs", "A CS gas test (11): TN 6 + turns since deployment; a joker is two "
                   "failures.",
                   (ABILITY, Param("turn", int, 0, "turns since deployment"), JOKERS), odds_cs),
    "hostage": RollSpec("hostage", "A complete miss and one hostage in the line of fire (8.5): "
                        "a red hostage-deck card hits, then location and effect.",
                        (Param("round", str, "pistol", "the firer's round", ROUNDS),),
                        odds_hostage),
    "luck": RollSpec("luck", "Luck (3.3): 1dA per side: 2 bad (3 jokers), 3-4 average, 5 good "
                     "(1 joker).", (), odds_luck),
}
