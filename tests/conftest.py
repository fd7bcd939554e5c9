"""Test-wide settings: under CI (``CI`` set) hypothesis explores a fixed set of examples, so a
run there is reproducible; on a developer's machine it keeps drawing new ones and finding bugs."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
