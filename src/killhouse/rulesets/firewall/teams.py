"""Figures and Fire Teams: their state and the team rules of digest §2.1, §4 and §5.

The mutable records a game keeps (§21.1, figures part) and the rules that need more than one
figure: the leader's bonus within 8 cm, the leader-loss rolls of every member after the
triggering action (rulings F-5, F-6), and the 1/3 stop of a team's activation (F-7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from killhouse.core.chance import Chance
from killhouse.rulesets.firewall.gutz import starting_gutz
from killhouse.rulesets.firewall.leaders import (
    LeaderLoss,
    failure_limit,
    leader_bonus,
    leader_loss_roll,
)
from killhouse.rulesets.firewall.tables import tables


class Status(StrEnum):
    """A figure's standing (§1.1): active, helpless, or removed from play."""

    ACTIVE = "active"
    INCAPACITATED = "incapacitated"
    KILLED = "killed"
    ROUTED = "routed"
    EXITED = "exited"
    #: not yet on the table: reinforcements due later (§18, ruling F-80)
    RESERVE = "reserve"
    #: vehicles (§17.3): a passenger inside a vehicle, neither seen nor targeted (F-67)
    ABOARD = "aboard"


@dataclass
class Figure:
    """One model's state (§21.1); ``gutz`` is the real score, ``start_gutz`` kept for §16."""

    id: str
    side: str
    team: str
    kind: str
    experience: str
    start_gutz: int
    gutz: int
    cell: tuple[int, int]
    is_leader: bool = False
    level: int = 0
    facing: tuple[int, int] = (0, -1)
    prone: bool = False
    suppressed: bool = False
    status: Status = Status.ACTIVE
    armour: str = "street_clothing"
    weapons: tuple[str, ...] = ()
    #: close-combat items carried (§10: knife, sword, hammer …; ruling F-109)
    melee: tuple[str, ...] = ()
    #: weapon id -> "ready" | "jammed" | "useless" (§11) | "unloaded" (§8.0, a single-shot
    #: weapon fired and not yet reloaded); absent means ready
    weapon_state: dict[str, str] = field(default_factory=dict)
    #: weapon id -> shots fired of a weapon with limited ammunition (§8.0, ruling F-35)
    shots: dict[str, int] = field(default_factory=dict)
    #: grenades carried, by §9 type id (thrown with the Hand Grenade row or from a launcher)
    grenades: dict[str, int] = field(default_factory=dict)
    #: working cyber functions used by the rules: target_optic, lo_light, combat_computer …
    cyber: frozenset[str] = frozenset()
    skills: Mapping[str, int] = field(default_factory=dict)
    cp: int = 0
    rolls_leader_loss: bool = True
    move_used: bool = False
    combat_used: bool = False
    failed_this_turn: bool = False
    #: placed secretly (§21.5): omitted from every enemy view until revealed
    hidden: bool = False
    #: cyber failure (§14.2): no actions up to and including this Turn; stopped functions
    no_action_until: int = 0
    cyber_stopped: frozenset[str] = frozenset()
    #: doses carried by drug id; active effects (drug -> "good" | "critical") and the Gutz a
    #: T80 / Ground Zero actually added (§15, rulings F-41, F-115)
    drugs: dict[str, int] = field(default_factory=dict)
    drug_effects: dict[str, str] = field(default_factory=dict)
    drug_gained: dict[str, int] = field(default_factory=dict)
    #: Wired Reflexes' additional action used this Turn (§14.1, ruling F-113)
    extra_used: bool = False
    #: the helpless figure this one carries (ruling F-54), and the carrier of this one
    carrying: str | None = None
    carried_by: str | None = None
    #: scenario marks: a captured figure (Lonnie, F-56) and one that carries an alarm bleeper
    captured: bool = False
    alarm: bool = False
    # -- vehicles (§17, vehicles/): personal transport and the vehicle a passenger is in
    #: the personal transport it has (§17.1), whether it rides it now, the fastest speed
    #: it rode this Turn (ruling F-46: slow / cruise / full, else none)
    transport: str | None = None
    riding: bool = False
    rode: str = "none"
    aboard: str | None = None
    #: climbing (§6.6, ruling F-181): the square at the top of the face it hangs on, and its
    #: height in cm above its own square's surface
    climb_to: tuple[int, int] | None = None
    hang: Fraction = Fraction(0)
    #: the level of that square when the face joins two storeys (ruling F-251), else None
    climb_level: int | None = None
    #: cyber functions a Technical CF left dead for the game (§14.2, ruling F-188); the one
    #: Medical treatment of the game spent (§16.2); the Turn a medic revived it (F-190)
    cyber_dead: frozenset[str] = frozenset()
    healed: bool = False
    revived: int = 0

    @property
    def active(self) -> bool:
        return self.status is Status.ACTIVE


