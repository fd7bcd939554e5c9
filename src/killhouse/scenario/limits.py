"""The largest scenario killhouse reads, counted before anything is expanded or built.

A scenario file is untrusted input (a download, an upload to the server). Every
quantity whose cost grows with the file is capped here, so any file validates or is
refused in well under a second and a game it starts cannot run for ever. The caps
sit far above the shipped scenarios (about 450 YAML values, maps up to 60 x 30,
under 30 figures, 40 turns) and are listed in ``docs/scenario-format.md``.
"""

from __future__ import annotations

#: bytes in a scenario file (1 MiB); a longer file is refused before it is parsed
MAX_FILE_BYTES = 1 << 20
#: YAML values (scalars, lists, mappings) written in the file
MAX_NODES = 5_000
#: aliases (``*name``) in the file
MAX_ALIASES = 200
#: values the document holds once every alias is expanded ("billion laughs" defence)
MAX_EXPANDED = 20_000
#: lists and mappings nested inside each other
MAX_DEPTH = 40
#: digits in a whole number
MAX_DIGITS = 20
#: levels of a map
MAX_LEVELS = 16
#: columns and rows of one level
MAX_SIDE = 200
#: cells over all levels of a map
MAX_CELLS = 100_000
#: the lock level of a door in a legend entry (a ruleset may allow less)
MAX_LOCK = 99
#: sides, figures and objects
MAX_SIDES = 8
MAX_FIGURES = 200
MAX_OBJECTS = 200
#: game turns (a turn_limit above this is refused)
MAX_TURN_LIMIT = 200
