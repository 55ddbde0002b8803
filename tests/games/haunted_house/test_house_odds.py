"""`relic odds` for the haunted house: exact fractions, checked against brute-force enumeration
of the dice."""

from __future__ import annotations

import itertools
from fractions import Fraction

from house_support import game

from engine.core.odds import as_json

FACES = (0, 0, 1, 1, 2, 2)


def _totals(n: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for roll in itertools.product(FACES, repeat=n):
        out[sum(roll)] = out.get(sum(roll), Fraction(0)) + Fraction(1, 6 ** n)
    return out


def _table(ident: str):
    return next(t for t in game().odds() if t.id == ident)


def _row(table, label: str) -> dict[str, Fraction]:
    return dict(next(r for r in table.rows if r.label == label).chances)


def test_pip_totals_of_one_to_eight_dice() -> None:
    table = _table("pips")
    assert [r.label for r in table.rows] == [f"{n} dice" for n in range(1, 9)]
    for n in range(1, 9):
        assert _row(table, f"{n} dice") == {str(k): p for k, p in _totals(n).items()}


def test_a_check_of_every_trait_value_against_every_target() -> None:
    table = _table("trait-roll")
    for value in range(1, 9):
        totals = _totals(value)
        row = _row(table, f"value {value}")
        assert list(row) == [f"{t}+" for t in range(1, 17)]
        for target in range(1, 17):
            assert row[f"{target}+"] == sum((p for k, p in totals.items() if k >= target),
                                            Fraction(0))


def test_opposed_rolls_win_tie_lose_and_the_damage() -> None:
    table = _table("opposed")
    assert len(table.rows) == 64
    for m, n in [(1, 1), (4, 5), (8, 3), (2, 8), (6, 6)]:
        row = _row(table, f"{m} vs {n} dice")
        a, d = _totals(m), _totals(n)
        margins: dict[int, Fraction] = {}
        for x, px in a.items():
            for y, py in d.items():
                margins[x - y] = margins.get(x - y, Fraction(0)) + px * py
        assert row["win"] == sum(p for k, p in margins.items() if k > 0)
        assert row["tie"] == margins.get(0, Fraction(0))
        assert row["lose"] == sum(p for k, p in margins.items() if k < 0)
        assert row["win"] + row["tie"] + row["lose"] == 1
        for k, p in margins.items():
            if k > 0:
                assert row[f"deal {k}"] == p
            elif k < 0:
                assert row[f"take {-k}"] == p


def test_the_damage_roll_for_one_to_four_damage() -> None:
    table = _table("damage")
    for n in range(1, 5):
        assert _row(table, f"{n} damage") == {f"{k} steps": p for k, p in _totals(n).items()}


def test_the_dread_roll_and_the_event_bands() -> None:
    dread = _table("dread")
    assert _row(dread, "1 omens")["begins"] == 0
    assert _row(dread, "3 omens")["begins"] == Fraction(4, 27)
    assert _row(dread, "6 omens")["begins"] == 1
    events = _table("events")
    row = _row(events, "whispers-in-the-walls (sanity 4)")
    high = sum((p for k, p in _totals(4).items() if k >= 4), Fraction(0))
    assert row == {"0-3": 1 - high, "4+": high} and high == Fraction(50, 81)


def test_the_vault_check_at_every_knowledge() -> None:
    row = _row(_table("room-checks"), "vault (knowledge 6+)")
    for v in range(1, 9):
        assert row[f"value {v}"] == sum((p for k, p in _totals(v).items() if k >= 6),
                                        Fraction(0))


def test_the_odds_are_json_with_exact_fractions() -> None:
    data = as_json(game().odds())
    assert data["pips"]["rows"][1]["chances"] == {"0": "1/9", "1": "2/9", "2": "1/3",
                                                  "3": "2/9", "4": "1/9"}
