"""Exact odds as typed tables (`OddsTable`), and their text and JSON forms for `relic odds`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.core.game import OddsRow, OddsTable


def fraction_text(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def odds_row(label: str, chances: Mapping[Any, Fraction]) -> OddsRow:
    """An odds row from a mapping of outcomes (any printable keys) to exact chances."""
    return OddsRow(label, tuple((str(k), Fraction(v)) for k, v in chances.items()))


def render_text(tables: Sequence[OddsTable]) -> str:
    if not tables:
        return "no rolls to give odds for in this pack\n"
    lines: list[str] = []
    for table in tables:
        lines.append(f"== {table.title}")
        if table.note:
            lines.append(f"   ({table.note})")
        width = max((len(r.label) for r in table.rows), default=0)
        for r in table.rows:
            cells = "  ".join(f"{k}:{fraction_text(p)}" for k, p in r.chances)
            lines.append(f"  {r.label:<{width}}  {cells}".rstrip() if r.label else f"  {cells}")
    return "\n".join(lines) + "\n"


def as_json(tables: Sequence[OddsTable]) -> dict[str, Any]:
    """{table id: {title, note, rows: [{with, chances: {outcome: "1/6"}}]}} (stable order)."""
    return {t.id: {"title": t.title, "note": t.note,
                   "rows": [{"with": r.label,
                             "chances": {k: fraction_text(p) for k, p in r.chances}}
                            for r in t.rows]}
            for t in tables}
