"""The named rolls of ``killhouse odds commando``: each runs the very resolution code play uses.

Percentile checks are collapsed with ``Chance.repeat_until`` in the mechanics themselves (see
``dice.percent_check``), so three M16 fires enumerate as 27 leaves, not 100³.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from killhouse.core.chance import Chance
from killhouse.errors import UnknownRollError
from killhouse.rulesets.base import Param, RollSpec
from killhouse.rulesets.commando import fire, grenades, melee, observation, panic
from killhouse.rulesets.commando.characters import (
    characteristic,
    hero_class,
    skill_check,
)
from killhouse.rulesets.commando.dice import blast_damage, percent_check
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.wounds import Wound

_RANK = {fire.KILL: 2, fire.WOUND: 1, fire.MISS: 0}


def odds_fire(chance: Chance, p: Mapping[str, Any]) -> str:
    """The worst result for the target over ``fires`` fires (one fire: kill, wound or miss)."""
    weapon = str(p["weapon"])
    terrain = fire.terrain_modifier(
        str(p["terrain"]), () if p["line"] == "none" else (str(p["line"]),), bool(p["in-water"])
    )
    situation = fire.FireSituation(
        weapon, int(p["range"]), mk=int(p["mk"]), hero_combat=hero_class(int(p["hero"])).combat,
        wp=None if p["no-proficiency"] else int(p["wp"]), terrain=terrain,
        target_prone=bool(p["target-prone"]), target_flush_wall=bool(p["flush-wall"]),
        enemy_weapon=bool(p["enemy-weapon"]), target_moving=bool(p["target-moving"]),
        aimed=bool(p["aimed"]), target_on_vehicle=bool(p["on-vehicle"]),
        moving_vehicle=bool(p["moving-vehicle"]), severely_wounded=bool(p["wounded"]),
    )
    h = fire.hit_chance(situation)
    if h is None:
        return "prohibited"
    worst = fire.MISS
    for _ in range(max(1, int(p["fires"]))):
        result = fire.fire_roll(chance, h)
        if _RANK[result] > _RANK[worst]:
            worst = result
    return str(worst)


def odds_observe(chance: Chance, p: Mapping[str, Any]) -> str:
    """Whether the side observes the target: ``observers`` men roll in turn (ruling C-11)."""
    rng = int(p["range"])
    if not observation.in_range(rng, str(p["weather"]), str(p["light"])):
        return "out-of-range"
    pct = observation.observation_chance(observation.Sighting(
        str(p["code"]), rng=rng, target_prone=bool(p["target-prone"]), terrain=str(p["terrain"]),
        target_in_building=bool(p["in-building"]), large_building=bool(p["large-building"]),
        observer_moving=bool(p["observer-moving"]), target_moving=bool(p["target-moving"]),
        target_in_searchlight=bool(p["searchlight"]),
        observer_in_searchlight=bool(p["observer-lit"]), defending=bool(p["defending"]),
        move_swiftly=bool(p["move-swiftly"]),
    ))
    for _ in range(max(1, int(p["observers"]))):
        if observation.observe_roll(chance, pct):
            return "observed"
    return "unobserved"


def odds_panic(chance: Chance, p: Mapping[str, Any]) -> str:
    wound = {"none": Wound.UNWOUNDED, "wounded": Wound.WOUNDED, "serious": Wound.SERIOUS}
    pct = panic.panic_chance(panic.PanicSituation(
        int(p["lead"]), wound[str(p["wound"])], observed_enemy=bool(p["observed"]),
        first_sighting=bool(p["first-sighting"]), leader_near=bool(p["leader-near"]),
        conditions=int(p["conditions"]),
    ))
    return panic.panic_check(chance, pct)


def odds_preservation(chance: Chance, p: Mapping[str, Any]) -> str:
    preserving = panic.preservation_check(chance, int(p["lead"]), int(p["conditions"]))
    return "preserving" if preserving else "steady"


def odds_grenade(chance: Chance, p: Mapping[str, Any]) -> str:
    """On target, or the scatter distance of a miss (direction is uniform over 8, C-29)."""
    device = str(p["device"])
    pct = grenades.accuracy(grenades.Throw(
        device, int(p["range"]), dex=int(p["dex"]), mk=int(p["mk"]),
        hero_combat=hero_class(int(p["hero"])).combat, terrain=str(p["terrain"]),
        target_higher=bool(p["target-higher"]), target_by_wall=bool(p["by-wall"]),
        door_between=bool(p["door"]), window_or_slit_between=bool(p["window"]),
        thrower_prone=bool(p["prone"]), severely_wounded=bool(p["wounded"]),
        no_los=bool(p["no-los"]), grenade_toss=bool(p["grenade-toss"]),
    ))
    if pct is None:
        return "prohibited"
    landing = grenades.land(chance, device, pct)
    if landing.on_target:
        return "on-target"
    return f"scatter-{landing.distance}"


def odds_scatter(chance: Chance, p: Mapping[str, Any]) -> str:
    direction, distance = grenades.scatter(chance, str(p["device"]))
    return f"{direction}-{distance}"


def odds_h2h(chance: Chance, p: Mapping[str, Any]) -> str:
    return melee.strike_roll(chance, melee.Strike(
        str(p["weapon"]), st=int(p["st"]), hero_combat=hero_class(int(p["hero"])).combat,
        wp=None if p["no-proficiency"] else int(p["wp"]), target_evading=bool(p["evading"]),
        personal_combat=bool(p["personal-combat"]), severely_wounded=bool(p["wounded"]),
        grappled=bool(p["grappled"]),
    ))


def odds_grapple(chance: Chance, p: Mapping[str, Any]) -> str:
    ok = melee.grapple(chance, int(p["st"]), int(p["opponent-st"]), bool(p["evading"]))
    return "grappled" if ok else "failed"


def odds_disengage(chance: Chance, p: Mapping[str, Any]) -> str:
    withdrawing, staying = int(p["withdrawing"]), int(p["staying"])
    if withdrawing < 1 or staying < 1:
        raise UnknownRollError("--withdrawing and --staying: at least 1 man each")
    return melee.disengage(chance, withdrawing, staying)


def odds_draw(chance: Chance, p: Mapping[str, Any]) -> str:
    return "drawn" if melee.draw(chance, bool(p["armed"]), bool(p["grappled"])) else "failed"


def odds_characteristic(chance: Chance, p: Mapping[str, Any]) -> str:
    return str(characteristic(chance))


def odds_mag(chance: Chance, p: Mapping[str, Any]) -> str:
    return "empty" if fire.mag_check(chance, str(p["weapon"]), bool(p["semi"])) else "loaded"


def odds_skill(chance: Chance, p: Mapping[str, Any]) -> str:
    ok = skill_check(chance, str(p["skill"]), int(p["rating"]), hero_class(int(p["hero"])).skill,
                     float(p["mult"]))
    return "success" if ok else "failure"


def odds_initiative(chance: Chance, p: Mapping[str, Any]) -> str:
    from killhouse.rulesets.commando.dice import initiative

    return ("first side", "second side")[initiative(chance)]


def odds_blast(chance: Chance, p: Mapping[str, Any]) -> str:
    """What a blast does to one man of MEN in the area (C-28, C-65): the kill d100 against
    2 x MEN, the victim drawn uniformly, else his own damage roll. The other men's damage
    rolls (``grenades.blast`` makes them in play) do not change his, so they are left out."""
    men = int(p["men"])
    if men < 1:
        raise UnknownRollError("--men: at least 1 man in the blast area")
    device, env = str(p["device"]), str(p["environment"])
    t = tables()
    if percent_check(chance, t.blast_kill_per_man * men, "blast kill") and \
            chance.pick(range(men), "blast victim") == 0:
        return "killed"
    dice = t.blast_damage[grenades.DAMAGE_TABLE[device]][env]
    return f"damage-{blast_damage(chance, dice, 'blast damage')}"


def odds_claymore(chance: Chance, p: Mapping[str, Any]) -> str:
    """One Claymore attack on a man in its cone (C-36): the Shotgun row by range plus terrain
    and prone only; kill, wound or miss."""
    from killhouse.rulesets.commando import claymore

    rng = int(p["range"])
    if not 1 <= rng <= claymore.REACH:
        return "out-of-reach"
    h = claymore.claymore_chance(rng, fire.terrain_modifier(str(p["terrain"])),
                                 bool(p["target-prone"]))
    return fire.fire_roll(chance, h)


def _flag(name: str, help_text: str) -> Param:
    return Param(name, bool, False, help_text)


WEAPONS = tuple(tables().firearms)
FIELD = tuple(k for k, v in tables().field.items() if v.multiple is not None)
LINES = ("none", *(k for k, v in tables().line.items() if v.fire))
HERO = Param("hero", int, 13, "Hero rating (13-20 = +0, as for Grunts and Doofi)")

ROLLS: dict[str, RollSpec] = {
    "fire": RollSpec(
        "fire", "Fire (8.2-8.3, C-17/C-18/C-21/C-22): H = base + terrain + Hero + CharMod(Mk) + "
        "WP + modifiers; each fire r <= K(H) kills, r <= H wounds. With --fires N: the worst "
        "result for the target over N fires.",
        (
            Param("weapon", str, "m16", "the firearm", WEAPONS),
            Param("range", int, 15, "squares, max + floor(min/2) (C-1)"),
            Param("mk", int, 13, "the firer's Marksmanship"),
            HERO,
            Param("wp", int, 0, "weapon proficiency addition"),
            _flag("no-proficiency", "no proficiency: -min(15, base/2) (C-21)"),
            Param("terrain", str, "clear", "the target's field terrain", FIELD),
            Param("line", str, "none", "worst line terrain within 1 square of the target (C-22)",
                  LINES),
            _flag("in-water", "the firer is in the water too (water -6, not -20)"),
            _flag("target-prone", "target prone (-12)"),
            _flag("flush-wall", "target flush against a wall (-10, C-23)"),
            _flag("target-moving", "target moved this turn (-10)"),
            _flag("aimed", "aimed fire, all TP (+10, C-24)"),
            _flag("enemy-weapon", "using an enemy weapon (-15)"),
            _flag("on-vehicle", "target on tank or in APC (-8)"),
            _flag("moving-vehicle", "firing from a moving vehicle or animal (-25)"),
            _flag("wounded", "firer seriously wounded (x0.5)"),
            Param("fires", int, 1, "fires to combine (the weapon's task makes its # of fires)"),
        ),
        odds_fire,
    ),
    "observe": RollSpec(
        "observe", "Observation (6, C-11): base by Obs code + modifiers, clamped to 5-95; "
        "OBSERVERS men at the same chance roll until one succeeds.",
        (
            Param("code", str, "E", "observer's Obs code", tuple(tables().obs_index)),
            Param("range", int, 10, "squares to the target"),
            Param("weather", str, "clear", "weather", tuple(tables().obs_range)),
            Param("light", str, "day", "time of day", tables().obs_light),
            Param("terrain", str, "clear", "the target's terrain", FIELD),
            _flag("target-prone", "target prone (-15)"),
            _flag("in-building", "target inside a building, observer outside (-20)"),
            _flag("large-building", "... a large building (-5 instead)"),
            _flag("observer-moving", "observer moving (-25)"),
            _flag("target-moving", "target moving (+20)"),
            _flag("searchlight", "target in a searchlight, observer within 20 (+30, C-13)"),
            _flag("observer-lit", "observer in a lit area looking out (-30)"),
            _flag("defending", "observer's side is defending (-20, C-12)"),
            _flag("move-swiftly", "target has Move Swiftly & Silently (-30)"),
            Param("observers", int, 1, "men rolling at this chance"),
        ),
        odds_observe,
    ),
    "panic": RollSpec(
        "panic", "Panic check (7.1, C-14): d100 <= Panic% + modifiers, then 1d10: 1-6 prone, "
        "7-8 fire, 9-10 run.",
        (
            Param("lead", int, 10, "the leader's Lead"),
            Param("wound", str, "none", "the man's wounds", ("none", "wounded", "serious")),
            _flag("observed", "observed an enemy this turn (+2)"),
            _flag("first-sighting", "first enemy this mission (+5)"),
            _flag("leader-near", "Commando or NPC leader within 10 squares (-20)"),
            Param("conditions", int, 0, "preservation conditions (+5 each)"),
        ),
        odds_panic,
    ),
    "preservation": RollSpec(
        "preservation", "Preservation check (7.2, C-15): d100 <= min(95, multiple x conditions).",
        (
            Param("lead", int, 10, "the leader's Lead"),
            Param("conditions", int, 1, "preservation conditions that hold (0-6)"),
        ),
        odds_preservation,
    ),
    "grenade": RollSpec(
        "grenade", "Throw or launch (9, C-29/C-32): base + modifiers + CharMod(Dex, or Mk for "
        "launchers) + Hero, x0.5 per condition; a miss scatters.",
        (
            Param("device", str, "frag", "grenade, satchel or launcher", grenades.DEVICES),
            Param("range", int, 6, "squares to the target square"),
            Param("dex", int, 13, "thrower's Dexterity"),
            Param("mk", int, 13, "firer's Marksmanship (launchers)"),
            HERO,
            Param("terrain", str, "clear", "the target square's terrain", FIELD),
            _flag("target-higher", "target higher than the thrower"),
            _flag("by-wall", "target adjacent to a wall"),
            _flag("door", "door in between (-10)"),
            _flag("window", "window or slit in between (-15, thrown)"),
            _flag("prone", "thrower prone (x0.5, thrown)"),
            _flag("wounded", "seriously wounded (x0.5)"),
            _flag("no-los", "no LOS to the target square (x0.5)"),
            _flag("grenade-toss", "Grenade Toss succeeded (+15, thrown)"),
        ),
        odds_grenade,
    ),
    "scatter": RollSpec(
        "scatter", "Scatter of a missed round (C-29): 1d8 direction, distance by table (thrown) "
        "or 1d6 (fired).",
        (Param("device", str, "frag", "grenade, satchel or launcher", grenades.DEVICES),),
        odds_scatter,
    ),
    "h2h": RollSpec(
        "h2h", "One hand-to-hand strike (10.2, C-39/C-43): to hit, then % to kill + St bonus; "
        "grappled targets are hit automatically.",
        (
            Param("weapon", str, "combat_knife", "weapon in hand", tuple(tables().melee)),
            Param("st", int, 13, "striker's Strength"),
            HERO,
            Param("wp", int, 0, "weapon proficiency addition"),
            _flag("no-proficiency", "no proficiency: -min(15, base/2) (C-21)"),
            _flag("evading", "target evades (-20)"),
            _flag("personal-combat", "Personal Combat succeeded this round (+10)"),
            _flag("wounded", "striker seriously wounded (x0.5)"),
            _flag("grappled", "striker and target are grappled"),
        ),
        odds_h2h,
    ),
    "grapple": RollSpec(
        "grapple", "Grapple or break free (C-40): d100 <= 50 + CharMod(St) - CharMod(St opp), "
        "-25 if the opponent evades.",
        (
            Param("st", int, 13, "own Strength"),
            Param("opponent-st", int, 13, "opponent's Strength"),
            _flag("evading", "the opponent evades"),
        ),
        odds_grapple,
    ),
    "disengage": RollSpec(
        "disengage", "Disengagement Table (10.5, C-42) on 2d6.",
        (
            Param("withdrawing", int, 1, "men withdrawing"),
            Param("staying", int, 1, "men not withdrawing"),
        ),
        odds_disengage,
    ),
    "draw": RollSpec(
        "draw", "Weapon Draw Table (10.6, C-41) on 2d6: the listed range fails.",
        (_flag("armed", "holding another weapon"), _flag("grappled", "the drawer is grappled")),
        odds_draw,
    ),
    "characteristic": RollSpec(
        "characteristic", "A characteristic (13.1): 5d6, keep the best four.", (),
        odds_characteristic,
    ),
    "mag": RollSpec(
        "mag", "Magazine check after a fire task (8.4, C-19/C-20).",
        (
            Param("weapon", str, "m16", "the firearm", WEAPONS),
            _flag("semi", "fired semi-automatic (Mag Chk halved)"),
        ),
        odds_mag,
    ),
    "skill": RollSpec(
        "skill", "A skill roll (12.1, C-45): d100 <= floor(rating x DiffMult) + Hero skill mod.",
        (
            Param("skill", str, "sniping", "the skill", tuple(tables().skills)),
            Param("rating", int, 14, "skill rating"),
            HERO,
            Param("mult", int, 1, "DiffMult for Safe-Cracking's objects (locked doors 2)"),
        ),
        odds_skill,
    ),
    "blast": RollSpec(
        "blast", "A blast (9.6, C-28/C-30/C-65): one d100 <= 2 x MEN kills one man at random; "
        "every other man rolls the damage table of the environment. Result for the first man.",
        (
            Param("device", str, "frag", "what goes off",
                  tuple(d for d in grenades.DAMAGE_TABLE)),
            Param("environment", str, "open", "the landing square's environment",
                  grenades.ENVIRONMENTS),
            Param("men", int, 1, "men in the blast area"),
        ),
        odds_blast,
    ),
    "claymore": RollSpec(
        "claymore", "A Claymore attack (C-36): Shotgun row by range + terrain + prone (-12).",
        (
            Param("range", int, 5, "squares from the mine (1-10)"),
            Param("terrain", str, "clear", "the target's field terrain", FIELD),
            _flag("target-prone", "target prone (-12)"),
        ),
        odds_claymore,
    ),
    "initiative": RollSpec(
        "initiative", "Initiative (C-16): 1d10 each, ties re-rolled.", (), odds_initiative,
    ),
}
