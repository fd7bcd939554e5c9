"""Fire tasks beyond the plain one, as moves of the activation: aimed fire (C-24), semi-automatic
fire (C-20), spray fire over several targets (C-25), Sniping (12.1), and the victim of a fire
into a hand-to-hand square drawn from everyone in it (C-37).

Each move lists its legal options from the active man's view of the board and resolves through
``tasks.fire_task`` (the same code as the plain fire, which rolls every fire as an event). The
turn's helpers live in ``flow``; it is imported when a move runs, since ``flow`` declares these
moves (ruling C-87: one flow, tasks added beside it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import fire, ground, hostages, sounds, tasks
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.kit import Arg, Move

#: the fire task variants as move kinds (ruling C-87)
KINDS = ("aim", "semi", "spray", "snipe", "cease")


def crowd(state: CommandoState, target: str) -> tuple[str, ...]:
    """Ruling C-37: a fire at an engaged man goes into his square; each fire's victim is drawn
    from every man standing there (friend and foe, not the dead). Ruling C-191: so does a fire
    at a man whose square holds a living hostage, who is drawn with them."""
    at = state.pos[target]
    held = hostages.on_square(state, at) if state.hostages else []
    if not state.men[target].engaged:
        return tuple(sorted([target, *held])) if held else ()
    return tuple(sorted([*(m for m, p in state.pos.items()
                           if p == at and state.men[m].wound().value != "dead"), *held]))


def aim_for(state: CommandoState, firer: ManState, target: str, primary: str | None = None
            ) -> tasks.Aim:
    """One target of a fire task as the map sees it: range, terrain (C-22, C-83), the crowd of
    a hand-to-hand square (C-37) and, for spray fire, the squares from the primary (C-25)."""
    from killhouse.rulesets.commando import flow

    a, b = state.pos[firer.id], state.pos[target]
    spread = 0
    if primary is not None and primary != target:
        spread = flow.rng_between(state.pos[primary], b)
    # ruling C-22: the target's cell and the worst line terrain within 1 square of him
    terrain = fire.terrain_modifier(
        ground.cell_kind(state.board, b), ground.fire_lines(state.board, a, b),
        firer_in_water=ground.cell_kind(state.board, a) == "water")
    return tasks.Aim(target, flow.rng_between(a, b), terrain,
                     crowd=crowd(state, target), from_primary=spread)


def status_of(state: CommandoState, victim: str) -> str:
    """A victim's state after the task: a man's wound state, a hostage's status (C-191)."""
    if victim in state.hostages:
        return str(state.hostages[victim].status)
    return state.men[victim].wound().value


def weapon_of(man: ManState) -> str:
    return man.in_hand or "pistol"


def _ready(state: CommandoState, man: ManState, cost: int) -> bool:
    return (man.active() and not man.engaged and weapon_of(man) not in man.empty
            and man.tp >= cost and not man.must_leave)


def resolve_fire(state: CommandoState, firer: ManState, aims: Sequence[tasks.Aim],
                 chance: Chance, log: EventLog, *, semi: bool = False, aimed: bool = False,
                 sniping: bool = False, kind: str = "fire") -> None:
    """Pay, roll and apply one fire task, then tell both sides (the firer is observed unless a
    Sniping roll succeeds: 12.1, ruling C-86)."""
    weapon = weapon_of(firer)
    try:
        report = tasks.fire_task(chance, firer, weapon, aims, state.men, semi=semi, aimed=aimed,
                                 sniping=sniping, first_task=state.tasks_done == 0)
    except tasks.TaskRefused as refusal:  # checked before: options list only what fire_task takes
        raise AssertionError(str(refusal)) from refusal
    enemy = state.enemy(firer.side)
    # preservation condition 2 (C-124, C-189): every man named as a target was fired at
    state.fired_at.update(a.target for a in aims)
    hostages.stray(state, report.shots, weapon, log)  # ruling C-191
    if not report.sniped:
        state.observed[enemy].add(firer.id)
        state.ever_seen[enemy].add(firer.id)
        state.last_seen[enemy][firer.id] = (state.pos[firer.id], state.turn)
    # what the enemy may hear of it: the shots, and the firer only if it observes him
    audience = None if firer.id in state.observed[enemy] else frozenset({firer.side})
    data = {
        "figure": firer.id, "weapon": weapon, "cost": report.cost, "chances": report.chances,
        "targets": [a.target for a in aims],
        "shots": [{"victim": v, "result": s.result, "damage": s.damage, "roll": s.roll}
                  for v, s in report.shots],
        "status": {v: status_of(state, v) for v, _ in report.shots},
        "emptied": report.emptied, "sniped": report.sniped,
    }
    # ruling C-99: the enemy's copy leaves out the chances (they follow from his Mk and WP)
    hidden = {k: v for k, v in data.items() if k != "chances"}
    log.emit(kind, data, audience, {enemy: hidden} if audience is None else None)
    if audience is not None:
        # ruling C-161: it hears the shot, direction only, within 30 squares
        sounds.hear(state, enemy, state.pos[firer.id], "gunfire", log)
        # the side fired upon learns what hit its men, not who fired (a sniper stays unseen)
        log.emit("fired-upon", {
            "shots": [{"victim": v, "result": s.result, "damage": s.damage, "roll": s.roll}
                      for v, s in report.shots],
            "status": {v: status_of(state, v) for v, _ in report.shots},
        }, frozenset({enemy}))


