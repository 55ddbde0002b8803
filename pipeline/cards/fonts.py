"""Fonts through fontconfig, and glyph coverage checked before anything renders: from the
character map reportlab read when it registered the font (the card renderer's fonts), else
read with fontTools."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import threading
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

IGNORED = {"\n", "\r", "\t", "\u00ad", "\u200b"}


@dataclass(frozen=True)
class FontFace:
    family: str
    style: str
    path: Path


class FontError(Exception):
    """A font family is not installed, or fontconfig is missing."""


_MATCHED: dict[tuple[str, str], list[str]] = {}  # (family, style) -> fc-match's two lines
_ASKED: dict[tuple[str, str], tuple[int, threading.Thread]] = {}  # being asked: (pid, asker)
_LOCK = threading.Lock()  # the book's languages are set in threads


# Held while an asker starts its fc-match processes, and by a thread that forks (os.fork,
# multiprocessing) until the fork is done: a process forked while `subprocess` starts one
# would inherit the pipe `subprocess` waits on until the new process execs, and the asker
# (and the build that joins it) would wait for as long as that forked process lives.
_SPAWNING = threading.Lock()


def _after_fork_in_child() -> None:
    global _LOCK, _SPAWNING
    _LOCK = threading.Lock()  # a child forked while an asker held the lock must not wait on it
    _SPAWNING = threading.Lock()  # held by the thread that forked it


os.register_at_fork(before=lambda: _SPAWNING.acquire(),
                    after_in_parent=lambda: _SPAWNING.release(),
                    after_in_child=_after_fork_in_child)


def ask_fonts(pairs: Iterable[tuple[str, str]]) -> None:
    """Start asking fontconfig for every (family, style) not asked yet, from a thread, without
    waiting: `match_fonts` waits for the answers. A build asks for the fonts it will likely
    need first thing, so that the answers cost it nothing."""
    if not _fontconfig_installed():
        return
    with _LOCK:
        todo = [pair for pair in dict.fromkeys(pairs) if pair not in _MATCHED
                and not (pair in _ASKED and _ASKED[pair][0] == os.getpid())]
        if not todo:
            return
        asker = threading.Thread(target=_ask, args=(todo,), name="fc-match", daemon=True)
        asker.start()  # before another thread can find it to join
        for pair in todo:
            _ASKED[pair] = (os.getpid(), asker)


def _ask(pairs: list[tuple[str, str]]) -> None:
    """fontconfig's answers, as `fc-match -f "%{file}\n%{family}\n"` gives them: from the
    library in this process (`Fontconfig`), else one `fc-match` process each, side by side."""
    answers: dict[tuple[str, str], list[str]] = {pair: [] for pair in pairs}  # none: not found
    patterns = {pair: f"{pair[0]}:style={pair[1]}" for pair in pairs}
    try:
        with _SPAWNING:  # (no fork while the library answers: it may hold its locks)
            library = Fontconfig.loaded()
            if library is not None:
                answers.update({pair: library.match(patterns[pair]) for pair in pairs})
                return
            asked = [(pair, subprocess.Popen(
                ["fc-match", "-f", "%{file}\n%{family}\n", patterns[pair]],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)) for pair in pairs]
        for pair, process in asked:
            answers[pair] = process.communicate()[0].splitlines()
    except OSError:
        pass
    finally:
        with _LOCK:
            _MATCHED.update(answers)


class Fontconfig:
    """The system's fontconfig library (the one `fc-match` runs on), called through ctypes:
    what `fc-match PATTERN` does (parse, substitute, match, format), a few milliseconds for all
    of a build's fonts where a process each cost about 10 ms of CPU. None where the library
    cannot be loaded: the `fc-match` program answers then."""

    FORMAT = b"%{file}\n%{family}\n"

    def __init__(self, lib: ctypes.CDLL):
        pointer = ctypes.c_void_p
        lib.FcInitLoadConfigAndFonts.restype = pointer
        lib.FcNameParse.restype, lib.FcNameParse.argtypes = pointer, [ctypes.c_char_p]
        lib.FcConfigSubstitute.argtypes = [pointer, pointer, ctypes.c_int]
        lib.FcDefaultSubstitute.argtypes = [pointer]
        lib.FcFontMatch.restype = pointer
        lib.FcFontMatch.argtypes = [pointer, pointer, ctypes.POINTER(ctypes.c_int)]
        lib.FcPatternFormat.restype = pointer
        lib.FcPatternFormat.argtypes = [pointer, ctypes.c_char_p]
        lib.FcStrFree.argtypes = [pointer]
        lib.FcPatternDestroy.argtypes = [pointer]
        self.lib = lib
        self.config = lib.FcInitLoadConfigAndFonts()

    @staticmethod
    @cache
    def loaded() -> Fontconfig | None:
        try:
            library = Fontconfig(ctypes.CDLL("libfontconfig.so.1"))
        except (OSError, AttributeError):
            return None
        return library if library.config else None

    def match(self, pattern: str) -> list[str]:
        """The lines `fc-match -f "%{file}\n%{family}\n" pattern` prints."""
        lib = self.lib
        parsed = lib.FcNameParse(pattern.encode())
        if not parsed:
            return []
        try:
            lib.FcConfigSubstitute(self.config, parsed, 0)  # FcMatchPattern
            lib.FcDefaultSubstitute(parsed)
            result = ctypes.c_int()
            found = lib.FcFontMatch(self.config, parsed, ctypes.byref(result))
        finally:
            lib.FcPatternDestroy(parsed)
        if not found:
            return []
        try:
            text = lib.FcPatternFormat(found, self.FORMAT)
            if not text:
                return []
            try:
                return ctypes.string_at(text).decode("utf-8", "replace").splitlines()
            finally:
                lib.FcStrFree(text)
        finally:
            lib.FcPatternDestroy(found)


@cache
def _fontconfig_installed() -> bool:
    if shutil.which("fc-match") is not None:
        return True
    with _SPAWNING:
        return Fontconfig.loaded() is not None


def match_fonts(pairs: Iterable[tuple[str, str]]) -> None:
    """Have fontconfig's answer for every (family, style): `find_font` then answers from
    memory. (A process forked while its parent asked asks again.)"""
    pairs = list(dict.fromkeys(pairs))
    ask_fonts(pairs)
    for pair in pairs:
        with _LOCK:
            pid, asker = _ASKED.get(pair, (None, None))
        if asker is not None and pid == os.getpid():
            asker.join()
    with _LOCK:
        for pair in pairs:
            if pair in _MATCHED:
                _ASKED.pop(pair, None)


@cache
def find_font(family: str, style: str = "Regular") -> FontFace:
    """The file fontconfig picks for `family:style`; an error if it would substitute a family."""
    if not _fontconfig_installed():
        raise FontError("fontconfig (fc-match) is not installed")
    match_fonts([(family, style)])
    out = _MATCHED[(family, style)]
    if len(out) < 2 or not out[0]:
        raise FontError(f"font {family!r} not found by fontconfig")
    families = [f.strip().lower() for f in out[1].split(",")]
    if family.lower() not in families:
        raise FontError(f"font {family!r} is not installed (fontconfig would substitute "
                        f"{out[1].split(',')[0]!r})")
    return FontFace(family, style, Path(out[0]))


def _cmap(path: Path) -> frozenset[int]:
    """The code points the font file maps to a glyph."""
    return _registered_cmap(str(path)) or _file_cmap(path)


def _registered_cmap(path: str) -> frozenset[int] | None:
    """The map of a font the card renderer registered with reportlab (faces.text.font_set),
    which parsed the file already; None when no registered font is that file."""
    import sys

    if "reportlab.pdfbase.pdfmetrics" not in sys.modules:
        return None
    from reportlab.pdfbase import pdfmetrics

    for name in pdfmetrics.getRegisteredFontNames():
        font = pdfmetrics.getFont(name)
        if getattr(font, "_relic_file", None) == path:
            return _registered_codes(font)
    return None


@cache
def _registered_codes(font) -> frozenset[int]:
    return frozenset(font.face.charToGlyph)


@cache
def _file_cmap(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True, fontNumber=0) as font:
        return frozenset(font.getBestCmap() or {})


def missing_glyphs(face: FontFace, text: Iterable[str]) -> list[str]:
    """Characters of `text` that the font file has no glyph for (sorted, unique)."""
    cmap = _cmap(face.path)
    # control and format characters (bidi isolates U+2066-U+2069, zero-width spaces, soft
    # hyphens) need no glyph: the renderer never draws them
    chars = {ch for s in text for ch in s if ch not in IGNORED and not ch.isspace()
             and unicodedata.category(ch)[0] != "C"}
    return sorted(ch for ch in chars if ord(ch) not in cmap)


def font_pairs(fonts: Mapping[str, str]) -> list[tuple[str, str]]:
    """The regular and bold face of every configured family (these are what templates use)."""
    return [(fam, style) for fam in dict.fromkeys(fonts.values()) for style in ("Regular", "Bold")]


def faces_for(fonts: Mapping[str, str]) -> list[FontFace]:
    """The files of `font_pairs(fonts)`."""
    pairs = font_pairs(fonts)
    match_fonts(pairs)
    return [find_font(fam, style) for fam, style in pairs]
