"""Seeded randomness held inside the state: a SplitMix64 generator with one integer of state."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded with `seed`: independent of job count."""
    return _mix((seed * 0x9E3779B97F4A7C15 + index + 1) & _MASK)


class Rng:
    """SplitMix64: tiny, fast, fully described by `state` (an int), so states serialize."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError(f"Rng.below needs n > 0, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted(self, weights: Sequence[Fraction]) -> int:
        """An index drawn with exact rational weights (they need not sum to one)."""
        total = sum(weights, Fraction(0))
        denominator = 1
        for w in weights:
            denominator = denominator * w.denominator // _gcd(denominator, w.denominator)
        scaled = [int(w * denominator) for w in weights]
        pick = self.below(int(total * denominator))
        for index, size in enumerate(scaled):
            if pick < size:
                return index
            pick -= size
        raise AssertionError("weights exhausted")


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
