"""The reports the preview makes on request from the last good model: the odds tables and the
rulebook as page pictures. Each takes a `send` for its progress and returns a `Report`."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pipeline.diagnostics import RelicError, Span, error
from pipeline.model import Model
from pipeline.serve.gallery import Image
from pipeline.serve.messages import Progress, Report

RULEBOOK_DPI = 110
# what the page pictures were drawn from: the sha256 of the PDF and the DPI (hidden: not served)
PAGES_OF = ".pages-of"
Send = Callable[[Any], None]


def no_model(generation: int, name: str, where: Span) -> Report:
    return Report(generation, name, diagnostics=(error(
        "no-model", "the content has errors; fix them and the report follows", where),))


def odds(model: Model, generation: int, send: Send) -> Report:
    from engine.core.odds import as_json
    from pipeline.commands.odds import odds_tables

    send(Progress(generation, "odds"))
    try:
        return Report(generation, "odds", as_json(odds_tables(model)))
    except RelicError as exc:
        return Report(generation, "odds", diagnostics=exc.diagnostics)


def rulebook_paper(model: Model, chosen: str | None = None) -> str:
    return chosen or model.pack.data.get("rules", {}).get("paper", "a5")


def book(model: Model, lang: str, out_dir: Path, cache_dir: Path, paper: str | None = None,
         jobs: int = 1) -> Path:
    """`out_dir/rulebook.pdf` as `relic build` makes it: its pictures are the card renderer's
    faces and its units come from the shared cache (only what an edit changed is laid out)."""
    from pipeline.rulebook import FacePictures, build_rulebook

    pictures = FacePictures(model, lang, cache_dir, workers=jobs)
    [pdf] = build_rulebook(model, lang, out_dir, paper=rulebook_paper(model, paper),
                           pictures=pictures, cache_dir=cache_dir)[:1]
    return pdf


def rulebook(model: Model, lang: str, out_root: Path, cache_dir: Path, generation: int,
             send: Send, paper: str | None = None, jobs: int = 1) -> Report:
    """The rulebook of the preview language: `rulebook/<lang>/rulebook.pdf` under `out_root`
    and one PNG per page beside it."""
    from pipeline.fsutil import atomic_write

    if not (model.pack.root / "rules").is_dir():
        return Report(generation, "rulebook", {"pages": [], "pdf": None})
    send(Progress(generation, f"rulebook ({lang})"))
    target = out_root / "rulebook" / lang
    try:
        data = book(model, lang, target, cache_dir, paper, jobs).read_bytes()
    except RelicError as exc:
        return Report(generation, "rulebook", diagnostics=exc.diagnostics)
    pdf = _image(f"rulebook/{lang}/rulebook.pdf", data)
    pages = _kept_pages(target, lang, pdf.sha256)
    if pages is None:
        pages = _write_pages(data, target, lang, lambda n, total: send(
            Progress(generation, f"rulebook ({lang}): pages", n, total)))
        atomic_write(target / PAGES_OF, _stamp(pdf.sha256).encode())
    return Report(generation, "rulebook", {"pdf": pdf, "pages": pages})


def _stamp(sha256: str) -> str:
    return f"{sha256} {RULEBOOK_DPI}"


def _kept_pages(target: Path, lang: str, sha256: str) -> list[Image] | None:
    """The page pictures already drawn from this very PDF (an edit the book does not show
    leaves its bytes alone), or None."""
    try:
        if (target / PAGES_OF).read_text() != _stamp(sha256):
            return None
        files = sorted(target.glob("page-*.png"))
        return [_image(f"rulebook/{lang}/{f.name}", f.read_bytes()) for f in files]
    except OSError:
        return None


def _write_pages(data: bytes, target: Path, lang: str,
                 progress: Callable[[int, int], None]) -> list[Image]:
    from pipeline.fsutil import atomic_write

    (target / PAGES_OF).unlink(missing_ok=True)  # the pages change from here on
    pages = []
    rendered = list(_pages(data, RULEBOOK_DPI))
    for number, png in enumerate(rendered, start=1):
        progress(number, len(rendered))
        atomic_write(target / f"page-{number:03d}.png", png)
        pages.append(_image(f"rulebook/{lang}/page-{number:03d}.png", png))
    for stale in target.glob("page-*.png"):
        if int(stale.stem.split("-")[1]) > len(pages):
            stale.unlink()
    return pages


def _image(path: str, data: bytes) -> Image:
    return Image(path, hashlib.sha256(data).hexdigest())


def _pages(pdf: bytes, dpi: int) -> Iterator[bytes]:
    """PNG bytes of every page of a PDF (pypdfium2)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        for page in document:
            buffer = io.BytesIO()
            page.render(scale=dpi / 72).to_pil().save(buffer, format="PNG")
            yield buffer.getvalue()
    finally:
        document.close()
