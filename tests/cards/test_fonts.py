"""Glyph coverage: the character map reportlab read when it registered a font is the one
fontTools reads from the file, so the card build needs no second parse of its fonts."""

from __future__ import annotations

from pipeline.cards import fonts
from pipeline.cards.faces.text import STYLES, font_set

ROLES = (("body", "DejaVu Sans"), ("narrow", "DejaVu Sans Condensed"), ("title", "DejaVu Serif"))


def test_registered_fonts_map_the_same_characters_as_their_files() -> None:
    registered = font_set(ROLES)
    assert registered.files
    for family in dict(ROLES).values():
        for style in STYLES:
            face = fonts.find_font(family, style)
            from_reportlab = fonts._registered_cmap(str(face.path))
            assert from_reportlab is not None
            assert from_reportlab == fonts._file_cmap(face.path), face


def test_a_font_nobody_registered_is_read_from_its_file() -> None:
    face = fonts.find_font("DejaVu Serif Condensed", "Regular")
    assert fonts._registered_cmap(str(face.path)) is None
    assert fonts.missing_glyphs(face, "Зомби\u2068x\u2069\u00ad") == []
    assert fonts.missing_glyphs(face, "\U0001F600") == ["\U0001F600"]
