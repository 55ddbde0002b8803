"""Exact odds of every roll of the tunnels: the booby trap, the fate dice for each number of
dice, every attack on an ordinary square and in the hungry tunnels, the grenade, initiative."""

from __future__ import annotations

from fractions import Fraction

from engine.core.game import OddsTable
from engine.core.odds import odds_row
from engine.games.tunnels.combat import hits_distribution
from engine.games.tunnels.data import Attack, Tunnels
from engine.games.tunnels.registry import rule
from engine.games.tunnels.threat import fate_distribution

EFFECT_NAMES = {"none": "nothing", "end-movement": "move ends", "place-warrior": "troglodyte"}


def booby_chances(data: Tunnels) -> dict[str, Fraction]:
    """Each row of the booby-trap table and its chance."""
    dist = data.booby_dice.distribution()
    out: dict[str, Fraction] = {}
    for row in data.booby_rows:
        name = (f"{row.amount} damage" if row.effect == "damage"
                else EFFECT_NAMES.get(row.effect, row.effect))
        out[name] = out.get(name, Fraction(0)) + sum(dist.get(f, Fraction(0)) for f in row.faces)
    return out


def damage_distribution(attack: Attack, multiplier: int) -> dict[int, Fraction]:
    """Damage an attack deals: its hits times the square's multiplier."""
    return {k * multiplier: p for k, p in hits_distribution(attack).items()}


def hungry_multiplier(data: Tunnels) -> int:
    return data.squares["hungry-tunnels"].damage_multiplier


def attackers(data: Tunnels) -> list[tuple[str, Attack]]:
    return [(c.name, c.attack) for c in data.cards] + [
        (data.troglodyte.name, data.troglodyte.attack), (data.demon.name, data.demon.attack)]


@rule("engine.odds")
def odds_tables(data: Tunnels) -> list[OddsTable]:
    hungry = hungry_multiplier(data)
    tables = [
        OddsTable("booby-trap", "Booby-trapped tunnel: the demon player's roll on a mortal "
                  "warrior's first entry", (odds_row(str(data.booby_dice), booby_chances(data)),)),
        OddsTable("fate-dice", "Fate dice: troglodytes and curses by number of dice",
                  tuple(odds_row(dice_word(n), {f"{t} trog, {c} curse": p for (t, c), p in
                                                sorted(fate_distribution(data, n).items())})
                        for n in range(1, data.fate_supply + 1)),
                  note=f"{data.fate_dice} every threat phase, one more for each demonic "
                  "mechanism first entered"),
    ]
    rows = []
    for name, attack in attackers(data):
        rows.append(odds_row(f"{name}, {dice_word(attack.dice)}, ordinary square",
                             {f"{d} damage": p for d, p in damage_distribution(attack, 1).items()}))
        rows.append(odds_row(f"{name}, {dice_word(attack.dice)}, hungry tunnels",
                             {f"{d} damage": p for d, p in
                              damage_distribution(attack, hungry).items()}))
    tables.append(OddsTable("attacks", "Melee attacks: damage dealt to the target", tuple(rows),
                            note="a troglodyte dies per damage; the hungry tunnels double the "
                            "damage to a figure standing there"))
    g = data.grenade
    blast = {f"{g.damage} damage to each": g.p_explode, "dud": 1 - g.p_explode}
    tables.append(OddsTable("grenade", "Grenade: every demon-side figure in the square",
                            (odds_row("ordinary square", blast), odds_row("hungry tunnels", blast)),
                            note="the hungry tunnels do not double a grenade"))
    n = data.initiative_sides
    ties = Fraction(n, n * n)
    higher = (1 - ties) / 2
    first = {"mortal player": higher + (ties if data.initiative_ties == 0 else 0),
             "demon player": higher + (ties if data.initiative_ties == 1 else 0)}
    tables.append(OddsTable("initiative", "Initiative: who moves first",
                            (odds_row(f"d{n} each", first),)))
    return tables


def dice_word(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"
