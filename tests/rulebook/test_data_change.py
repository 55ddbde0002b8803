"""A data edit changes the book with no prose edited."""

from __future__ import annotations

import filecmp
import re
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from pipeline.rulebook import build_rulebook
from pipeline.stages import load_model
from tests.rulebook.conftest import PACK


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
    (out / "png").mkdir(parents=True)  # as `relic build` leaves it: a rendered zombie card
    Image.new("RGB", (630, 1200), (200, 30, 30)).save(out / "png" / "zombie-1.png")
    pdf = build_rulebook(model, "ru", out, paper="a4")[0]

    reader = PdfReader(pdf)
    box = reader.pages[0].mediabox  # A4 this time
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (210,
                                                                                         297)
    lines = [ln.strip() for page in reader.pages
             for ln in (page.extract_text() or "").splitlines()]
    zombie = next(i for i, ln in enumerate(lines)
                  if ln == "Зомби" and lines[i + 2].startswith("Скорость"))
    assert lines[zombie + 2] == f"Скорость {new_speed} {controlled}"
    # the thumbnail of the rendered card is in the book: on the cover and in the stat block
    pictures = [n for n, page in enumerate(reader.pages) if page.images]
    assert pictures[0] == 0 and len(pictures) >= 2
    assert reader.pages[pictures[1]].images[0].image.size[0] <= 320  # shrunk, not 300 DPI
    # ... and no prose was touched: every Markdown file is byte-identical to the original.
    compared = filecmp.dircmp(PACK / "rules", pack_copy / "rules")
    assert not compared.diff_files
    for lang in ("ru", "en"):
        sub = filecmp.dircmp(PACK / "rules" / lang, pack_copy / "rules" / lang)
        assert not sub.diff_files and sub.same_files
