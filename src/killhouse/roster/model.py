"""Roster values: frozen, JSON-friendly, no I/O (files are read and written in ``roster.files``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

#: What a man can be between games.
STATUSES: tuple[str, ...] = ("fit", "wounded", "dead")


@dataclass(frozen=True)
class Man:
    """One named man: characteristics and skills as numbers, wounds as counts per kind."""

    name: str
    characteristics: Mapping[str, int] = field(default_factory=dict)
    skills: Mapping[str, int] = field(default_factory=dict)
    wounds: Mapping[str, int] = field(default_factory=dict)
    status: str = "fit"
    games: int = 0

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
        return out

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


@dataclass(frozen=True)
class Roster:
    """A campaign's men, in file order; ``ruleset`` names the game they are written for."""

    name: str
    men: tuple[Man, ...] = ()
    ruleset: str | None = None

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
        out["men"] = [m.to_json() for m in self.men]
        return out
