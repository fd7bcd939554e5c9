"""Bots: they choose among legal actions seeing only their side's view."""
