"""The dice dungeon's adventure sheet is drawn from its data: every box, square, shape cell and
turn row the content asks for, and nothing else; referenced shapes pass their cells."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pypdf import PdfReader

from pipeline.cards import BuildOptions, build
from pipeline.cards.components import expand
from pipeline.cards.formats import load_labels, load_profile
from pipeline.cards.render import RenderSettings, _fragment
from pipeline.stages import load_model

PACK = Path(__file__).resolve().parents[2] / "content" / "dice-dungeon"


def _sheet_html(pack: Path, lang: str = "en") -> tuple[str, dict]:
    model = load_model(pack)
    profile = load_profile(model.pack)
    components = expand(model, profile, lang, False, load_labels(model.pack, lang))
    [face] = [f for f in components.faces.values() if f.entity_id == "adventure-sheet"]
    settings = RenderSettings(fonts=dict(profile.fonts), min_font_pt=profile.min_font_pt,
                              formats=dict(profile.formats), charset="", lang=lang,
                              pack_root=str(pack), cache_dir="/nonexistent")
    fmt = profile.formats[face.format]
    return _fragment(face, fmt, settings), model.by_id["adventure-sheet"].data


def test_every_box_square_and_turn_row_comes_from_the_content() -> None:
    html, sheet = _sheet_html(PACK)
    rooms = sheet["monster_rooms"]
    monster_boxes = rooms * (2 * sheet["monster_track_boxes"] + sheet["chest_boxes"])
    hero_boxes = sheet["hero_rows"] * (sheet["health_boxes"] + sheet["ability_boxes"]
                                       + sheet["level_boxes"])
    assert html.count('class="box"') == monster_boxes + hero_boxes
    grid = html.split('class="grid"')[1].split("</table>")[0]
    assert grid.count("<td>") == sheet["map"]["cols"] * sheet["map"]["rows"]
    turns = html.split('class="turns"')[1]
    assert re.findall(r'<td class="num">(\d+)</td>', turns) == [
        str(n) for n in range(1, sheet["turn_boxes"] + 1)]


def test_shapes_are_drawn_from_their_cells(tmp_path: Path) -> None:
    """`ref_fields: [cells]` in the print profile passes the shapes' cells to the sheet, so
    changing a shape redraws it (and changes the sheet's face)."""
    html, _ = _sheet_html(PACK)
    legend = html.split('class="legend"')[1]
    assert legend.count('class="on"') == 2 + 3 + 4 + 5 + 6  # shape N has N cells
    pack = tmp_path / "dice-dungeon"
    shutil.copytree(PACK, pack)
    shapes = pack / "shapes.yaml"
    shapes.write_text(shapes.read_text(encoding="utf-8").replace(
        "cells: [[0, 0], [1, 0]]\n", "cells: [[0, 0], [0, 1]]\n"), encoding="utf-8")
    changed, _ = _sheet_html(pack)
    assert changed != html
    assert changed.split('class="legend"')[1].count('class="on"') == 20


def test_the_built_sheet_prints_its_tracks_in_both_languages(tmp_path: Path) -> None:
    model = load_model(PACK)
    options = BuildOptions(out_root=tmp_path / "out", cache_dir=tmp_path / "cache", workers=1,
                           png=False)
    build(model, options)
    sheet = model.by_id["adventure-sheet"].data
    for lang, words in (("ru", ("Карта уровня", "Здоровье", "Фигуры исследования")),
                        ("en", ("Level map", "Health", "Exploration shapes"))):
        page = PdfReader(tmp_path / "out" / lang / "shop" / "adventure-sheet.pdf").pages[0]
        extracted = page.extract_text()
        for word in words:
            assert word in extracted, (lang, word)
        assert str(sheet["turn_boxes"]) in extracted.split()
