"""The digest's test vectors E-TV1 … E-TV26, one table row each, run through the real code."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute import combat, tasks, victory
from killhouse.rulesets.execute.movement import destinations
from killhouse.rulesets.execute.rolls import (
    device_tn,
    grenade_tn,
    resolve_device,
    resolve_disarm,
    resolve_grenade,
    resolve_shot,
    shot_tn,
    success_chance,
    surveillance_counts,
)
from killhouse.rulesets.execute.state import (
    ACTIVE,
    DEAD,
    EXTRACTED,
    INCAPACITATED,
    ExecuteState,
    Figure,
)
from killhouse.rulesets.execute.tables import Card, tables
from tests.rulesets.execute.helpers import (
    RULESET,
    Dice,
    act,
    place,
    scenario,
    state_of,
    to_combat,
)


def card(v: int = 4, ev: int = 6, f: int = 8, g: int = 6, e: int = 4, m: int = 7) -> Card:
    return Card("test", "Test", "custom", m, f, g, e, ev, v)


def figure(v: int = 4, armour: int = 0, **stats: int) -> Figure:
    return Figure("x", "terrorist", "terrorists", card(v=v, **stats), "X", weapon="smg",
                  armour=armour, pos=Cell(0, 1, 1))


def fresh(width: int = 0) -> tuple[ExecuteState, EventLog]:
    """Combat on the test room, or on an open field ``width`` squares wide."""
    if width:
        field = ("." * width + "\n") * 4
        st, log = state_of(scenario(levels={"ground": field}))
    else:
        st, log = state_of(scenario())
    to_combat(st, log)
    return st, log


# -- one checker per kind of vector ---------------------------------------------------------


def shot(weapon: str, firearms: int, evasion: int, damage: int, roll: int | None, tn: int,
         hit: bool, p: Fraction) -> None:
    dice = Dice(*([roll] if roll is not None else []))
    check = resolve_shot(dice, weapon, firearms, evasion, damage)
    assert (check.tn, check.success, check.roll) == (tn, hit, roll)
    assert dice.values == [] and len(dice.used) == (0 if roll is None else 1)  # E-13
    assert success_chance(tables().weapons[weapon].die, tn) == p


def wounds(vitality: int, hits: list[int], armour: int, statuses: list[str],
           taken: list[int]) -> None:
    st, log = fresh()
    target = st.figures["t1"]
    target.card = card(v=vitality, ev=target.card.evasion)
    target.armour = armour
    for raw, status, t in zip(hits, statuses, taken, strict=True):
        assert combat.apply_damage(st, target, raw, "shot", log) == t
        assert target.status == status


def device(level: int, electronics: int, tn: int, p: Fraction,
           rolls: list[tuple[int, bool]]) -> None:
    assert device_tn(level, electronics) == tn
    assert success_chance(12, tn) == p
    for roll, ok in rolls:
        assert resolve_device(Dice(roll), level, electronics).success is ok
    if not rolls:  # impossible: fails with no die rolled (E-13, E-TV26)
        dice = Dice()
        assert resolve_device(dice, level, electronics).success is False
        assert dice.used == []


def armour_turns(armour: int, turn1: list[int], turn2: list[int], taken1: int,
                 taken2: int) -> None:
    st, log = fresh()
    target = st.figures["t1"]
    target.card = card(v=10, ev=5)
    target.armour = armour
    assert sum(combat.apply_damage(st, target, raw, "shot", log) for raw in turn1) == taken1
    for f in st.figures.values():  # the start of the next turn (6.2 step 0)
        f.armour_used = False
    assert sum(combat.apply_damage(st, target, raw, "shot", log) for raw in turn2) == taken2


def disarm(level: int, electronics: int, damage: int, roll: int | None, disarmed: bool,
           p: Fraction) -> None:
    dice = Dice(*([roll] if roll is not None else []))
    check = resolve_disarm(dice, level, electronics, damage)
    assert check.success is disarmed and check.roll == roll and dice.values == []
    assert success_chance(6, device_tn(level, electronics, damage)) == p
    st, log = fresh()
    agent = place(st, "zach", 0, 4, 4)
    agent.card = card(e=electronics, v=10)
    agent.damage = damage
    bomb_state = "disarmed" if disarmed else "exploded"
    from killhouse.rulesets.execute.state import Bomb

    bomb = Bomb("b", Cell(0, 5, 4), level, "timer", 9, None, seen_by_fbi=True)
    st.bombs["b"] = bomb
    tasks.attempt_disarm(st, agent, bomb, Dice(*([roll] if roll is not None else [])), log)
    assert bomb.state == bomb_state


def jim(distance: int, grenades: int, roll: int, tn: int, m: int) -> None:
    throw = resolve_grenade(Dice(roll), distance, grenades)
    assert (throw.check.tn, throw.overshoot) == (tn, m)
    st, log = fresh(width=20)  # open floor: nothing stops the overshoot
    thrower = place(st, "t1", 0, 0, 1)
    thrower.card = card(g=grenades, v=3)
    victim = place(st, "zach", 0, distance, 1)
    victim.card = card(v=5)
    combat.throw(st, thrower, Cell(0, distance, 1), Dice(roll), log)
    landed = [e for e in log.events if e.kind == "grenade"][-1].data["landed"]
    assert landed == [0, distance + m, 1]
    assert victim.damage == 4  # 2 squares from the blast, in its radius of 3


def surveillance(roll: int, terrorists: int, hostages: int, shown: tuple[int, int]) -> None:
    assert surveillance_counts(roll, terrorists, hostages) == shown


def surveillance_in_play(roll: int, terrorists: int, hostages: int,
                         shown: tuple[int, int]) -> None:
    """The surveillance roll in play: exactly ``shown`` terrorists and hostages revealed."""
    assert surveillance_counts(roll, terrorists, hostages) == shown
    figs: list[dict[str, Any]] = [{"id": "zach", "side": "fbi", "card": "zach_dante"}]
    figs += [{"id": f"t{i}", "side": "terrorists", "card": "standard_terrorist",
              "at": f"ground:{1 + i},1"} for i in range(terrorists)]
    figs += [{"id": f"h{i}", "kind": "hostage", "card": "hostage_male",
              "at": f"ground:{1 + i},3"} for i in range(hostages)]
    st, log = state_of(scenario(levels={"ground": ("#" * 14 + "\n" + ("#" + "." * 12 + "#\n") * 4
                                                    + "#" * 6 + "+" + "#" * 7 + "\n" + "." * 14
                                                    + "\n")}, figures=figs))
    dice = Dice(roll, *([0] * (shown[0] + shown[1])))
    act(st, log, dice, st.terrorists, "ready")
    assert dice.values == []  # the d12 and exactly one pick per revealed figure
    revealed = st.surveillance["revealed"]
    kinds = [r["kind"] for r in revealed]
    assert (kinds.count("terrorist"), kinds.count("hostage")) == shown


def sam(firearms: int, evasion: int, roll: int, tn: int, vd: int, p: Fraction) -> None:
    """E-TV1 in play: Sam (F 8, SMG) hits a target of Evasion 6 with a 7 and deals 2 VD."""
    shot("smg", firearms, evasion, 0, roll, tn, True, p)
    st, log = fresh()
    sam_ = place(st, "zach", 0, 2, 2)
    sam_.card = card(f=firearms, v=4)
    sam_.weapon = "smg"
    target = place(st, "t1", 0, 6, 2)
    target.card = card(ev=evasion, v=5)
    target.armour = 0
    combat.fire(st, sam_, target, Dice(roll), log)
    assert target.damage == vd and target.vitality_left == 5 - vd and target.status == ACTIVE
    damage = [e for e in log.events if e.kind == "damage"][-1].data
    assert (damage["raw"], damage["taken"]) == (vd, vd)


def grenade_table(grenades: int, rows: list[tuple[int, int, int, Fraction]]) -> None:
    for distance, k, tn, p in rows:
        assert distance // 5 == k
        assert grenade_tn(distance, grenades) == tn
        assert success_chance(8, tn) == p


def harry(damage: int, evasion: int) -> None:
    lars = tables().fbi_cards["harry_lars"]
    f = Figure("harry", "agent", "fbi", lars, lars.name, weapon="smg", damage=damage)
    assert (f.skill("firearms"), f.skill("grenades"), f.skill("electronics")) == (6, 4, 2)
    assert shot_tn(evasion, lars.firearms, damage) == 6
    assert success_chance(8, 6) == Fraction(3, 8)


def landing(start: tuple[int, int], target: tuple[int, int], m: int,
            expected: tuple[int, int], cheb: int) -> None:
    point = combat.overshoot_point(start, target, m)
    assert point == expected
    assert max(abs(point[0] - target[0]), abs(point[1] - target[1])) == cheb


def bomb_victims() -> None:
    st, log = fresh()
    one = place(st, "t1", 0, 2, 2)
    one.card, one.armour = card(v=5), 3
    two = place(st, "zach", 0, 9, 5)
    two.card, two.armour, two.armour_used = card(v=4), 2, True
    from killhouse.rulesets.execute.state import Bomb

    st.bombs["b"] = Bomb("b", Cell(0, 5, 5), 6, "remote", None, "t1")
    combat.explode(st, "b", log)
    assert (one.damage, one.status) == (7, DEAD)
    assert (two.damage, two.status) == (10, DEAD)


def blast_armour() -> None:
    st, log = fresh()
    victim = place(st, "zach", 0, 3, 3)
    victim.card, victim.armour = card(v=5), 2
    combat.blast(st, Cell(0, 4, 3), log)
    assert victim.damage == 2


def stairs_walk() -> None:
    """E-TV19 exactly: Movement 7 = 2 flat steps, 2 stair squares (one along the link), 1 flat
    step; one more flat step is over the allowance on an empty floor (nobody stands there)."""
    levels = {"ground": "########\n#...>..#\n########\n........\n",
              "upper": "########\n#...<..#\n#......#\n########\n"}
    sc = scenario(levels=levels, figures=[
        {"id": "harry", "side": "fbi", "card": "harry_lars"},  # Movement 7
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "upper:1,2"},
    ])
    st, log = state_of(sc)
    to_combat(st, log)
    for _ in range(3):  # both grenade slots and the FBI's task slot
        RULESET.apply(st, Action.make(st.acting_side(), "done"), Dice(), log)
    walker = place(st, "harry", 0, 1, 1)
    assert walker.card.movement == 7
    # (2,1) and (3,1) flat, the stair (4,1) and the linked stair upper (4,1), then (5,1)
    reach = destinations(st, walker)
    assert reach[Cell(1, 4, 1)] == 1 + 1 + 2 + 2
    assert reach[Cell(1, 5, 1)] == 1 + 1 + 2 + 2 + 1 == 7  # legal: exactly the allowance
    assert Cell(1, 6, 1) not in reach  # one more flat step: 8 MP
    assert st.active_at(Cell(1, 6, 1)) is None  # the square is empty: only the MP forbid it
    before = RULESET.snapshot(st)
    with pytest.raises(IllegalActionError):
        RULESET.apply(st, Action.make(st.fbi, "move", figure="harry", to=[1, 6, 1]), Dice(), log)
    assert RULESET.snapshot(st) == before
    RULESET.apply(st, Action.make(st.fbi, "move", figure="harry", to=[1, 5, 1]), Dice(), log)
    moved = [e for e in log.events if e.kind == "moved"][-1]
    assert moved.data["cost"] == 7 and walker.pos == Cell(1, 5, 1)


def hostage_hit(raw: int, status: str) -> None:
    st, log = fresh()
    h = st.figures["h1"]
    combat.apply_damage(st, h, raw, "shot", log)
    assert h.status == status


def victory_case(extracted: int, dead: int, alive: int, terrorists_active: bool,
                 end_of_turn: bool, at_limit: bool, winner: str | None, rescued: int,
                 agents_active: bool = True) -> None:
    figs: list[dict[str, Any]] = [{"id": "zach", "side": "fbi", "card": "zach_dante"},
                                  {"id": "t1", "side": "terrorists", "card": "standard_terrorist",
                                   "at": "ground:1,1"}]
    for i in range(8):
        figs.append({"id": f"h{i}", "kind": "hostage", "card": "hostage_male",
                     "at": f"ground:{1 + i},4"})
    st, log = state_of(scenario(figures=figs))
    to_combat(st, log)
    hs = st.hostages()
    for h in hs[:extracted]:
        h.status, h.pos = EXTRACTED, None
    for h in hs[extracted:extracted + dead]:
        h.status, h.damage = DEAD, 2
    assert len(hs) - extracted - dead == alive
    if not terrorists_active:
        st.figures["t1"].status, st.figures["t1"].damage = DEAD, 3
    if not agents_active:
        st.figures["zach"].status, st.figures["zach"].damage = DEAD, 4
    if at_limit:
        st.turn = st.options.turn_limit
    result = victory.check(st, end_of_turn=end_of_turn)
    assert result is not None
    assert result.winner == (None if winner is None else {"fbi": st.fbi,
                                                         "terrorists": st.terrorists}[winner])
    assert result.details["rescued"] == rescued


VECTORS: list[tuple[str, Callable[..., None], dict[str, Any]]] = [
    ("E-TV1", sam, dict(firearms=8, evasion=6, roll=7, tn=4, vd=2, p=Fraction(5, 8))),
    ("E-TV2", wounds, dict(vitality=3, hits=[2, 1], armour=0, statuses=[INCAPACITATED, DEAD],
                           taken=[2, 1])),
    ("E-TV3", device, dict(level=7, electronics=5, tn=9, p=Fraction(1, 3),
                           rolls=[(9, True), (8, False)])),
    ("E-TV4", armour_turns, dict(armour=3, turn1=[3, 2], turn2=[], taken1=2, taken2=0)),
    ("E-TV5", armour_turns, dict(armour=2, turn1=[2, 2], turn2=[], taken1=2, taken2=0)),
    ("E-TV6", armour_turns, dict(armour=3, turn1=[1, 2], turn2=[1], taken1=2, taken2=0)),
    ("E-TV7", disarm, dict(level=6, electronics=9, damage=0, roll=3, disarmed=True,
                           p=Fraction(2, 3))),
    ("E-TV8", jim, dict(distance=11, grenades=8, roll=4, tn=6, m=2)),
    ("E-TV9", surveillance, dict(roll=8, terrorists=10, hostages=8, shown=(5, 6))),
    ("E-TV10", shot, dict(weapon="pistol", firearms=10, evasion=5, damage=0, roll=None, tn=0,
                          hit=True, p=Fraction(1))),
    ("E-TV11", shot, dict(weapon="pistol", firearms=6, evasion=8, damage=0, roll=None, tn=10,
                          hit=False, p=Fraction(0))),
    ("E-TV12", harry, dict(damage=1, evasion=6)),
    ("E-TV13", disarm, dict(level=6, electronics=10, damage=3, roll=None, disarmed=False,
                            p=Fraction(0))),
    ("E-TV14", lambda: bomb_victims(), {}),
    ("E-TV15", lambda: blast_armour(), {}),
    ("E-TV16", grenade_table, dict(grenades=6, rows=[(3, 0, 4, Fraction(5, 8)),
                                                    (5, 1, 6, Fraction(3, 8)),
                                                    (10, 2, 8, Fraction(1, 8)),
                                                    (15, 3, 10, Fraction(0))])),
    ("E-TV17", landing, dict(start=(0, 0), target=(11, 4), m=2, expected=(13, 5), cheb=2)),
    ("E-TV18", landing, dict(start=(0, 0), target=(5, 3), m=3, expected=(8, 5), cheb=3)),
    ("E-TV19", lambda: stairs_walk(), {}),
    ("E-TV20", hostage_hit, dict(raw=1, status=INCAPACITATED)),
    ("E-TV20", hostage_hit, dict(raw=2, status=DEAD)),
    ("E-TV21", surveillance_in_play, dict(roll=5, terrorists=10, hostages=8, shown=(2, 0))),
    ("E-TV22", surveillance, dict(roll=7, terrorists=3, hostages=5, shown=(3, 4))),
    ("E-TV23", victory_case, dict(extracted=4, dead=2, alive=2, terrorists_active=False,
                                  end_of_turn=False, at_limit=False, winner="fbi", rescued=6)),
    ("E-TV24", victory_case, dict(extracted=4, dead=0, alive=4, terrorists_active=True,
                                  end_of_turn=True, at_limit=True, winner="terrorists",
                                  rescued=4)),
    ("E-TV25", victory_case, dict(extracted=0, dead=8, alive=0, terrorists_active=False,
                                  end_of_turn=False, at_limit=False, winner=None, rescued=0,
                                  agents_active=False)),
    ("E-TV26", device, dict(level=10, electronics=4, tn=16, p=Fraction(0), rolls=[])),
]


@pytest.mark.parametrize(("vector", "check", "inputs"), VECTORS, ids=[v[0] for v in VECTORS])
def test_vector(vector: str, check: Callable[..., None], inputs: dict[str, Any]) -> None:
    check(**inputs)


def test_every_vector_is_in_the_table() -> None:
    assert {v[0] for v in VECTORS} == {f"E-TV{i}" for i in range(1, 27)}


def test_josh_skills_drop_by_four_when_incapacitated() -> None:
    """E-TV2: 2 VD taken means every skill rating is 4 lower (E-14)."""
    josh = figure(v=3, f=8, g=6, e=4)
    josh.damage = 2
    assert (josh.skill("firearms"), josh.skill("grenades"), josh.skill("electronics")) == (4, 2, 0)
    assert josh.status == ACTIVE  # status changes only through a damage event
