"""Firewall 2136AD (Wessex Games): Gutz roll-under cyber-skirmish, digest firewall.md.

Not registered yet: the tables and resolution mechanics are built; the turn is not (issue 16).
"""
