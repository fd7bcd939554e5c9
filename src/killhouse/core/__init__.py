"""The ruleset-free core: map, geometry, chance (dice and decks) and events."""
