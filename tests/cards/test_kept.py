"""Fonts and hyphenation dictionaries kept in the build's cache (cards/kept.py) behave as the
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


def test_a_format_whose_components_did_not_change_is_not_laid_out_again(
        cache: Path, mini_model, monkeypatch) -> None:
    import dataclasses

    import pipeline.cards as cards
    from pipeline.cards.components import expand
    from pipeline.cards.formats import load_labels, load_profile

    profile = load_profile(mini_model.pack)
    comps = expand(mini_model, profile, "ru", False, load_labels(mini_model.pack, "ru"))
    formats = comps.formats()
    first = {f: cards._layout(comps.of_format(f), profile.formats[f], profile.sheet)
             for f in formats}
    assert first == {f: cards.layout(comps.of_format(f), profile.formats[f], profile.sheet,
                                     duplex=True) for f in formats}
    laid_out = []
    real = cards.layout
    monkeypatch.setattr(cards, "layout", lambda c, *a, **k: laid_out.append(c) or real(c, *a, **k))
    again = {f: cards._layout(comps.of_format(f), profile.formats[f], profile.sheet)
             for f in formats}
    assert again == first and laid_out == []
    edited = comps.of_format(formats[0])
    edited = (dataclasses.replace(edited[0], front="an-edited-face"), *edited[1:])
    changed = cards._layout(edited, profile.formats[formats[0]], profile.sheet)
    assert laid_out == [edited]
    assert changed.pages[0].placements[0].face == "an-edited-face"
