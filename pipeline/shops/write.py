"""The files of one language for a print vendor (BuildOptions.writer): PNGs per face, a CSV of
quantities, the build's shop PDFs and PDF/X files, as the vendor profile lists them.

Like the default build, everything goes into a staging folder that is swapped in whole, with a
manifest; finished PDFs are kept in the cache under the hash of what they show.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import tempfile
from collections.abc import Mapping
from pathlib import Path

from pipeline.cards.components import Components
from pipeline.cards.formats import Profile
from pipeline.cards.impose import write_shop
from pipeline.cards.layout import Layout
from pipeline.cards.outputs import staging_for, swap_in, write_manifest
from pipeline.cards.render import PNG_DPI, Rendered
from pipeline.cards.write import IMPOSE_VERSION, Outputs, PackMeta, _id, _key, _where
from pipeline.export.groups import Group, groups
from pipeline.export.raster import face_image
from pipeline.fsutil import atomic_write
from pipeline.shops import ghostscript
from pipeline.shops.vendors import Output, Vendor, pixels_for

CODE_VERSION = hashlib.sha256(b"".join(
    (Path(__file__).parent / name).read_bytes() for name in ("write.py", "ghostscript.py")
)).hexdigest()


def write_vendor(meta: PackMeta, profile: Profile, lang: str, components: Components,
                 layouts: Mapping[str, Layout], rendered: Mapping[str, Rendered], options, *,
                 vendor: Vendor) -> Path:
    final = options.out_root / lang
    staging = staging_for(final)
    out = Outputs(staging, options.cache_dir)
    title = meta.title.get(lang) or meta.title.get(meta.source_language, "")
    sets = groups(components, profile)
    listed: dict[str, dict] = {g.name: _describe(g, vendor, profile) for g in sets}
    for output in vendor.outputs:
        if output.type == "png":
            _pngs(staging, out, meta, profile, sets, rendered, vendor, output, listed)
        elif output.type == "quantities":
            _quantities(staging, sets, listed)
        elif output.type == "shop":
            _shop(out, meta, profile, lang, components, rendered, title)
        elif output.type == "pdfx":
            _pdfx(out, meta, profile, lang, components, sets, rendered, vendor, output, title,
                  options.cache_dir)
    info = {"pack": meta.id, "lang": lang, "vendor": vendor.name, "vendor_label": vendor.label,
            "components": components.counts(), "total_components": len(components.items),
            "distinct_faces": len(components.faces), "groups": list(listed.values())}
    write_manifest(staging, info, known=out.known)
    swap_in(staging, final)
    return final


def _describe(group: Group, vendor: Vendor, profile: Profile) -> dict:
    fmt = profile.formats[group.format]
    product = vendor.product_for(fmt)
    return {"group": group.name, "name": group.label, "kind": group.kind,
            "format": group.format, "product": product.name if product else None,
            "trim_mm": [fmt.width, fmt.height], "bleed_mm": fmt.bleed,
            "copies": len(group.copies), "files": []}


def _png_size(group: Group, vendor: Vendor, profile: Profile, dpi: int) -> tuple[int, int]:
    """The vendor's template size for the group's product, else trim plus bleed at `dpi`."""
    fmt = profile.formats[group.format]
    product = vendor.product_for(fmt)
    if product is not None and product.pixels and dpi == vendor.output("png").dpi:
        w, h = product.pixels
        return (w, h) if (fmt.width > fmt.height) == (w > h) else (h, w)
    return pixels_for(fmt.width, fmt.height, fmt.bleed, dpi)


def _pngs(staging: Path, out: Outputs, meta: PackMeta, profile: Profile,
          sets: tuple[Group, ...], rendered: Mapping[str, Rendered], vendor: Vendor,
          output: Output, listed: dict[str, dict]) -> None:
    """One RGB PNG per distinct face, in a folder per group: <id>.png, back.png (shared) or
    <id>-back.png; at the vendor's template size."""
    for group in sets:
        size = _png_size(group, vendor, profile, output.dpi)
        faces: list[tuple[str, str]] = []
        if group.back is not None:
            faces.append((group.back, f"{group.name}/back.png"))
        for entry in group.entries:
            faces.append((entry.front, f"{group.name}/{entry.id}.png"))
            if group.back is None and entry.back is not None:
                faces.append((entry.back, f"{group.name}/{entry.id}-back.png"))
        for key, name in faces:
            _png(staging, out, meta, profile, rendered[key], name, size, output.dpi)
        listed[group.name]["files"] += [name for _, name in faces]


def _png(staging: Path, out: Outputs, meta: PackMeta, profile: Profile, face: Rendered,
         name: str, size: tuple[int, int], dpi: int) -> None:
    from PIL import Image

    if dpi == PNG_DPI and face.png:
        with Image.open(face.png) as image:
            if image.size == size and image.mode == "RGB":
                out.link(Path(face.png), name)
                return
    image = face_image(face, profile.fonts, meta.charset, dpi).convert("RGB")
    if abs(image.width - size[0]) > 2 or abs(image.height - size[1]) > 2:
        raise RuntimeError(f"{name}: drawn at {image.width}x{image.height} px, the vendor's "
                           f"template is {size[0]}x{size[1]} px")
    if image.size != size:  # a pixel of rounding at the edge of the bleed
        image = image.resize(size, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(dpi, dpi))
    target = staging / name
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, buffer.getvalue())


