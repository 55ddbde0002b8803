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


def _cards_built(tmp_path: Path) -> Path:
    """The mini pack's cards built (no book) into a cache of their own: its folder."""
    cache = tmp_path / "cache"
    built = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "build", "--pack", MINI.name, "--content",
         str(MINI.parent), "--out", str(tmp_path / "out"), "--cache", str(cache),
         "--no-rulebook", "--no-png", "--jobs", "1", "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    return cache


def test_two_languages_rasterize_their_pictures_at_once(tmp_path: Path) -> None:
    """The book process lays out each language in a thread of its own, and both rasterize
    pictures: reportlab and PDFium are not safe in two threads at once (it crashed the book
    process), so each picture is the one a single thread makes."""
    cache = _cards_built(tmp_path)
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


def test_a_picture_takes_its_icons_from_the_cache_without_svglib(tmp_path: Path) -> None:
    """A book process rasterizes a face the card build drew: the face's icons are read from
    the cache's operators, as the writers read them, and their SVGs are never drawn again
    (svglib's import and drawing cost the first picture 0.14 s)."""
    cache = _cards_built(tmp_path)
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from pipeline.cards.impose import load_art\n"
        "from pipeline.rulebook import FacePictures\n"
        "from pipeline.stages import load_model\n"
        f"model = load_model(Path({str(MINI)!r}))\n"
        f"pictures = FacePictures(model, 'en', Path({str(cache)!r}))\n"
        "found = [p for p in map(pictures.find, (e.id for e in model.entities)) if p]\n"
        "drawn = [(p, pictures._drawn(p)) for p in found]\n"
        "iconic = [p for p, r in drawn if load_art(r.batch, r.art_key).forms]\n"
        "png = pictures.raster(iconic[0], 120)\n"
        "print(len(iconic), png[:4] == b'\\x89PNG', 'svglib' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    count, png, svglib = done.stdout.split()
    assert int(count) > 0 and png == "True"  # a face with icons, rasterized
    assert svglib == "False"
