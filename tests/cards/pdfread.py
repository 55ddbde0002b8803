"""Reading produced PDFs independently of the writer: boxes, placements, lines, fonts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Placed:
    """An XObject drawn on a page: its name and the page-space box of its BBox."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float


def _mul(a, b):
    return [
        a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def page_items(reader: PdfReader, page) -> tuple[list[Placed], list[tuple[float, ...]]]:
    """XObject placements and straight line segments (m ... l) in a page's content."""
    ops = ContentStream(page.get_contents(), reader).operations
    xobjects = page["/Resources"].get("/XObject", {})
    ctm = [1, 0, 0, 1, 0, 0]
    stack: list[list[float]] = []
    placed, lines = [], []
    current = None
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == b"Do":
            name = str(operands[0])
            x0, y0, x1, y1 = (float(v) for v in xobjects[name].get_object()["/BBox"])
            corners = [(x, y) for x in (x0, x1) for y in (y0, y1)]
            pts = [(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
                   for x, y in corners]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            placed.append(Placed(name, min(xs), min(ys), max(xs), max(ys)))
        elif op == b"m":
            current = tuple(float(v) for v in operands)
        elif op == b"l" and current is not None:
            end = tuple(float(v) for v in operands)
            lines.append((*current, *end))
            current = end
    return placed, lines


def fonts_of(reader: PdfReader) -> list[tuple[str, bool]]:
    """Every font reachable from every page (through form XObjects): (name, embedded?)."""
    seen: dict[int, tuple[str, bool]] = {}

    def visit_resources(res, depth=0):
        if res is None or depth > 5:
            return
        res = res.get_object()
        for ref in (res.get("/Font") or {}).values():
            font = ref.get_object()
            key = id(font) if not hasattr(ref, "idnum") else ref.idnum
            desc_font = font
            if font.get("/Subtype") == "/Type0":
                desc_font = font["/DescendantFonts"][0].get_object()
            descriptor = desc_font.get("/FontDescriptor")
            embedded = bool(descriptor) and any(
                k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            seen[key] = (str(font.get("/BaseFont")), embedded)
        for ref in (res.get("/XObject") or {}).values():
            xobj = ref.get_object()
            if xobj.get("/Subtype") == "/Form":
                visit_resources(xobj.get("/Resources"), depth + 1)

    for page in reader.pages:
        visit_resources(page.get("/Resources"))
    return list(seen.values())


def pdfs(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.pdf"))


def rects(reader: PdfReader, page) -> list[tuple[float, float, float, float]]:
    """Every rectangle (`re`) drawn on a page, through form XObjects, in page space (points):
    (x, y, width, height) with width and height positive."""
    out: list[tuple[float, float, float, float]] = []

    def walk(content, resources, ctm, depth=0):
        if depth > 6:
            return
        ops = ContentStream(content, reader).operations
        stack: list[list[float]] = []
        xobjects = (resources or {}).get("/XObject", {}) if resources else {}
        for operands, op in ops:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = _mul([float(v) for v in operands], ctm)
            elif op == b"re":
                x, y, w, h = (float(v) for v in operands)
                pts = [(ctm[0] * px + ctm[2] * py + ctm[4], ctm[1] * px + ctm[3] * py + ctm[5])
                       for px, py in ((x, y), (x + w, y + h))]
                (x0, y0), (x1, y1) = pts
                out.append((min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)))
            elif op == b"Do":
                xobj = xobjects[str(operands[0])].get_object()
                if xobj.get("/Subtype") == "/Form":
                    walk(xobj, xobj.get("/Resources"), ctm, depth + 1)

    walk(page.get_contents(), page.get("/Resources"), [1, 0, 0, 1, 0, 0])
    return out
