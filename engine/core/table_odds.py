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

MAX_DICE = 6
"""Totals are given for pools of 1 to this many of a pack's own dice."""


def roll_span(roll: str) -> tuple[int, int | None]:
    """The totals a row covers: "4" -> (4, 4), "2-3" -> (2, 3), "12+" -> (12, None)."""
    text = str(roll).strip()
    if text.endswith("+"):
        return int(text[:-1]), None
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def row_chance(totals: Mapping[int, Fraction], roll: str) -> Fraction:
    low, high = roll_span(roll)
    return sum((p for t, p in totals.items() if t >= low and (high is None or t <= high)),
               Fraction(0))


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


def as_json(odds: Mapping[str, Any]) -> dict[str, Any]:
    """The same, with every chance as a string fraction ("1/6") and totals as string keys."""
    def plain(value: Any) -> Any:
        if isinstance(value, Fraction):
            return str(value)
        if isinstance(value, Mapping):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    return plain(odds)


def render_text(odds: Mapping[str, Any]) -> str:
    lines = []
    for table_id, table in odds["tables"].items():
        lines.append(f"== table {table_id} ({table['dice']})")
        lines.append("  " + "  ".join(f"{r['roll']}:{r['chance']}" for r in table["rows"]))
    for die_id, pools in odds["dice"].items():
        lines.append(f"== die {die_id}: totals of 1 to {len(pools)} dice")
        for n, totals in pools.items():
            lines.append(f"  {n}: " + "  ".join(f"{t}:{p}" for t, p in totals.items()))
    return "\n".join(lines) + "\n" if lines else "no roll tables or dice in this pack\n"
