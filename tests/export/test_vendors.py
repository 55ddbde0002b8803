"""relic build --shop tgc|mpc|drivethru|generic, read back: PNG sizes and modes, quantities, the
PDF/X files (version, OutputIntent, colour spaces, boxes, page order, ink)."""

from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from pipeline.model import Model
from tests.export.conftest import FIXTURES, run, shop
from tests.export.pdfcheck import (
    GS,
    NO_GS,
    colour_report,
    ink_per_page,
    max_pixel_ink,
    needs_gs,
)

PT = 72 / 25.4
POKER = (63.5, 88.9)  # mm: the mini pack's cards


@pytest.fixture(scope="module")
def tgc(tmp_path_factory, cache_dir) -> Path:
    return shop(tmp_path_factory, cache_dir, "tgc")


@pytest.fixture(scope="module")
def mpc(tmp_path_factory, cache_dir) -> Path:
    return shop(tmp_path_factory, cache_dir, "mpc")


@pytest.fixture(scope="module")
def drivethru(tmp_path_factory, cache_dir) -> Path:
    if GS is None:
        pytest.skip(NO_GS)
    return shop(tmp_path_factory, cache_dir, "drivethru")


@pytest.fixture(scope="module")
def generic(tmp_path_factory, cache_dir) -> Path:
    if GS is None:
        pytest.skip(NO_GS)
    return shop(tmp_path_factory, cache_dir, "generic")


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "quantities.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize(("vendor", "poker_px", "bleed_mm"),
                         [("tgc", (825, 1125), 3.175), ("mpc", (822, 1122), 3.048)])
def test_pngs_have_the_vendors_template_sizes(request, vendor: str, poker_px, bleed_mm) -> None:
    folder = request.getfixturevalue(vendor) / "en"
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    pngs = sorted(folder.rglob("*.png"))
    assert len(pngs) == manifest["distinct_faces"]  # one per distinct face, backs too
    products = {g["group"]: g for g in manifest["groups"]}
    for png in pngs:
        group = products[png.parent.name]
        with Image.open(png) as image:
            assert image.mode == "RGB", png
            if group["product"] == "poker":
                assert image.size == poker_px, png
            else:  # no product: its own trim plus the vendor's bleed at 300 dpi
                w, h = group["trim_mm"]
                assert image.size == (round((w + 2 * bleed_mm) * 300 / 25.4),
                                      round((h + 2 * bleed_mm) * 300 / 25.4)), png
    assert {g["product"] for g in manifest["groups"]} >= {"poker", None}


@pytest.mark.parametrize("vendor", ["tgc", "mpc"])
def test_quantities_list_every_front_with_its_count(request, vendor: str, mini: Model) -> None:
    folder = request.getfixturevalue(vendor) / "ru"
    rows = _rows(folder)
    printed = {e.id: e.count for e in mini.entities if e.kind not in ("deck",)}
    assert {r["id"]: int(r["quantity"]) for r in rows} == printed
    for row in rows:
        assert (folder / row["front"]).is_file()
        assert row["back"] == "" or (folder / row["back"]).is_file()
    zombie = next(r for r in rows if r["id"] == "zombie")
    assert zombie["name"] == "Зомби" and zombie["product"] == "poker"
    assert zombie["back"] == "monster-deck/back.png"


