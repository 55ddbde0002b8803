"""The dice dungeon's adventure sheet is drawn from its data: every box, square, shape cell and
turn row the content asks for, and nothing else; referenced shapes pass their cells. The drawn
PDF is read back with pypdf (rectangles in page space), not with the code that drew it."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.cards import BuildOptions, build
from pipeline.stages import load_model
from tests.cards.pdfread import PT_PER_MM, rects

PACK = Path(__file__).resolve().parents[2] / "content" / "dice-dungeon"


def _sizes(path: Path) -> Counter:
    """How many rectangles of each size (mm, to 0.1) the sheet's page draws."""
    reader = PdfReader(path)
    return Counter((round(w / PT_PER_MM, 1), round(h / PT_PER_MM, 1))
                   for _, _, w, h in rects(reader, reader.pages[0]))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sheet")
    build(load_model(PACK), BuildOptions(out_root=out / "out", cache_dir=out / "cache",
                                         workers=1, png=False))
    return out / "out"


def test_every_box_and_turn_row_comes_from_the_content(built: Path) -> None:
    sheet = load_model(PACK).by_id["adventure-sheet"].data
    sizes = _sizes(built / "en" / "shop" / "adventure-sheet.pdf")
    rooms = sheet["monster_rooms"]
    assert sizes[(3.1, 3.1)] == rooms * (2 * sheet["monster_track_boxes"] + sheet["chest_boxes"])
    assert sizes[(3.4, 3.4)] == sheet["hero_rows"] * (sheet["health_boxes"]
                                                      + sheet["ability_boxes"])
    assert sizes[(4.2, 4.2)] == sheet["hero_rows"] * sheet["level_boxes"]
    turn_cells = sum(n for (w, h), n in sizes.items() if 9.5 <= w <= 10.2 and h > 4)
    assert turn_cells == 3 * sheet["turn_boxes"]
    text = PdfReader(built / "en" / "shop" / "adventure-sheet.pdf").pages[0].extract_text()
    numbers = [int(t) for t in text.split() if t.isdigit()]
    assert max(numbers) == sheet["turn_boxes"]


def test_shapes_are_drawn_from_their_cells(built: Path, tmp_path: Path) -> None:
    """`ref_fields: [cells]` in the print profile passes the shapes' cells to the sheet, so
    changing a shape redraws it (and changes the sheet's face)."""
    before = _sizes(built / "en" / "shop" / "adventure-sheet.pdf")
    cell = [k for k, n in before.items() if n == 2 + 3 + 4 + 5 + 6]  # shape N has N cells
    assert cell, before
    pack = tmp_path / "dice-dungeon"
    shutil.copytree(PACK, pack)
    shapes = pack / "shapes.yaml"
    shapes.write_text(shapes.read_text(encoding="utf-8").replace(
        "cells: [[0, 0], [1, 0]]\n", "cells: [[0, 0], [0, 1]]\n"), encoding="utf-8")
    build(load_model(pack), BuildOptions(out_root=tmp_path / "out", cache_dir=tmp_path / "c",
                                         workers=1, png=False, langs=("en",)))
    changed = tmp_path / "out" / "en" / "shop" / "adventure-sheet.pdf"
    assert changed.read_bytes() != (built / "en" / "shop" / "adventure-sheet.pdf").read_bytes()
    assert sum(_sizes(changed)[k] for k in cell) == 20


def test_the_built_sheet_prints_its_tracks_in_both_languages(built: Path) -> None:
    sheet = load_model(PACK).by_id["adventure-sheet"].data
    for lang, words in (("ru", ("Карта уровня", "Здоровье", "Фигуры исследования")),
                        ("en", ("Level map", "Health", "Exploration shapes"))):
        page = PdfReader(built / lang / "shop" / "adventure-sheet.pdf").pages[0]
        extracted = page.extract_text()
        for word in words:
            assert word in extracted, (lang, word)
        assert str(sheet["turn_boxes"]) in extracted.split()
