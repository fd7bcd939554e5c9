"""Men: their ratings (what character generation makes and the campaign changes) and their running
state in a game (digest 3, 11, 12; rulings C-3 … C-5, C-46, C-50, C-52).

``Ratings`` is frozen: a game never changes a man's characteristics. ``ManState`` is the mutable
per-game record. Derived values (Obs code, Hero modifiers, panic source) are computed, not stored,
so they always follow the current ratings (ruling C-50).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from killhouse.rulesets.commando.characters import HeroRating, charmod, hero_class
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.wounds import Wound, allotment, tp_after_wound, wound_state


class Kind(StrEnum):
    """The three kinds of man (digest 3): Commandos have Lead and Hero and never check panic."""

    COMMANDO = "commando"
    GRUNT = "grunt"
    DOOFUS = "doofus"


class Posture(StrEnum):
    STANDING = "standing"
    PRONE = "prone"


ABILITIES = frozenset(
    (
        "ignore_serious_wounds", "increase_endurance", "inspire_men", "sixth_sense",
        "move_swiftly", "luck_of_the_irish", "right_place_right_time", "striking_paramour",
        "mind_over_matter", "intelligent_horse",
    )
)
#: per-mission uses of the once- or twice-per-mission abilities (digest 12.2, C-48)
USES = {"inspire_men": 2, "luck_of_the_irish": 1, "right_place_right_time": 1}


@dataclass(frozen=True)
class SkillRating:
    """A skill and its rating; ``history`` keeps the campaign's "old/new" trail (digest 14)."""

    name: str
    rating: int
    history: tuple[int, ...] = ()


@dataclass(frozen=True)
class Ratings:
    """A man's characteristics, proficiencies, skills and abilities (digest 3, 13).

    ``lead`` and ``hero`` are ``None`` for Grunts and Doofi; ``wps`` maps weapon (or "knife") to
    its proficiency addition; a weapon not in it has no proficiency (ruling C-21).
    """

    kind: Kind
    st: int
    mk: int
    dex: int
    end: int
    lead: int | None = None
    hero: int | None = None
    wps: Mapping[str, int] = field(default_factory=lambda: {"pistol": 0, "knife": 0})
    skills: Mapping[str, SkillRating] = field(default_factory=dict)
    abilities: frozenset[str] = frozenset()
    auxiliary: str | None = None        # joke ability (C-47), inert unless enabled
    obs: str | None = None              # scenario Obs code for Doofi (C-3, default G)
    # campaign fields the separate issue needs (digest 13-14); not used by the tactical game
    age: int = 22
    rank: int = 2
    missions: int = 0

    def hero_rating(self) -> HeroRating | None:
        return None if self.hero is None else hero_class(self.hero)

    def hero_combat(self) -> int:
        """Hero combat % mod; Grunts and Doofi have 0 (ruling C-64)."""
        h = self.hero_rating()
        return 0 if h is None else h.combat

    def hero_skill(self) -> int:
        h = self.hero_rating()
        return 0 if h is None else h.skill

    def endurance(self) -> int:
        """End0: Increase Endurance gives ×1.5 once, rounded down (ruling C-46)."""
        if "increase_endurance" in self.abilities:
            return self.end * 3 // 2
        return self.end

    def wp(self, weapon: str) -> int | None:
        """The proficiency addition for a weapon, ``None`` without proficiency (C-21, C-43)."""
        key = "knife" if weapon in ("combat_knife", "large_knife") else weapon
        return self.wps.get(key)

    def ignores_serious(self) -> bool:
        return bool({"ignore_serious_wounds", "striking_paramour"} & self.abilities)

    def escape(self) -> bool:
        """Miraculous Escape once per mission at Hero 27+ (ruling C-48)."""
        h = self.hero_rating()
        return h is not None and h.escape

    def modifiers(self) -> dict[str, int]:
        """The characteristic modifiers (digest 13.3) the mechanics read."""
        return {"st": charmod(self.st), "mk": charmod(self.mk), "dex": charmod(self.dex)}


