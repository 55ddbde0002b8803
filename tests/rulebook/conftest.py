"""One real rulebook build per session (both languages), read back with pypdf."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.model import Model
from pipeline.rulebook import build_rulebook
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
def books(model: Model, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    out = tmp_path_factory.mktemp("rulebook")
    built = {}
    for lang in model.pack.languages:
        written = build_rulebook(model, lang, out / lang)
        reader = PdfReader(written[0])
        texts = tuple(page.extract_text() or "" for page in reader.pages)
        built[lang] = Built(lang, written[0], reader, texts)
    return built


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    """A private copy of the catacombs pack to edit."""
    dst = tmp_path / "catacombs"
    shutil.copytree(PACK, dst)
    return dst
