"""Data blocks drawn by reportlab, not laid out by WeasyPrint: a monster's stat block.

A block's text is the model's data (numbers, names, rewards); the chapter around it is prose.
The chapter is laid out with a placeholder of the block's measured size in its place, and the
assembly puts the drawing in (`assemble.py`, as a vector form: its text stays text). So an
edit that changes a value the block shows, and not the block's size, lays nothing out: the
book's record keeps what the block's words read of the model apart from what the prose read
(`record.read_block`), and the book is assembled again with the block drawn anew
(`render.reassemble`).

A block is measured and drawn with reportlab's own platypus: a table of labelled rows, then
paragraphs with bold labels, in the book's sans family, at the type size and width the book
gives it (`page.py`).
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import asdict, dataclass
from functools import cache, cached_property
from html import escape as _escape
from pathlib import Path
from typing import Any

from pipeline.rulebook.page import CELL_PADDING_EM, LINE_EM, TABLE_RULE, TABLE_SHADE


def escape(text: str) -> str:
    """Text as platypus markup: &, < and > escaped, as `xml.sax.saxutils.escape` does (that
    module imports urllib.request: 0.04 s of every build that reads a book's record)."""
    return _escape(text, quote=False)

VERSION = "1"
INK = "#000000"
RULE, RULE_PT = TABLE_RULE
GAP_EM = 0.3  # between the title, the table and the paragraphs
TITLE_EM = 1.15  # the title's type size, of the block's
LABEL_SHARE = 0.42  # the most the rows' labels take of the block's width, if they need it


@dataclass(frozen=True)
class BlockSpec:
    """Which block, and where: the entity it shows, the language, its width and type size."""

    kind: str  # the reference that shows it ("monster")
    entity_id: str
    lang: str
    width_mm: float
    size_pt: float

    def to_json(self) -> list[Any]:
        return [self.kind, self.entity_id, self.lang, self.width_mm, self.size_pt]

    @classmethod
    def from_json(cls, data: Any) -> BlockSpec:
        kind, entity_id, lang, width, size = data
        return cls(str(kind), str(entity_id), str(lang), float(width), float(size))


Runs = tuple[tuple[str, bool], ...]  # (text, bold) runs of one paragraph


@dataclass(frozen=True)
class Block:
    """A block's words: its title, its table (the heads, then rows whose first cell is the
    row's label) and the paragraphs under it."""

    spec: BlockSpec
    title: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[Runs, ...]

    @cached_property
    def key(self) -> str:
        """What the drawing is made of: its words, size, fonts and this code."""
        from pipeline.rulebook.glyphs import font_identity

        data = json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(f"{VERSION}\0{font_identity()}\0{data}\0"
                              f"{_code()}".encode()).hexdigest()

    @property
    def text(self) -> str:
        """Every character it prints."""
        return "".join([self.title, *self.head, *(c for r in self.rows for c in r),
                        *(t for runs in self.notes for t, _ in runs)])

    @property
    def width_pt(self) -> float:
        return self.spec.width_mm / 25.4 * 72


@cache
def _code() -> str:
    """This code and the library that draws with it."""
    from importlib import metadata

    return hashlib.sha256(Path(__file__).read_bytes() +
                          metadata.version("reportlab").encode()).hexdigest()


@cache
def _font_names() -> tuple[str, str]:
    """(regular, bold) reportlab names of the book's sans family: the card renderer's, when it
    registered the same files in this process, else registered here under names of its own."""
    from reportlab.pdfbase import pdfmetrics

    from pipeline.cards.faces.text import registered_font
    from pipeline.cards.fonts import find_font
    from pipeline.rulebook.glyphs import FONTS as BOOK_FONTS

    family = BOOK_FONTS["sans"]
    names = []
    for style, own in (("Book", "RelicBookSans"), ("Bold", "RelicBookSansBold")):
        path = str(find_font(family, style).path)
        found = [n for n in pdfmetrics.getRegisteredFontNames()
                 if getattr(pdfmetrics.getFont(n), "_relic_file", None) == path]
        if not found:
            registered_font(own, Path(path))
            found = [own]
        names.append(found[0])
    return names[0], names[1]


def _markup(runs: Runs, bold: str) -> str:
    """A paragraph's runs as platypus markup, its bold runs in the bold face."""
    return "".join(f'<font face="{bold}">{escape(t)}</font>' if strong else escape(t)
                   for t, strong in runs)


def _widths(block: Block, rows: list[list[str]], fonts: tuple[str, str]) -> list[float]:
    """Column widths as a table laid out automatically shares the block's width (CSS 2.1's
    automatic table layout): each column between its longest word and its widest cell on one
    line, the room beyond the longest words shared out in proportion to what each column
    would take more (labels and heads in bold)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    size = block.spec.size_pt
    pad = 2 * CELL_PADDING_EM[1] * size + RULE_PT
    columns = max(len(r) for r in rows)
    least, most = [pad] * columns, [pad] * columns
    for n, row in enumerate(rows):
        for i, text in enumerate(row):
            face = fonts[1] if i == 0 or (n == 0 and block.head) else fonts[0]
            words = [stringWidth(w, face, size) for w in text.split()] or [0.0]
            least[i] = max(least[i], max(words) + pad)
            most[i] = max(most[i], stringWidth(text, face, size) + pad)
    if columns == 1:
        return [block.width_pt]
    # the labels on one line, within their share of the width: the values share the rest
    first = min(most[0], max(least[0], block.width_pt * LABEL_SHARE))
    return [first, *_shared(block.width_pt - first, least[1:], most[1:])]


def _shared(width: float, least: list[float], most: list[float]) -> list[float]:
    if sum(most) <= width:  # every cell on one line: the rest shared as the widths go
        return [w * width / sum(most) for w in most]
    if sum(least) >= width:  # not even the longest words fit: squeezed alike
        return [w * width / sum(least) for w in least]
    share = (width - sum(least)) / (sum(most) - sum(least))
    return [lo + (hi - lo) * share for lo, hi in zip(least, most, strict=True)]


def _flowables(block: Block) -> list[Any]:
    """The block as platypus flowables: its table, then its paragraphs."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    fonts = _font_names()
    size = block.spec.size_pt
    cell = ParagraphStyle("cell", fontName=fonts[0], fontSize=size, leading=size * LINE_EM,
                          textColor=colors.HexColor(INK))
    head = ParagraphStyle("head", parent=cell, fontName=fonts[1])
    texts = [list(block.head)] if block.head else []
    texts += [list(r) for r in block.rows]
    title = ParagraphStyle("title", parent=head, fontSize=size * TITLE_EM,
                           leading=size * TITLE_EM * LINE_EM)
    out: list[Any] = [Paragraph(escape(block.title), title), Spacer(1, GAP_EM * size)]
    if texts:
        cells = [[Paragraph(escape(c), head if i == 0 or (n == 0 and block.head) else cell)
                  for i, c in enumerate(row)] for n, row in enumerate(texts)]
        vertical, horizontal = (p * size for p in CELL_PADDING_EM)
        style = [("FONT", (0, 0), (-1, -1), fonts[0], size),  # (not Helvetica, unembedded)
                 ("GRID", (0, 0), (-1, -1), RULE_PT, colors.HexColor(RULE)),
                 ("VALIGN", (0, 0), (-1, -1), "TOP"),
                 ("TOPPADDING", (0, 0), (-1, -1), vertical),
                 ("BOTTOMPADDING", (0, 0), (-1, -1), vertical),
                 ("LEFTPADDING", (0, 0), (-1, -1), horizontal),
                 ("RIGHTPADDING", (0, 0), (-1, -1), horizontal),
                 ("BACKGROUND", (0, 0), (0, -1), colors.HexColor(TABLE_SHADE))]
        if block.head:
            style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor(TABLE_SHADE)))
        out.append(Table(cells, colWidths=_widths(block, texts, fonts),
                         style=TableStyle(style)))
    for runs in block.notes:
        out.append(Spacer(1, GAP_EM * size))
        out.append(Paragraph(_markup(runs, fonts[1]), cell))
    return out