def _quantities(staging: Path, sets: tuple[Group, ...], listed: dict[str, dict]) -> None:
    """quantities.csv: one row per front, with its back and its number of copies."""
    buffer = io.StringIO()
    rows = csv.writer(buffer, lineterminator="\n")
    rows.writerow(["deck", "deck_name", "product", "front", "back", "quantity", "id", "name"])
    for group in sets:
        product = listed[group.name]["product"] or "custom"
        for entry in group.entries:
            if group.back is not None:
                back = f"{group.name}/back.png"
            elif entry.back is not None:
                back = f"{group.name}/{entry.id}-back.png"
            else:
                back = ""
            rows.writerow([group.name, group.label, product, f"{group.name}/{entry.id}.png",
                           back, entry.count, entry.id, entry.name])
    atomic_write(staging / "quantities.csv", buffer.getvalue())


def _shop(out: Outputs, meta: PackMeta, profile: Profile, lang: str, components: Components,
          rendered: Mapping[str, Rendered], title: str) -> None:
    """The default build's shop PDFs, with the same cache keys (so the same files)."""
    for fmt in components.formats():
        name = f"shop/{fmt}.pdf"
        items = [(c.front, c.back) for c in components.of_format(fmt)]
        label, doc = f"{title} — {fmt}", _id(meta.id, lang, name)
        key = _key("shop", label, doc, profile.formats[fmt],
                   [(_where(rendered, f), _where(rendered, b)) for f, b in items])
        out.pdf(name, key, lambda h, it=items, f=fmt, lb=label, d=doc: write_shop(
            it, profile.formats[f], rendered, lb, d, h, meta.charset))


def _pages(group: Group, order: str) -> list[tuple[str, str | None]]:
    """(front, back) pairs for write_shop: back-first puts the shared back alone first."""
    if order == "back-first" and group.back is not None:
        return [(group.back, None)] + [(e.front, None) for e in group.copies]
    return [(e.front, e.back) for e in group.copies]


def _pdfx(out: Outputs, meta: PackMeta, profile: Profile, lang: str, components: Components,
          sets: tuple[Group, ...], rendered: Mapping[str, Rendered], vendor: Vendor,
          output: Output, title: str, cache_dir: Path) -> None:
    if output.per == "deck":
        files = [(f"{g.name}{output.suffix}.pdf", g.format, g.label, _pages(g, output.order))
                 for g in sets]
    else:
        files = []
        for fmt in components.formats():
            pages = [p for g in sets if g.format == fmt for p in _pages(g, output.order)]
            files.append((f"shop/{fmt}{output.suffix}.pdf", fmt, fmt, pages))
    colour = vendor.colour
    assert colour is not None  # read_vendor refuses a pdfx output without colour
    icc = hashlib.sha256(colour.icc.read_bytes()).hexdigest()
    for name, fmt, what, pages in files:
        label, doc = f"{title} — {what}", _id(meta.id, lang, name)
        key = hashlib.sha256(json.dumps([
            IMPOSE_VERSION, CODE_VERSION, ghostscript.version(), output.standard, label, doc,
            repr(profile.formats[fmt]), icc, colour.condition_id, colour.condition,
            output.max_ink,
            [(_where(rendered, f), _where(rendered, b)) for f, b in pages]]).encode()).hexdigest()

        def produce(handle, pages=pages, fmt=fmt, label=label, doc=doc, name=name) -> None:
            with tempfile.TemporaryDirectory(prefix=".relic-pdfx-", dir=cache_dir) as work:
                source, target = Path(work) / "source.pdf", Path(work) / "target.pdf"
                with source.open("wb") as raw:
                    write_shop(pages, profile.formats[fmt], rendered, label, doc, raw,
                               meta.charset)
                ghostscript.convert(source, target, output.standard, label, colour, cache_dir)
                if output.max_ink is not None:
                    _refuse_ink(target, name, vendor, output.max_ink)
                handle.write(target.read_bytes())

        out.pdf(name, key, produce)


def _refuse_ink(path: Path, name: str, vendor: Vendor, limit: int) -> None:
    """The vendor's total ink limit, measured on the converted file (Ghostscript's ink_cov,
    per page): a file above it is not written (it is not cached either)."""
    from pipeline.diagnostics import RelicError, Span, error

    inks = ghostscript.ink_per_page(path)
    worst = max(range(len(inks)), key=inks.__getitem__)
    if inks[worst] > limit:
        raise RelicError([error(
            "ink-limit", f"{name}: page {worst + 1} has {inks[worst]:.1f} % total ink, above "
            f"{vendor.label}'s limit of {limit} % (max_ink)", Span(vendor.source),
            hint="give the vendor a colour profile with a lower total ink limit (colour.icc)")])
