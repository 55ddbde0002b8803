"""`relic rulebook`: deterministic output and the saddle-stitch booklet from the command line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.cli import main
from tests.rulebook.conftest import PACK


def test_rulebook_command_is_deterministic_and_folds_a_booklet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The book with the card renderer's pictures, twice: the second time in another folder
    with a cache that holds only the rendered card faces, so that every page of the book is
    laid out again. The bytes are the same."""
    def rulebook(out: str, cache: str) -> Path:
        code = main(["rulebook", "--pack", "catacombs", "--lang", "ru", "--booklet", "--jobs",
                     "2", "--content", str(PACK.parent), "--out", str(tmp_path / out),
                     "--cache", str(tmp_path / cache)])
        assert code == 0
        return tmp_path / out / "catacombs" / "ru"

    first = rulebook("a", "cache-a")
    out = capsys.readouterr().out
    book, folded = first / "rulebook.pdf", first / "rulebook-booklet.pdf"
    assert f"wrote {book}" in out and f"wrote {folded}" in out
    shutil.copytree(tmp_path / "cache-a", tmp_path / "cache-b",
                    ignore=shutil.ignore_patterns("rulebook"))
    second = rulebook("b", "cache-b")
    assert (second / "rulebook.pdf").read_bytes() == book.read_bytes()
    reader = PdfReader(book)
    assert sum(len(page.images) for page in reader.pages) >= 20  # the cards' pictures
    sheets = PdfReader(folded).pages
    assert len(sheets) == -(-len(reader.pages) // 4) * 2
    assert float(sheets[0].mediabox.width) > float(sheets[0].mediabox.height)
    assert not list(tmp_path.rglob(".*.tmp")), "atomic writes leave no temp files"


def test_rulebook_command_rejects_unknown_language(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rulebook", "--pack", "catacombs", "--lang", "fr",
                 "--content", str(PACK.parent), "--out", str(tmp_path)])
    assert code == 2
    assert "no language 'fr'" in capsys.readouterr().err
