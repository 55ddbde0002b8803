"""Text: fonts registered with reportlab, rich text with inline icons, wrapping and fitting.

Widths come from reportlab's own metrics (`stringWidth`), measured once per word at 1 pt and
scaled: a width at size s is s times the width at 1 pt, so trying another size costs arithmetic,
not another layout. Lines break greedily at spaces; where the layout allows it (and the
component is at least card-sized) long words break at the language's hyphenation points
(pyphen). Format characters that print nothing (bidi isolates, zero-width spaces, soft
hyphens) are dropped before measuring.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

ICON = re.compile(r":([a-z0-9]+(?:-[a-z0-9]+)*):")
SPACE = re.compile(r"[ \t\u00a0]+")
HYPHEN = "-"
STYLES = ("Regular", "Bold")


class UnknownIcon(Exception):
    pass


# ----- fonts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FontSet:
    """The profile's font roles as registered reportlab fonts: (role, bold) -> font name."""

    names: Mapping[tuple[str, bool], str]
    files: Mapping[str, str]  # font name -> file

    def name(self, role: str, bold: bool) -> str:
        return self.names.get((role, bold)) or self.names[("body", bold)]


@cache
def font_set(roles: tuple[tuple[str, str], ...]) -> FontSet:
    """Register the regular and bold face of every role's family (once per process).

    Font names are `Relic1`, `Relic2`, ... in the order of the sorted (family, style) pairs:
    the same names in every document of a build, so a face drawn once goes in any file."""
    from pipeline.cards.fonts import find_font

    pairs = sorted({(family, style) for _, family in roles for style in STYLES})
    names: dict[tuple[str, str], str] = {}
    files: dict[str, str] = {}
    for i, (family, style) in enumerate(pairs, start=1):
        face = find_font(family, style)
        name = f"Relic{i}"
        registered_font(name, face.path)
        names[(family, style)] = name
        files[name] = str(face.path)
    by_role = {(role, style == "Bold"): names[(family, style)]
               for role, family in roles for style in STYLES}
    return FontSet(by_role, files)


def registered_font(name: str, path: Path) -> None:
    """Register the font file with reportlab under `name`, unless that name already is that
    file (its reading kept in the build's cache: `_read_font`)."""
    if name in pdfmetrics.getRegisteredFontNames() and \
            getattr(pdfmetrics.getFont(name), "_relic_file", None) == str(path):
        return
    font = _read_font(name, path)
    font._relic_file = str(path)
    pdfmetrics.registerFont(font)


class _Scale:
    """reportlab's scale from a font's units to thousandths of an em (its own is a lambda,
    which cannot be kept)."""

    def __init__(self, units_per_em: int):
        self.factor = None if units_per_em == 1000 else 1000 / units_per_em

    def __call__(self, x: float) -> float:
        return x if self.factor is None else x * self.factor


def _read_font(name: str, path: Path) -> TTFont:
    """reportlab's TTFont of the file, its reading kept in the build's cache (cards.kept): the
    font's and its face's attributes, less the file's bytes and the per-document state."""
    from weakref import WeakKeyDictionary

    import reportlab
    from reportlab.pdfbase.ttfonts import TTFontFace

    from pipeline.cards.kept import kept

    data = path.read_bytes()

    def parse() -> tuple[dict, dict]:
        font = TTFont(name, str(path), asciiReadable=False)
        face = {k: v for k, v in vars(font.face).items() if k != "_ttf_data"}
        face["_pdfScale"] = _Scale(font.face.unitsPerEm)
        return {k: v for k, v in vars(font).items() if k not in ("face", "state")}, face

    own, face_vars = kept("ttf", data, f"reportlab {reportlab.Version} {name} 1", parse)
    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(face_vars, _ttf_data=data)
    font = TTFont.__new__(TTFont)
    font.__dict__.update(own, face=face, state=WeakKeyDictionary())
    return font


@cache
def _width1(text: str, font: str) -> float:
    return pdfmetrics.stringWidth(text, font, 1.0)


@cache
def ascent_descent(font: str) -> tuple[float, float]:
    """Ascent and (negative) descent at 1 pt."""
    face = pdfmetrics.getFont(font).face
    return face.ascent / 1000.0, face.descent / 1000.0


def clean(text: str) -> str:
    """Drop the characters that print nothing (control and format characters: bidi isolates
    U+2066-U+2069, zero-width spaces, soft hyphens, ...); tabs become spaces, newlines stay."""
    if text.isprintable():
        return text
    return "".join(" " if ch == "\t" else ch for ch in text
                   if ch == "\n" or unicodedata.category(ch)[0] != "C")


# ----- rich text ---------------------------------------------------------------------------


class Piece(NamedTuple):
    """A run of one font inside a word (`icon` set: an inline icon instead)."""

    text: str
    font: str
    icon: str | None = None
    color: str | None = None


