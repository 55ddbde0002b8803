"""The book through its cache: an unchanged book is not laid out again, an edit it does not
read lays out nothing, an edit it prints lays out the chapters that print it, and an edit
that only a block drawn apart shows lays out nothing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium

from pipeline.model import Model
from pipeline.rulebook import make_book, prepare
from pipeline.stages import load_model
from tests.rulebook.conftest import Built, picture_files


def _warm_cache(book_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the cache the session's books were made with."""
    cache = tmp_path / "cache"
    shutil.copytree(book_dir / "cache", cache)
    return cache


def _edit(pack: Path, file: str, pattern: str, new: str) -> None:
    path = pack / file
    text = path.read_text(encoding="utf-8")
    edited, n = re.subn(pattern, new, text, count=1)
    assert n == 1, pattern
    path.write_text(edited, encoding="utf-8")


def test_an_unchanged_book_comes_whole_from_the_cache(model: Model, books: dict[str, Built],
                                                      book_dir: Path, tmp_path: Path) -> None:
    cache = _warm_cache(book_dir, tmp_path)
    pictures = picture_files(model, book_dir / "pictures")
    composed = prepare(model, "en", pictures=pictures)
    finished = make_book(composed, model, cache, pictures=pictures)
    assert (finished.laid_out, finished.rounds, finished.cached) == (0, 1, True)
    assert finished.pdf.read_bytes() == books["en"].pdf.read_bytes()


def test_a_card_edit_the_book_does_not_read_lays_nothing_out(
        model: Model, books: dict[str, Built], book_dir: Path, pack_copy: Path,
        tmp_path: Path) -> None:
    cache = _warm_cache(book_dir, tmp_path)
    pictures = picture_files(model, book_dir / "pictures")
    event = next(e for e in model.of_kind("card") if e.get("deck") == "event-deck")
    english = event.get("text")["en"]
    assert english[:30] not in prepare(model, "en", pictures=pictures).whole()
    _edit(pack_copy, "cards.yaml", rf"(- id: {event.id}\n(?:  .*\n)*?  text:\n    ru: .*\n"
          r'    en: ")', r"\1Suddenly: ")
    edited = load_model(pack_copy)
    assert edited.by_id[event.id].get("text")["en"] != english
    finished = make_book(prepare(edited, "en", pictures=pictures), edited, cache,
                         pictures=pictures)
    assert (finished.laid_out, finished.cached) == (0, True)
    assert finished.pdf.read_bytes() == books["en"].pdf.read_bytes()


def test_an_edit_the_book_prints_lays_out_only_the_chapters_that_print_it(
        model: Model, books: dict[str, Built], book_dir: Path, pack_copy: Path,
        tmp_path: Path) -> None:
    """The zombies' kit is quoted in the story's prose and shown in their stat block: the
    story is laid out again; the chapter on monsters is not (its block is drawn apart)."""
    cache = _warm_cache(book_dir, tmp_path)
    pictures = picture_files(model, book_dir / "pictures")
    before = prepare(model, "en", pictures=pictures)
    _edit(pack_copy, "monsters.yaml", r"(- id: zombie\n(?:  .*\n)*?  kit: )\d+", r"\g<1>9")
    edited = load_model(pack_copy)
    after = prepare(edited, "en", pictures=pictures)
    changed = [a.name for a, b in zip(before.units, after.units, strict=True) if a != b]
    assert "01-story" in changed and "07-monsters" not in changed
    assert len(changed) < len(after.units) // 2
    finished = make_book(after, edited, cache, pictures=pictures)
    assert finished.laid_out == len(changed) and not finished.cached
    assert finished.pdf.read_bytes() != books["en"].pdf.read_bytes()


def test_a_value_only_a_stat_block_shows_lays_nothing_out(
        model: Model, books: dict[str, Built], book_dir: Path, pack_copy: Path,
        tmp_path: Path) -> None:
    """The zombie's speed is shown in its stat block alone, drawn apart at the size the
    chapter keeps for it: no unit changes, none is laid out, and the book shows the new
    speed."""
    cache = _warm_cache(book_dir, tmp_path)
    pictures = picture_files(model, book_dir / "pictures")
    before = prepare(model, "en", pictures=pictures)
    _edit(pack_copy, "monsters.yaml", r"(- id: zombie\n(?:  .*\n)*?  stats:\n    speed: )\d+",
          r"\g<1>9")
    edited = load_model(pack_copy)
    after = prepare(edited, "en", pictures=pictures)
    assert after.units == before.units
    (path, block), = ((p, b) for p, b in after.drawn.items() if b.spec.entity_id == "zombie")
    assert block.key != before.drawn[path].key and ("Speed", "9", "3") in block.rows
    finished = make_book(after, edited, cache, pictures=pictures)
    assert (finished.laid_out, finished.cached) == (0, False)
    assert finished.pdf.read_bytes() != books["en"].pdf.read_bytes()
    document = pdfium.PdfDocument(finished.pdf)
    try:
        assert any("Speed 9 3" in page.get_textpage().get_text_range().splitlines()
                   for page in document)
    finally:
        document.close()
