"""The ruleset ``cqb``: "CQB – Skirmish wargames rules for hostage rescue operations" (seed 001)."""
