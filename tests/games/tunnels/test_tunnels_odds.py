"""`relic odds` for the tunnels: every table against brute-force enumeration of the dice."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from tunnels_support import game

FACES = range(1, 7)


def tables():
    return {t.id: t for t in game().odds()}


def row(table, label):
    found = next(r for r in table.rows if r.label == label)
    return dict(found.chances)


def enumerate_dice(n, value):
    """Every roll of `n` six-sided dice, counted by `value(roll)`."""
    counts = Counter(value(roll) for roll in product(FACES, repeat=n))
    total = 6**n
    return {k: Fraction(c, total) for k, c in counts.items()}


def test_the_booby_trap_table_is_the_seeds():
    got = row(tables()["booby-trap"], "1d6")
    seed = {1: "nothing", 2: "1 damage", 3: "1 damage", 4: "move ends", 5: "troglodyte",
            6: "2 damage"}
    assert got == enumerate_dice(1, lambda r: seed[r[0]])
    assert got["1 damage"] == Fraction(1, 3)


def test_the_fate_dice_for_each_number_of_dice():
    faces = {f: s.effect for s in game().data.fate_faces for f in s.faces}
    table = tables()["fate-dice"]
    assert [r.label for r in table.rows] == ["1 die", "2 dice", "3 dice", "4 dice"]
    for n in range(1, 5):
        def outcome(roll):
            effects = [faces[f] for f in roll]
            return f"{effects.count('troglodyte')} trog, {effects.count('curse')} curse"
        label = "1 die" if n == 1 else f"{n} dice"
        assert row(table, label) == enumerate_dice(n, outcome)


def test_every_attack_with_and_without_the_hungry_tunnels():
    data = game().data
    attackers = [(c.name, c.attack) for c in data.cards] + [
        (data.troglodyte.name, data.troglodyte.attack), (data.demon.name, data.demon.attack)]
    table = tables()["attacks"]
    assert len(table.rows) == 2 * len(attackers)
    for name, attack in attackers:
        dice = f"{attack.dice} {'die' if attack.dice == 1 else 'dice'}"
        for where, mult in (("ordinary square", 1), ("hungry tunnels", 2)):
            def damage(roll, mult=mult, attack=attack):
                return f"{mult * sum(1 for f in roll if f in attack.hits)} damage"
            assert row(table, f"{name}, {dice}, {where}") == enumerate_dice(attack.dice, damage)


def test_the_strongman_in_the_hungry_tunnels():
    got = row(tables()["attacks"], "Strongman, 3 dice, hungry tunnels")
    assert got == {"0 damage": Fraction(1, 8), "2 damage": Fraction(3, 8),
                   "4 damage": Fraction(3, 8), "6 damage": Fraction(1, 8)}


def test_the_grenade_is_the_same_in_the_hungry_tunnels():
    table = tables()["grenade"]
    plain = row(table, "ordinary square")
    assert plain == enumerate_dice(1, lambda r: "1 damage to each" if r[0] >= 2 else "dud")
    assert row(table, "hungry tunnels") == plain


def test_initiative():
    got = row(tables()["initiative"], "d6 each")
    assert got == enumerate_dice(2, lambda r: "mortal player" if r[0] >= r[1] else
                                 "demon player")
    assert got["mortal player"] == Fraction(7, 12)
