"""`relic odds` for the dice dungeon: every table against brute-force enumeration of ordered
dice (and of every reroll choice, for the best reroll policy)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest
from dd_support import game

from engine.core.odds import render_text

SIDES = 6


def _tables() -> dict:
    return {t.id: t for t in game().odds()}


def _value(dice: tuple[int, ...]) -> int:
    return -(-sum(dice) // len(dice))


@cache
def _best(dice: tuple[int, ...], need: int, gold: int) -> Fraction:
    """Ordered dice; each reroll picks a position (brute force over every choice)."""
    if _value(dice) >= need:
        return Fraction(1)
    if not gold:
        return Fraction(0)
    options = []
    for i in range(len(dice)):
        options.append(sum((_best((*dice[:i], w, *dice[i + 1:]), need, gold - 1)
                            for w in range(1, SIDES + 1)), Fraction(0)) / SIDES)
    return max(options)


def _attack(heroes: int, need: int, gold: int) -> Fraction:
    rolls = list(itertools.product(range(1, SIDES + 1), repeat=heroes))
    return sum((_best(r, need, gold) for r in rolls), Fraction(0)) / len(rolls)


@pytest.mark.parametrize("heroes", [1, 2, 3, 4])
@pytest.mark.parametrize("gold", [0, 1, 2, 3])
def test_attack_tables_match_enumeration(heroes: int, gold: int) -> None:
    table = _tables()[f"attack-{heroes}-{gold}"]
    assert [r.label for r in table.rows] == [f"bonus +{b}" for b in range(7)]
    for bonus, row in enumerate(table.rows):
        got = dict(row.chances)
        assert list(got) == [f"health {h}" for h in range(1, 13)]
        for health in range(1, 13):
            assert got[f"health {health}"] == _attack(heroes, health - bonus, gold), (
                heroes, gold, bonus, health)


def test_rerolls_never_hurt_and_a_six_on_one_die_is_the_ceiling() -> None:
    tables = _tables()
    for heroes in (1, 2, 3, 4):
        for bonus in range(7):
            rows = [dict(tables[f"attack-{heroes}-{g}"].rows[bonus].chances) for g in range(4)]
            for h in range(1, 13):
                chances = [r[f"health {h}"] for r in rows]
                assert chances == sorted(chances)
                if h > SIDES + bonus:
                    assert chances[-1] == 0


def test_setup_table_matches_enumeration() -> None:
    rows = {r.label: dict(r.chances) for r in _tables()["setup"].rows}
    triples = [t for t in itertools.product(range(1, 7), repeat=3) if len(set(t)) == 3]
    for position, label in enumerate(("first monster room", "first treasure room",
                                      "starting gold")):
        for face in range(1, 7):
            n = sum(1 for t in triples if t[position] == face)
            assert rows[label][str(face)] == Fraction(n, len(triples))
    distinct = Fraction(len(triples), 216)
    throws = rows["throws until the dice differ"]
    assert throws["1"] == distinct == Fraction(5, 9)
    assert throws["2"] == (1 - distinct) * distinct
    assert sum(throws.values()) == 1


def test_turn_roll_table_matches_enumeration() -> None:
    rows = {r.label: dict(r.chances) for r in _tables()["turn-roll"].rows}
    rolls = list(itertools.product(range(1, 7), repeat=3))
    for n in range(1, 7):
        assert rows["a given number among the dice"][f"number {n}"] == Fraction(
            sum(n in r for r in rolls), 216) == Fraction(91, 216)
    kinds = rows["the dice show"]
    assert kinds["all different"] == Fraction(sum(len(set(r)) == 3 for r in rolls), 216)
    assert kinds["three alike"] == Fraction(6, 216)


def test_exploration_table_rerolls_a_one() -> None:
    rows = {r.label: dict(r.chances) for r in _tables()["exploration"].rows}
    assert rows["one die"] == {f"shape {f}": Fraction(1, 5) for f in range(2, 7)}
    rolls = list(itertools.product(range(1, 7), repeat=3))
    high: dict[str, Fraction] = {}
    for r in rolls:
        top = max(r)
        faces = range(2, 7) if top == 1 else [top]
        for f in faces:
            high[f"shape {f}"] = high.get(f"shape {f}", Fraction(0)) + Fraction(
                1, 216 * len(faces))
    assert rows["the highest of the three"] == dict(sorted(high.items()))
    for row in rows.values():
        assert sum(row.values()) == 1


def test_odds_print_as_text() -> None:
    text = render_text(game().odds())
    assert "attack by 4 living heroes, best use of 3 rerolls" in text
    assert "throws until the dice differ" in text
