"""Dice expressions and exact distributions (icepool), shared by rules, odds and checks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import icepool

_DICE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


@dataclass(frozen=True)
class Dice:
    """`count` dice of `sides` faces plus `modifier`, e.g. 2d6+1."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> Dice:
        match = _DICE.match(text.strip())
        if not match:
            raise ValueError(f"not a dice expression: {text!r}")
        count = int(match.group(1) or 1)
        return cls(count, int(match.group(2)), int(match.group(3) or 0))

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    @property
    def low(self) -> int:
        return self.count + self.modifier

    @property
    def high(self) -> int:
        return self.count * self.sides + self.modifier

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
