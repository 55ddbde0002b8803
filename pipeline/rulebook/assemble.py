"""Laid-out units -> the book's PDF: their pages in order, each font and picture once, the
links between units, the bookmarks and fixed metadata (byte-identical for the same units)."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence

from pypdf import PdfReader, PdfWriter
from pypdf.annotations import Link
from pypdf.generic import ArrayObject, ByteStringObject, NameObject, NumberObject, TextStringObject

from pipeline.rulebook.layout import LaidOut

FIXED_DATE = "D:20000101000000+00'00'"
PRODUCER = "Relic Press"


def assemble(units: Sequence[LaidOut], title: str, lang: str) -> bytes:
    """One PDF of every unit's content pages (their charset pages left out)."""
    writer = PdfWriter()
    starts = []
    for unit in units:
        starts.append(len(writer.pages))
        reader = PdfReader(unit.pdf)
        for n in range(unit.pages):
            page = writer.add_page(reader.pages[n])
            if "/Annots" in page:  # links are made again below, across the units
                del page[NameObject("/Annots")]
    writer.compress_identical_objects()  # each font and picture once
    anchors = {name: (start + n, x, y) for unit, start in zip(units, starts, strict=True)
               for name, (n, x, y) in unit.anchors.items()}
    for unit, start in zip(units, starts, strict=True):
        _links(writer, unit, start, anchors)
    _outline(writer, units, starts)
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


def _height(writer: PdfWriter, index: int) -> float:
    return float(writer.pages[index].mediabox.height)


def _links(writer: PdfWriter, unit: LaidOut, start: int,
           anchors: dict[str, tuple[int, float, float]]) -> None:
    from pypdf.generic import Fit

    for n, x1, y1, x2, y2, target in unit.links:
        if target not in anchors:
            continue
        page = start + n
        height = _height(writer, page)
        dest, dx, dy = anchors[target]
        link = Link(rect=(x1, height - y2, x2, height - y1), target_page_index=dest,
                    fit=Fit.xyz(dx, _height(writer, dest) - dy))
        link[NameObject("/Border")] = ArrayObject([NumberObject(0)] * 3)
        writer.add_annotation(page_number=page, annotation=link)


def _outline(writer: PdfWriter, units: Sequence[LaidOut], starts: list[int]) -> None:
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
                                           fit=Fit.xyz(x, _height(writer, page) - y))
            parents.append((level, item))
