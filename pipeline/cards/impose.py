"""Drawn faces + Layout -> PDF files: sheets for home printing and one-per-page shop files.

Each file is one reportlab document. A face is a form XObject defined once per file from its
cached operators (render.Art) and placed with a transform wherever a copy of it goes; icons are
forms too, defined once per file. Fonts are primed with the build's charset in a fixed order and
their PDF names are pinned (`prime`), exactly as on the recorder that drew the faces, so the
operators' glyph codes are right in every file. The document is invariant: the same input gives
the same bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import BinaryIO

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pipeline.cards.faces import Art
from pipeline.cards.faces.icons import define as define_icon
from pipeline.cards.formats import Format
from pipeline.cards.layout import Layout, Placement
from pipeline.cards.render import Rendered
from pipeline.cards.units import mm_to_pt

MARK_WIDTH_PT = 0.25
PRODUCER = "Relic Press"
rl_config.invariant = 1  # no dates, a content-derived ID: the same input, the same bytes
rl_config.useA85 = 0  # binary streams: smaller, and no time spent on ASCII85


def internal_name(font: str) -> str:
    """The pinned PDF resource name of a registered font (`Relic3` -> `R3`)."""
    return "R" + font.removeprefix("Relic")


def prime(canvas: Canvas, fonts: Iterable[str], charset: str, embed: bool = True) -> None:
    """Give every font the same glyph codes and PDF name in this document as on the recorder:
    the charset is assigned first, in its order; the name is pinned."""
    doc = canvas._doc
    for name in fonts:
        font = pdfmetrics.getFont(name)
        state = font._assignState(doc)
        font.splitString(charset, doc)
        state.internalName = internal_name(name)
        doc.fontMapping[name] = "/" + state.internalName
        if embed:
            doc.delayedFonts.append(font)


def _num(v: float) -> float:
    return round(v, 4)


@cache
def _compression_cache_installed() -> bool:
    """Keep each stream reportlab compresses in memory, by its bytes: a face's form is the
    same stream in its shop file and in both its sheets (a worker writing two of them
    compresses it once)."""
    from reportlab.pdfbase import pdfdoc

    flate = type(pdfdoc.PDFZCompress)
    original = flate.encode
    memo: dict[bytes, bytes] = {}

    def encode(self, text):
        data = text.encode("utf8") if isinstance(text, str) else text
        if data not in memo:
            if len(memo) > 4096:
                memo.clear()
            memo[data] = original(self, data)
        return memo[data]

    flate.encode = encode
    return True


@cache
def _subset_cache_installed() -> bool:
    """Keep font subsets in memory: every file of a build embeds the very same subsets."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    original = TTFontFile.makeSubset
    memo: dict[tuple[str, tuple[int, ...]], bytes] = {}

    def make_subset(self, subset):
        key = (self.filename, tuple(subset))
        if key not in memo:
            memo[key] = original(self, subset)
        return memo[key]

    TTFontFile.makeSubset = make_subset
    return True


class Writer:
    """One output PDF: faces become forms on first use, pages place them."""

    def __init__(self, target: BinaryIO, title: str, doc_id: str, fonts: Iterable[str],
                 charset: str, page: tuple[float, float]):
        _subset_cache_installed()
        _compression_cache_installed()
        fonts = sorted(set(fonts))
        # a TrueType initial font: reportlab then sets no Helvetica in the page preamble
        initial = fonts[0] if fonts else min(n for n in pdfmetrics.getRegisteredFontNames()
                                             if n.startswith("Relic"))
        self.c = Canvas(target, pagesize=page, invariant=1, pageCompression=1,
                        initialFontName=initial)
        self.c.setTitle(title)
        self.c.setProducer(PRODUCER)
        self.c.setCreator(PRODUCER)
        self.c._doc.updateSignature(doc_id)
        prime(self.c, fonts, charset)

    def art(self, rendered: Rendered) -> Art:
        return load_art(rendered.batch, rendered.art_key)

    def form(self, name: str, art: Art) -> str:
        """The face's form name, defining it (and its icons) when this file has none yet.
        Only between pages: the current page must not have started."""
        form = f"face-{name[:24]}"
        c = self.c
        if not c.hasForm(form):
            for icon in art.forms:
                if not c.hasForm(icon):
                    define_icon(c, icon)
            for image, path in art.images.items():
                if not c.hasForm(image):
                    c.beginForm(image, 0, 0, 1, 1)
                    c.drawImage(path, 0, 0, 1, 1, mask="auto")
                    c.endForm()
            c.beginForm(form, 0, 0, art.width, art.height)
            c._code.append(art.code)
            c._formsinuse.extend([*art.forms, *art.images])
            c.endForm()
        return form

    def save(self) -> None:
        self.c.save()


