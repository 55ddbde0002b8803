"""Exact distributions of house dice (icepool): the pip total of n dice, opposed rolls."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import icepool

from engine.core.dice import distribution
from engine.games.haunted_house.registry import rule


@lru_cache(maxsize=64)
@rule("dice.faces")
def pips(n: int, faces: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """The chance of each pip total of `n` dice with these faces (n = 0: a total of 0)."""
    if n <= 0:
        return ((0, Fraction(1)),)
    die = n @ icepool.Die(list(faces))
    return tuple(sorted(distribution(die).items()))


def at_least(n: int, target: int, faces: tuple[int, ...]) -> Fraction:
    """The chance that `n` dice reach `target`."""
    return sum((p for total, p in pips(n, faces) if total >= target), Fraction(0))


@lru_cache(maxsize=256)
def opposed(m: int, n: int, faces: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """The chance of each margin (attacker's total minus defender's) of m dice against n."""
    margins: dict[int, Fraction] = {}
    for a, pa in pips(m, faces):
        for d, pd in pips(n, faces):
            margins[a - d] = margins.get(a - d, Fraction(0)) + pa * pd
    return tuple(sorted(margins.items()))


def win_chance(m: int, n: int, faces: tuple[int, ...]) -> Fraction:
    return sum((p for margin, p in opposed(m, n, faces) if margin > 0), Fraction(0))