Word = tuple[Piece, ...]


class Para:
    """A paragraph's words, with each word's width at 1 pt and its character count (measured
    once: a size is then a multiplication)."""

    __slots__ = ("align", "color", "counts", "divider", "icon_scale", "scale", "space_font",
                 "tracking", "widths", "words")

    def __init__(self, words: tuple[Word, ...], scale: float, align: str, color: str,
                 divider: bool, tracking: float, space_font: str, icon_scale: float = 1.15):
        self.words = words
        self.scale = scale
        self.align = align
        self.color = color
        self.divider = divider
        self.tracking = tracking
        self.space_font = space_font
        self.icon_scale = icon_scale
        self.widths = tuple(sum(piece_width(p, icon_scale, 0.0) for p in w) for w in words)
        self.counts = tuple(sum(1 if p.icon else len(p.text) for p in w) for w in words)


def parse(text: str, font: str, icons: frozenset[str], color: str) -> list[list[Word]]:
    """Paragraphs (split at newlines) of words (split at spaces) of pieces."""
    out: list[list[Word]] = []
    for line in clean(text).split("\n"):
        words: list[Word] = []
        current: list[Piece] = []
        pos = 0
        for match in [*ICON.finditer(line), None]:
            chunk = line[pos:match.start()] if match else line[pos:]
            parts = SPACE.split(chunk)
            for j, part in enumerate(parts):
                if j > 0 and current:
                    words.append(tuple(current))
                    current = []
                if part:
                    current.append(Piece(part, font, color=color))
            if match:
                if match[1] not in icons:
                    raise UnknownIcon(
                        f"unknown icon :{match[1]}: (known: {', '.join(sorted(icons))})")
                current.append(Piece("", font, icon=match[1]))
                pos = match.end()
        if current:
            words.append(tuple(current))
        out.append(words)
    return out


def upper(text: str) -> str:
    """Capitals, except inside :icon: names."""
    parts = ICON.split(text)
    return "".join(p if i % 2 else p.upper() for i, p in enumerate(parts))


# ----- measuring ---------------------------------------------------------------------------


ICON_PAD = 0.06  # em on each side of an inline icon


def piece_width(p: Piece, icon_scale: float, tracking: float) -> float:
    """Width at 1 pt (tracking in points per character is added by the caller's size)."""
    if p.icon:
        return icon_scale + 2 * ICON_PAD
    return _width1(p.text, p.font)


def word_width(word: Word, size: float, icon_scale: float, tracking: float) -> float:
    total = 0.0
    chars = 0
    for p in word:
        total += piece_width(p, icon_scale, tracking)
        chars += len(p.text) if not p.icon else 1
    return total * size + tracking * chars


@dataclass(frozen=True)
class Line:
    words: tuple[Word, ...]
    width: float
    hyphen: bool = False  # the last word was broken: print a hyphen after it


@dataclass(frozen=True)
class Setting:
    """A text box set at one size: its lines per paragraph, and how tall they are."""

    size: float
    paras: tuple[tuple[Para, tuple[Line, ...]], ...]
    height: float
    fits: bool
    too_wide: bool = False


@cache
def _hyphenator(lang: str):
    import pyphen

    from pipeline.cards.kept import kept

    code = lang if lang in pyphen.LANGUAGES else pyphen.language_fallback(lang)
    if not code:
        return None
    path = pyphen.LANGUAGES[code]
    if path not in pyphen.hdcache:  # the dictionary's parse, kept in the build's cache
        pyphen.hdcache[path] = kept("hyphenation", path.read_bytes(), f"pyphen {pyphen.VERSION}",
                                    lambda: pyphen.HyphDict(path))
    return pyphen.Pyphen(lang=code)


@cache
def _positions(word: str, lang: str) -> tuple[int, ...]:
    """Where the dictionary allows a break, keeping at least two letters on each side."""
    hyph = _hyphenator(lang)
    if hyph is None:
        return ()
    return tuple(p for p in hyph.positions(word) if 2 <= p <= len(word) - 2)


def _split_word(word: Word, room: float, size: float, icon_scale: float, tracking: float,
                lang: str) -> tuple[Word, Word] | None:
    """The longest head of a one-piece word that fits `room` with a hyphen, and the rest."""
    if len(word) != 1 or word[0].icon:
        return None
    piece = word[0]
    if len(piece.text) < 5:
        return None
    hyphen_w = _width1(HYPHEN, piece.font) * size
    for pos in reversed(_positions(piece.text, lang)):
        head = piece.text[:pos]
        if head.endswith(("-", "\u2010")):
            continue
        w = _width1(head, piece.font) * size + tracking * len(head) + hyphen_w
        if w <= room:
            return ((Piece(head, piece.font, color=piece.color),),
                    (Piece(piece.text[pos:], piece.font, color=piece.color),))
    return None


