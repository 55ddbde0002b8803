"""Fonts and hyphenation dictionaries kept in the build's cache (faces/kept.py) behave as the
ones parsed from their files: the same PDF bytes, the same break points."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pyphen
import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pipeline.cards.faces import text
from pipeline.cards.fonts import find_font
from pipeline.cards.formats import VALIDATED

WORDS = ["катакомбы", "сокровищница", "переворачивается", "hyphenation", "непредсказуемость"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Iterator[Path]:
    monkeypatch.setitem(VALIDATED, "dir", tmp_path)
    yield tmp_path


def _pdf(font: TTFont) -> bytes:
    """A page of Russian and English text in `font`, registered as KeptTest."""
    pdfmetrics.registerFont(font)
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1)
    canvas.setFont("KeptTest", 11)
    canvas.drawString(40, 700, "Катакомбы: найди артефакт — 12 × 3; Relic hunt, 100%")
    canvas.drawString(40, 680, f"{pdfmetrics.stringWidth('Зомби', 'KeptTest', 9):.6f}")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_a_kept_font_writes_the_pdf_the_parsed_font_writes(cache: Path, monkeypatch) -> None:
    path = find_font("DejaVu Sans", "Bold").path
    parsed = _pdf(TTFont("KeptTest", str(path), asciiReadable=False))
    first = text._read_font("KeptTest", path)  # parsed, and kept
    assert len(list((cache / "ttf").iterdir())) == 1

    def refuse(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(text, "TTFont", type("NoParse", (TTFont,), {"__init__": refuse}))
    kept = text._read_font("KeptTest", path)  # read from the cache, not parsed
    assert kept.face.charToGlyph == first.face.charToGlyph
    assert _pdf(first) == parsed and _pdf(kept) == parsed


def test_an_unreadable_kept_font_is_parsed_again(cache: Path) -> None:
    path = find_font("DejaVu Sans", "Regular").path
    text._read_font("KeptTest", path)
    [entry] = (cache / "ttf").iterdir()
    entry.write_bytes(b"not a pickle")
    font = text._read_font("KeptTest", path)
    assert font.face.unitsPerEm == TTFont("X", str(path)).face.unitsPerEm
    assert _pdf(font) == _pdf(TTFont("KeptTest", str(path), asciiReadable=False))
    assert entry.read_bytes() != b"not a pickle"  # kept again


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_kept_dictionary_breaks_words_where_the_parsed_one_does(cache: Path, lang: str,
                                                                  monkeypatch) -> None:
    path = pyphen.LANGUAGES[pyphen.language_fallback(lang)]
    parsed = pyphen.HyphDict(path)
    monkeypatch.setattr(pyphen, "hdcache", {})
    text._hyphenator.cache_clear()
    text._hyphenator(lang)  # parsed, and kept
    monkeypatch.setattr(pyphen, "hdcache", {})
    text._hyphenator.cache_clear()
    monkeypatch.setattr(pyphen.HyphDict, "__init__", None)  # a kept one is read, none parsed
    kept = text._hyphenator(lang)
    text._hyphenator.cache_clear()
    assert len(list((cache / "hyphenation").iterdir())) == 1
    assert kept.hd.patterns == parsed.patterns
    assert [kept.hd.positions(w) for w in WORDS] == [parsed.positions(w) for w in WORDS]
