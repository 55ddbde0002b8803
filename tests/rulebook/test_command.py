"""`relic rulebook`: A4 pages and the saddle-stitch booklet from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.cli import main
from tests.rulebook.conftest import PACK


def test_rulebook_command_a4_with_booklet(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rulebook", "--pack", "catacombs", "--lang", "en", "--paper", "a4",
                 "--booklet", "--content", str(PACK.parent), "--out", str(tmp_path)])
    assert code == 0
    out = capsys.readouterr().out
    book = tmp_path / "catacombs" / "en" / "rulebook.pdf"
    folded = tmp_path / "catacombs" / "en" / "rulebook-booklet.pdf"
    assert f"wrote {book}" in out and f"wrote {folded}" in out
    pages = PdfReader(book).pages
    size = pages[0].mediabox
    assert (round(float(size.width) / 72 * 25.4), round(float(size.height) / 72 * 25.4)) == (210,
                                                                                           297)
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
