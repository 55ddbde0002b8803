"""Rolls of several interchangeable dice as sorted multisets with exact chances."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache


@lru_cache(maxsize=32)
def multisets(count: int, sides: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted result of `count` dice of `sides` faces with its exact chance."""
    tally: Counter[tuple[int, ...]] = Counter(
        tuple(sorted(roll)) for roll in itertools.product(range(1, sides + 1), repeat=count))
    total = sides ** count
    return tuple((faces, Fraction(n, total)) for faces, n in sorted(tally.items()))


def encode(faces: list[int] | tuple[int, ...]) -> str:
    """Dice as an action argument: "2-4-6"."""
    return "-".join(str(f) for f in sorted(faces))


def decode(text: str) -> list[int]:
    return [int(f) for f in text.split("-")] if text else []
