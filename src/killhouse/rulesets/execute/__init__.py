"""Execute, execute, execute! (ruleset id ``execute``): FBI hostage rescue in phased turns."""
