"""The named rolls of Firewall for ``killhouse odds`` (each runs the resolution code itself)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from killhouse.core.chance import Chance
from killhouse.errors import UnknownRollError
from killhouse.rulesets.base import JSON, Param, RollSpec
from killhouse.rulesets.firewall.fire import FireSituation, fire_modifier
from killhouse.rulesets.firewall.gutz import Result, gutz_roll
from killhouse.rulesets.firewall.jams import malfunction_roll
from killhouse.rulesets.firewall.leaders import leader_loss_roll
from killhouse.rulesets.firewall.melee import MeleeSituation, melee_modifier
from killhouse.rulesets.firewall.movement import (
    fall,
    needs_second_roll,
    second_roll_change,
)
from killhouse.rulesets.firewall.tables import Weapon, tables

#: Outcome names of the four result categories.
NAMES: dict[str, str] = {
    "CS": "critical-success",
    "S": "success",
    "F": "failure",
    "CF": "critical-failure",
}
COVERS = ("none", "light", "medium", "heavy")
EXPERIENCES = ("veteran", "experienced", "normal", "green")
SPEEDS = ("crawl", "walk", "run")
MELEE_WEAPONS = ("unarmed", "improvised", "knife", "close_combat", "machine_pistol",
                 "assault_rifle", "powered")


def _int(params: Mapping[str, JSON], name: str, low: int, high: int) -> int:
    value = params[name]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise UnknownRollError(f"--{name}: expected a whole number {low}..{high}, found {value!r}")
    return value


def _str(params: Mapping[str, JSON], name: str) -> str:
    return str(params[name])


def _gutz(params: Mapping[str, JSON]) -> int:
    return _int(params, "gutz", 2, 11)  # §2.1: Gutz is always 2..11


def _weapon(params: Mapping[str, JSON]) -> Weapon:
    try:
        return tables().weapon(_str(params, "weapon"))
    except KeyError:
        raise UnknownRollError(
            f"--weapon: no weapon {params['weapon']!r} in the section 8 tables "
            "(printed name, case-insensitive, or id)"
        ) from None


def odds_gutz(chance: Chance, params: Mapping[str, JSON]) -> str:
    """A plain Gutz roll, or a skill roll at level 0..3 (§2.2, §16.1)."""
    level = _int(params, "skill-level", 0, 3)
    gutz = _gutz(params)
    start = params.get("start-gutz")
    roll = gutz_roll(
        chance, gutz, _int(params, "mod", -20, 20), "gutz",
        skill_level=level,  # type: ignore[arg-type]
        in_combat=bool(params["in-combat"]),
        start_gutz=gutz if start in (None, 0) else _int(params, "start-gutz", 2, 11),
    )
    return NAMES[roll.result]


def _band(weapon: Weapon, range_cm: Fraction) -> str:
    if range_cm <= weapon.short:
        return "short"
    if range_cm <= weapon.effect:
        return "effective"
    if range_cm <= weapon.long:
        return "long"
    raise UnknownRollError(
        f"--range-cm: {range_cm} cm is beyond {weapon.name}'s Long range of {weapon.long} cm "
        "(ruling F-19: no shot)"
    )


def odds_shoot(chance: Chance, params: Mapping[str, JSON]) -> str:
    """One ranged attack's Gutz roll with the §7.5 modifiers (range as a model distance)."""
    weapon = _weapon(params)
    fire = params["fire-type"]
    try:
        mode = weapon.mode(None if fire in (None, "") else str(fire))
    except ValueError as exc:
        raise UnknownRollError(f"--fire-type: {exc}") from None
    cover = _str(params, "cover")
    if cover not in COVERS:
        raise UnknownRollError(f"--cover: expected one of {', '.join(COVERS)}, found {cover!r}")
    situation = FireSituation(
        mode=mode,
        band=_band(weapon, Fraction(_int(params, "range-cm", 0, 1000))),  # type: ignore[arg-type]
        suppressed=bool(params["suppressed"]),
        target_prone=bool(params["prone"]),
        cover=cover,  # type: ignore[arg-type]
        target_clutter=_int(params, "clutter", 0, 5),
        leader=1 if params["leader-near"] else 0,
    )
    return NAMES[gutz_roll(chance, _gutz(params), fire_modifier(situation), "shoot").result]


