"""Lowball, a game that exists only for the tests: a folder under tests/ that the registry takes like
any game's, to show that the match loop and the app follow what a game declares. Each deal every
player still in counts points against them; the lowest total leads, and a player over the limit is out."""
