"""Firewall 2136AD (Wessex Games): Gutz roll-under cyber-skirmish, digest firewall.md.

Not registered yet (issue 16): the tables, the resolution mechanics, the board actions and the
Turn on the flow kit are built; views, scenarios, role AI and the Ruleset class are not.
"""