def odds_close_combat(chance: Chance, params: Mapping[str, JSON]) -> str:
    """One close-combat attack's roll with the §10 modifiers."""
    weapon = _str(params, "weapon-class")
    if weapon not in MELEE_WEAPONS:
        raise UnknownRollError(
            f"--weapon-class: expected one of {', '.join(MELEE_WEAPONS)}, found {weapon!r}"
        )
    situation = MeleeSituation(
        weapon=weapon,
        surprised=bool(params["surprised"]),
        extra_enemies=_int(params, "extra-enemies", 0, 8),
        extra_friends=_int(params, "extra-friends", 0, 8),
        clutter=_int(params, "clutter", 0, 5),
        suppressed=bool(params["suppressed"]),
        leader=1 if params["leader-near"] else 0,
    )
    roll = gutz_roll(chance, _gutz(params), melee_modifier(situation), "close combat")
    return NAMES[roll.result]


def odds_move(chance: Chance, params: Mapping[str, JSON]) -> str:
    """A move's roll (§6.2), with the running second roll after a failed Run (F-11)."""
    speed = _str(params, "speed")
    if speed not in SPEEDS:
        raise UnknownRollError(f"--speed: expected one of {', '.join(SPEEDS)}, found {speed!r}")
    mod = -_int(params, "clutter", 0, 5) + (1 if params["leader-near"] else 0)
    roll = gutz_roll(chance, _gutz(params), mod, "move")
    if needs_second_roll(speed, roll.result):
        second = gutz_roll(chance, _gutz(params), mod, "running second roll")
        return "failure-and-gutz-lost" if second_roll_change(second.result) else "failure"
    return NAMES[roll.result]


def odds_malfunction(chance: Chance, params: Mapping[str, JSON]) -> str:
    """What a ranged critical failure does to the weapon (§11.1), given the CF."""
    weapon = _weapon(params)
    fire = params["fire-type"]
    try:
        mode = weapon.mode(None if fire in (None, "") else str(fire))
    except ValueError as exc:
        raise UnknownRollError(f"--fire-type: {exc}") from None
    experience = _str(params, "experience")
    if experience not in EXPERIENCES:
        raise UnknownRollError(
            f"--experience: expected one of {', '.join(EXPERIENCES)}, found {experience!r}"
        )
    # ruling F-28: hand grenades, launcher grenades and improvised bombs use the grenade column
    throwable = weapon.grenade or weapon.launcher
    effect = malfunction_roll(chance, mode.malf, mode.fire, experience, grenade=throwable)
    return "no-roll" if effect is None else effect.replace("_", "-")


def odds_unjam(chance: Chance, params: Mapping[str, JSON]) -> str:
    """Un-jamming (§11.2): leader bonus applies; clutter and suppression do not (F-30)."""
    roll = gutz_roll(chance, _gutz(params), 1 if params["leader-near"] else 0, "un-jam")
    return {"CS": "un-jammed", "S": "un-jammed", "F": "still-jammed", "CF": "useless"}[roll.result]


def odds_fall(chance: Chance, params: Mapping[str, JSON]) -> str:
    """A fall (§6.6, F-18): floor(h/4) unmodified SS attacks at Gutz min(11, 2h)."""
    _, killed, lost = fall(chance, _int(params, "height-cm", 0, 200), "odds")
    if killed:
        return "killed"
    return "unhurt" if lost == 0 else f"gutz-{lost}"


def odds_leader_loss(chance: Chance, params: Mapping[str, JSON]) -> str:
    """A member's unmodified roll when its leader falls (§4, F-5)."""
    effect = leader_loss_roll(chance, _gutz(params), suppressed=False)
    result: Result = effect.result
    if effect.status == "routed":
        return "routs"
    return {"CS": "inspired", "S": "dispirited", "F": "dispirited-failed"}[result]


