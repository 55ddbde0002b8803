"""The catacombs (seed 000): rules as code, driven only by the content model."""

from engine.games.catacombs.game import CatacombsGame

__all__ = ["CatacombsGame"]
