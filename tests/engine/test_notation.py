"""Roll ranges and dice expressions have one parser, shared by pipeline, engine and rulebook."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.core.notation import DiceExpression, NotationError, RollRange
from engine.core.table_odds import row_chance, table_odds
from engine.games.catacombs.data import STATS, Span
from pipeline.resolve import parse_range
from pipeline.schemas import CATALOGUE


@pytest.mark.parametrize(("text", "low", "high"), [
    ("5", 5, 5), ("2-3", 2, 3), ("12+", 12, None), ("2-12+", 2, None), ("-1", -1, -1),
    ("-3--1", -3, -1), (7, 7, 7),
])
def test_roll_ranges(text, low, high):
    found = RollRange.parse(text)
    assert (found.low, found.high) == (low, high)
    assert parse_range(str(text)) == found == Span.parse(text)
    assert RollRange.parse(str(found)) == found


def test_bad_ranges_name_the_text():
    with pytest.raises(NotationError, match="'2--'"):
        RollRange.parse("2--")
    assert RollRange.try_parse("many") is None and parse_range("many") is None


def test_membership_of_open_and_closed_ranges():
    assert 40 in RollRange.parse("2-12+") and 1 not in RollRange.parse("2-12+")
    assert 4 not in RollRange.parse("2-3") and -1 in RollRange.parse("-1")


def test_dice_expressions():
    assert DiceExpression.parse("2d6+1") == DiceExpression(2, 6, 1)
    assert (DiceExpression.parse("d6").low, DiceExpression.parse("3d6-2").high) == (1, 16)
    assert str(DiceExpression.parse("d20")) == "1d20"
    with pytest.raises(NotationError, match="'2x6'"):
        DiceExpression.parse("2x6")


def test_table_odds_accept_every_range_the_schema_allows():
    table = {"dice": "2d6", "rows": [{"roll": "2-6"}, {"roll": "7"}, {"roll": "8-12+"}]}
    chances = [r["chance"] for r in table_odds(table)]
    assert chances == [Fraction(15, 36), Fraction(6, 36), Fraction(15, 36)]
    assert row_chance({2: Fraction(1, 2), 30: Fraction(1, 2)}, "2-12+") == 1


def test_the_engines_stats_are_the_schemas():
    """The schema's stat list is the one home; the catacombs' character stats are those of it
    that a character has (health is a track of its own)."""
    assert set(STATS) | {"health"} == set(CATALOGUE.stat_names)