_GUTZ = Param("gutz", int, 7, "the roller's current Gutz (2-11)")
_LEADER = Param("leader-near", bool, False, "own leader within 8 cm (+1)")

ROLLS: dict[str, RollSpec] = {
    "gutz": RollSpec(
        "gutz", "A Gutz roll on 2d6 (§2.2): doubles are criticals judged before and without "
        "modifiers (F-2..F-4); skill levels 0-3 per §16.1.",
        (
            _GUTZ,
            Param("mod", int, 0, "the sum of the modifiers M"),
            Param("skill-level", int, 2, "skill level 0-3 (2 = a plain Gutz roll)"),
            Param("in-combat", bool, False, "the team is aware (skill level 3, F-42)"),
            Param("start-gutz", int, 0, "starting Gutz for skill level 3 (0 = current)"),
        ),
        odds_gutz,
    ),
    "shoot": RollSpec(
        "shoot", "A ranged attack (§7): the weapon's Gutz, range band (model distance in cm), "
        "controlled burst, cover, prone, clutter, suppression and leader modifiers.",
        (
            _GUTZ,
            Param("weapon", str, "Colt 10mm UAW", "weapon by printed name or id (§8)"),
            Param("range-cm", int, 12, "model distance to the target in cm"),
            Param("fire-type", str, "", "declared fire type (default: the weapon's first)"),
            Param("prone", bool, False, "target prone (−2)"),
            Param("cover", str, "none", "target cover", COVERS),
            Param("clutter", int, 0, "clutter of the target's square (4: −1, 5: −2)"),
            Param("suppressed", bool, False, "firer suppressed (−4)"),
            _LEADER,
        ),
        odds_shoot,
    ),
    "move": RollSpec(
        "move", "A move (§6.2) with the route's highest clutter; a failed Run rolls again and "
        "loses 1 Gutz on F or CF (F-11).",
        (
            _GUTZ,
            Param("speed", str, "walk", "crawl, walk or run", SPEEDS),
            Param("clutter", int, 0, "the highest clutter on the route (0-5)"),
            _LEADER,
        ),
        odds_move,
    ),
    "close-combat": RollSpec(
        "close-combat", "A close-combat attack (§10) against infantry.",
        (
            _GUTZ,
            Param("weapon-class", str, "unarmed", "the best weapon class", MELEE_WEAPONS),
            Param("clutter", int, 0, "the higher clutter of the two squares"),
            Param("extra-enemies", int, 0, "other active enemies within 2 cm of the attacker"),
            Param("extra-friends", int, 0, "other active friends within 2 cm of the target"),
            Param("surprised", bool, False, "target surprised (+2, F-32)"),
            Param("suppressed", bool, False, "attacker suppressed (−4)"),
            _LEADER,
        ),
        odds_close_combat,
    ),
    "malfunction": RollSpec(
        "malfunction", "The malfunction d6 after a ranged critical failure (§11.1): Malf, "
        "+1 for MG fire, +1 Green, −1 Veteran; grenades use their own column (F-28).",
        (
            Param("weapon", str, "H&K MP5261v", "weapon by printed name or id (§8)"),
            Param("fire-type", str, "", "declared fire type (default: the weapon's first)"),
            Param("experience", str, "normal", "the firer's experience", EXPERIENCES),
        ),
        odds_malfunction,
    ),
    "unjam": RollSpec(
        "unjam", "Clearing a jammed weapon (§11.2, F-30).",
        (_GUTZ, _LEADER),
        odds_unjam,
    ),
    "fall": RollSpec(
        "fall", "A fall from a height in cm (§6.6, F-18).",
        (Param("height-cm", int, 10, "fall height in cm (0-200)"),),
        odds_fall,
    ),
    "leader-loss": RollSpec(
        "leader-loss", "A team member's roll when its leader falls (§4, F-5).",
        (_GUTZ,),
        odds_leader_loss,
    ),
}

# vehicles hook (§17): the attack at a vehicle
from killhouse.rulesets.firewall.vehicles.rolls import ANTI_VEHICLE  # noqa: E402

ROLLS["anti-vehicle"] = ANTI_VEHICLE