@dataclass
class Team:
    """One Fire Team (§4): its members, its leader while it has one, awareness (F-16)."""

    id: str
    side: str
    members: tuple[str, ...]
    leader: str | None
    aware: bool = False
    activated_this_turn: bool = False
    leader_lost: bool = False


def new_figure(
    fid: str,
    side: str,
    team: str,
    cell: tuple[int, int],
    *,
    kind: str = "civilian",
    experience: str = "normal",
    is_leader: bool = False,
    gutz: int | None = None,
    **rest: object,
) -> Figure:
    """A figure at set-up: a scenario-listed Gutz is final (§2.1); otherwise type + experience
    (+1 leader) clamped to 2..11; a figure given only a Gutz is Normal (ruling F-52)."""
    t = tables()
    if gutz is None:
        value = starting_gutz(kind, experience, is_leader)
    elif not t.min_gutz <= gutz <= t.max_gutz:
        raise ValueError(f"figure {fid}: Gutz {gutz} is outside {t.min_gutz}..{t.max_gutz}")
    else:
        value = gutz
    return Figure(
        id=fid, side=side, team=team, kind=kind, experience=experience, start_gutz=value,
        gutz=value, cell=cell, is_leader=is_leader, **rest,  # type: ignore[arg-type]
    )


def active_members(team: Team, figures: Mapping[str, Figure]) -> list[Figure]:
    """The team's members that are neither helpless nor removed."""
    return [figures[m] for m in team.members if figures[m].active]


def team_stopped(team: Team, figures: Mapping[str, Figure]) -> bool:
    """§5 item 5 (ruling F-7): failed active members have reached max(1, ⌊N/3⌋)."""
    members = active_members(team, figures)
    failed = sum(1 for f in members if f.failed_this_turn)
    return failed >= failure_limit(len(members))


def current_leader(team: Team, figures: Mapping[str, Figure]) -> Figure | None:
    """The team's leader if it still has one and it is active."""
    if team.leader is None or team.leader_lost:
        return None
    leader = figures[team.leader]
    return leader if leader.active else None


def bonus_for(figure: Figure, team: Team, figures: Mapping[str, Figure]) -> int:
    """The leader's bonus on this figure's Movement and Combat rolls (§4, ruling F-43).

    A suppressed leader still gives it; with skills it is the leader's Leadership level.
    """
    leader = current_leader(team, figures)
    if leader is None or leader.level != figure.level:
        return 0  # ruling F-186: a leader on another storey (10 cm up, §1.2) is not within 8 cm
    return leader_bonus(
        figure.cell,
        leader.cell,
        is_leader=figure.id == leader.id,
        leadership=int(leader.skills.get("leadership", 1)),
    )


def leader_has_fallen(team: Team, figures: Mapping[str, Figure]) -> bool:
    """Whether the leader was killed, routed or incapacitated and the team has not yet rolled
    (ruling F-6; an exited leader is not a loss)."""
    if team.leader is None or team.leader_lost:
        return False
    leader = figures[team.leader]
    # ruling F-6: a paranoid leader's defection is a loss too (F-193: it left the team)
    return leader.status in (Status.KILLED, Status.ROUTED, Status.INCAPACITATED) or (
        leader.team != team.id)


def resolve_leader_loss(
    team: Team, figures: dict[str, Figure], chance: Chance
) -> dict[str, LeaderLoss]:
    """Every other active member rolls once, unmodified, and the team is leaderless for the
    rest of the game (§4, rulings F-5, F-6). Helpless members and scenario exemptions do not
    roll; a failure marks the figure failed this Turn (it counts toward the 1/3 limit, F-7)."""
    if not leader_has_fallen(team, figures):
        return {}
    team.leader_lost = True
    results: dict[str, LeaderLoss] = {}
    for fid in team.members:
        figure = figures[fid]
        if fid == team.leader or not figure.active or not figure.rolls_leader_loss:
            continue
        # §21.4: leader-loss rolls are shown to the owning side only
        effect = leader_loss_roll(chance, figure.gutz, figure.suppressed, f"leader loss {fid}",
                                  frozenset({team.side}))
        figure.gutz = effect.gutz
        figure.suppressed = effect.suppressed
        if effect.failed:
            figure.failed_this_turn = True
        if effect.status == "routed":
            figure.status = Status.ROUTED
        results[fid] = effect
    return results


def start_turn(figures: Mapping[str, Figure], teams: Mapping[str, Team]) -> None:
    """Upkeep of §21.2: per-Turn flags of every figure and team are reset."""
    for figure in figures.values():
        figure.move_used = False
        figure.combat_used = False
        figure.failed_this_turn = False
        figure.extra_used = False
    for team in teams.values():
        team.activated_this_turn = False