def _laid(block: Block) -> tuple[list[tuple[Any, float]], float]:
    """Each flowable with its height at the block's width, and the total height (points)."""
    placed = []
    for flowable in _flowables(block):
        _, height = flowable.wrap(block.width_pt, 10_000)
        placed.append((flowable, height))
    return placed, sum(h for _, h in placed)


def _rounded(points: float) -> float:
    """A height in millimetres, to the hundredth: what the chapter reserves for the block."""
    return round(points / 72 * 25.4, 2)


@cache
def height_mm(block: Block) -> float:
    """The block's height at its width (what the chapter reserves for it)."""
    from pipeline.rulebook.pictures import DRAWING

    with DRAWING:
        _, height = _laid(block)
    return _rounded(height)


def draw(block: Block) -> bytes:
    """A one-page PDF of the block: its width, and the height the chapter reserves for it."""
    from reportlab.pdfgen.canvas import Canvas

    from pipeline.rulebook.pictures import DRAWING

    with DRAWING:
        placed, total = _laid(block)
        height = _rounded(total) / 25.4 * 72
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(block.width_pt, height), invariant=1,
                        pageCompression=1, initialFontName=_font_names()[0],
                        initialFontSize=block.spec.size_pt)  # (not Helvetica, unembedded)
        y = height
        for flowable, h in placed:
            y -= h
            flowable.drawOn(canvas, 0, y)
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()


def drawing_path(key: str, root: Path) -> Path:
    """Where the rulebook cache `root` keeps the drawing of the block with this key."""
    return Path(root) / "blocks" / f"{key}.pdf"


def drawn_file(block: Block, root: Path) -> Path:
    """The block's drawing, from the cache (`root`: the rulebook cache) or drawn into it."""
    from pipeline.cards.prune import mark_used
    from pipeline.fsutil import cache_write

    path = drawing_path(block.key, root)
    if path.is_file():
        mark_used(path)
    else:
        cache_write(path, draw(block))
    return path
