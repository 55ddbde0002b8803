"""Vendor profiles and the TTS layout are data checked by schemas: the project's load, a pack's
own are checked by relic check and used by relic build --shop; a format's sizes are part of a
face's cache key."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from pipeline.cards import BuildOptions, build
from pipeline.cards.formats import Format
from pipeline.cli import main
from pipeline.export.tts import load_tts
from pipeline.shops.vendors import VENDORS, read_vendor
from pipeline.stages import load_model
from tests.cards.conftest import copy_pack
from tests.export.conftest import run
from tests.export.pdfcheck import needs_gs

PT = 72 / 25.4


@pytest.mark.parametrize("name", sorted(p.stem for p in VENDORS.glob("*.yaml")))
def test_every_project_vendor_loads(name: str) -> None:
    vendor = read_vendor(name, VENDORS / f"{name}.yaml")
    assert vendor.label and vendor.outputs
    if vendor.output("pdfx"):
        assert vendor.colour is not None and vendor.colour.icc.is_file()


def test_products_match_a_format_within_the_tolerance_and_turned() -> None:
    tgc = read_vendor("tgc", VENDORS / "tgc.yaml")
    poker = Format("p", "p", 63.5, 88.9, 3.0)
    assert tgc.product_for(poker).name == "poker"
    assert tgc.format_for(poker).bleed == 3.175
    tarot = Format("t", "t", 70.0, 120.0, 3.0)  # 2.75 x 4.75 in is 69.85 x 120.65 mm
    drawn = tgc.format_for(tarot)
    assert (drawn.width, drawn.height) == (69.85, 120.65)
    landscape = Format("l", "l", 88.9, 63.5, 3.0)
    assert tgc.format_for(landscape).width == 88.9  # turned, and kept landscape
    assert tgc.product_for(Format("b", "b", 180.0, 125.0, 3.0)) is None
    assert load_tts(Path("/nonexistent")).grid_max == (10, 7)


def _vendor_file(pack: Path, name: str, text: str) -> Path:
    folder = pack / "print" / "vendors"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(text, "utf-8")
    return path


def test_relic_check_refuses_a_vendor_whose_pixels_do_not_add_up(tmp_path: Path, capsys) -> None:
    pack = copy_pack(tmp_path)
    _vendor_file(pack, "local", """vendor:
  label: Local shop
  bleed: 0.125in
  products:
    poker: {trim: [2.5in, 3.5in], pixels: [822, 1122]}
  outputs: [{type: png, dpi: 300}]
""")
    assert main(["check", str(pack)]) == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert "error[vendor-pixels]" in text and "825x1125" in text


def test_relic_check_refuses_a_vendor_file_the_schema_refuses(tmp_path: Path, capsys) -> None:
    pack = copy_pack(tmp_path)
    _vendor_file(pack, "local", "vendor:\n  label: x\n  outputs: [{type: jpeg}]\n")
    assert main(["check", str(pack)]) == 1
    text = "".join(capsys.readouterr())
    assert "error[print-schema]" in text and "local.yaml:3:" in text


def test_an_unknown_vendor_is_a_diagnostic(tmp_path: Path, capsys) -> None:
    pack = copy_pack(tmp_path)
    code = main(["build", "--pack", "mini", "--content", str(pack.parent), "--shop", "tcg",
                 "--out", str(tmp_path / "out"), "--quiet"])
    text = "".join(capsys.readouterr())
    assert code == 1 and "error[unknown-vendor]" in text and "did you mean 'tgc'" in text
    assert not (tmp_path / "out").exists()


def test_a_pack_adds_its_own_vendor(tmp_path: Path, cache_dir: Path) -> None:
    pack = copy_pack(tmp_path)
    _vendor_file(pack, "local", """vendor:
  label: Local copy shop
  outputs: [{type: png, dpi: 150, mode: RGB}, {type: quantities}]
""")
    out = tmp_path / "out"
    run("build", "--pack", "mini", "--content", str(pack.parent), "--shop", "local", "--out",
        str(out), "--cache", str(cache_dir), "--lang", "en")
    with Image.open(out / "en" / "monster-deck" / "zombie.png") as image:  # the pack's 3 mm
        assert image.size == (round(69.5 * 150 / 25.4), round(94.9 * 150 / 25.4))
        assert image.mode == "RGB"
    manifest = json.loads((out / "en" / "manifest.json").read_text("utf-8"))
    assert manifest["vendor"] == "local"


@needs_gs
def test_a_file_above_the_vendors_ink_limit_is_refused(tmp_path: Path, cache_dir: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """max_ink is measured on every converted file (ink_cov): the mini pack's darkest pages
    pass DriveThruCards' 240 % (test_vendors) but not a limit of 100 %."""
    pack = copy_pack(tmp_path)
    (pack / "print" / "icc").mkdir(parents=True)
    shutil.copyfile(VENDORS.parent / "icc" / "relic-swop-tr003-tac235.icc",
                    pack / "print" / "icc" / "swop.icc")
    _vendor_file(pack, "pale", """vendor:
  label: Pale press
  bleed: 0.125in
  colour: {icc: icc/swop.icc, condition_id: CGATS TR 003}
  outputs: [{type: pdfx, standard: "PDF/X-1a:2003", per: deck, order: back-first, max_ink: 100}]
""")
    out = tmp_path / "out"
    code = main(["build", "--pack", "mini", "--content", str(pack.parent), "--shop", "pale",
                 "--out", str(out), "--cache", str(cache_dir), "--quiet", "--jobs", "2"])
    err = capsys.readouterr().err  # both languages written by worker processes: the refusal
    # crosses the process pool whole (RelicError pickles with its diagnostics)
    assert code == 1, err
    assert "print/vendors/pale.yaml:1:1: error[ink-limit]: " in err
    assert "total ink, above Pale press's limit of 100 % (max_ink)" in err
    assert not (out / "en").exists() and not (out / "ru").exists()  # nothing written


def test_a_formats_bleed_is_part_of_its_faces_cache_key(tmp_path: Path) -> None:
    """Editing the pack's bleed draws its faces again (they used to come from the cache)."""
    pack = copy_pack(tmp_path)
    cache = tmp_path / "cache"

    def shop_width() -> tuple[float, int]:
        result = build(load_model(pack), BuildOptions(out_root=tmp_path / "out",
                                                      cache_dir=cache, langs=("en",)))
        page = PdfReader(tmp_path / "out" / "en" / "shop" / "poker.pdf").pages[0]
        return float(page.mediabox.width), result.rendered

    width, rendered = shop_width()
    assert width == pytest.approx((63.5 + 6) * PT, abs=0.01) and rendered > 0
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text("utf-8").replace("bleed: 3mm", "bleed: 5mm"), "utf-8")
    width, rendered = shop_width()
    assert width == pytest.approx((63.5 + 10) * PT, abs=0.01)
    assert rendered == 17  # every face of the language, drawn again at its new bleed
