"""Combat orders at range: shooting, unjamming, smoke and gas clouds (§9) and blasts at
building sections (§12)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from fractions import Fraction

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.buildings import (
    collapse,
    damage,
    section_effect,
    section_modifier,
    section_problem,
)
from killhouse.rulesets.firewall.clouds import (
    cloud_modifier,
    cloud_problem,
    gas_attack,
    smoke_layer,
    throw_cloud,
)
from killhouse.rulesets.firewall.drugs import drug_bonus
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll
from killhouse.rulesets.firewall.jams import unjam_effect
from killhouse.rulesets.firewall.objectives import HOSTAGES
from killhouse.rulesets.firewall.shooting import HAND_GRENADE, Shot, resolve_shot, shot_problem
from killhouse.rulesets.firewall.skillroll import skill_level, skill_use
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _aware,
    _who_sees,
    combat_figure,
    mine,
    side_known,
    side_sees,
    team_figures,
)
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.taskorders import _roller_result
from killhouse.rulesets.firewall.teams import Figure, Status, bonus_for
from killhouse.rulesets.firewall.vehicles.sight import figures_seen


def _shot(action: Action) -> Shot:
    fire = action.get("fire")
    grenade = action.get("grenade")
    return Shot(str(action.get("figure")), str(action.get("weapon")), str(action.get("target")),
                None if fire is None else str(fire), None if grenade is None else str(grenade),
                slug=bool(action.get("slug")), two_weapons=action.get("weapon2") is not None)


def _second(action: Action) -> Shot | None:
    """The second one-handed weapon's attack of two-weapon fire (F-34), if declared: at the
    same target unless ``target2`` names another."""
    weapon2 = action.get("weapon2")
    if weapon2 is None:
        return None
    target2 = action.get("target2") or action.get("target")
    fire2 = action.get("fire2")
    return Shot(str(action.get("figure")), str(weapon2), str(target2),
                None if fire2 is None else str(fire2), two_weapons=True)


def _pair_problem(f: Figure, first: Shot, second: Shot | None) -> str | None:
    """Ruling F-34: two one-handed weapons carried (the same one twice only if two are
    carried); no grenade or slug with them."""
    if second is None:
        return None
    if first.grenade is not None or first.slug:
        return "two-weapon fire takes no grenade and no slugs (F-34)"
    if first.weapon == second.weapon and f.weapons.count(first.weapon) < 2:
        return f"{f.id} carries one {first.weapon}: two-weapon fire needs two weapons (F-34)"
    return None


def _launchers(f: Figure) -> list[tuple[str, str | None]]:
    """(weapon, grenade) pairs a figure may fire: every weapon, and each grenade it carries
    thrown by hand or from each launcher it carries."""
    pairs: list[tuple[str, str | None]] = [
        (w, None) for w in dict.fromkeys(f.weapons) if not tables().weapons[w].launcher
    ]
    rows = [HAND_GRENADE] + [w for w in f.weapons if tables().weapons[w].launcher]
    for grenade, count in sorted(f.grenades.items()):
        if count > 0:
            pairs.extend((row, grenade) for row in rows)
    return pairs


def _area(weapon: str, grenade: str | None) -> bool:
    """Whether an attack at a figure has radius effects (§7.4.1): bursts, and SS(A) and Guns,
    which resolve as B or B(HMG) against infantry."""
    fire = tables().grenade(grenade).fire if grenade else tables().weapons[weapon].mode().fire
    return fire in ("B", "B(MG)", "B(HMG)", "VMG", "SS(A)", "AV(L)", "AV(M)", "AV(H)")


def _chance_of_success(gutz: int, modifier: int) -> Fraction:
    """P(S or CS) of a plain Gutz roll (§3), for bots' hints."""
    from killhouse.rulesets.firewall.gutz import classify
    wins = sum(1 for a in range(1, 7) for b in range(1, 7)
               if classify(gutz, modifier, a, b) in ("S", "CS"))
    return Fraction(wins, 36)


