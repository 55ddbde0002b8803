"""Check plug-in: everything `relic build` would refuse about printing, found without drawing.

The pack's print profile (formats, paper, layouts), the fonts and a glyph for every printed
character, and every text box of every face in every language: each is set at the smallest
size its layout allows (the profile's `min_font_size`), and text that still does not fit its box
is an error at the field that prints it (`text-overflow`). Measuring uses reportlab's font
metrics only, so it is cheap: no PDF is written. Packs without a print profile are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.diagnostics import Diagnostic
from pipeline.model import Model


def check(model: Model) -> Iterable[Diagnostic]:
    if not model.pack.print_profile:
        return []
    from pipeline.cards import preflight

    return preflight(model)
