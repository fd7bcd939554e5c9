"""``core.kernels.load_all`` loads every compiled kernel before any game uses one."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
from killhouse.core import bounded, fovjit, losjit, pathjit
kernels = [pathjit._search, pathjit._parents, losjit._pairs, fovjit.shadowcast,
           fovjit.shadowcast_many, bounded._bounded, bounded._walk_back]
before = [len(k.signatures) for k in kernels]
from killhouse.core.kernels import load_all
load_all()
print(before, [len(k.signatures) for k in kernels])
"""


def test_load_all_loads_every_kernel_in_a_fresh_process() -> None:
    # a fresh interpreter: in this one, earlier tests may have loaded them already
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout.strip()
    before, after = out.split("] [")
    assert before == "[0, 0, 0, 0, 0, 0, 0"
    # _walk_back twice: a field's totals are read-only in play, writable when fresh
    assert after == "1, 1, 1, 1, 1, 1, 2]"
