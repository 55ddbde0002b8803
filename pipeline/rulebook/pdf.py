"""HTML -> PDF with WeasyPrint (a fetcher that only reads project folders), and the booklet."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

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


class FolderFetcher(URLFetcher):
    """Serves `file:` URLs of known file types under the allowed folders; refuses the rest.

    No network: http(s), data, ftp and files elsewhere (symlinks and `..` resolved first) fail.
    `files` serves virtual URL paths (`/relic-pictures/zombie-260.png`): they keep a picture's
    URL, and so its name in the PDF, independent of where its file is.
    """

    def __init__(self, roots: tuple[Path, ...], files: Mapping[str, Path] | None = None):
        super().__init__(allowed_protocols=("file",))
        self.files = {path: Path(f).resolve() for path, f in (files or {}).items()}
        self.roots = tuple(r.resolve() for r in roots)
        self.refused: list[str] = []

    def allowed(self, path: Path) -> bool:
        real = path.resolve()
        return real.is_file() and any(real == r or r in real.parents for r in self.roots)

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        local = unquote(parts.path)
        ok = parts.scheme == "file" and parts.netloc in ("", "localhost")
        if ok and local in self.files:
            path = self.files[local]
        else:
            path = Path(local)
            ok = ok and self.allowed(path)
        if not ok or path.suffix.lower() not in MIME:
            self.refused.append(url)
            raise ValueError(f"refused to fetch {url}")
        mime = MIME[path.suffix.lower()]
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})


# A space that ends a run of text right before an inline element ("with them <b>1</b>") is
# measured by WeasyPrint as part of the line while Pango, which wraps the run, lets it hang: a
# run that fits only without its space is then cut after its first word, which strands that word
# alone on a line ("every relic keeper in / the / game …"). Given its own inline box, the space
# is a place to break all the same, the run before it measures what it shows, and the element
# after it (an index mark, say) still starts at its first letter, where its anchor belongs.
SPACE_BEFORE_INLINE = re.compile(r"(?<=[^\s>]) (<(?:a|b|i|em|strong|span|code|s|sub|sup)\b[^>]*>)")
SPACE = "<span> </span>"


def bind_spaces(html: str) -> str:
    """Give every space that precedes an inline element's start tag a box of its own."""
    return SPACE_BEFORE_INLINE.sub(lambda m: SPACE + m[1], html)


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
