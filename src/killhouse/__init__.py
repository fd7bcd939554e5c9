"""killhouse: an umpire for hostage-rescue and close-quarters-battle skirmish wargames."""

__version__ = "0.1.0"
