"""Game-independent engine core: OpenSpiel-shaped API, seeded randomness, dice, bots, runner."""

from engine.core.api import (
    CHANCE,
    TERMINAL,
    Action,
    EngineError,
    IllegalActionError,
    Outcome,
)
from engine.core.rng import Rng, derive_seed

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "EngineError",
    "IllegalActionError",
    "Outcome",
    "Rng",
    "derive_seed",
]
