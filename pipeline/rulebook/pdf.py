"""HTML -> PDF with WeasyPrint (a fetcher that only reads project folders), and the booklet."""

from __future__ import annotations

import io
import logging
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit

import weasyprint
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
)
from weasyprint.urls import URLFetcher, URLFetcherResponse

MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
        ".svg": "image/svg+xml", ".css": "text/css"}
A4_LANDSCAPE = (841.8898, 595.2756)
FIXED_DATE = "D:20000101000000+00'00'"
SOURCE_DATE_EPOCH = "946684800"  # 2000-01-01


class FolderFetcher(URLFetcher):
    """Serves `file:` URLs of known file types under the allowed folders; refuses the rest.

    No network: http(s), data, ftp and files elsewhere (symlinks and `..` resolved first) fail.
    """

    def __init__(self, roots: tuple[Path, ...], virtual: Mapping[str, Path] | None = None):
        super().__init__(allowed_protocols=("file",))
        self.virtual = {prefix: root.resolve() for prefix, root in (virtual or {}).items()}
        self.roots = tuple(r.resolve() for r in roots) + tuple(self.virtual.values())
        self.refused: list[str] = []

    def local_path(self, url_path: str) -> Path:
        """A virtual folder (`/relic-thumbs/…`) keeps URLs, and so image ids, independent of
        where the files really are; everything else is a plain file path."""
        for prefix, root in self.virtual.items():
            if url_path.startswith(prefix):
                return root / url_path[len(prefix):]
        return Path(url_path)

    def allowed(self, path: Path) -> bool:
        real = path.resolve()
        return real.is_file() and any(real == r or r in real.parents for r in self.roots)

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        path = self.local_path(unquote(parts.path))
        if parts.scheme != "file" or parts.netloc not in ("", "localhost") or \
                path.suffix.lower() not in MIME or not self.allowed(path):
            self.refused.append(url)
            raise ValueError(f"refused to fetch {url}")
        mime = MIME[path.suffix.lower()]
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})


_ENV_LOCK = threading.Lock()


@contextmanager
def fixed_timestamps() -> Iterator[None]:
    """fontTools stamps subset fonts with the current time unless SOURCE_DATE_EPOCH is set.

    The environment is process-wide, so renders that need it run one at a time.
    """
    with _ENV_LOCK:
        old = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("SOURCE_DATE_EPOCH", None)
            else:
                os.environ["SOURCE_DATE_EPOCH"] = old


def html_to_pdf(html: str, roots: tuple[Path, ...], base: Path,
                virtual: Mapping[str, Path] | None = None) -> bytes:
    """The PDF of `html`; byte-identical for identical input (fixed dates, fixed font stamps)."""
    fetcher = FolderFetcher(roots, virtual)
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    with fixed_timestamps():
        doc = weasyprint.HTML(string=html, base_url=str(base) + "/", url_fetcher=fetcher).render()
        return doc.write_pdf()


def booklet_order(n: int) -> list[tuple[int, int]]:
    """Saddle-stitch order of `n` pages (a multiple of 4): (left, right) per printed side."""
    sides = []
    for i in range(n // 4):
        sides.append((n - 1 - 2 * i, 2 * i))
        sides.append((2 * i + 1, n - 2 - 2 * i))
    return sides


class _Forms:
    """Each source page once as a Form XObject of the writer (content bytes, resources, box)."""

    def __init__(self, reader: PdfReader, writer: PdfWriter):
        self.reader = reader
        self.writer = writer
        self.made: dict[int, tuple[IndirectObject, float, float]] = {}

    def __getitem__(self, index: int) -> tuple[IndirectObject, float, float]:
        if index not in self.made:
            page = self.reader.pages[index]
            form = DecodedStreamObject()
            contents = page.get_contents()
            form.set_data(contents.get_data() if contents is not None else b"")
            box = page.mediabox
            form.update({
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(
                    [FloatObject(v) for v in (box.left, box.bottom, box.right, box.top)]),
                NameObject("/Resources"): page["/Resources"].clone(self.writer),
            })
            ref = self.writer._add_object(form)  # pypdf has no public call for this
            self.made[index] = (ref, float(box.width), float(box.height))
        return self.made[index]


def booklet(pdf: bytes) -> bytes:
    """Pages two-up on A4 landscape in saddle-stitch order, padded with blanks to a multiple of 4.

    Print double-sided (flip on the short edge), fold the stack in half, staple on the fold.
    Each page is placed as a Form XObject, so its content is copied, never re-parsed.
    """
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    count = len(reader.pages)
    forms = _Forms(reader, writer)
    width, height = A4_LANDSCAPE
    for left, right in booklet_order(-(-count // 4) * 4):
        sheet = writer.add_blank_page(width, height)
        xobjects = DictionaryObject()
        ops = []
        for slot, index in enumerate((left, right)):
            if index >= count:
                continue  # a blank padding page
            ref, pw, ph = forms[index]
            scale = min((width / 2) / pw, height / ph)
            dx = slot * width / 2 + (width / 2 - pw * scale) / 2
            dy = (height - ph * scale) / 2
            xobjects[NameObject(f"/P{slot}")] = ref
            ops.append(f"q {scale:.6f} 0 0 {scale:.6f} {dx:.4f} {dy:.4f} cm /P{slot} Do Q")
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        content = DecodedStreamObject()
        content.set_data("\n".join(ops).encode())
        sheet[NameObject("/Contents")] = writer._add_object(content)
    writer.add_metadata({"/Producer": "Relic Press", "/CreationDate": FIXED_DATE,
                         "/ModDate": FIXED_DATE})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