@dataclass
class ManState:
    """One man in a game: ratings, place and everything that changes during play (digest 3)."""

    id: str
    side: str
    ratings: Ratings
    leader: str | None = None          # the Commando or NPC leader over a Grunt or Doofus
    damage: int = 0
    killed: bool = False
    posture: Posture = Posture.STANDING
    tp: int = 0
    move_tp: int = 0                   # Move Swiftly & Silently's movement-only TP (C-5)
    plotted: bool = False
    fee_paid: bool = False             # the one-time 5 TP op-fire fee (C-26)
    engaged: bool = False
    must_leave: bool = False           # disengaged: his first task must leave the square (C-42)
    grappled_with: str | None = None
    in_hand: str | None = None
    carried: tuple[str, ...] = ()
    empty: frozenset[str] = frozenset()  # weapons whose magazine is empty (C-19)
    burning: bool = False
    moved_this_turn: bool = False
    moved_last_turn: bool = False
    panic_checked: bool = False
    preserving: bool = False
    activated: bool = False
    seen_enemy: bool = False           # ever, this mission (panic +5 first time)
    uses: dict[str, int] = field(default_factory=dict)
    task: str | None = None            # a multi-turn task in progress (C-5)
    task_paid: int = 0
    worst: Wound = Wound.UNWOUNDED     # worst state reached this mission (C-60)
    extra: dict[str, Any] = field(default_factory=dict)
    aloft: bool = False                # up a tree: one elevation level higher (C-10, C-53)

    def end0(self) -> int:
        return self.ratings.endurance()

    def wound(self) -> Wound:
        return wound_state(self.end0(), self.damage, self.ratings.ignores_serious(), self.killed)

    def active(self) -> bool:
        return self.wound() not in (Wound.DEAD, Wound.INCAPACITATED)

    def severely_wounded(self) -> bool:
        """The ×0.5 of fire, throws and strikes (C-4)."""
        return self.wound() is Wound.SERIOUS

    def obs_code(self, leader: ManState | None) -> str:
        """Commandos: their Hero class; Grunts: their Commando's; Doofi: the scenario's (C-3)."""
        if self.ratings.kind is Kind.COMMANDO:
            h = self.ratings.hero_rating()
            return h.obs if h is not None else tables().doofus_obs
        if self.ratings.kind is Kind.GRUNT and leader is not None:
            return leader.obs_code(None)
        return self.ratings.obs or tables().doofus_obs

    def checks_panic(self) -> bool:
        """Grunts and Doofi check panic and preservation; Commandos never do (C-14)."""
        return self.ratings.kind is not Kind.COMMANDO

    def start_turn(self) -> None:
        """Phase 0 (digest 15): the allotment, the moving flags, the per-turn checks."""
        mind = "mind_over_matter" in self.ratings.abilities
        self.tp = allotment(self.wound(), mind)
        self.move_tp = (
            tables().allotment["move_swiftly"]
            if "move_swiftly" in self.ratings.abilities and self.active() else 0
        )
        self.moved_last_turn = self.moved_this_turn
        self.moved_this_turn = False
        self.panic_checked = False
        self.activated = False
        self.plotted = False
        self.fee_paid = False

    def start_mission(self) -> None:
        """Uses of the per-mission abilities (digest 12.2)."""
        self.uses = {a: n for a, n in USES.items() if a in self.ratings.abilities}
        if self.ratings.escape():
            self.uses["miraculous_escape"] = 1

    def use(self, ability: str) -> bool:
        """Spend one use of a per-mission ability (Inspire Men 2, Luck of the Irish 1, Right
        Place 1, Miraculous Escape 1: digest 12.2, C-48); False, and no change, if none is left."""
        left = self.uses.get(ability, 0)
        if left <= 0:
            return False
        self.uses[ability] = left - 1
        return True

    def would_fall(self, points: int = 0, killed: bool = False) -> bool:
        """Whether a result would kill or incapacitate him (the Miraculous Escape's test, C-48)."""
        if killed:
            return True
        state = wound_state(self.end0(), self.damage + max(0, points),
                            self.ratings.ignores_serious())
        return state in (Wound.DEAD, Wound.INCAPACITATED)

    def take_damage(self, points: int) -> Wound:
        """Apply damage (never below 0) with ruling C-5's TP halving; returns the new state."""
        before = self.wound()
        self.damage += max(0, points)
        after = self.wound()
        self.tp = tp_after_wound(self.tp, before, after)
        if after is not before and after in (Wound.DEAD, Wound.INCAPACITATED):
            self.move_tp = 0
        self._note_worst(after)
        return after

    def kill(self) -> None:
        """A Kill result (C-4)."""
        self.killed = True
        self.tp = 0
        self.move_tp = 0
        self._note_worst(Wound.DEAD)

    def _note_worst(self, state: Wound) -> None:
        order = list(Wound)
        if order.index(state) > order.index(self.worst):
            self.worst = state

    def spend(self, cost: int, movement: bool = False) -> bool:
        """Pay ``cost`` TP (movement may use Move Swiftly's TP first); False and no change if he
        cannot (ruling C-5: ordinary tasks are paid in full from this activation)."""
        pool = self.tp + (self.move_tp if movement else 0)
        if cost > pool:
            return False
        if movement:  # ruling C-74: the movement-only TP go first
            from_move = min(self.move_tp, cost)
            self.move_tp -= from_move
            cost -= from_move
        self.tp -= cost
        return True

    def work_on(self, task: str, cost: int) -> bool:
        """Pay into a task that may exceed his allotment (C-5): all his TP, balance carried.

        True when it is complete. Switching tasks loses the progress of the old one.
        """
        if self.task != task:
            self.task, self.task_paid = task, 0
        pay = min(self.tp, cost - self.task_paid)
        self.tp -= pay
        self.task_paid += pay
        if self.task_paid >= cost:
            self.task, self.task_paid = None, 0
            return True
        return False

    def revive(self) -> None:
        """A completed Revive sets E = 1 (ruling C-52)."""
        self.damage = self.end0() - 1
