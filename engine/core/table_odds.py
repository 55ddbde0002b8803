"""Exact odds for any pack, with or without a rules engine: every row of a roll table (kind
`table` with a `dice` expression and rows keyed by `roll`: "4", "2-3" or "12+"; rows marked
`reroll` are rolled again, so the others share their chance), and the totals of one to six of a
pack's own dice (kind `die` with `faces`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import icepool

from engine.core.dice import Dice, distribution
from engine.core.game import OddsTable
from engine.core.notation import RollRange
from engine.core.odds import odds_row

MAX_DICE = 6
"""Totals are given for pools of 1 to this many of a pack's own dice."""


def roll_span(roll: str) -> tuple[int, int | None]:
    """The totals a row covers: "4" -> (4, 4), "2-3" -> (2, 3), "12+" and "2-12+" ->
    (12, None) and (2, None)."""
    span = RollRange.parse(roll)
    return span.low, span.high


def row_chance(totals: Mapping[int, Fraction], roll: str) -> Fraction:
    span = RollRange.parse(roll)
    return sum((p for t, p in totals.items() if t in span), Fraction(0))


def table_odds(entity: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each row's chance, the rerolled rows at zero and the others scaled up to share theirs."""
    totals = Dice.parse(str(entity["dice"])).distribution()
    rows = entity.get("rows", [])
    chances = [row_chance(totals, row["roll"]) for row in rows]
    again = sum((c for c, row in zip(chances, rows, strict=True) if row.get("reroll")),
                Fraction(0))
    scale = 1 / (1 - again) if again < 1 else Fraction(0)
    return [{"roll": str(row["roll"]), "chance": Fraction(0) if row.get("reroll") else c * scale}
            for c, row in zip(chances, rows, strict=True)]


def pool_odds(entity: Mapping[str, Any], most: int = MAX_DICE) -> dict[int, dict[int, Fraction]]:
    """Totals of 1 to `most` of the die `entity` (its `faces`, each equally likely)."""
    die = icepool.Die([int(f) for f in entity["faces"]])
    return {n: dict(sorted(distribution(n @ die).items())) for n in range(1, most + 1)}


def pack_odds(entities: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Every roll table and every custom die of a pack's plain entities, by id."""
    tables, dice = {}, {}
    for e in sorted(entities, key=lambda e: e["id"]):
        if e.get("kind") == "table" and e.get("dice") and e.get("rows"):
            tables[e["id"]] = {"dice": str(e["dice"]), "rows": table_odds(e)}
        elif e.get("kind") == "die" and e.get("faces"):
            dice[e["id"]] = pool_odds(e)
    return {"tables": tables, "dice": dice}


def pack_odds_tables(entities: Iterable[Mapping[str, Any]]) -> list[OddsTable]:
    """The same as typed tables: one per roll table, one per custom die (a row per pool)."""
    found = pack_odds(entities)
    tables = [OddsTable(f"table-{tid}", f"table {tid} ({t['dice']})",
                        (odds_row("", {r["roll"]: r["chance"] for r in t["rows"]}),))
              for tid, t in found["tables"].items()]
    tables += [OddsTable(f"die-{did}", f"die {did}: totals of 1 to {len(pools)} dice",
                         tuple(odds_row(f"{n}", totals) for n, totals in pools.items()))
               for did, pools in found["dice"].items()]
    return tables
