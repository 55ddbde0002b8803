"""The reports the preview makes on request from the last good model: the odds tables and the
rulebook as page pictures. Each takes a `send` for its progress and returns a `Report`."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pipeline.diagnostics import RelicError, Span, error
from pipeline.model import Model
from pipeline.serve.gallery import Image
from pipeline.serve.messages import Progress, Report

RULEBOOK_DPI = 110
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


def rulebook(model: Model, folders: Mapping[str, Path], out_root: Path, generation: int,
             send: Send, paper: str | None = None) -> Report:
    """The rulebook of the preview language: `rulebook/<lang>/rulebook.pdf` under `out_root`
    and one PNG per page beside it. Thumbnails come from the built component pictures."""
    from pipeline.fsutil import atomic_write
    from pipeline.rulebook import build_rulebook

    if not (model.pack.root / "rules").is_dir():
        return Report(generation, "rulebook", {"pages": [], "pdf": None})
    lang, folder = next(iter(folders.items()))
    send(Progress(generation, f"rulebook ({lang})"))
    with _pictures_of(folder, out_root) as workdir:
        try:
            [pdf] = build_rulebook(model, lang, workdir, paper=rulebook_paper(model, paper))[:1]
        except RelicError as exc:
            return Report(generation, "rulebook", diagnostics=exc.diagnostics)
        data = pdf.read_bytes()
    target = out_root / "rulebook" / lang
    target.mkdir(parents=True, exist_ok=True)
    atomic_write(target / "rulebook.pdf", data)
    pages = []
    rendered = list(_pages(data, RULEBOOK_DPI))
    for number, png in enumerate(rendered, start=1):
        send(Progress(generation, f"rulebook ({lang}): pages", number, len(rendered)))
        atomic_write(target / f"page-{number:03d}.png", png)
        pages.append(_image(f"rulebook/{lang}/page-{number:03d}.png", png))
    for stale in target.glob("page-*.png"):
        if int(stale.stem.split("-")[1]) > len(pages):
            stale.unlink()
    return Report(generation, "rulebook",
                  {"pdf": _image(f"rulebook/{lang}/rulebook.pdf", data), "pages": pages})


@contextlib.contextmanager
def _pictures_of(folder: Path, out_root: Path) -> Iterator[Path]:
    """A private folder (hidden, so never served) holding links to the built pictures: the
    book reads its thumbnails there and writes there, whatever rebuilds do to `folder`."""
    for stale in out_root.glob(".rulebook-*"):  # left by a build that was cancelled
        shutil.rmtree(stale, ignore_errors=True)
    work = out_root / f".rulebook-{os.getpid()}"
    (work / "png").mkdir(parents=True, exist_ok=True)
    try:
        for png in (folder / "png").glob("*.png"):
            with contextlib.suppress(FileNotFoundError):
                try:
                    os.link(png, work / "png" / png.name)
                except OSError:
                    shutil.copyfile(png, work / "png" / png.name)
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


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