def test_faces_are_drawn_at_the_vendors_bleed_not_scaled(tgc: Path, mpc: Path) -> None:
    """The same card at two bleeds: the trim area is drawn alike, the bleed differs in size."""
    a = Image.open(tgc / "en" / "monster-deck" / "zombie.png")
    b = Image.open(mpc / "en" / "monster-deck" / "zombie.png")
    trim = (750, 1050)  # 2.5 x 3.5 in at 300 dpi
    ca = a.crop(((a.width - trim[0]) // 2, (a.height - trim[1]) // 2,
                 (a.width + trim[0]) // 2, (a.height + trim[1]) // 2))
    cb = b.crop(((b.width - trim[0]) // 2, (b.height - trim[1]) // 2,
                 (b.width + trim[0]) // 2, (b.height + trim[1]) // 2))
    from PIL import ImageChops, ImageStat

    diff = ImageStat.Stat(ImageChops.difference(ca, cb)).mean
    assert max(diff) < 8  # the same drawing (sub-pixel shifts at edges only)


def _pdfs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pdf"))


@needs_gs
def test_drivethru_pdfs_are_pdf_x1a_with_an_output_intent(drivethru: Path) -> None:
    for path in _pdfs(drivethru / "en"):
        reader = PdfReader(path)
        assert reader.pdf_header == "%PDF-1.3"
        assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
        assert reader.metadata["/Trapped"] == "/False" and reader.metadata["/Title"]
        intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
        assert intent["/S"] == "/GTS_PDFX"
        assert intent["/OutputConditionIdentifier"] == "CGATS TR 003"
        profile = intent["/DestOutputProfile"].get_object()
        assert profile["/N"] == 4 and profile.get_data()[36:40] == b"acsp"
        assert profile.get_data()[16:20] == b"CMYK"


@needs_gs
def test_drivethru_pdfs_have_no_rgb_anywhere(drivethru: Path) -> None:
    for path in _pdfs(drivethru / "en") + _pdfs(drivethru / "ru"):
        report = colour_report(path)
        assert not report["names"] & {"/DeviceRGB", "/CalRGB", "/ICCBased", "/Lab", "/RGB"}, path
        assert not report["operators"] & {"rg", "RG", "BI"}, path
        assert report["operators"] & {"k", "K"}  # the colours are there, as CMYK
        for page in PdfReader(path).pages:  # fonts embedded, as PDF/X wants
            for font in (page["/Resources"].get("/Font") or {}).values():
                descriptor = font.get_object()["/FontDescriptor"].get_object()
                assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor)


@needs_gs
def test_drivethru_boxes_have_an_eighth_inch_of_bleed(drivethru: Path) -> None:
    reader = PdfReader(drivethru / "en" / "monster-deck.pdf")
    for page in reader.pages:
        trim, bleed, media = (page.trimbox, page.bleedbox, page.mediabox)
        assert (float(trim.width), float(trim.height)) == pytest.approx(
            (POKER[0] * PT, POKER[1] * PT), abs=0.01)
        assert float(trim.left) - float(bleed.left) == pytest.approx(9.0, abs=0.01)  # 1/8 in
        assert (float(bleed.width), float(bleed.height)) == pytest.approx(
            ((POKER[0] + 6.35) * PT, (POKER[1] + 6.35) * PT), abs=0.01)
        assert float(media.width) >= float(bleed.width) - 0.01


def _grey(image: Image.Image) -> Image.Image:
    return image.convert("L").resize((60, 84), Image.Resampling.BILINEAR)


def _distance(a: Image.Image, b: Image.Image) -> float:
    from PIL import ImageChops, ImageStat

    return ImageStat.Stat(ImageChops.difference(_grey(a), _grey(b))).mean[0]


@needs_gs
def test_drivethru_decks_put_the_back_first(drivethru: Path, tgc: Path) -> None:
    """Each page looks like the face it should be: the deck's back, then every copy's front
    (compared with The Game Crafter's PNGs of the same faces at the same 1/8 in bleed; the
    text of a PDF/X file from Ghostscript cannot be extracted)."""
    import pypdfium2 as pdfium

    for deck, cards in (("monster-deck", ["zombie"] * 3),
                        ("event-deck", ["draught", "draught", "long-tale"])):
        faces = {name: Image.open(tgc / "en" / deck / f"{name}.png")
                 for name in ["back", *set(cards)]}
        document = pdfium.PdfDocument(drivethru / "en" / f"{deck}.pdf")
        pages = [document[i].render(scale=0.5).to_pil() for i in range(len(document))]
        document.close()
        assert len(pages) == 1 + len(cards)
        seen = [min(faces, key=lambda n, p=page: _distance(p, faces[n])) for page in pages]
        assert seen == ["back", *cards]


@needs_gs
def test_drivethru_total_ink_is_at_most_240_percent(drivethru: Path, tmp_path: Path) -> None:
    worst_average, worst_pixel = 0.0, 0.0
    for path in _pdfs(drivethru / "en"):
        pages = ink_per_page(path)
        assert len(pages) == len(PdfReader(path).pages)
        worst_average = max(worst_average, *pages)
        worst_pixel = max(worst_pixel, max_pixel_ink(path, tmp_path))
    print(f"highest total ink: {worst_average:.1f} % of a page (ink_cov), "
          f"{worst_pixel:.1f} % of a pixel")
    assert 100 < worst_average <= 240
    assert worst_pixel <= 240


@needs_gs
def test_generic_keeps_the_shop_pdfs_and_adds_pdf_x4(generic: Path, tmp_path: Path,
                                                     cache_dir: Path) -> None:
    default = tmp_path / "default"
    run("build", "--pack", "mini", "--content", str(FIXTURES), "--out", str(default),
        "--cache", str(cache_dir), "--lang", "en", "--no-rulebook")
    for ours in sorted((default / "en" / "shop").glob("*.pdf")):
        theirs = generic / "en" / "shop" / ours.name
        assert hashlib.sha256(theirs.read_bytes()).digest() == \
            hashlib.sha256(ours.read_bytes()).digest(), ours.name
        x4 = theirs.with_name(f"{ours.stem}-pdfx4.pdf")
        reader = PdfReader(x4)
        assert reader.pdf_header == "%PDF-1.6"
        assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4"
        xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode("utf-8")
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
        assert reader.trailer["/Root"]["/OutputIntents"][0].get_object()["/S"] == "/GTS_PDFX"
        report = colour_report(x4)
        assert "/ICCBased" in report["names"] and "/DeviceRGB" not in report["names"]
        assert not report["operators"] & {"rg", "RG"}
        source = PdfReader(ours)
        assert len(reader.pages) == len(source.pages)
        for a, b in zip(reader.pages, source.pages, strict=True):
            assert [round(float(v), 2) for v in a.trimbox] == \
                [round(float(v), 2) for v in b.trimbox]


@needs_gs
def test_a_vendor_build_gives_the_same_bytes_twice(drivethru: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Again with a fresh cache, and with relative folders as a user types them (Ghostscript
    runs in a work folder of its own: the cache's profile folder must still be found)."""
    monkeypatch.chdir(tmp_path)
    run("build", "--pack", "mini", "--content", str(FIXTURES), "--shop", "drivethru", "--out",
        "again", "--cache", "fresh-cache", "--lang", "en")
    again = tmp_path / "again"
    for path in _pdfs(drivethru / "en"):
        assert (again / "en" / path.name).read_bytes() == path.read_bytes(), path.name


def test_groups_count_every_copy(tgc: Path, mini: Model) -> None:
    manifest = json.loads((tgc / "en" / "manifest.json").read_text("utf-8"))
    copies = Counter({g["group"]: g["copies"] for g in manifest["groups"]})
    assert copies["monster-deck"] == 3 and copies["event-deck"] == 3
    assert sum(copies.values()) == manifest["total_components"]
