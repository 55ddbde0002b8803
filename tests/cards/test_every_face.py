"""Every face of the four packs (and of the layout gallery) prints: `relic check` finds no text
that cannot fit, and in the built PDFs, read back with pypdf and pypdfium2, every font is an
embedded subset, no character is smaller than the profile's minimum size, and every character
lies inside its component's trim (inside the cut circle, with a margin, on round tokens)."""

from __future__ import annotations

import math
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from pypdf import PdfReader

from pipeline.cards import BuildOptions, build, preflight
from pipeline.cards.formats import load_profile
from pipeline.stages import load_model
from tests.cards.pdfread import PT_PER_MM, fonts_of

ROOT = Path(__file__).resolve().parents[2]
PACKS = [ROOT / "content" / name for name in ("catacombs", "tunnels", "dice-dungeon",
                                              "haunted-house")]
PACKS.append(Path(__file__).resolve().parent / "fixtures" / "gallery")
ROUND_MARGIN_MM = 1.0  # text keeps this far inside a round token's cut line


@pytest.fixture(scope="module", params=PACKS, ids=[p.name for p in PACKS])
def built(request, tmp_path_factory) -> tuple[Path, Path]:
    pack = request.param
    out = tmp_path_factory.mktemp(pack.name)
    build(load_model(pack), BuildOptions(out_root=out / "out", cache_dir=out / "cache",
                                         workers=2))
    return pack, out / "out"


def test_check_finds_no_text_that_cannot_fit(built) -> None:
    pack, _ = built
    assert preflight(load_model(pack)) == []


def test_every_font_is_an_embedded_subset(built) -> None:
    _, out = built
    fonts = [f for path in sorted(out.rglob("*.pdf")) for f in fonts_of(PdfReader(path))]
    assert fonts
    assert all(embedded and "+" in name for name, embedded in fonts), fonts


def _chars(path: Path):
    """(page, size, x, y) in points, and the page's trim box, for every printed character."""
    document = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(document)):
            page = document[index]
            trim = page.get_trimbox()
            text = page.get_textpage()
            for i in range(text.count_chars()):
                if chr(raw.FPDFText_GetUnicode(text, i)).isspace():
                    continue
                left, bottom, right, top = text.get_charbox(i)
                yield index, raw.FPDFText_GetFontSize(text, i), (left, bottom, right, top), trim
    finally:
        document.close()


def test_text_is_never_below_the_minimum_size_nor_beyond_the_trim(built) -> None:
    pack, out = built
    profile = load_profile(load_model(pack).pack)
    checked = 0
    for lang in ("ru", "en"):
        for shop in sorted((out / lang / "shop").glob("*.pdf")):
            fmt = profile.formats[shop.stem]
            for page, size, (x0, y0, x1, y1), trim in _chars(shop):
                assert size >= profile.min_font_pt - 0.01, (shop.name, page, size)
                tl, tb, tr, tt = trim
                assert tl - 0.5 <= x0 and x1 <= tr + 0.5 and tb - 0.5 <= y0 and y1 <= tt + 0.5, (
                    shop.name, page, (x0, y0, x1, y1), trim)
                if fmt.shape == "round":
                    cx, cy, r = (tl + tr) / 2, (tb + tt) / 2, (tr - tl) / 2
                    far = max(math.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1))
                    assert far <= r - ROUND_MARGIN_MM * PT_PER_MM, (shop.name, page, far, r)
                checked += 1
    assert checked > 100