def shoot_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.fire import fire_modifier
    from killhouse.rulesets.firewall.shooting import shot_situation
    out = []
    seen = None
    for f in team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        if seen is None:  # vehicles hook: figures seen from the side's vehicles count (F-159)
            seen = figures_seen(state.board, state.figures, state.vehicles, side)
        for wid, grenade in _launchers(f):
            for target in state.figures.values():
                if target.id not in seen or target.side == side:
                    continue
                act = Action.make(side, "shoot", figure=f.id, weapon=wid, target=target.id,
                                  grenade=grenade)
                if shot_problem(state.board, state.figures, _shot(act)) is None:
                    mod = fire_modifier(shot_situation(state.board, state.figures, state.teams,
                                                       _shot(act), night=state.night))
                    p = _chance_of_success(f.gutz, mod)
                    out.append(dataclasses.replace(act, hint={
                        "role": "attack", "p": float(p), "to": [target.level, *target.cell],
                        "helpless": target.status is Status.INCAPACITATED,
                        "hostage": target.side == HOSTAGES,
                        "nonlethal": tables().weapons[wid].nonlethal or bool(
                            grenade and tables().grenade(grenade).nonlethal),
                        "grenade": grenade is not None,
                        # vehicles hook: the attack has radii (bursts, SS(A) and Guns as B)
                        "area": _area(wid, grenade)}))
                    weapon = tables().weapons[wid]
                    if weapon.shotgun:
                        out.append(Action.make(side, "shoot", figure=f.id, weapon=wid,
                                               target=target.id, slug=True,
                                               hint={**out[-1].hint, "slug": True}))
            out.extend(_pair_options(state, f, side, seen))
    return out


def _pair_options(state: FirewallState, f: Figure, side: str, seen: set[str]) -> list[Action]:
    """Two-weapon fire at one target with the first two one-handed weapons carried (F-34)."""
    hands = [w for w in f.weapons if tables().weapons[w].one_handed
             and tables().weapons[w].grenade is False]
    if len(hands) < 2:
        return []
    out = []
    for target in state.figures.values():
        if target.id not in seen or target.side == side:
            continue
        act = Action.make(side, "shoot", figure=f.id, weapon=hands[0], target=target.id,
                          weapon2=hands[1],
                          hint={"role": "attack-two", "to": [target.level, *target.cell],
                                "helpless": target.status is Status.INCAPACITATED,
                                "hostage": target.side == HOSTAGES})
        second = _second(act)
        if (shot_problem(state.board, state.figures, _shot(act)) is None and second is not None
                and shot_problem(state.board, state.figures, second) is None
                and _pair_problem(f, _shot(act), second) is None):
            out.append(act)
    return out


def _combat_allowed(state: FirewallState, action: Action) -> None:
    combat_figure(state, action)
    target = str(action.get("target"))
    if target not in figures_seen(state.board, state.figures, state.vehicles,
                                  action.side):  # vehicles hook (F-159)
        raise IllegalActionError(f"{target} is not a figure the side sees")


def check_shoot(state: FirewallState, action: Action) -> None:
    _combat_allowed(state, action)
    problem = shot_problem(state.board, state.figures, _shot(action))
    second = _second(action)
    if problem is None and second is not None:
        target2 = second.target
        if target2 not in side_sees(state, action.side, table=False):
            raise IllegalActionError(f"{target2} is not a figure the side sees")
        problem = (shot_problem(state.board, state.figures, second)
                   or _pair_problem(state.figures[second.firer], _shot(action), second))
    if problem is not None:
        raise IllegalActionError(problem)


def _splash(state: FirewallState, shot: Shot, result: Result, log: EventLog) -> None:
    """Vehicles inside a burst's radii take the shot's result too (vehicles hook, F-151)."""
    if state.vehicles:
        from killhouse.rulesets.firewall.vehicles.gunnery import splash_vehicles
        splash_vehicles(state, shot.weapon, shot.grenade, result, shot.target, shot.firer, log)


