"""Fonts through fontconfig, and glyph coverage checked with fontTools before anything renders."""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont

IGNORED = {"\n", "\r", "\t", "\u00ad", "\u200b"}


@dataclass(frozen=True)
class FontFace:
    family: str
    style: str
    path: Path


class FontError(Exception):
    """A font family is not installed, or fontconfig is missing."""


@cache
def find_font(family: str, style: str = "Regular") -> FontFace:
    """The file fontconfig picks for `family:style`; an error if it would substitute a family."""
    if not shutil.which("fc-match"):
        raise FontError("fontconfig (fc-match) is not installed")
    out = subprocess.run(
        ["fc-match", "-f", "%{file}\n%{family}\n", f"{family}:style={style}"],
        capture_output=True, text=True, check=False,
    ).stdout.splitlines()
    if len(out) < 2 or not out[0]:
        raise FontError(f"font {family!r} not found by fontconfig")
    families = [f.strip().lower() for f in out[1].split(",")]
    if family.lower() not in families:
        raise FontError(f"font {family!r} is not installed (fontconfig would substitute "
                        f"{out[1].split(',')[0]!r})")
    return FontFace(family, style, Path(out[0]))


@cache
def _cmap(path: Path) -> frozenset[int]:
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


def faces_for(fonts: Mapping[str, str]) -> list[FontFace]:
    """The regular and bold face of every configured family (these are what templates use)."""
    return [find_font(fam, style) for fam in dict.fromkeys(fonts.values())
            for style in ("Regular", "Bold")]
