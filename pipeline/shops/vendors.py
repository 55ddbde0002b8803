"""Vendor profiles: what a print shop wants, as data (templates/print/vendors/*.yaml, checked by
schemas/print/vendor.json; a pack adds or replaces vendors in its print/vendors/)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pipeline.cards.formats import LIBRARY, Format, Profile, _load_yaml
from pipeline.cards.units import parse_length
from pipeline.diagnostics import Diagnostic, RelicError, Span, error, relative
from pipeline.model import PackInfo

VENDORS = LIBRARY / "vendors"
DEFAULT_TOLERANCE = "0.5mm"
DEFAULT_DPI = 300
DEFAULT_REGISTRY = "http://www.color.org"


@dataclass(frozen=True)
class Product:
    """One product of a vendor: its trim (mm, portrait) and template pixels, if it has one."""

    name: str
    label: str
    width: float
    height: float
    pixels: tuple[int, int] | None = None


@dataclass(frozen=True)
class Colour:
    """The print condition of PDF/X outputs: an output ICC profile and its identifier."""

    icc: Path
    condition_id: str
    condition: str
    registry: str


@dataclass(frozen=True)
class Output:
    type: str  # png, quantities, shop, pdfx
    dpi: int = DEFAULT_DPI
    standard: str = ""  # PDF/X-1a:2003 or PDF/X-4
    per: str = "format"  # deck or format
    order: str = "front-back"  # back-first or front-back
    suffix: str = ""
    max_ink: int | None = None


@dataclass(frozen=True)
class Vendor:
    name: str
    label: str
    about: str
    bleed: float | None  # mm; None keeps the pack's
    tolerance: float  # mm
    products: tuple[Product, ...]
    colour: Colour | None
    outputs: tuple[Output, ...]
    source: str  # the profile file, as shown in diagnostics

    def product_for(self, fmt: Format) -> Product | None:
        """The product whose trim is the format's (either orientation, within the tolerance)."""
        for product in self.products:
            for w, h in ((product.width, product.height), (product.height, product.width)):
                if abs(w - fmt.width) <= self.tolerance and abs(h - fmt.height) <= self.tolerance:
                    return product
        return None

    def format_for(self, fmt: Format) -> Format:
        """The format as the vendor prints it: the product's trim (in the format's orientation)
        and the vendor's bleed."""
        product = self.product_for(fmt)
        width, height = fmt.width, fmt.height
        if product is not None:
            width, height = product.width, product.height
            if (fmt.width > fmt.height) != (width > height):
                width, height = height, width
        bleed = fmt.bleed if self.bleed is None else self.bleed
        return replace(fmt, width=width, height=height, bleed=bleed)

    def output(self, kind: str) -> Output | None:
        return next((o for o in self.outputs if o.type == kind), None)


def adjust_profile(profile: Profile, vendor: Vendor) -> Profile:
    """The pack's print profile with every format as the vendor prints it (BuildOptions.adjust):
    the faces are drawn again at these sizes."""
    return replace(profile, formats={n: vendor.format_for(f) for n, f in profile.formats.items()})


def vendor_files(pack_root: Path) -> dict[str, Path]:
    """Every vendor profile by name: the project's, then the pack's (which win)."""
    found: dict[str, Path] = {}
    for folder in (VENDORS, pack_root / "print" / "vendors"):
        if folder.is_dir():
            for path in sorted(folder.glob("*.yaml")):
                found[path.stem] = path
    return found


def load_vendor(pack: PackInfo, name: str) -> Vendor:
    """The named vendor profile, checked (RelicError lists every problem)."""
    files = vendor_files(pack.root)
    if name not in files:
        close = difflib.get_close_matches(name, list(files), n=1)
        raise RelicError([error(
            "unknown-vendor", f"no vendor profile {name!r}", Span(relative(VENDORS)),
            hint=(f"did you mean {close[0]!r}? " if close else "")
            + "known: " + ", ".join(sorted(files))
            + " (templates/print/vendors/, or the pack's print/vendors/)")])
    return read_vendor(name, files[name])


def read_vendor(name: str, path: Path) -> Vendor:
    data, errors = _load_yaml(path, "vendor")
    if errors:
        raise RelicError(errors)
    raw = data["vendor"]
    span = Span(relative(path))
    problems: list[Diagnostic] = []
    bleed = parse_length(raw["bleed"]) if "bleed" in raw else None
    outputs = tuple(_output(o) for o in raw["outputs"])
    products = tuple(_product(n, p) for n, p in sorted(raw.get("products", {}).items()))
    png = next((o for o in outputs if o.type == "png"), None)
    for product in products:
        if product.pixels and png is not None:
            problems += _check_pixels(name, product, bleed or 0.0, png.dpi, span)
    colour = _colour(raw.get("colour"), path.parent.parent, span, problems)
    if colour is None and any(o.type == "pdfx" for o in outputs):
        problems.append(error("vendor-colour", f"vendor {name}: a pdfx output needs `colour` (an "
                              "ICC profile and its condition)", span))
    if problems:
        raise RelicError(problems)
    return Vendor(name, raw["label"], raw.get("about", ""), bleed,
                  parse_length(raw.get("match_tolerance", DEFAULT_TOLERANCE)), products, colour,
                  outputs, relative(path))


def _output(raw: dict[str, Any]) -> Output:
    return Output(raw["type"], int(raw.get("dpi", DEFAULT_DPI)), raw.get("standard", ""),
                  raw.get("per", "format"), raw.get("order", "front-back"),
                  raw.get("suffix", ""), raw.get("max_ink"))


def _product(name: str, raw: dict[str, Any]) -> Product:
    w, h = (parse_length(v) for v in raw["trim"])
    pixels = tuple(raw["pixels"]) if "pixels" in raw else None
    return Product(name, raw.get("label", name), w, h, pixels)  # type: ignore[arg-type]


def pixels_for(width_mm: float, height_mm: float, bleed_mm: float, dpi: int) -> tuple[int, int]:
    """The pixel size of trim plus bleed on every side at `dpi`."""
    return (round((width_mm + 2 * bleed_mm) * dpi / 25.4),
            round((height_mm + 2 * bleed_mm) * dpi / 25.4))


def _check_pixels(name: str, product: Product, bleed: float, dpi: int,
                  span: Span) -> list[Diagnostic]:
    want = pixels_for(product.width, product.height, bleed, dpi)
    if product.pixels is None or tuple(product.pixels) == want:
        return []
    return [error("vendor-pixels", f"vendor {name}: product {product.name} says "
                  f"{product.pixels[0]}x{product.pixels[1]} px, but its trim plus bleed at "
                  f"{dpi} dpi is {want[0]}x{want[1]} px", span,
                  hint="check the trim, the bleed and the template's pixel size")]


def _colour(raw: dict[str, Any] | None, base: Path, span: Span,
            problems: list[Diagnostic]) -> Colour | None:
    if raw is None:
        return None
    icc = base / raw["icc"]
    if not icc.is_file():
        problems.append(error("vendor-colour", f"no ICC profile {raw['icc']} (looked in "
                              f"{relative(base)})", span))
    return Colour(icc, raw["condition_id"], raw.get("condition", raw["condition_id"]),
                  raw.get("registry", DEFAULT_REGISTRY))
