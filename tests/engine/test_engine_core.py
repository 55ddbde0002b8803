"""The game-independent core: seeded randomness, dice, actions, errors, rules registry."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.core.api import Action, IllegalActionError
from engine.core.dice import Dice, best_of_two, chance_at_least, chance_in
from engine.core.rng import Rng, derive_seed
from engine.core.rules import RuleRegistry


def test_rng_is_reproducible_and_serializable():
    a, b = Rng(42), Rng(42)
    seq = [a.below(6) for _ in range(50)]
    assert seq == [b.below(6) for _ in range(50)]
    c = Rng(a.state)
    assert [a.next_u64() for _ in range(5)] == [c.next_u64() for _ in range(5)]
    assert set(seq) == set(range(6))


def test_derive_seed_depends_on_seed_and_index_only():
    assert derive_seed(7, 3) == derive_seed(7, 3)
    seeds = {derive_seed(7, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert derive_seed(7, 0) != derive_seed(8, 0)


def test_weighted_draw_follows_exact_weights():
    rng = Rng(1)
    counts = [0, 0, 0]
    for _ in range(6000):
        counts[rng.weighted([Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)])] += 1
    assert 850 < counts[0] < 1150 and 1800 < counts[1] < 2200 and 2800 < counts[2] < 3200
    with pytest.raises(ValueError):
        rng.below(0)


def test_dice_parse_and_distribution():
    d = Dice.parse("2d6+1")
    assert (d.count, d.sides, d.modifier, d.low, d.high) == (2, 6, 1, 3, 13)
    dist = d.distribution()
    assert sum(dist.values()) == 1 and dist[8] == Fraction(6, 36)
    assert Dice.parse("d6").faces() == [1, 2, 3, 4, 5, 6]
    assert str(Dice.parse("d6-1")) == "1d6-1"
    with pytest.raises(ValueError):
        Dice.parse("2x6")


def test_small_chance_helpers():
    assert chance_in(frozenset({5, 6})) == Fraction(1, 3)
    assert chance_in(frozenset({5, 6}), bonus=1) == Fraction(1, 2)
    assert chance_at_least(4, bonus=1) == Fraction(2, 3)
    kept = best_of_two([6, 5, 4, 3, 2, 1])
    assert kept[6] == Fraction(11, 36) and sum(kept.values()) == 1


def test_action_values_round_trip_and_order():
    a = Action.of("move", to="0,0,1,1", explore="north")
    assert str(a) == "move(explore=north,to=0,0,1,1)"
    assert Action.from_json(a.to_json()) == a
    assert a.get("to") == "0,0,1,1" and a.get("missing", 5) == 5
    assert sorted([Action.of("b"), Action.of("a", x=1)])[0].kind == "a"


def test_illegal_action_message_names_action_and_state():
    exc = IllegalActionError(Action.of("jump", to="1"), "round 3, seat 1", "no crevice")
    assert "jump(to=1)" in str(exc) and "round 3, seat 1" in str(exc)
    assert isinstance(exc, ValueError)


def test_rule_registry_statuses():
    rules = RuleRegistry("demo-game")

    @rules.rule("test.rule-a", "test.rule-b", status="partial", note="demo")
    def demo() -> None:
        """A registered stand-in."""

    assert rules.status_of("test.rule-a") == "partial"
    assert rules.status_of("test.never-registered") == "missing"
    assert demo.__rules__[1].trace_id == "test.rule-b"
    with pytest.raises(ValueError, match="demo-game"):
        rules.rule("x", status="done")


def test_two_games_never_mix_their_trace_ids():
    first, second = RuleRegistry("first"), RuleRegistry("second")

    @first.rule("shared.id")
    def one() -> None:
        """The first game's rule."""

    assert "shared.id" in first and "shared.id" not in second
    assert second.status_of("shared.id") == "missing"
    assert [r.function.rsplit(".", 1)[-1] for r in first.refs()["shared.id"]] == ["one"]
