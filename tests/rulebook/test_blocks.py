"""`rulebook.blocks`: a stat block drawn apart by reportlab, at the width the page leaves it and
the height it measures, its text extractable and its fonts embedded."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium

from pipeline.rulebook.blocks import Block, BlockSpec, draw, drawn_file, height_mm
from pipeline.rulebook.page import block_size_pt, block_width_mm
from pipeline.rulebook.views import PICTURE_MM

SPEC = BlockSpec("monster", "zombie", "en", block_width_mm("a5", PICTURE_MM["block"]),
                 block_size_pt("a5"))
ZOMBIE = Block(SPEC, "Zombie", ("", "Normal", "Controlled"),
               (("Speed", "2", "3"), ("Health", "2", "3"), ("Damage: melee", "1", "2")),
               ((("Attack:", True), (" melee. ", False), ("In the box:", True), (" 8.", False)),
                (("Reward:", True), (" 1 treasure.", False))))


def _lines(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [ln.strip() for ln in document[0].get_textpage().get_text_range().splitlines()]
    finally:
        document.close()


def test_a_block_is_drawn_at_its_width_and_measured_height_with_its_text_and_fonts() -> None:
    pdf = draw(ZOMBIE)
    with pikepdf.open(io.BytesIO(pdf)) as drawn:
        x0, y0, x1, y1 = (float(v) for v in drawn.pages[0].mediabox)
        fonts = list(drawn.pages[0].Resources.Font.values())
        # every font embedded (no standard font is named: reportlab's Helvetica default)
        assert fonts and all("/FontDescriptor" in f and "/FontFile2" in f.FontDescriptor
                             for f in fonts)
    assert round(x1 - x0, 2) == round(SPEC.width_mm / 25.4 * 72, 2)
    assert round((y1 - y0) / 72 * 25.4, 2) == height_mm(ZOMBIE) > 20
    assert _lines(pdf) == ["Zombie", "Normal Controlled", "Speed 2 3", "Health 2 3",
                           "Damage: melee 1 2", "Attack: melee. In the box: 8.",
                           "Reward: 1 treasure."]
    assert draw(ZOMBIE) == pdf  # byte-identical


def test_new_words_change_the_key_and_a_longer_value_the_height() -> None:
    same = Block(SPEC, ZOMBIE.title, ZOMBIE.head, ZOMBIE.rows, ZOMBIE.notes)
    assert same.key == ZOMBIE.key
    faster = Block(SPEC, "Zombie", ZOMBIE.head, (("Speed", "9", "3"), *ZOMBIE.rows[1:]),
                   ZOMBIE.notes)
    assert faster.key != ZOMBIE.key and height_mm(faster) == height_mm(ZOMBIE)
    long = "15 (6 players), 18 (7 players), 20 (8 players) or more when the moon is full"
    taller = Block(SPEC, "Zombie", ZOMBIE.head, (("Speed", long, long), *ZOMBIE.rows[1:]),
                   ZOMBIE.notes)
    assert height_mm(taller) > height_mm(ZOMBIE)
    assert f"Speed {long.split()[0]}" in " ".join(_lines(draw(taller)))


def test_a_block_without_a_picture_is_wider_and_its_drawing_is_kept(tmp_path) -> None:
    wide = BlockSpec("monster", "zombie", "en", block_width_mm("a5", None), SPEC.size_pt)
    assert wide.width_mm - SPEC.width_mm > PICTURE_MM["block"]
    path = drawn_file(ZOMBIE, tmp_path)
    assert path.read_bytes() == draw(ZOMBIE) and path.name == f"{ZOMBIE.key}.pdf"
    assert BlockSpec.from_json(SPEC.to_json()) == SPEC
