"""One unit of the book laid out by WeasyPrint (in a worker process): its PDF and what the
assembly needs to know of its pages (anchors, links, bookmarks), in PDF points from the top.

Page numbers are literal text by the time a unit is laid out (the book fills them in from
the previous round's layout), so WeasyPrint never lays a page out twice to resolve a
`target-counter`; the unit's last page sets every character of the book in every style and
is left out of the book, so that every unit embeds the same font subsets.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

PX = 0.75  # WeasyPrint lays out in CSS pixels; PDF points are 3/4 of one
CHARSET_ID = "relic-charset"
BOOK_STYLE = re.compile(r"<style>(.*?)</style>", re.S)  # the first: the book's (book.html.j2)


@dataclass(frozen=True)
class UnitJob:
    key: str
    html: str
    base: str  # base URL folder of the templates
    roots: tuple[str, ...]  # folders the page may read
    files: Mapping[str, str]  # virtual picture URL path -> file
    pdf: str  # where the unit's PDF goes (the cache)
    cache: str  # the render cache (font subsets are shared through it)
    write: bool = True  # False: only where the pages break (a round on guessed page numbers)


@dataclass(frozen=True)
class LaidOut:
    """A laid-out unit: `pages` content pages of `pdf` (its charset pages follow)."""

    key: str
    pdf: str
    pages: int
    sizes: tuple[tuple[float, float], ...]  # (width, height) in pt per content page
    anchors: Mapping[str, tuple[int, float, float]]  # id -> (page, x, y)
    links: tuple[tuple[int, float, float, float, float, str], ...]  # page, x1, y1, x2, y2, id
    bookmarks: tuple[tuple[int, int, str, float, float], ...]  # page, level, label, x, y
    refused: tuple[str, ...] = ()

    def save(self, path: Path) -> None:
        from pipeline.fsutil import cache_write

        cache_write(path, json.dumps(asdict(self), ensure_ascii=False, sort_keys=True))

    @classmethod
    def load(cls, path: Path) -> LaidOut | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not Path(data["pdf"]).is_file():
            return None
        return cls(
            data["key"], data["pdf"], data["pages"],
            tuple(tuple(s) for s in data["sizes"]),
            {k: tuple(v) for k, v in data["anchors"].items()},
            tuple(tuple(link) for link in data["links"]),
            tuple(tuple(b) for b in data["bookmarks"]),
            tuple(data.get("refused", ())))


def started() -> None:
    """A new worker's first task when nothing needs to be imported yet."""


def warm() -> None:
    """Import what laying out needs (WeasyPrint alone takes about 0.4 s): a new worker's first
    task, while the book is being composed."""
    import pypdfium2  # noqa: F401
    import weasyprint  # noqa: F401


_THREAD = threading.local()


def _font_config():
    """One WeasyPrint font configuration per thread, for every unit it lays out: the fonts
    are found and loaded once (about a tenth of a unit's layout), and the PDF is the same."""
    if not hasattr(_THREAD, "font_config"):
        from weasyprint.text.fonts import FontConfiguration

        _THREAD.font_config = FontConfiguration()
    return _THREAD.font_config


def _stylesheet(html: str, base: str):
    """The HTML without the book's stylesheet, and that stylesheet parsed once per thread for
    every unit that has it (about 20 ms a unit). WeasyPrint applies it as a user stylesheet,
    below the document's own styles: the book's CSS has no `!important`, and the page's own
    `<style>` (its first page number) and `style` attributes win over it either way."""
    import weasyprint

    match = BOOK_STYLE.search(html)
    if match is None:
        return html, []
    sheets = _THREAD.__dict__.setdefault("stylesheets", {})
    key = (match[1], base)
    if key not in sheets:
        sheets.clear()  # one book's CSS at a time: a new paper or language replaces it
        sheets[key] = weasyprint.CSS(string=match[1], base_url=base, font_config=_font_config())
    return html[:match.start()] + html[match.end():], [sheets[key]]


def lay_out(job: UnitJob) -> LaidOut:
    """WeasyPrint renders the unit; its PDF is written to `job.pdf`."""
    import logging

    import weasyprint

    from pipeline.fsutil import cache_write
    from pipeline.rulebook import pdf as pdf_mod
    from pipeline.rulebook.subsets import fixed_timestamps, install_subset_cache

    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # links to other units, resolved
    install_subset_cache(Path(job.cache))  # every unit embeds the same subsets: made once

    fetcher = pdf_mod.FolderFetcher(tuple(Path(r) for r in job.roots),
                                    files={k: Path(v) for k, v in job.files.items()})
    html, stylesheets = _stylesheet(pdf_mod.bind_spaces(job.html), job.base + "/")
    with fixed_timestamps():
        doc = weasyprint.HTML(string=html, base_url=job.base + "/", url_fetcher=fetcher).render(
            stylesheets=stylesheets, font_config=_font_config())
        if job.write:
            cache_write(Path(job.pdf), doc.write_pdf())
    content = next((i for i, page in enumerate(doc.pages) if CHARSET_ID in page.anchors),
                   len(doc.pages))
    anchors: dict[str, tuple[int, float, float]] = {}
    links, bookmarks = [], []
    for n, page in enumerate(doc.pages[:content]):
        for name, (x, y, *_) in page.anchors.items():
            anchors.setdefault(name, (n, x * PX, y * PX))
        for kind, target, (x1, y1, x2, y2), _ in page.links:
            if kind == "internal":
                links.append((n, x1 * PX, y1 * PX, x2 * PX, y2 * PX, target))
        for level, label, (x, y), _state in page.bookmarks:
            bookmarks.append((n, level, label, x * PX, y * PX))
    sizes = tuple((page.width * PX, page.height * PX) for page in doc.pages[:content])
    return LaidOut(job.key, job.pdf, content, sizes, anchors, tuple(links), tuple(bookmarks),
                   tuple(fetcher.refused))
