"""Laid-out units -> the book's PDF: their pages in order, the component pictures put in the
placeholders' places, each font and picture once, the links between units, the bookmarks and
fixed metadata (byte-identical for the same units and pictures)."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping, Sequence
from itertools import accumulate
from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.annotations import Link
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    IndirectObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from pipeline.rulebook.layout import LaidOut

FIXED_DATE = "D:20000101000000+00'00'"
PRODUCER = "Relic Press"


def assemble(units: Sequence[LaidOut], title: str, lang: str,
             pictures: Mapping[str, Path] | None = None) -> bytes:
    """One PDF of every unit's content pages (their charset pages left out); `pictures`: the
    raster file of each picture URL the units were laid out with a placeholder for."""
    writer = PdfWriter()
    starts = [0, *accumulate(unit.pages for unit in units)][:-1]  # each unit's first page
    for unit in units:
        reader = PdfReader(unit.pdf)
        for page in reader.pages[:unit.pages]:
            added = writer.add_page(page)
            if "/Annots" in added:  # links are made again below, across the units
                del added[NameObject("/Annots")]
    pages = list(writer.pages)  # (pypdf counts the pages again on every index into them)
    _put_pictures(pages, pictures or {})
    writer.compress_identical_objects()  # each font and picture once
    pages = list(writer.pages)
    heights = [float(page.mediabox.height) for page in pages]
    anchors = {name: (start + n, x, y) for unit, start in zip(units, starts, strict=True)
               for name, (n, x, y) in unit.anchors.items()}
    for unit, start in zip(units, starts, strict=True):
        _links(writer, pages, heights, unit, start, anchors)
    _outline(writer, heights, units, starts)
    writer.add_metadata({"/Producer": PRODUCER, "/Creator": PRODUCER, "/Title": title,
                         "/CreationDate": FIXED_DATE, "/ModDate": FIXED_DATE})
    root = writer._root_object  # pypdf has no public setter for these two catalogue entries
    root[NameObject("/Lang")] = TextStringObject(lang)
    root[NameObject("/PageMode")] = NameObject("/UseOutlines")
    digest = hashlib.md5("\0".join(u.key for u in units).encode(),
                         usedforsecurity=False).digest()
    writer._ID = ArrayObject([ByteStringObject(digest), ByteStringObject(digest)])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _put_pictures(pages: Sequence[PageObject], pictures: Mapping[str, Path]) -> None:
    """Every placeholder image becomes its picture. WeasyPrint names an image XObject
    `i<md5 of its URL><interpolate>`, so the name says which picture a placeholder stands
    for; the picture goes in as its RGB pixels, Flate-compressed (the same bytes every time)."""
    from PIL import Image

    by_name = {hashlib.md5(url.encode(), usedforsecurity=False).hexdigest(): path
               for url, path in pictures.items()}
    done: set[int] = set()
    for page in pages:
        resources = page.get("/Resources")
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        for name, ref in (xobjects.get_object().items() if xobjects is not None else ()):
            path = by_name.get(str(name)[2:34])
            if path is None or not isinstance(ref, IndirectObject) or ref.idnum in done:
                continue
            done.add(ref.idnum)
            with Image.open(path) as img:
                rgb = img.convert("RGB")
            stream = ref.get_object()
            for entry in ("/DecodeParms", "/SMask", "/Decode", "/Mask"):
                stream.pop(NameObject(entry), None)
            stream.update({NameObject("/Width"): NumberObject(rgb.width),
                           NameObject("/Height"): NumberObject(rgb.height),
                           NameObject("/ColorSpace"): NameObject("/DeviceRGB"),
                           NameObject("/BitsPerComponent"): NumberObject(8),
                           NameObject("/Filter"): NameObject("/FlateDecode")})
            stream.set_data(rgb.tobytes())  # Flate-encoded by pypdf, which writes /Length


def _links(writer: PdfWriter, pages: Sequence[PageObject], heights: Sequence[float],
           unit: LaidOut, start: int, anchors: dict[str, tuple[int, float, float]]) -> None:
    from pypdf.generic import Fit

    for n, x1, y1, x2, y2, target in unit.links:
        if target not in anchors:
            continue
        page = start + n
        height = heights[page]
        dest, dx, dy = anchors[target]
        link = Link(rect=(x1, height - y2, x2, height - y1), target_page_index=dest,
                    fit=Fit.xyz(dx, heights[dest] - dy))
        link[NameObject("/Border")] = ArrayObject([NumberObject(0)] * 3)
        writer.add_annotation(page_number=pages[page], annotation=link)


def _outline(writer: PdfWriter, heights: Sequence[float], units: Sequence[LaidOut],
             starts: list[int]) -> None:
    """Bookmarks nested by level, as WeasyPrint would make them for one document."""
    from pypdf.generic import Fit

    parents: list[tuple[int, object]] = []  # (level, outline item)
    for unit, start in zip(units, starts, strict=True):
        for n, level, label, x, y in unit.bookmarks:
            page = start + n
            while parents and parents[-1][0] >= level:
                parents.pop()
            parent = parents[-1][1] if parents else None
            item = writer.add_outline_item(title=label, page_number=page, parent=parent,
                                           fit=Fit.xyz(x, heights[page] - y))
            parents.append((level, item))
