"""`relic build --shop VENDOR`: the pack's faces drawn again at a print vendor's sizes and
written as the vendor wants them (templates/print/vendors/*.yaml, schemas/print/vendor.json).

    vendor profile (data)          vendors.load_vendor
      -> the print profile as the vendor prints it (product trims, vendor bleed): the faces are
         drawn again, cached like any face      vendors.adjust_profile (BuildOptions.adjust)
      -> PNGs, quantities.csv, shop PDFs, PDF/X (Ghostscript)    write.write_vendor
"""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

from pipeline.model import Model

__all__ = ["build_options"]


def build_options(model: Model, name: str, quiet: bool = False) -> dict[str, Any]:
    """What `relic build --shop NAME` changes in the build's options: the output folder below
    build/<pack>/, the profile adjustment, the writer and whether PNGs are drawn."""
    from pipeline.shops.vendors import adjust_profile, load_vendor
    from pipeline.shops.write import write_vendor

    vendor = load_vendor(model.pack, name)
    if any(o.type == "pdfx" for o in vendor.outputs):
        from pipeline.shops import ghostscript

        try:
            ghostscript.stock_profiles()
        except ghostscript.GhostscriptError as exc:
            from pipeline.diagnostics import RelicError, Span, error

            raise RelicError([error("missing-tool", str(exc), Span(vendor.source))]) from exc
    if not quiet:
        for note in notes(model, vendor):
            print(f"relic: {note}", file=sys.stderr)
    return {
        "subfolder": f"shops/{vendor.name}",
        "adjust": partial(adjust_profile, vendor=vendor),
        "writer": partial(write_vendor, vendor=vendor),
        "png": any(o.type == "png" for o in vendor.outputs),
    }


def notes(model: Model, vendor) -> list[str]:
    """What a user should know before ordering: the formats that are none of the vendor's
    products (written at their own trim plus the vendor's bleed)."""
    from pipeline.cards.formats import load_profile

    profile = load_profile(model.pack)
    used = sorted({f for spec in profile.kinds
                   for f in (spec.format, *(v.format for v in spec.variants if v.format))})
    out = []
    for name in used:
        fmt = profile.formats[name]
        if vendor.products and vendor.product_for(fmt) is None:
            out.append(f"{vendor.name}: format {name} ({fmt.width:g}x{fmt.height:g} mm) is none "
                       f"of {vendor.label}'s products in {vendor.source}; it is written at its "
                       "own trim with the vendor's bleed: check the vendor's size for it")
    return out