def _targets(state: CommandoState, man: ManState) -> list[str]:
    from killhouse.rulesets.commando import flow

    reach = tables().preserving_fire_range
    return [t for t in flow.targets(state, man)  # C-15: a Preserving man fires within 5 only
            if not man.preserving or flow.rng_between(state.pos[man.id], state.pos[t]) <= reach]


def after_task(state: CommandoState, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    flow.after_task(state, log)


# -- aimed fire (C-24) -----------------------------------------------------------------------


def aim_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Ruling C-24: only as his first task, with at least the normal fire cost; all his TP."""
    if state.active_man is None or state.tasks_done:
        return
    man = state.men[state.active_man]
    if _ready(state, man, fire.fire_cost(weapon_of(man))):
        for t in _targets(state, man):
            yield Action.make(side, "aim", figure=man.id, target=t)


def run_aim(state: CommandoState, man: ManState, args: dict[str, Any], chance: Chance,
            log: EventLog) -> None:
    resolve_fire(state, man, [aim_for(state, man, str(args["target"]))], chance, log,
                 aimed=True, kind="aim")
    man.move_tp = 0  # C-24: his only task; Move Swiftly's movement TP go too (ruling C-92)


# -- semi-automatic fire (C-20) --------------------------------------------------------------


def semi_options(state: CommandoState, side: str) -> Iterable[Action]:
    if state.active_man is None:
        return
    man = state.men[state.active_man]
    weapon = weapon_of(man)
    if fire.can_fire_semi(weapon) and _ready(state, man, fire.fire_cost(weapon, semi=True)):
        for t in _targets(state, man):
            yield Action.make(side, "semi", figure=man.id, target=t)


def run_semi(state: CommandoState, man: ManState, args: dict[str, Any], chance: Chance,
             log: EventLog) -> None:
    resolve_fire(state, man, [aim_for(state, man, str(args["target"]))], chance, log,
                 semi=True, kind="semi")


# -- Sniping (12.1) --------------------------------------------------------------------------


def snipe_options(state: CommandoState, side: str) -> Iterable[Action]:
    """A single-fire rifle or carbine task at +10 TP by a man with the Sniping skill."""
    if state.active_man is None:
        return
    man = state.men[state.active_man]
    weapon = weapon_of(man)
    if "sniping" not in man.ratings.skills or weapon not in ("rifle", "carbine"):
        return
    if _ready(state, man, fire.fire_cost(weapon, sniping=True)):
        for t in _targets(state, man):
            yield Action.make(side, "snipe", figure=man.id, target=t)


def run_snipe(state: CommandoState, man: ManState, args: dict[str, Any], chance: Chance,
              log: EventLog) -> None:
    resolve_fire(state, man, [aim_for(state, man, str(args["target"]))], chance, log,
                 sniping=True, kind="snipe")


# -- spray fire (C-25) -----------------------------------------------------------------------


def spray_pool(state: CommandoState, man: ManState, primary: str) -> list[str]:
    """Who his fires may go at: the primary and every other target of his within 2 squares
    of it (C-25)."""
    from killhouse.rulesets.commando import flow

    reach = tables().spray_spread
    out = []
    for t in _targets(state, man):
        if t == primary or flow.rng_between(state.pos[primary], state.pos[t]) <= reach:
            out.append(t)
    return out


def spray_options(state: CommandoState, side: str) -> Iterable[Action]:
    """A useful subset of the splits: all fires at the primary's group in turn, and every
    fire but the first at one neighbour; ``check`` accepts any split the rules allow."""
    if state.active_man is None:
        return
    man = state.men[state.active_man]
    weapon = weapon_of(man)
    if not fire.can_spray(weapon) or not _ready(state, man, fire.fire_cost(weapon, spray=True)):
        return
    n = fire.fires(weapon)
    for primary in _targets(state, man):
        pool = spray_pool(state, man, primary)
        others = [t for t in pool if t != primary]
        if not others:
            continue
        group = [primary, *others]
        splits = {",".join(group[i % len(group)] for i in range(n))}
        for other in others:
            splits.add(",".join([primary] + [other] * (n - 1)))
        for split in sorted(splits):
            yield Action.make(side, "spray", figure=man.id, target=primary, split=split)


def why_not_spray(state: CommandoState, action: Action) -> str | None:
    """The reason a spray fire is refused, or ``None`` when it is allowed."""
    if state.active_man is None or action.get("figure") != state.active_man:
        return "only the active man may fire"
    man = state.men[state.active_man]
    weapon = weapon_of(man)
    if not fire.can_spray(weapon):
        return f"spray fire needs an automatic weapon with 3 or more fires, not a {weapon} (C-25)"
    cost = fire.fire_cost(weapon, spray=True)
    if not _ready(state, man, cost):
        return f"{man.id} cannot fire now (engaged, empty or under {cost} TP)"
    primary = str(action.get("target"))
    if primary not in _targets(state, man):
        return f"{primary} is not an observed enemy in his sight and range"
    split = str(action.get("split")).split(",")
    if len(split) != fire.fires(weapon):
        return f"a {weapon} makes {fire.fires(weapon)} fires; name one target per fire"
    if split[0] != primary:
        return "the first fire goes at the primary target"
    pool = spray_pool(state, man, primary)
    bad = [t for t in split if t not in pool]
    if bad:
        return f"{bad[0]} is not an observed enemy within 2 squares of {primary} (C-25)"
    return None


def check_spray(state: CommandoState, action: Action) -> None:
    reason = why_not_spray(state, action)
    if reason is not None:
        raise IllegalActionError(reason)


def run_spray(state: CommandoState, man: ManState, args: dict[str, Any], chance: Chance,
              log: EventLog) -> None:
    primary = str(args["target"])
    aims = [aim_for(state, man, t, primary) for t in str(args["split"]).split(",")]
    resolve_fire(state, man, aims, chance, log, kind="spray")


def declare(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    """A fire task is declared: the target's side is asked about Mobile Overwatch before it
    resolves (ruling C-128 and C-150: every fire task, not only the plain one); every man it
    names may answer."""
    from killhouse.rulesets.commando import overwatch

    args = {k: v for k, v in action.args if k != "figure"}
    named = [str(action.get("target"))]
    if action.kind == "spray":
        named += str(action.get("split")).split(",")
    overwatch.declare(state, str(action.get("figure")), action.kind, args, named)


#: how each declared fire task resolves once the Mobile Overwatch question is answered
RUN = {"aim": run_aim, "semi": run_semi, "snipe": run_snipe, "spray": run_spray}


def run_fire(state: CommandoState, man: ManState, kind: str, args: dict[str, Any],
             chance: Chance, log: EventLog) -> None:
    RUN[kind](state, man, args, chance, log)


# -- Cease burning (C-34) ----------------------------------------------------------------------


def cease_options(state: CommandoState, side: str) -> Iterable[Action]:
    """A burning man, prone, with 25 TP puts the fire out."""
    if state.active_man is None:
        return
    man = state.men[state.active_man]
    if man.burning and man.posture.value == "prone" and \
            man.tp >= tables().cost["cease_burning"]:
        yield Action.make(side, "cease", figure=man.id)


def do_cease(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow
    from killhouse.rulesets.commando.turn import cease_burning

    man = state.men[action.get("figure")]
    assert cease_burning(man), "checked by the options"
    log.emit("cease", {"figure": man.id}, flow.audience_of(state, man.id))
    after_task(state, log)


FIGURE = Arg("figure", "figure", help="the man")
TARGET = Arg("target", "id", help="an enemy his side observes and he sees")
MOVES: tuple[Move[CommandoState], ...] = (
    Move("aim", (FIGURE, TARGET), aim_options, declare,
         help="aimed fire: his only task this activation, all his TP, +10 (C-24)"),
    Move("semi", (FIGURE, TARGET), semi_options, declare,
         help="semi-automatic fire: 15 TP, one fire, Mag Chk halved (C-20)"),
    Move("spray", (FIGURE, TARGET, Arg("split", "str", max_length=400,
                                        help="one target id per fire, comma-separated; the "
                                             "first is the primary")),
         spray_options, declare, check=check_spray,
         help="spray fire (+7 TP): the fires spread over enemies within 2 squares (C-25)"),
    Move("snipe", (FIGURE, TARGET), snipe_options, declare,
         help="Sniping: a rifle or carbine task at +10 TP; on success he stays unobserved"),
    Move("cease", (FIGURE,), cease_options, do_cease,
         help="Cease burning: 25 TP, he must be prone (C-34)"),
)