def shoot(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """One ranged attack, or two with two one-handed weapons (F-34): both declared first,
    both rolled at −3 even if the first fails; the second goes at its target as things stand
    after the first (ruling F-110), and is lost if the firer is out or the target is gone."""
    shot = _shot(action)
    report = resolve_shot(state.board, state.figures, state.teams, shot, chance, log,
                          night=state.night, sides=state.sides,
                          known=lambda: side_known(state))
    _splash(state, shot, report.result, log)
    second = _second(action)
    if second is not None:
        problem = shot_problem(state.board, state.figures, second, follow_up=True)
        if problem is None:
            report = resolve_shot(state.board, state.figures, state.teams, second, chance, log,
                                  night=state.night, sides=state.sides, follow_up=True,
                                  known=lambda: side_known(state))
            _splash(state, second, report.result, log)
        else:
            f = state.figures[second.firer]
            log.emit("second-shot-lost", {"figure": f.id, "why": problem},
                     _who_sees(state, f) | {f.side})
    state.combat_happened = True
    state.last = (str(action.get("figure")), "shoot", "")


#: ruling F-203: the skill that may clear a jam instead of the Gutz roll (§11.2, §16.2)
UNJAM_SKILLS = ("technical",)


def technical_unjam(state: FirewallState, f: Figure) -> bool:
    """Whether ``f`` may clear a jam with a Technical roll (§11.2 "with optional skills";
    ruling F-203): in a scenario with the skills option, or with Technical listed (as F-188)."""
    return state.skills or skill_level(f, "technical") >= 1


def unjam_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    for f in team_figures(state, side):
        if f.move_used:
            continue
        for w, s in sorted(f.weapon_state.items()):
            if s != "jammed":
                continue
            out.append(Action.make(side, "unjam", figure=f.id, weapon=w,
                                   hint={"role": "task", "p": 0.5}))
            if technical_unjam(state, f):  # ruling F-203: the figure's own level, its side's
                out.append(Action.make(side, "unjam", figure=f.id, weapon=w, by="technical",
                                       hint={"role": "task", "p": 0.5,
                                             "skill_level": skill_level(f, "technical")}))
    return out


SLOTS = ("move", "combat")


def reload_problem(f: Figure, weapon: str, slot: str | None) -> str | None:
    """Why ``f`` may not reload ``weapon`` now (§8.0, ruling F-35), or ``None``: "one action"
    takes the free Movement or Combat action the player names, "one Turn" both, untouched."""
    if weapon not in f.weapons:
        return f"{f.id} does not carry {weapon}"
    if f.weapon_state.get(weapon, "ready") != "unloaded":
        return f"{weapon} is not unloaded"
    kind = tables().weapons[weapon].reload
    if kind == "turn":
        if f.move_used or f.combat_used:
            return f"reloading {weapon} takes {f.id}'s whole Turn (§8.0)"
        return None
    if slot not in SLOTS:
        return "name the action that reloads: slot move or combat (§8.0)"
    if (f.move_used if slot == "move" else f.combat_used):
        return f"{f.id} has no {'Movement' if slot == 'move' else 'Combat'} action left"
    return None


def reload_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    for f in team_figures(state, side):
        for w in dict.fromkeys(f.weapons):
            slots: tuple[str | None, ...] = (
                (None,) if tables().weapons[w].reload == "turn" else SLOTS)
            out.extend(Action.make(side, "reload", figure=f.id, weapon=w, slot=slot,
                                   hint={"role": "task"})
                       for slot in slots if reload_problem(f, w, slot) is None)
    return out


def check_reload(state: FirewallState, action: Action) -> None:
    slot = action.get("slot")
    problem = reload_problem(mine(state, action), str(action.get("weapon")),
                             None if slot is None else str(slot))
    if problem is not None:
        raise IllegalActionError(problem)


def reload(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§8.0 (ruling F-35): no roll; the weapon is loaded. A whole-Turn reload spends both
    actions (ready from the next Turn, since the figure does nothing else in this one)."""
    f = state.figures[str(action.get("figure"))]
    weapon = str(action.get("weapon"))
    if tables().weapons[weapon].reload == "turn":
        f.move_used = f.combat_used = True
    elif action.get("slot") == "move":
        f.move_used = True
    else:
        f.combat_used = True
    f.weapon_state[weapon] = "ready"
    log.emit("reload", {"figure": f.id, "weapon": weapon}, _who_sees(state, f))
    state.last = (f.id, "reload", "")


def unjam(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§11.2: a Movement action; leader bonus and movement drugs only (F-30); with ``by:
    technical`` the Technical skill roll of §16.1 instead, at the figure's level (F-203)."""
    f = state.figures[str(action.get("figure"))]
    weapon = str(action.get("weapon"))
    f.move_used = True
    own = frozenset({f.side})
    bonus = bonus_for(f, state.teams[f.team], state.figures) + drug_bonus(f.drug_effects,
                                                                          "movement")
    by = action.get("by")
    if by == "technical":
        # the skill use applies its own CS +1 / CF −1 (a level-3 CF keeps the start, §16.1)
        roll = skill_use(state, f, "technical", bonus, chance, f"{f.id} un-jams {weapon}", own)
        weapon_state, _ = unjam_effect(roll.result)
    else:
        roll = gutz_roll(chance, f.gutz, bonus, f"{f.id} un-jams {weapon}", own)
        weapon_state, change = unjam_effect(roll.result)
        f.gutz = change_gutz(f.gutz, change).gutz
        if roll.result in ("F", "CF"):
            f.failed_this_turn = True
    if weapon_state == "ready" and tables().weapons[weapon].reload != "none":
        weapon_state = "unloaded"  # ruling F-111: clearing a single-shot weapon empties it
    f.weapon_state[weapon] = weapon_state
    data: dict[str, object] = {"figure": f.id, "dice": list(roll.dice), "result": roll.result}
    if by is not None:
        data["by"] = str(by)
    log.emit("unjam", data, own)
    state.last = (f.id, "unjam", "")


def gas(state: FirewallState, f: Figure, chance: Chance, log: EventLog) -> None:
    """Each gas cloud the figure stands in attacks it, at most once a Turn (F-26)."""
    from killhouse.rulesets.firewall.teams import resolve_leader_loss
    hit = False
    for cloud in state.clouds:
        if not cloud.covers(f.level, f.cell):
            continue
        audience = _who_sees(state, f)
        result = gas_attack(cloud, f, state.turn, chance, audience)
        if result is None:
            continue
        hit = True
        state.teams[f.team].aware = True  # F-16: inside an area effect
        log.emit("gas", {"cloud": cloud.id, "figure": f.id, "result": result,
                         "status": f.status.value}, audience)
    if hit:
        for team in state.teams.values():
            resolve_leader_loss(team, state.figures, chance)


def _at(action: Action) -> tuple[int, int]:
    at = action.get("at")
    return (int(at[1]), int(at[2]))


def cloud_options(state: FirewallState, side: str) -> Iterable[Action]:
    """Smoke and gas grenades at squares: the squares of the enemies the side sees, and the
    square in front of each of them (a useful subset; any legal square is accepted)."""
    out = []
    seen = None
    for f in team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        kinds = [g for g, n in sorted(f.grenades.items()) if n > 0 and tables().grenade(g).cloud]
        if not kinds:
            continue
        if seen is None:
            seen = side_sees(state, side, table=False)
        rows = [HAND_GRENADE] + [w for w in f.weapons if tables().weapons[w].launcher]
        squares = sorted({state.figures[i].cell for i in seen
                          if state.figures[i].level == f.level})
        for grenade in kinds:
            for weapon in rows:
                for at in squares:
                    if cloud_problem(state.board, state.figures, f.id, weapon, grenade, at,
                                     f.level) is None:
                        mod = cloud_modifier(f, state.teams[f.team], state.figures, weapon, at,
                                             state.night)
                        out.append(Action.make(side, "cloud", figure=f.id, weapon=weapon,
                                               grenade=grenade, at=[f.level, *at],
                                               hint={"role": "cloud", "to": [f.level, *at],
                                                     "p": float(_chance_of_success(f.gutz,
                                                                                   mod))}))
    return out


def check_cloud(state: FirewallState, action: Action) -> None:
    f = combat_figure(state, action)
    at = action.get("at")
    problem = cloud_problem(state.board, state.figures, f.id, str(action.get("weapon")),
                            str(action.get("grenade")), _at(action), int(at[0]))
    if problem is not None:
        raise IllegalActionError(problem)


def cloud(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """A smoke or gas grenade at a square (§9, F-25 … F-27); gas attacks every unprotected
    figure inside when it is placed."""
    f = state.figures[str(action.get("figure"))]
    at = _at(action)
    audience = _who_sees(state, f)
    state.clouds_placed += 1
    result, placed = throw_cloud(chance, f, state.teams[f.team], state.figures,
                                 str(action.get("weapon")), str(action.get("grenade")), at,
                                 state.turn, f"cloud-{state.clouds_placed}", audience,
                                 state.night)
    state.combat_happened = True
    state.last = (f.id, "cloud", "")
    log.emit("cloud", {"figure": f.id, "grenade": str(action.get("grenade")),
                       "at": [f.level, *at], "result": result,
                       "placed": placed is not None,
                       "until": placed.until if placed else None}, None,
             {s: {"figure": None, "grenade": str(action.get("grenade")),
                  "at": [f.level, *at], "result": None, "placed": placed is not None,
                  "until": placed.until if placed else None}
              for s in state.sides if s not in audience})
    if placed is None:
        return
    state.clouds.append(placed)
    smoke_layer(state.board, state.clouds)
    for g in state.figures.values():
        if placed.covers(g.level, g.cell):
            gas(state, g, chance, log)


def _blast_pairs(f: Figure) -> list[tuple[str, str | None]]:
    """(weapon, grenade) pairs that can hurt a section: SS(A) weapons, Guns, the bombs, and
    HEAT grenades thrown or launched (§12)."""
    from killhouse.rulesets.firewall.buildings import BOMBS
    from killhouse.rulesets.firewall.buildings import attack_type as kind_of
    from killhouse.rulesets.firewall.tables import GUNS
    pairs: list[tuple[str, str | None]] = []
    for w in f.weapons:
        row = tables().weapons[w]
        if row.launcher:
            continue
        if w in BOMBS or kind_of(w, None) == "SS(A)" or kind_of(w, None) in GUNS:
            pairs.append((w, None))
    rows = [HAND_GRENADE] + [w for w in f.weapons if tables().weapons[w].launcher]
    for g, n in sorted(f.grenades.items()):
        if n > 0 and kind_of(HAND_GRENADE, g) == "SS(A)":
            pairs.extend((row, g) for row in rows)
    return pairs


def blast_options(state: FirewallState, side: str) -> Iterable[Action]:
    out: list[Action] = []
    if not state.sections:
        return out
    for f in team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        for weapon, grenade in _blast_pairs(f):
            for sid in sorted(state.sections):
                if section_problem(state.board, state.figures, state.sections, f.id, weapon,
                                   sid, grenade) is None:
                    out.append(Action.make(side, "blast", figure=f.id, weapon=weapon,
                                           section=sid, grenade=grenade,
                                           hint={"role": "blast"}))
    return out


def check_blast(state: FirewallState, action: Action) -> None:
    f = combat_figure(state, action)
    grenade = action.get("grenade")
    problem = section_problem(state.board, state.figures, state.sections, f.id,
                              str(action.get("weapon")), str(action.get("section")),
                              None if grenade is None else str(grenade))
    if problem is not None:
        raise IllegalActionError(problem)


def blast(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """An attack on a building section (§12): the roll, the section's loss or kill, the
    collapse with every figure inside losing 4 Gutz, then leader losses."""
    from killhouse.rulesets.firewall.jams import malfunction_roll
    from killhouse.rulesets.firewall.shooting import _apply_malfunction
    from killhouse.rulesets.firewall.teams import resolve_leader_loss
    f = state.figures[str(action.get("figure"))]
    weapon = str(action.get("weapon"))
    grenade = None if action.get("grenade") is None else str(action.get("grenade"))
    section = state.sections[str(action.get("section"))]
    seeing = _who_sees(state, f)
    mod = section_modifier(f, state.teams[f.team], state.figures, weapon, section, state.night)
    f.combat_used = True
    if grenade is not None:
        f.grenades[tables().grenade(grenade).id] -= 1
    roll = gutz_roll(chance, f.gutz, mod, f"{f.id} fires at section {section.id}", seeing)
    effect = section_effect(weapon, grenade, roll.result, section.armour)
    destroyed = damage(section, effect)
    hurt = collapse(state.board, state.figures, section) if destroyed else []
    _roller_result(f, roll.result)
    malfunction = None
    mode = tables().weapons[weapon].mode()
    if roll.result == "CF" and mode.malf is not None:
        w = tables().weapons[weapon]
        malfunction = malfunction_roll(chance, mode.malf, mode.fire, f.experience,
                                       w.grenade or w.launcher, audience=seeing)
        positions = {g.id: g.cell for g in state.figures.values() if g.level == f.level
                     and g.status in (Status.ACTIVE, Status.INCAPACITATED)}
        _apply_malfunction(state.figures, f, Shot(f.id, weapon, f.id, None, grenade),
                           malfunction, mode.fire, tables().weapons[weapon].armour, False,
                           positions)
    state.combat_happened = True
    state.last = (f.id, "shoot", "")
    data = {"figure": f.id, "section": section.id, "result": roll.result,
            "effect": effect, "destroyed": destroyed, "hurt": hurt, "malfunction": malfunction}
    # a section going up is seen by all; who fired, only by the sides that see the firer
    known = side_known(state)
    log.emit("blast", data, None, {
        s: {**data, "figure": f.id if s in seeing else None,
            "hurt": [h for h in hurt if h in known[s]]}
        for s in state.sides})
    if destroyed:
        for team in state.teams.values():
            resolve_leader_loss(team, state.figures, chance)
