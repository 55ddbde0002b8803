"""The dice dungeon's print set, read back from the produced files (pypdf), never with the
code that wrote them: every component the model asks for (and the rulebook names) is in the
manifest, adventure sheets carry their data, and the catacombs' print guarantees hold (trim and
bleed boxes, duplex backs, embedded fonts, byte-identical rebuilds)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from dd_support import PACK, plain
from pypdf import PdfReader

from pipeline.cards import BuildOptions, build
from pipeline.stages import load_model
from tests.cards.pdfread import PT_PER_MM, fonts_of, page_items

BLEED = 3.0
TOL = 0.1 * PT_PER_MM
TRIM = {"adventure-page": (190, 277), "adventure-sheet": (148, 210), "poker": (63.5, 88.9),
        "player-aid": (105, 148)}


def _build(out: Path) -> Path:
    model = load_model(PACK)
    build(model, BuildOptions(out_root=out, cache_dir=out / "cache", workers=1, png=False))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("dd-print"))


def _entities() -> dict[str, dict]:
    return {e["id"]: e for e in plain()["entities"]}


def _manifest(built: Path, lang: str) -> dict:
    import json
    return json.loads((built / lang / "manifest.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_manifest_holds_every_component_of_the_model(built: Path, lang: str) -> None:
    model = load_model(PACK)
    printed = set(model.pack.print_profile["components"])
    expected = {e.id: e.count for e in model.entities if e.kind in printed}
    assert _manifest(built, lang)["components"] == expected
    levels = _entities()["levels"]
    for ident in (*levels["adventures"], *levels["classes"], "shapes-card", "turn-summary"):
        assert ident in expected


def test_every_component_the_rulebook_names_is_printed(built: Path) -> None:
    chapter = (PACK / "rules" / "ru" / "02-components.md").read_text(encoding="utf-8")
    named = set(re.findall(r'name\("([a-z0-9-]+)"\)', chapter))
    assert named and named <= set(_manifest(built, "ru")["components"])


def _sheet_text(built: Path, lang: str, adventure: str) -> str:
    reader = PdfReader(built / lang / "shop" / "adventure-page.pdf")
    name = _entities()[adventure]["name"][lang]
    pages = [p.extract_text() for p in reader.pages]
    found = [t for t in pages if name in t]
    assert len(found) == 1, (adventure, lang)
    return found[0]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_each_adventure_sheet_prints_its_own_data(built: Path, lang: str) -> None:
    by_id = _entities()
    heroes = by_id["heroes"]
    for ident in by_id["levels"]["adventures"]:
        adventure = by_id[ident]
        text = _sheet_text(built, lang, ident)
        words = text.split()
        for monster in adventure["monsters"]:
            assert by_id[monster]["name"][lang].split()[0] in text, (ident, monster)
        # the turn log: a row for every turn of the limit, and no more
        assert str(adventure["max_turns"]) in words and str(adventure["max_turns"] + 1) not in words
        prices = [str(heroes["level_cost_base"] + n) for n in range(1, heroes["extra_levels"] + 1)]
        assert all(p in words for p in prices)
        assert str(by_id["level-end"]["bonus_above"]) in words


def test_shop_pdfs_have_trim_and_bleed_boxes(built: Path) -> None:
    shop = sorted((built / "ru" / "shop").glob("*.pdf"))
    assert {p.stem for p in shop} == set(TRIM)
    for path in shop:
        w, h = TRIM[path.stem]
        for page in PdfReader(path).pages:
            trim, bleed = page.trimbox, page.bleedbox
            assert abs(float(trim.width) - w * PT_PER_MM) < TOL, path
            assert abs(float(trim.height) - h * PT_PER_MM) < TOL, path
            assert abs(float(trim.left) - float(bleed.left) - BLEED * PT_PER_MM) < TOL, path


def test_class_cards_print_duplex_with_mirrored_backs(built: Path) -> None:
    reader = PdfReader(built / "ru" / "pnp" / "poker-a4-duplex.pdf")
    pages = list(reader.pages)
    assert len(pages) % 2 == 0
    for front, back in zip(pages[::2], pages[1::2], strict=True):
        width = float(front.mediabox.width)
        fronts, lines = page_items(reader, front)
        backs, _ = page_items(reader, back)
        assert lines, "a sheet of cards without cut marks"
        assert len(fronts) == len(backs) == len(_entities()["levels"]["classes"])
        for f in fronts:
            mirrored = (width - f.x1, f.y0, width - f.x0, f.y1)
            assert any(all(abs(a - b) < 0.01 for a, b in zip(
                mirrored, (b.x0, b.y0, b.x1, b.y1), strict=True)) for b in backs)


def test_every_font_is_embedded(built: Path) -> None:
    fonts = [f for path in sorted((built / "ru").rglob("*.pdf")) for f in fonts_of(PdfReader(path))]
    assert fonts and all(embedded for _, embedded in fonts)


def test_a_rebuild_is_byte_identical(built: Path, tmp_path: Path) -> None:
    again = _build(tmp_path / "again")
    for path in sorted((built / "ru").rglob("*.pdf")):
        twin = again / path.relative_to(built)
        assert hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(
            twin.read_bytes()).digest(), path.name