def wrap(para: Para, width: float, size: float, icon_scale: float, hyphenate: bool,
         lang: str, limit: int | None = None) -> tuple[tuple[Line, ...], bool]:
    """Greedy lines of a paragraph; (lines, too_wide) where too_wide means some word could
    not be placed even alone on a line. Stops after `limit` lines (the box is full)."""
    s = size * para.scale
    tracking = para.tracking
    space = _width1(" ", para.space_font) * s + tracking
    lines: list[Line] = []
    cur: list[Word] = []
    cur_w = 0.0
    words, widths, counts = para.words, para.widths, para.counts
    i, n = 0, len(words)
    carry: Word | None = None  # the tail of a hyphenated word, placed next
    while i < n or carry is not None:
        if limit is not None and len(lines) > limit:
            return tuple(lines), False
        if carry is not None:
            word, carry = carry, None
            w = word_width(word, s, para.icon_scale, tracking)
        else:
            word = words[i]
            w = widths[i] * s + tracking * counts[i]
            i += 1
        if not cur and w <= width:
            cur, cur_w = [word], w
            continue
        if cur and cur_w + space + w <= width:
            cur.append(word)
            cur_w += space + w
            continue
        # the word does not fit on this line
        if hyphenate:
            room = width - (cur_w + space if cur else 0.0)
            split = _split_word(word, room, s, para.icon_scale, tracking, lang)
            if split:
                head, tail = split
                used = (cur_w + space if cur else 0.0) + word_width(head, s, para.icon_scale,
                                                                    tracking)
                used += _width1(HYPHEN, head[0].font) * s
                cur.append(head)
                lines.append(Line(tuple(cur), used, hyphen=True))
                cur, cur_w = [], 0.0
                carry = tail
                continue
        if not cur:
            return tuple(lines), True  # alone on a line and still too wide
        lines.append(Line(tuple(cur), cur_w))
        cur, cur_w = [], 0.0
        carry = word
    if cur:
        lines.append(Line(tuple(cur), cur_w))
    return tuple(lines), False


def set_text(paras: list[Para], width: float, height: float, size: float, leading: float,
             gap: float | None, icon_scale: float, hyphenate: bool, lang: str,
             max_lines: int | None = None) -> Setting:
    """Every paragraph wrapped at `size`: does it fit the box?"""
    out = []
    total = 0.0
    fits = True
    lines_used = 0
    for i, para in enumerate(paras):
        line_h = leading * size * para.scale
        room = max(0, int((height - total) / line_h + 1e-6)) if height > 0 else 0
        limit = room if max_lines is None else min(room, max_lines - lines_used)
        lines, too_wide = wrap(para, width, size, icon_scale, hyphenate, lang, limit=limit + 1)
        if too_wide:
            return Setting(size, tuple(out), total, False, too_wide=True)
        if i > 0:
            total += _gap(gap, leading, size) + (line_h * 0.3 if para.divider else 0.0)
        total += len(lines) * line_h
        lines_used += len(lines)
        out.append((para, lines))
        if total > height + 0.01 or (max_lines is not None and lines_used > max_lines):
            fits = False
            break
    return Setting(size, tuple(out), total, fits)


def _gap(gap: float | None, leading: float, size: float) -> float:
    return gap if gap is not None else 0.35 * leading * size


STEP = 0.25


def sizes_between(low: float, high: float) -> list[float]:
    """Candidate sizes from `low` to `high` in quarter points (both included)."""
    out = []
    n = round((high - low) / STEP)
    for i in range(n + 1):
        out.append(round(low + i * STEP, 3))
    if not out or out[-1] < high - 1e-6:
        out.append(round(high, 3))
    return out


def best_size(measure, low: float, high: float) -> tuple[float | None, Setting]:
    """The largest candidate size at which `measure(size)` fits (binary search: fitting is
    monotonic in the size); (None, the setting at `low`) when even `low` does not fit."""
    candidates = sizes_between(low, high) if high > low else [high]
    first = measure(candidates[-1])
    if first.fits:
        return candidates[-1], first
    lo, hi = 0, len(candidates) - 2
    best: tuple[float, Setting] | None = None
    smallest = None
    while lo <= hi:
        mid = (lo + hi) // 2
        setting = measure(candidates[mid])
        if setting.fits:
            best = (candidates[mid], setting)
            lo = mid + 1
        else:
            if mid == 0:
                smallest = setting
            hi = mid - 1
    if best is None:
        return None, smallest or measure(candidates[0])
    return best


def line_pieces(line: Line, para: Para) -> Iterable[tuple[Piece, bool]]:
    """Pieces of a line in order; the flag says a space comes before the piece."""
    for wi, word in enumerate(line.words):
        for pi, piece in enumerate(word):
            yield piece, wi > 0 and pi == 0
