"""Roster values: frozen, JSON-friendly, no I/O (files are read and written in ``roster.files``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

#: What a man can be between games: ``resting`` (still healing) and ``retired`` men miss the next
#: game and are never drawn; the dead stay dead (ruling K-16).
STATUSES: tuple[str, ...] = ("fit", "wounded", "resting", "retired", "dead")
#: the statuses a scenario cannot draw a man in
UNAVAILABLE: frozenset[str] = frozenset({"resting", "retired", "dead"})


@dataclass(frozen=True)
class Man:
    """One named man: characteristics and skills as numbers, wounds as counts per kind.

    ``figure`` holds the ruleset's own figure keys the man brings into a scenario (a commando's
    ``man``, ``wps``, ``abilities``); ``record`` is the ruleset's campaign bookkeeping (age,
    rank, streaks, healing), JSON values the core carries but never reads.
    """

    name: str
    characteristics: Mapping[str, int] = field(default_factory=dict)
    skills: Mapping[str, int] = field(default_factory=dict)
    wounds: Mapping[str, int] = field(default_factory=dict)
    status: str = "fit"
    games: int = 0
    figure: Mapping[str, Any] = field(default_factory=dict)
    record: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "characteristics": dict(self.characteristics)}
        if self.skills:
            out["skills"] = dict(self.skills)
        if self.wounds:
            out["wounds"] = dict(self.wounds)
        if self.status != "fit":
            out["status"] = self.status
        if self.games:
            out["games"] = self.games
        if self.figure:
            out["figure"] = _plain(self.figure)
        if self.record:
            out["record"] = _plain(self.record)
        return out

    def available(self) -> bool:
        """Whether a scenario may draw him (not resting, retired or dead)."""
        return self.status not in UNAVAILABLE

    def after_game(
        self,
        wounds: Mapping[str, int] | None = None,
        skills: Mapping[str, int] | None = None,
        status: str | None = None,
    ) -> Man:
        """This man after one more game: wounds added, skills replaced where given."""
        total = dict(self.wounds)
        for kind, count in (wounds or {}).items():
            total[kind] = total.get(kind, 0) + count
        return replace(
            self,
            wounds={k: v for k, v in total.items() if v},
            skills={**self.skills, **(skills or {})},
            status=status or self.status,
            games=self.games + 1,
        )


def _plain(value: Any) -> Any:
    """A copy of nested mappings and sequences as plain dicts and lists (for YAML and JSON)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Roster:
    """A campaign's men, in file order; ``ruleset`` names the game they are written for.

    ``seed`` is the seed the roster was rolled with (if it was); ``applied`` names the games
    whose results the roster holds already, so no game is applied twice (ruling K-16).
    """

    name: str
    men: tuple[Man, ...] = ()
    ruleset: str | None = None
    seed: int | None = None
    applied: tuple[str, ...] = ()

    def man(self, name: str) -> Man:
        for m in self.men:
            if m.name == name:
                return m
        raise KeyError(name)

    def names(self) -> list[str]:
        return [m.name for m in self.men]

    def with_man(self, man: Man) -> Roster:
        """The roster with ``man`` replacing the man of his name (or added at the end)."""
        if man.name in self.names():
            return replace(self, men=tuple(man if m.name == man.name else m for m in self.men))
        return replace(self, men=(*self.men, man))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"roster": self.name}
        if self.ruleset:
            out["ruleset"] = self.ruleset
        if self.seed is not None:
            out["seed"] = self.seed
        if self.applied:
            out["applied"] = list(self.applied)
        out["men"] = [m.to_json() for m in self.men]
        return out
