"""Dice expressions and exact distributions (icepool), shared by rules, odds and checks."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import icepool

from engine.core.notation import DiceExpression


@dataclass(frozen=True)
class Dice(DiceExpression):
    """A dice expression (`engine/core/notation.py`) with its exact distribution, e.g. 2d6+1."""

    @classmethod
    def parse(cls, text: str) -> Dice:
        found = DiceExpression.parse(text)
        return cls(found.count, found.sides, found.modifier)

    def die(self, extra: int = 0) -> icepool.Die:
        return self.count @ icepool.d(self.sides) + (self.modifier + extra)

    def distribution(self, extra: int = 0) -> dict[int, Fraction]:
        """Exact probability of each total, with `extra` added to the roll (cached)."""
        return dict(_distribution(self.count, self.sides, self.modifier + extra))

    def faces(self) -> list[int]:
        """The totals in order (one chance outcome each for a single die)."""
        return list(range(self.low, self.high + 1))


@lru_cache(maxsize=256)
def _distribution(count: int, sides: int, modifier: int) -> tuple[tuple[int, Fraction], ...]:
    die = count @ icepool.d(sides) + modifier
    return tuple(sorted(distribution(die).items()))


def distribution(die: icepool.Die) -> dict[int, Fraction]:
    denominator = die.denominator()
    return {int(k): Fraction(q, denominator) for k, q in die.items()}


def d6() -> icepool.Die:
    return icepool.d6


def chance_in(faces: set[int] | frozenset[int], bonus: int = 0, sides: int = 6) -> Fraction:
    """The chance that one die plus `bonus` lands on one of `faces` (a success band)."""
    hits = sum(1 for f in range(1, sides + 1) if min(f + bonus, sides) in faces)
    return Fraction(hits, sides)


def chance_at_least(target: int, bonus: int = 0, sides: int = 6) -> Fraction:
    """The chance that one die plus `bonus` reaches `target`."""
    hits = sum(1 for f in range(1, sides + 1) if f + bonus >= target)
    return Fraction(hits, sides)


def best_of_two(preference: list[int], sides: int = 6) -> dict[int, Fraction]:
    """Roll twice and keep the face that comes first in `preference` (most preferred first)."""
    rank = {face: i for i, face in enumerate(preference)}
    result: dict[int, Fraction] = {}
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            keep = a if rank[a] <= rank[b] else b
            result[keep] = result.get(keep, Fraction(0)) + Fraction(1, sides * sides)
    return dict(sorted(result.items()))
