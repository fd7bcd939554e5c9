"""The Commando campaign (digest 13, 14): rolling men up, what a mission does to them, and the
odds of both. Built on the core's rosters; the tactical game never imports this package."""
