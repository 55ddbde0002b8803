"""`relic rulebook`: deterministic output and the saddle-stitch booklet from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.cli import main
from tests.rulebook.conftest import PACK


def test_rulebook_command_is_deterministic_and_folds_a_booklet(
        books, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rulebook", "--pack", "catacombs", "--lang", "ru", "--booklet",
                 "--content", str(PACK.parent), "--out", str(tmp_path)])
    assert code == 0
    out = capsys.readouterr().out
    book = tmp_path / "catacombs" / "ru" / "rulebook.pdf"
    folded = tmp_path / "catacombs" / "ru" / "rulebook-booklet.pdf"
    assert f"wrote {book}" in out and f"wrote {folded}" in out
    # another process, another folder, the same bytes as the session's build
    assert book.read_bytes() == books["ru"].pdf.read_bytes()
    pages = PdfReader(book).pages
    sheets = PdfReader(folded).pages
    assert len(sheets) == -(-len(pages) // 4) * 2
    assert float(sheets[0].mediabox.width) > float(sheets[0].mediabox.height)
    assert not list(tmp_path.rglob(".*.tmp")), "atomic writes leave no temp files"


def test_rulebook_command_rejects_unknown_language(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rulebook", "--pack", "catacombs", "--lang", "fr",
                 "--content", str(PACK.parent), "--out", str(tmp_path)])
    assert code == 2
    assert "no language 'fr'" in capsys.readouterr().err
