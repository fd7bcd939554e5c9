"""One objective vocabulary for the ``objectives`` section of every ruleset's scenario files.

The canonical names are listed once here (and in ``docs/scenario-format.md``); the keys
each ruleset read before the vocabulary existed stay accepted as aliases, so no shipped or
user file breaks. A ruleset reads its objectives through ``read_objectives``, which names
every problem on the key as written (so it lands on that key's line): an unknown key, and a
canonical name given together with one of its aliases.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from killhouse.scenario.model import Issue


@dataclass(frozen=True)
class Objective:
    """One canonical objective key, the older keys that mean the same, and what it names."""

    key: str
    aliases: tuple[str, ...]
    meaning: str


VOCABULARY: tuple[Objective, ...] = (
    Objective("mission", (), "the mission type; each ruleset names the missions it plays"),
    Objective("entry", (), "entry squares: where the assaulting side comes onto the map"),
    Objective(
        "rescue_zone",
        ("extraction", "rescue"),
        "where hostages are brought out to be rescued (the extraction squares)",
    ),
    Objective(
        "hostage_location",
        ("location",),
        "where the hostages are held (the defenders may deploy there too)",
    ),
    Objective("bomb_sites", (), "where the bomb may be planted"),
    Objective("escape_points", ("escape",), "where the VIP escapes"),
    Objective("hold_zone", (), "the zone a side must hold (at the end, or for N turns)"),
    Objective("attacker_start", ("ct_start",), "start zone of the assaulting side"),
    Objective(
        "defender_start",
        ("t_start", "deployment"),
        "start or deployment zone of the defending side",
    ),
)
BY_KEY: Mapping[str, Objective] = {o.key: o for o in VOCABULARY}
CANONICAL: Mapping[str, str] = {
    **{o.key: o.key for o in VOCABULARY},
    **{a: o.key for o in VOCABULARY for a in o.aliases},
}


def canonical(key: str) -> str | None:
    """The canonical name of an objective key or alias; ``None`` for a key not in the vocabulary."""
    return CANONICAL.get(key)


@dataclass(frozen=True)
class Objectives:
    """A scenario's objectives by canonical name, each remembering the key it was written as."""

    values: Mapping[str, tuple[str, Any]]

    def __contains__(self, key: str) -> bool:
        return key in self.values

    def get(self, key: str, default: Any = None) -> Any:
        """The value given under ``key`` or any of its aliases, else ``default``."""
        found = self.values.get(key)
        return default if found is None else found[1]

    def written(self, key: str) -> str:
        """The key as the file wrote it (the canonical name when the file gives neither)."""
        found = self.values.get(key)
        return key if found is None else found[0]

    def path(self, key: str) -> str:
        """The field path of an objective, on the line the file wrote it."""
        return f"objectives.{self.written(key)}"


def read_objectives(
    raw: Mapping[str, Any], accepted: Iterable[str]
) -> tuple[Objectives, list[Issue]]:
    """Read ``objectives`` for a ruleset that plays the canonical keys ``accepted``.

    A key outside the vocabulary, or one the ruleset does not play, is an issue with a
    did-you-mean hint; a canonical name and its alias (or two aliases) at once is an issue
    on the later key, and the first one written is kept.
    """
    plays = tuple(accepted)
    for key in plays:
        if key not in BY_KEY:
            raise ValueError(f"{key!r} is not a canonical objective key")
    spellings = [k for k in CANONICAL if CANONICAL[k] in plays]
    values: dict[str, tuple[str, Any]] = {}
    issues: list[Issue] = []
    for key, value in raw.items():
        name = CANONICAL.get(str(key))
        if name is None or name not in plays:
            close = difflib.get_close_matches(str(key), spellings, n=1, cutoff=0.6)
            hint = (
                f"did you mean {close[0]!r}?"
                if close
                else "expected: " + ", ".join(plays)
            )
            issues.append(Issue(f"objectives.{key}", f"unknown objective key {key!r}", hint))
            continue
        if name in values:
            first = values[name][0]
            issues.append(
                Issue(
                    f"objectives.{key}",
                    f"{key!r} and {first!r} name the same objective ({name})",
                    f"give only one of them; {name} is the canonical name",
                )
            )
            continue
        values[name] = (str(key), value)
    return Objectives(values), issues