@cache
def _read_batch(path: str) -> dict:
    import json

    return json.loads(Path(path).read_text(encoding="utf-8"))


@cache
def load_art(batch: str, key: str) -> Art:
    """A drawn face from its batch file (each file is read once per process)."""
    return Art.from_dict(_read_batch(batch)[key])


def writer_art(r: Rendered) -> Art:
    return load_art(r.batch, r.art_key)


def _matrix(p: Placement, w_pt: float, h_pt: float) -> tuple[float, ...]:
    x, y = mm_to_pt(p.box.x), mm_to_pt(p.box.y)
    sx, sy = mm_to_pt(p.box.w), mm_to_pt(p.box.h)
    if p.rotate == 90:  # (u, v) -> (-v, u), then shift right by the placed width
        m = (0, sy / w_pt, -sx / h_pt, 0, x + sx, y)
    elif p.rotate == 270:  # (u, v) -> (v, -u), then shift up by the placed height
        m = (0, -sy / w_pt, sx / h_pt, 0, x, y + sy)
    else:
        m = (sx / w_pt, 0, 0, sy / h_pt, x, y)
    return tuple(_num(v) for v in m)


def fonts_of(arts: Iterable[Art]) -> set[str]:
    return {f for a in arts for f in a.fonts}


def write_sheets(layout: Layout, rendered: Mapping[str, Rendered], title: str, doc_id: str,
                 target, charset: str) -> None:
    """The home print-and-play PDF for one format."""
    sw, sh = mm_to_pt(layout.sheet.width), mm_to_pt(layout.sheet.height)
    fonts = fonts_of(writer_art(rendered[p.face]) for page in layout.pages
                     for p in page.placements)
    writer = Writer(target, title, doc_id, fonts, charset, (sw, sh))
    c = writer.c
    marks_drawn: dict[tuple, list[str]] = {}  # a page's crop marks -> the operators they made
    for sheet_page in layout.pages:
        placed = []
        for p in sheet_page.placements:
            r = rendered[p.face]
            art = writer.art(r)
            placed.append((p, writer.form(r.art_key, art), art))
        for p, form, art in placed:
            c.saveState()
            c.transform(*_matrix(p, art.width, art.height))
            c.doForm(form)
            c.restoreState()
        if sheet_page.marks in marks_drawn:  # the same marks as on an earlier sheet: the
            c._code.extend(marks_drawn[sheet_page.marks])  # same operators (state restored)
        elif sheet_page.marks:
            start = len(c._code)
            c.saveState()
            c.setLineWidth(MARK_WIDTH_PT)
            c.setStrokeColorRGB(0, 0, 0)
            c.setLineCap(0)
            c.lines([tuple(_num(mm_to_pt(v)) for v in (ln.x1, ln.y1, ln.x2, ln.y2))
                     for ln in sheet_page.marks])
            c.restoreState()
            marks_drawn[sheet_page.marks] = c._code[start:]
        c.showPage()
    writer.save()


def write_shop(items: list[tuple[str, str | None]], fmt: Format,
               rendered: Mapping[str, Rendered], title: str, doc_id: str, target,
               charset: str) -> None:
    """One component face per page: MediaBox = BleedBox = trim + bleed, TrimBox = trim."""
    bw, bh = mm_to_pt(fmt.bleed_width), mm_to_pt(fmt.bleed_height)
    b = mm_to_pt(fmt.bleed)
    fonts = fonts_of(writer_art(rendered[f]) for pair in items for f in pair if f)
    writer = Writer(target, title, doc_id, fonts, charset, (bw, bh))
    c = writer.c
    c.setBleedBox((0, 0, _num(bw), _num(bh)))
    c.setTrimBox((_num(b), _num(b), _num(bw - b), _num(bh - b)))
    for front, back in items:
        for face in (front, back):
            if face is None:
                continue
            r = rendered[face]
            art = writer.art(r)
            form = writer.form(r.art_key, art)
            c.saveState()
            c.transform(_num(bw / art.width), 0, 0, _num(bh / art.height), 0, 0)
            c.doForm(form)
            c.restoreState()
            c.showPage()
    writer.save()


def face_pages(arts: list[Art], fonts: Mapping[str, str], charset: str, target) -> None:
    """One page per drawn face at its own size (to rasterize)."""
    from pipeline.cards.faces.text import font_set

    font_set(tuple(sorted(fonts.items())))  # registered in this process
    writer = Writer(target, "faces", "faces", fonts_of(arts), charset, (10, 10))
    c = writer.c
    for i, art in enumerate(arts):
        c.setPageSize((art.width, art.height))
        key = hashlib.sha256(art.code.encode()).hexdigest()
        form = writer.form(f"{i}-{key}", art)
        c.doForm(form)
        c.showPage()
    writer.save()
