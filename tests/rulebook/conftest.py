"""One real rulebook build per session (both languages), read back with pypdf."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.cli import main
from pipeline.model import Model
from pipeline.rulebook import FilePictures, build_rulebook
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "content" / "catacombs"
HEADING = re.compile(r"^(#{1,2}) (.+?)(?:\s*\{#[a-z0-9-]+\})?\s*$")


@dataclass(frozen=True)
class Built:
    lang: str
    pdf: Path
    reader: PdfReader
    texts: tuple[str, ...]

    def lines(self, page: int) -> list[str]:
        """Lines of 1-based page `page`, stripped."""
        return [ln.strip() for ln in self.texts[page - 1].splitlines() if ln.strip()]


def markdown_headings(lang: str, level: int) -> list[str]:
    """Heading texts straight from the Markdown sources (not from the writer)."""
    out = []
    for path in sorted((PACK / "rules" / lang).glob("[0-9]*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            m = HEADING.match(line)
            if m and len(m.group(1)) == level:
                out.append(m.group(2))
    return out


@pytest.fixture(scope="session")
def model() -> Model:
    return load_model(PACK)


@pytest.fixture(scope="session")
def exported() -> dict:
    """`relic export model --pack catacombs`, parsed: what the book must agree with."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["export", "model", "--pack", "catacombs", "--content", str(PACK.parent)])
    assert code == 0
    return json.loads(out.getvalue())


PICTURED = ("monster", "character", "item", "tile", "token")


def picture_files(model: Model, folder: Path) -> FilePictures:
    """A small picture of every monster, character, item, tile and token (a colour per
    entity, in the component's proportions), as `relic build` would render them."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for kind in PICTURED:
        for n, e in enumerate(model.of_kind(kind)):
            path = folder / f"{e.id}.png"
            if not path.is_file():  # written whole: another worker may read it at once
                size = (60, 60) if kind == "token" else (60, 84)
                tmp = path.with_name(f".{path.stem}-{os.getpid()}.png")
                Image.new("RGB", size, (40 + 9 * n % 200, 90, 160)).save(tmp)
                os.replace(tmp, path)
            files[e.id] = path
    return FilePictures(files)


def _inputs_key() -> str:
    """A hash of everything a book is built from: content, templates and the rulebook code."""
    digest = hashlib.sha256()
    for folder in (PACK, ROOT / "templates" / "rulebook", ROOT / "pipeline" / "rulebook"):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _shared_build(model: Model, lang: str, shared: Path) -> Path:
    """Build once for all xdist workers: the first takes the lock, the others wait for the PDF."""
    out = shared / lang
    pdf = out / "rulebook.pdf"
    out.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(out / "lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        deadline = time.monotonic() + 180
        while not pdf.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        if pdf.exists():
            return pdf
        out = shared / f"{lang}-{os.getpid()}"  # the other worker died: build our own
    pictures = picture_files(model, shared / "pictures")
    return build_rulebook(model, lang, out, pictures=pictures, cache_dir=shared / "cache")[0]


@pytest.fixture(scope="session")
def book_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the session's books are built (shared by the xdist workers): per language its
    folder, and `cache/` and `pictures/` they were made with."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return root / f"rulebook-{_inputs_key()}"


@pytest.fixture(scope="session")
def books(model: Model, book_dir: Path) -> dict[str, Built]:
    shared = book_dir
    built = {}
    for lang in model.pack.languages:
        pdf = _shared_build(model, lang, shared)
        reader = PdfReader(pdf)
        texts = tuple(page.extract_text() or "" for page in reader.pages)
        built[lang] = Built(lang, pdf, reader, texts)
    return built


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    """A private copy of the catacombs pack to edit."""
    dst = tmp_path / "catacombs"
    shutil.copytree(PACK, dst)
    return dst
