"""Role AIs: one module per ruleset (``killhouse.ai.roles.<ruleset id>``) exporting ``bot_for``.

- ``execute``: FBI and terrorist bots for "Execute, execute, execute!".
- ``gogogo``: counter-terrorist and terrorist bots for "Go! Go! Go!".
"""
