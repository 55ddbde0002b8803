"""Physical lengths: unit strings (`63mm`, `2.5in`, `10pt`) to millimetres and PDF points."""

from __future__ import annotations

import re

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
PT_PER_MM = 72.0 / 25.4
_LENGTH = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(mm|cm|in|pt)$")


def parse_length(text: str | int | float) -> float:
    """A length string in millimetres; a bare number is already millimetres."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        return float(text)
    match = _LENGTH.match(str(text).strip())
    if not match:
        raise ValueError(f"not a length: {text!r} (expected a number with mm, cm, in or pt)")
    return round(float(match[1]) * MM_PER_UNIT[match[2]], 4)


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    return pt / PT_PER_MM
