"""Scenario files: the YAML people write, parsed into a checked ``Scenario``."""
