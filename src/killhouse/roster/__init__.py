"""Campaign rosters: named men who carry characteristics, skills and wounds from game to game."""
