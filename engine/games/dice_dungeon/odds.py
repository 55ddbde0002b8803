"""Exact odds of every roll of the dice dungeon, as typed tables for `relic odds`.

- the attack: 1 to 4 living heroes, a bonus of 0 to 6 (magic weapons and abilities), against
  every monster health from 1 to 12; without rerolls and with the best reroll policy for 1 to
  3 gold (each reroll is one die, chosen after seeing the dice);
- the setup roll (repeated until the three dice differ): each room and the starting gold, and
  how many throws it takes;
- the master's turn roll: a given number among the three dice, doubles and triples;
- the exploration die (a 1 is rolled again): one die, and the highest, middle or lowest of the
  three given to exploration.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from engine.core.game import OddsTable
from engine.core.odds import odds_row
from engine.games.dice_dungeon.data import Dungeon
from engine.games.dice_dungeon.registry import rule
from engine.games.dice_dungeon.rolls import multisets
from engine.games.dice_dungeon.setup import setup_outcomes

HEALTHS = range(1, 13)
BONUSES = range(0, 7)
GOLD = range(0, 4)


def attack_value(faces: tuple[int, ...]) -> int:
    """The combined roll: the sum divided by the number of dice (living heroes), rounded up."""
    return -(-sum(faces) // len(faces))


@cache
def _best(faces: tuple[int, ...], need: int, rerolls: int, sides: int) -> Fraction:
    """The chance of reaching `need` from these dice with at most `rerolls` rerolls, playing
    the best policy (stop once it is reached; otherwise reroll the die that helps most)."""
    if attack_value(faces) >= need:
        return Fraction(1)
    if rerolls == 0:
        return Fraction(0)
    best = Fraction(0)
    for face in sorted(set(faces)):
        rest = list(faces)
        rest.remove(face)
        value = sum((_best(tuple(sorted([*rest, w])), need, rerolls - 1, sides)
                     for w in range(1, sides + 1)), Fraction(0)) / sides
        best = max(best, value)
    return best


@rule("attack.roll", "attack.reroll")
def win_chance(heroes: int, need: int, rerolls: int = 0, sides: int = 6) -> Fraction:
    """The chance that `heroes` dice give a combined roll of at least `need` (health less the
    bonus), with up to `rerolls` rerolls used as well as possible."""
    return _win_chance(heroes, need, rerolls, sides)


@cache
def _win_chance(heroes: int, need: int, rerolls: int, sides: int) -> Fraction:
    if need <= 1:
        return Fraction(1)
    return sum((p * _best(faces, need, rerolls, sides) for faces, p in multisets(heroes, sides)),
               Fraction(0))


@cache
def win_chance_float(heroes: int, need: int, rerolls: int = 0, sides: int = 6) -> float:
    """`win_chance` as a float, for bots."""
    return float(_win_chance(heroes, need, rerolls, sides))


def attack_tables(data: Dungeon) -> list[OddsTable]:
    sides = data.rules.fight_die.sides
    most = min(data.max_players * data.rules.heroes_per_player, len(data.classes))
    tables = []
    for heroes in range(1, most + 1):
        for gold in GOLD:
            rows = tuple(odds_row(f"bonus +{bonus}",
                                  {f"health {h}": win_chance(heroes, h - bonus, gold, sides)
                                   for h in HEALTHS})
                         for bonus in BONUSES)
            how = "no rerolls" if gold == 0 else \
                f"best use of {gold} reroll{'s' if gold > 1 else ''} (1 gold each)"
            tables.append(OddsTable(
                f"attack-{heroes}-{gold}", f"attack by {heroes} living "
                f"hero{'es' if heroes > 1 else ''}, {how}: chance to beat the monster", rows,
                "sum of the heroes' dice divided by the living heroes, rounded up, plus the "
                "bonus (magic weapons and abilities), at least the monster's health"))
    return tables


@rule("setup.roll")
def throws_needed(faces: int, upto: int = 5) -> dict[str, Fraction]:
    """How many throws of the setup roll it takes until the three dice differ."""
    hit = Fraction(faces * (faces - 1) * (faces - 2), faces ** 3)
    out = {str(n): (1 - hit) ** (n - 1) * hit for n in range(1, upto + 1)}
    out[f"{upto + 1}+"] = (1 - hit) ** upto
    return out


def setup_tables(data: Dungeon) -> list[OddsTable]:
    faces = data.rules.setup_dice.sides
    outcomes = setup_outcomes(faces)
    rows = []
    for position, label in enumerate(("first monster room", "first treasure room",
                                      "starting gold")):
        marginal: dict[int, Fraction] = {}
        for triple, p in outcomes:
            marginal[triple[position]] = marginal.get(triple[position], Fraction(0)) + p
        rows.append(odds_row(label, dict(sorted(marginal.items()))))
    pair: dict[str, Fraction] = {}
    for triple, p in outcomes:
        key = f"+{(triple[1] - triple[0]) % faces}"
        pair[key] = pair.get(key, Fraction(0)) + p
    rows.append(odds_row("treasure order ahead of the monster order by",
                         dict(sorted(pair.items()))))
    rows.append(odds_row("throws until the dice differ", throws_needed(faces)))
    return [OddsTable("setup", "setup roll (3d6 until all three differ)", tuple(rows),
                      "each ordered triple of different numbers has the same chance")]


def turn_tables(data: Dungeon) -> list[OddsTable]:
    dice = data.rules.turn_dice
    outcomes = multisets(dice.count, dice.sides)
    shows = {f"number {n}": sum((p for faces, p in outcomes if n in faces), Fraction(0))
             for n in range(1, dice.sides + 1)}
    kinds = {"all different": Fraction(0), "a pair": Fraction(0), "three alike": Fraction(0)}
    for faces, p in outcomes:
        kinds[("all different", "a pair", "three alike")[dice.count - len(set(faces))]] += p
    return [OddsTable("turn-roll", f"the master's turn roll ({dice})",
                      (odds_row("a given number among the dice", shows),
                       odds_row("the dice show", kinds)),
                      "the players hand the numbers out in any order")]


@rule("exploration.one")
def exploration_face(faces: int, rerolled: frozenset[int]) -> dict[int, Fraction]:
    """One die given to exploration, the rerolled faces rolled again until they change."""
    kept = [f for f in range(1, faces + 1) if f not in rerolled]
    return {f: Fraction(1, len(kept)) for f in kept}


def exploration_tables(data: Dungeon) -> list[OddsTable]:
    dice, rerolled = data.rules.turn_dice, data.rules.reroll_faces
    single = exploration_face(dice.sides, rerolled)
    rows = [odds_row("one die", {f"shape {f}": p for f, p in single.items()})]
    for position, label in ((-1, "the highest of the three"), (1, "the middle one"),
                            (0, "the lowest")):
        dist: dict[int, Fraction] = {}
        for faces, p in multisets(dice.count, dice.sides):
            face = faces[position]
            for shown, q in (single.items() if face in rerolled else ((face, Fraction(1)),)):
                dist[shown] = dist.get(shown, Fraction(0)) + p * q
        rows.append(odds_row(label, {f"shape {f}": p for f, p in sorted(dist.items())}))
    names = ", ".join(f"{f} → {s.id}" for f, s in sorted(data.shapes.items()))
    return [OddsTable("exploration", "the exploration number (a 1 is rolled again)", tuple(rows),
                      names)]


def odds_tables(data: Dungeon) -> list[OddsTable]:
    return [*setup_tables(data), *turn_tables(data), *exploration_tables(data),
            *attack_tables(data)]
