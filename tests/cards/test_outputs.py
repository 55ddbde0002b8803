"""The produced files, read with pypdf/pypdfium2/PIL: never with the code that wrote them."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from tests.cards.pdfread import PT_PER_MM, fonts_of, page_items, pdfs

# Trim sizes (mm) from the issue and the fixture's print profile; bleed 3 mm.
TRIM = {"poker": (63.5, 88.9), "board": (180, 125), "mini": (41, 63), "tile": (80, 80),
        "tile-final": (80, 120), "token-round": (25, 25)}
BLEED = 3.0
TOL = 0.1 * PT_PER_MM  # 0.1 mm in points


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_shop_pdfs_have_trim_and_bleed_boxes(built: Path, lang: str) -> None:
    shop = sorted((built / lang / "shop").glob("*.pdf"))
    assert {p.stem for p in shop} == set(TRIM)
    for path in shop:
        w, h = TRIM[path.stem]
        for page in PdfReader(path).pages:
            trim, bleed, media = page.trimbox, page.bleedbox, page.mediabox
            assert abs(float(trim.width) - w * PT_PER_MM) < TOL, path
            assert abs(float(trim.height) - h * PT_PER_MM) < TOL, path
            for a, b, sign in ((bleed.left, trim.left, -1), (bleed.bottom, trim.bottom, -1),
                               (bleed.right, trim.right, 1), (bleed.top, trim.top, 1)):
                assert abs((float(a) - float(b)) * sign - BLEED * PT_PER_MM) < TOL, path
            assert float(media.left) <= float(bleed.left) and float(media.top) >= float(bleed.top)


def _trims(placed, bleed_pt):
    return [(p.x0 + bleed_pt, p.y0 + bleed_pt, p.x1 - bleed_pt, p.y1 - bleed_pt) for p in placed]


def _crosses(line, rect) -> bool:
    """True when a straight segment passes through the open interior of a rectangle."""
    x1, y1, x2, y2 = line
    rx0, ry0, rx1, ry1 = rect
    for t in (i / 50 for i in range(51)):
        x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        if rx0 + 0.01 < x < rx1 - 0.01 and ry0 + 0.01 < y < ry1 - 0.01:
            return True
    return False


def test_cut_marks_lie_outside_every_trim(built: Path) -> None:
    checked = 0
    for path in pdfs(built / "ru" / "pnp"):
        reader = PdfReader(path)
        for page in reader.pages:
            placed, lines = page_items(reader, page)
            if not placed:
                continue
            assert lines, f"{path.name}: a sheet without cut marks"
            for trim in _trims(placed, BLEED * PT_PER_MM):
                for line in lines:
                    assert not _crosses(line, trim), (path.name, line, trim)
                    checked += 1
            # every trim edge has a mark on its line (a crop mark or a gutter guide)
            for x0, y0, x1, y1 in _trims(placed, BLEED * PT_PER_MM):
                xs = {round(ln[0], 1) for ln in lines if abs(ln[0] - ln[2]) < 0.01}
                ys = {round(ln[1], 1) for ln in lines if abs(ln[1] - ln[3]) < 0.01}
                assert round(x0, 1) in xs and round(x1, 1) in xs, path.name
                assert round(y0, 1) in ys and round(y1, 1) in ys, path.name
    assert checked > 100


def test_duplex_backs_sit_at_the_mirrored_position(built: Path) -> None:
    files = sorted((built / "ru" / "pnp").glob("*-duplex.pdf"))
    assert files
    for path in files:
        reader = PdfReader(path)
        pages = list(reader.pages)
        assert len(pages) % 2 == 0
        for front, back in zip(pages[::2], pages[1::2], strict=True):
            width = float(front.mediabox.width)
            assert float(back.mediabox.width) == pytest.approx(width)
            fronts, _ = page_items(reader, front)
            backs, _ = page_items(reader, back)
            assert len(backs) == len(fronts), path.name
            for f in fronts:
                mirrored = (width - f.x1, f.y0, width - f.x0, f.y1)
                assert any(all(abs(a - b) < 0.01 for a, b in zip(
                    mirrored, (b.x0, b.y0, b.x1, b.y1), strict=True)) for b in backs), (
                    path.name, f)


def test_simplex_variant_puts_backs_on_separate_sheets(built: Path) -> None:
    reader = PdfReader(built / "ru" / "pnp" / "poker-a4-simplex.pdf")
    duplex = PdfReader(built / "ru" / "pnp" / "poker-a4-duplex.pdf")
    assert len(reader.pages) == len(duplex.pages)
    texts = [page.extract_text() for page in reader.pages]
    half = len(texts) // 2
    # fronts first (card names), then backs (deck names only)
    assert any("Зомби" in t for t in texts[:half])
    assert not any("Зомби" in t for t in texts[half:])


def test_every_font_is_embedded(built: Path) -> None:
    fonts = [f for path in pdfs(built) for f in fonts_of(PdfReader(path))]
    assert fonts
    assert all(embedded for _, embedded in fonts), [n for n, e in fonts if not e]
    assert all("+" in name for name, _ in fonts), "fonts should be subsets (XXXXXX+Name)"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_character_names_are_extractable(built: Path, mini_model, lang: str) -> None:
    text = "".join(p.extract_text() for p in PdfReader(built / lang / "shop" / "board.pdf").pages)
    sheet = "".join(p.extract_text() for p in
                    PdfReader(built / lang / "pnp" / "board-a4-duplex.pdf").pages)
    names = [e.text("name", lang) for e in mini_model.of_kind("character")]
    assert names
    for name in names:
        assert name in text and name in sheet


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_manifest_lists_every_file_and_agrees_with_content(built: Path, mini_model,
                                                           lang: str) -> None:
    folder = built / lang
    manifest = json.loads((folder / "manifest.json").read_text())
    listed = {f["path"]: f for f in manifest["files"]}
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert set(listed) == on_disk - {"manifest.json"}
    for rel, entry in listed.items():
        assert hashlib.sha256((folder / rel).read_bytes()).hexdigest() == entry["sha256"]
    printed = set(mini_model.pack.print_profile["components"])
    expected = {e.id: e.count for e in mini_model.entities if e.kind in printed}
    assert manifest["components"] == expected
    fronts = {p.stem for p in (folder / "png").glob("*.png") if not p.stem.endswith("-back")
              and not p.stem.startswith("back-")}
    assert fronts == {f"{i}-{c}" for i, n in expected.items() for c in range(1, n + 1)}


def test_png_is_300_dpi_with_bleed(built: Path) -> None:
    with Image.open(built / "ru" / "png" / "zombie-2.png") as image:
        w, h = image.size
        dpi = image.info["dpi"]
    assert round(dpi[0]) == 300
    assert abs(w - (63.5 + 2 * BLEED) / 25.4 * 300) <= 1
    assert abs(h - (88.9 + 2 * BLEED) / 25.4 * 300) <= 1


def test_sheet_renders_with_pdfium(built: Path) -> None:
    document = pdfium.PdfDocument(str(built / "ru" / "pnp" / "poker-a4-duplex.pdf"))
    image = document[0].render(scale=0.5).to_pil().convert("L")
    # a real sheet: mostly light paper, some dark ink (text, marks)
    histogram = image.histogram()
    dark = sum(histogram[:80])
    assert 0 < dark < image.width * image.height * 0.5
    document.close()


def test_long_text_is_shrunk_not_clipped(built: Path) -> None:
    """The long card's text is set smaller than a short card's, and all of it is there."""
    document = pdfium.PdfDocument(str(built / "ru" / "shop" / "poker.pdf"))
    sizes = {}
    for page in document:
        textpage = page.get_textpage()
        text = textpage.get_text_range()
        import pypdfium2.raw as raw

        def size_of(word: str, tp=textpage, txt=text) -> float:
            return raw.FPDFText_GetFontSize(tp, txt.index(word))

        if "Долгая история" in text:
            assert "длиннее" in text
            sizes["long"] = size_of("монах")
        if "Сквозняк" in text:
            sizes["short"] = size_of("гаснут")
    document.close()
    assert sizes["long"] < sizes["short"]
    assert sizes["long"] >= 7.0 - 0.01
