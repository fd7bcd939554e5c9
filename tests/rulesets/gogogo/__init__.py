"""Tests of the gogogo ruleset."""
