"""The book's pictures of the printed faces (`FacePictures`), drawn from the card build's cache."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from pipeline.rulebook import FacePictures
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "cards" / "fixtures" / "mini"


def test_two_languages_rasterize_their_pictures_at_once(tmp_path: Path) -> None:
    """The book process lays out each language in a thread of its own, and both rasterize
    pictures: reportlab and PDFium are not safe in two threads at once (it crashed the book
    process), so each picture is the one a single thread makes."""
    cache = tmp_path / "cache"
    built = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "build", "--pack", MINI.name, "--content",
         str(MINI.parent), "--out", str(tmp_path / "out"), "--cache", str(cache),
         "--no-rulebook", "--no-png", "--jobs", "1", "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    model = load_model(MINI)
    pictures = {lang: FacePictures(model, lang, cache) for lang in model.pack.languages}
    wanted = {lang: [p for p in (pics.find(e.id) for e in model.entities) if p is not None]
              for lang, pics in pictures.items()}
    assert len(wanted) == 2 and all(len(found) >= 3 for found in wanted.values())
    alone = {lang: [pictures[lang].raster(p, 120) for p in found]
             for lang, found in wanted.items()}
    together: dict[str, list[list[bytes]]] = {lang: [] for lang in wanted}
    failures: list[BaseException] = []

    def rasterize(lang: str) -> None:
        try:
            for _ in range(10):
                together[lang].append([pictures[lang].raster(p, 120) for p in wanted[lang]])
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=rasterize, args=(lang,)) for lang in wanted]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    for lang, rounds in together.items():
        assert rounds == [alone[lang]] * 10
