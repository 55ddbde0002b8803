"""The haunted house (seed 004): explorers open a house room by room until an omen wakes a
scenario, one of them turns traitor, and two sides race to their goals. See `game.py`."""
