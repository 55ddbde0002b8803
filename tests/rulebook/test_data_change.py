"""A data edit changes the book with no prose edited; pictures print at their printed size."""

from __future__ import annotations

import filecmp
import re
from pathlib import Path

import pypdfium2 as pdfium
from pypdf import PdfReader

from pipeline.rulebook import build_rulebook
from pipeline.rulebook.pictures import pixels
from pipeline.rulebook.views import PICTURE_MM
from pipeline.stages import load_model
from tests.rulebook.conftest import PACK, picture_files


def _set_zombie_speed(pack: Path, speed: int) -> None:
    path = pack / "monsters.yaml"
    text = path.read_text(encoding="utf-8")
    block = text.index("- id: zombie")
    stats = text.index("  stats:\n    speed: ", block)
    head, tail = text[:stats], text[stats:]
    tail = re.sub(r"speed: \d+", f"speed: {speed}", tail, count=1)
    path.write_text(head + tail, encoding="utf-8")


def test_changing_the_zombie_speed_changes_the_book(pack_copy: Path, tmp_path: Path) -> None:
    before = load_model(pack_copy).by_id["zombie"]
    new_speed = before.get("stats.speed") + 5
    controlled = before.get("controlled.speed")
    _set_zombie_speed(pack_copy, new_speed)

    model = load_model(pack_copy)
    assert model.by_id["zombie"].get("stats.speed") == new_speed
    out = tmp_path / "out"
    pictures = picture_files(model, tmp_path / "pictures")
    pdf = build_rulebook(model, "ru", out, paper="a4", pictures=pictures)[0]

    reader = PdfReader(pdf)
    box = reader.pages[0].mediabox  # A4 this time
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (210,
                                                                                         297)
    # the stat block is drawn apart (`blocks.py`): its row reads as one line where a reader
    # reads it (PDFium, as a viewer), on the zombie's page
    document = pdfium.PdfDocument(pdf)
    pages = [[ln.strip() for ln in page.get_textpage().get_text_range().splitlines()]
             for page in document]
    document.close()
    assert any("Зомби" in lines and f"Скорость {new_speed} {controlled}" in lines
               for lines in pages)
    # the monsters' pictures are on the cover and beside their stat blocks, each rasterized
    # at the width it prints: 26 mm on the cover, 22 mm beside a block (300 DPI)
    cover = {image.image.size[0] for image in reader.pages[0].images}
    assert cover == {pixels(PICTURE_MM["cover"])}
    blocks = {image.image.size[0] for page in reader.pages[1:] for image in page.images}
    assert pixels(PICTURE_MM["block"]) in blocks and max(blocks) < 320
    # ... and no prose was touched: every Markdown file is byte-identical to the original.
    compared = filecmp.dircmp(PACK / "rules", pack_copy / "rules")
    assert not compared.diff_files
    for lang in ("ru", "en"):
        sub = filecmp.dircmp(PACK / "rules" / lang, pack_copy / "rules" / lang)
        assert not sub.diff_files and sub.same_files
