"""Mission notes for the campaign (digest 14 steps 3-4): which skills a man used successfully and
with which weapons he hit, kept only while ``recording()`` is active (the after-mission replay).

Play never reads these notes and never records them, so they change no state, event or hash.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_NOTES: ContextVar[dict[str, Any] | None] = ContextVar("commando_mission_notes", default=None)


@contextmanager
def recording() -> Iterator[dict[str, Any]]:
    """Notes while the block runs: ``skills`` and ``hits``, each man id -> sorted names."""
    notes: dict[str, Any] = {"skills": {}, "hits": {}}
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)


def _add(kind: str, who: str, name: str) -> None:
    notes = _NOTES.get()
    if notes is None:
        return
    names = notes[kind].setdefault(who, [])
    if name not in names:
        names.append(name)
        names.sort()


def note_skill(who: str | None, skill: str, ok: bool) -> None:
    """A skill roll of ``who``: a success counts for improvement (digest 12.1, 14 step 3)."""
    if who is not None and ok:
        _add("skills", who, skill)


def note_hit(who: str, weapon: str) -> None:
    """``who`` hit a target with ``weapon`` (digest 14 step 4)."""
    _add("hits", who, weapon)
