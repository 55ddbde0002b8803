"""The rulebook's page pictures: drawn once per PDF, reused while its bytes are the same."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from PIL import Image as PILImage

from pipeline.serve import reports


def a_pdf(pages: int, words: str) -> bytes:
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(148 * 2.835, 210 * 2.835), invariant=1)
    for number in range(1, pages + 1):
        pdf.drawString(40, 500, f"{words} {number}")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def draw(data: bytes, target: Path) -> list[reports.Image]:
    sha = hashlib.sha256(data).hexdigest()
    kept = reports._kept_pages(target, "ru", sha)
    if kept is not None:
        return kept
    pages = reports._write_pages(data, target, "ru", lambda n, total: None)
    (target / reports.PAGES_OF).write_text(reports._stamp(sha))
    return pages


def test_pages_are_drawn_once_per_pdf(tmp_path: Path) -> None:
    target = tmp_path / "rulebook" / "ru"
    target.mkdir(parents=True)
    three = a_pdf(3, "page")
    pages = draw(three, target)
    assert [p.path for p in pages] == [f"rulebook/ru/page-00{n}.png" for n in (1, 2, 3)]
    with PILImage.open(target / "page-001.png") as first:
        assert abs(first.width - 148 * 2.835 * reports.RULEBOOK_DPI / 72) <= 1
    stamp = (target / reports.PAGES_OF).stat().st_mtime_ns
    mtimes = [(target / f"page-00{n}.png").stat().st_mtime_ns for n in (1, 2, 3)]
    assert draw(three, target) == pages  # the same PDF: nothing drawn again
    assert [(target / f"page-00{n}.png").stat().st_mtime_ns for n in (1, 2, 3)] == mtimes
    assert (target / reports.PAGES_OF).stat().st_mtime_ns == stamp

    two = a_pdf(2, "other")  # a changed book: drawn again, the third page goes
    again = draw(two, target)
    assert len(again) == 2 and not (target / "page-003.png").exists()
    assert again[0].sha256 != pages[0].sha256


def test_a_page_set_without_its_stamp_is_drawn_again(tmp_path: Path) -> None:
    target = tmp_path / "ru"
    target.mkdir()
    data = a_pdf(1, "page")
    reports._write_pages(data, target, "ru", lambda n, total: None)  # cancelled before the stamp
    assert reports._kept_pages(target, "ru", hashlib.sha256(data).hexdigest()) is None
