"""Every character the book prints has a glyph in the book's own fonts (no fallback font).

The running text may be set in either family (serif paragraphs, sans headings and tables), so a
character outside a `.sym` element must be in every style of both; the symbols the book sets
deliberately in sans (`class="sym"`: the obstacle matrix, its legend) need only the sans faces.
Checked on the book's HTML before anything is laid out, so `relic check` refuses what the build
would print from a fallback font.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from functools import cache
from html.parser import HTMLParser

from pipeline.cards.fonts import FontError, FontFace, find_font, match_fonts, missing_glyphs
from pipeline.diagnostics import Diagnostic, Span, error

FONTS = {"serif": "DejaVu Serif", "sans": "DejaVu Sans"}
"""The book's two families: serif for the running text, sans for headings, tables and symbols."""
STYLES = {"serif": ("Book", "Bold", "Italic"), "sans": ("Book", "Bold", "Oblique")}
VOID = {"br", "img", "meta", "link", "hr", "input", "col", "area", "base", "wbr"}


class _Text(HTMLParser):
    """The text of an HTML document, split into running text and `.sym` symbols."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: inside a .sym element
        self.skip = 0  # inside <style> or <title>
        self.text: set[str] = set()
        self.symbols: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "title", "script"):
            self.skip += 1
        if tag in VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append((bool(self.stack) and self.stack[-1]) or "sym" in classes)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "title", "script"):
            self.skip = max(0, self.skip - 1)
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        (self.symbols if self.stack and self.stack[-1] else self.text).update(data)


def printed_characters(html: str) -> tuple[set[str], set[str]]:
    """(running-text characters, symbol characters) of the book's HTML."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.text, parser.symbols


def font_pairs() -> list[tuple[str, str]]:
    """Every (family, style) the book is set in."""
    return [(family, style) for role, family in sorted(FONTS.items()) for style in STYLES[role]]


def font_identity() -> str:
    """The files the book's fonts are, by path, size and time, in one text (a part of cache
    keys: a font replaced on the machine makes the book again)."""
    pairs = font_pairs()
    match_fonts(pairs)
    out = []
    for family, style in pairs:
        path = find_font(family, style).path
        stat = path.stat()
        out.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0")
    return "".join(out)


@cache
def book_faces(fonts: tuple[tuple[str, str], ...]) -> dict[str, tuple[FontFace, ...]]:
    """The font files of every style the book uses, per role ("serif", "sans")."""
    return {role: tuple(find_font(family, style) for style in STYLES[role])
            for role, family in fonts}


def check_glyphs(characters: tuple[Set[str], Set[str]], fonts: Mapping[str, str],
                 sources: Iterable[tuple[str, str]], fallback: Span) -> list[Diagnostic]:
    """A `rulebook-glyph` error for every character a book font lacks, at the first place of
    the prose (`sources`: display name, text) that types it, else at `fallback`.
    `characters`: (running text, symbols), as `printed_characters` finds them."""
    try:
        faces = book_faces(tuple(sorted(fonts.items())))
    except FontError as exc:
        return [error("missing-font", str(exc), fallback,
                      hint="install the font (the book is set in " +
                      ", ".join(fonts.values()) + ")")]
    text, symbols = characters
    every = [face for role in faces.values() for face in role]
    missing: dict[str, list[FontFace]] = {}
    for face in every:
        for ch in missing_glyphs(face, text):
            missing.setdefault(ch, []).append(face)
    for face in faces.get("sans", ()):
        for ch in missing_glyphs(face, symbols - text):
            missing.setdefault(ch, []).append(face)
    sources = list(sources)
    out = []
    for ch, lacking in sorted(missing.items()):
        names = ", ".join(f"{f.family} {f.style}" for f in lacking)
        out.append(error("rulebook-glyph",
                         f"character {ch!r} (U+{ord(ch):04X}) has no glyph in {names}: it would "
                         "print from a fallback font", _first_use(ch, sources) or fallback,
                         hint="write it another way, or set the book in a font that has it"))
    return out


def _first_use(ch: str, sources: list[tuple[str, str]]) -> Span | None:
    for display, text in sources:
        at = text.find(ch)
        if at >= 0:
            line = text.count("\n", 0, at) + 1
            return Span(display, line, at - (text.rfind("\n", 0, at) + 1) + 1)
    return None
