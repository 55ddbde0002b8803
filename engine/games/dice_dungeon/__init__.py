"""The dice dungeon (seed 002): a cooperative roll-and-write for 1 to 4 players (see game.py)."""
