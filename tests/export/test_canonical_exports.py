"""The canonical pack exports for every profile, in Russian and English (slow: every face of the
pack is drawn at three bleeds; the build cache is shared between the profiles)."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft7Validator
from PIL import Image
from pypdf import PdfReader

from pipeline.cli import main
from pipeline.stages import load_model
from tests.export.pdfcheck import GS, NO_GS, colour_report, ink_per_page

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
SCHEMA = json.loads((ROOT / "schemas" / "export" / "tts-save.json").read_text("utf-8"))
PROFILES = ["tts", "generic", "tgc", "mpc", "drivethru"]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("canonical-exports")
    cache = root / "cache"
    out: dict[str, Path] = {}
    for profile in PROFILES:
        if profile in ("generic", "drivethru") and GS is None:
            continue
        target = root / profile
        command = (["export", "tts"] if profile == "tts" else ["build", "--shop", profile])
        assert main([*command, "--pack", "catacombs", "--content", str(CONTENT), "--out",
                     str(target), "--cache", str(cache), "--lang", "all", "--quiet"]) == 0
        out[profile] = target
    return out


@pytest.fixture(scope="module")
def counts() -> dict[str, int]:
    from pipeline.cards.formats import load_profile

    model = load_model(CONTENT / "catacombs")

    kinds = {k.kind for k in load_profile(model.pack).kinds}
    return {e.id: e.count for e in model.entities if e.kind in kinds}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_tts(exported: dict[str, Path], counts: dict[str, int], lang: str) -> None:
    folder = exported["tts"] / lang
    save = json.loads((folder / f"catacombs-{lang}.json").read_text("utf-8"))
    assert list(Draft7Validator(SCHEMA).iter_errors(save)) == []
    seen: Counter[str] = Counter()
    stack = list(save["ObjectStates"])
    while stack:
        obj = stack.pop()
        if obj["Name"] == "DeckCustom":
            memo = {c["CardID"]: c["Memo"] for c in obj["ContainedObjects"]}
            seen.update(memo[i] for i in obj["DeckIDs"])
            for sheet in obj["CustomDeck"].values():
                with Image.open(folder / Path(sheet["FaceURL"]).name) as image:
                    assert image.mode == "RGB" and max(image.size) <= 4096
                    assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
        elif obj["Name"] in ("Card", "Custom_Tile"):
            seen[obj["Memo"]] += 1
        elif obj["Name"] == "Bag":
            stack.extend(obj["ContainedObjects"])
    assert dict(seen) == counts


@pytest.mark.parametrize("vendor", ["tgc", "mpc"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_png_vendors(exported: dict[str, Path], counts: dict[str, int], vendor: str,
                     lang: str) -> None:
    folder = exported[vendor] / lang
    with (folder / "quantities.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {r["id"]: int(r["quantity"]) for r in rows} == counts
    poker = {"tgc": (825, 1125), "mpc": (822, 1122)}[vendor]
    for row in rows:
        with Image.open(folder / row["front"]) as image:
            assert image.mode == "RGB"
            if row["product"] == "poker":
                assert image.size == poker


@pytest.mark.skipif(GS is None, reason=NO_GS)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_drivethru(exported: dict[str, Path], counts: dict[str, int], lang: str) -> None:
    folder = exported["drivethru"] / lang
    pages = 0
    worst = 0.0
    for path in sorted(folder.glob("*.pdf")):
        reader = PdfReader(path)
        assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
        assert reader.trailer["/Root"]["/OutputIntents"][0].get_object()["/S"] == "/GTS_PDFX"
        report = colour_report(path)
        assert "/DeviceRGB" not in report["names"] and not report["operators"] & {"rg", "RG"}
        pages += len(reader.pages)
        worst = max(worst, *ink_per_page(path, dpi=20))
    assert pages > sum(counts.values())  # every copy, and each deck's back
    print(f"{lang}: highest total ink of a page {worst:.1f} %")
    assert worst <= 240


@pytest.mark.skipif(GS is None, reason=NO_GS)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_generic(exported: dict[str, Path], lang: str) -> None:
    shop = exported["generic"] / lang / "shop"
    plain = sorted(p for p in shop.glob("*.pdf") if not p.stem.endswith("-pdfx4"))
    assert plain
    for path in plain:
        x4 = PdfReader(path.with_name(f"{path.stem}-pdfx4.pdf"))
        assert x4.metadata["/GTS_PDFXVersion"] == "PDF/X-4"
        assert len(x4.pages) == len(PdfReader(path).pages)
