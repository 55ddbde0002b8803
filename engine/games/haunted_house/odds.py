"""Exact odds of every roll of the haunted house, at every trait value the tracks can hold."""

from __future__ import annotations

from fractions import Fraction

from engine.core.game import OddsRow, OddsTable
from engine.core.odds import odds_row
from engine.games.haunted_house.data import House
from engine.games.haunted_house.dice import at_least, opposed, pips

MAX_DAMAGE = 4
"""Damage a card, a tile or an effect may give (the rolls of 1 to 4 damage are tabled)."""


def odds_tables(house: House) -> list[OddsTable]:
    faces, most = house.rules.faces, house.rules.dice_in_box
    return [pip_totals(faces, most), trait_rolls(faces, most), opposed_rolls(faces, most),
            damage_rolls(faces), dread_rolls(house), event_rolls(house), room_checks(house),
            task_rolls(house)]


def pip_totals(faces: tuple[int, ...], most: int) -> OddsTable:
    rows = tuple(odds_row(f"{n} dice", dict(pips(n, faces))) for n in range(1, most + 1))
    return OddsTable("pips", "pip total of n house dice", rows,
                     f"faces {', '.join(map(str, faces))}")


def trait_rolls(faces: tuple[int, ...], most: int) -> OddsTable:
    top = most * max(faces)
    rows = tuple(odds_row(f"value {v}", {f"{t}+": at_least(v, t, faces)
                                         for t in range(1, top + 1)})
                 for v in range(1, most + 1))
    return OddsTable("trait-roll", "a trait roll: the chance to reach each target", rows,
                     "dice equal the trait's current value")


def opposed_rolls(faces: tuple[int, ...], most: int) -> OddsTable:
    rows = []
    for m in range(1, most + 1):
        for n in range(1, most + 1):
            margins = dict(opposed(m, n, faces))
            chances: dict[str, Fraction] = {
                "win": sum((p for k, p in margins.items() if k > 0), Fraction(0)),
                "tie": margins.get(0, Fraction(0)),
                "lose": sum((p for k, p in margins.items() if k < 0), Fraction(0)),
            }
            for k in sorted(margins):
                if k > 0:
                    chances[f"deal {k}"] = margins[k]
            for k in sorted(margins, reverse=True):
                if k < 0:
                    chances[f"take {-k}"] = margins[k]
            rows.append(odds_row(f"{m} vs {n} dice", chances))
    return OddsTable("opposed", "an attack: attacker's m dice against the defender's n", tuple(
        rows), "the difference is the damage; a ranged attacker who loses takes none")


def damage_rolls(faces: tuple[int, ...]) -> OddsTable:
    rows = tuple(odds_row(f"{n} damage", {f"{k} steps": p for k, p in pips(n, faces)})
                 for n in range(1, MAX_DAMAGE + 1))
    return OddsTable("damage", "damage from a card, tile or effect: steps lost", rows,
                     "one die a point of damage; the pips are the steps")


def dread_rolls(house: House) -> OddsTable:
    r = house.rules
    rows = tuple(
        odds_row(f"{n} omens", {"begins": Fraction(1) if n >= r.dread_certain_at
                                else at_least(min(n, r.dice_in_box), r.dread_target, r.faces)})
        for n in range(1, len(house.omens) + 1))
    return OddsTable("dread", "the dread roll after an omen: the chance the scenario begins",
                     rows, f"dice = omens revealed, target {r.dread_target}+, certain from "
                           f"{r.dread_certain_at} omens")


def event_rolls(house: House) -> OddsTable:
    faces, most = house.rules.faces, house.rules.dice_in_box
    rows: list[OddsRow] = []
    for event in house.events.values():
        if event.trait is None:
            continue
        for v in range(1, most + 1):
            chances: dict[str, Fraction] = {}
            for total, p in pips(v, faces):
                band = event.band(total)
                label = _band_label(band.low, band.high) if band else "none"
                chances[label] = chances.get(label, Fraction(0)) + p
            rows.append(odds_row(f"{event.id} ({event.trait} {v})", chances))
    return OddsTable("events", "event cards: the chance of each band of totals", tuple(rows))


def room_checks(house: House) -> OddsTable:
    faces, most = house.rules.faces, house.rules.dice_in_box
    rows = []
    for room in house.rooms.values():
        if room.effect is None or room.effect.check is None:
            continue
        check = room.effect.check
        rows.append(odds_row(f"{room.id} ({check.trait} {check.target}+)",
                             {f"value {v}": at_least(v, check.target, faces)
                              for v in range(1, most + 1)}))
    for sc in house.scenarios.values():
        for side in (sc.heroes, sc.traitor):
            for sp in side.specials:
                if sp.check is not None:
                    rows.append(odds_row(f"{sp.id} ({sp.check.trait} {sp.check.target}+)",
                                         {f"value {v}": at_least(v, sp.check.target, faces)
                                          for v in range(1, most + 1)}))
    return OddsTable("room-checks", "rooms' and scenarios' checks: the chance of success by "
                     "trait value", tuple(rows))


def task_rolls(house: House) -> OddsTable:
    faces, most = house.rules.faces, house.rules.dice_in_box
    rows = []
    for sc in house.scenarios.values():
        for side in (sc.heroes, sc.traitor):
            t = side.task
            for target in t.targets:
                rows.append(odds_row(f"{t.id} ({'/'.join(t.traits)} {target}+)",
                                     {f"value {v}": at_least(v, target, faces)
                                      for v in range(1, most + 1)}))
    return OddsTable("tasks", "scenario task rolls: the chance of a success by trait value",
                     tuple(rows), "one task roll a turn")


def _band_label(low: int, high: int | None) -> str:
    if high is None:
        return f"{low}+"
    return f"{low}" if low == high else f"{low}-{high}"
