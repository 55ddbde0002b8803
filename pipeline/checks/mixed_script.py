"""Mixed scripts: a Latin word inside a Russian text, a Cyrillic word inside an English one.

A warning `mixed-script` at the string (or, in a chapter, at the word): an untranslated word
("intrigue" on a Russian card) or a look-alike letter (a Latin "c" typed for the Cyrillic "с").

What is read, in every language of the pack whose script is known (see `LANGUAGE_SCRIPTS`):
- every localized text of every entity and of `pack.yaml`;
- every localized text of the pack's `print/*.yaml` files and of the project's printed captions
  (`templates/print/labels.yaml`);
- every rulebook chapter `rules/<lang>/*.md`, without its data references, heading ids, link
  targets and code; in the glossary, the term's translation in brackets is meant to be foreign.

What is never a mixed-script word: dice notation (`2d6`, `d6+1`), icon codes (`:skull:`),
Roman numerals, units (`mm`, `pt`, …), and the words the pack allows in `pack.yaml`:
`foreign_words: {ru: [A, B], en: [Babushka]}` (a word that may appear in that language's texts;
`schemas/pack.json`). The project's own captions are checked without the pack's list.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.diagnostics import Diagnostic, RelicError, Span, relative, warning
from pipeline.loader import try_load
from pipeline.model import Model, SourceFile
from pipeline.resolve import is_localized, walk
from pipeline.rulebook.source import languages_present, load_chapters, load_glossary

CODE = "mixed-script"
PROJECT_LABELS = Path(__file__).resolve().parents[2] / "templates" / "print" / "labels.yaml"
ALLOW_FIELD = "foreign_words"

SCRIPTS = {
    "Latin": re.compile(r"[A-Za-z\u00C0-\u024F]"),
    "Cyrillic": re.compile(r"[\u0400-\u052F]"),
    "Greek": re.compile(r"[\u0370-\u03FF]"),
}
LANGUAGE_SCRIPTS = {
    **dict.fromkeys(("ru", "uk", "be", "bg", "mk", "kk"), "Cyrillic"),
    **dict.fromkeys(
        ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "cs", "sk", "sv", "da", "no", "fi",
         "et", "lv", "lt", "hu", "ro", "tr", "hr", "sl"),
        "Latin",
    ),
    "el": "Greek",
}
WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
# Symbols blanked out before words are read (each keeps its length, so columns stay right).
DICE = re.compile(r"(?<![^\W\d_])\d*[dD]\d+(?:[+\-]\d+)?(?![^\W\d_])")
ICON = re.compile(r":[a-z][a-z0-9_-]*:")
UNITS = frozenset({"mm", "cm", "km", "kg", "pt", "px", "dpi", "ms"})
ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
ROMAN_SINGLE = frozenset("IVX")  # C, D, L, M alone are more likely letters than numbers
# Markdown that is not prose: data references, heading ids, link targets, code, addresses.
MARKUP = re.compile(r"\{\{.*?\}\}|\{#[^}]*\}|\]\([^)]*\)|`[^`]*`|<[^>\s]+>|https?://\S+")
GLOSSARY_ITEM = re.compile(r"^\s*[-*]\s")
GLOSSARY_TRANSLATION = re.compile(r"\*\*[^*]+\*\*\s*(\([^)]*\))")  # **Term** (its translation)


@dataclass(frozen=True)
class Foreign:
    """A word of another script found in a text, and where in the text it starts."""

    word: str
    script: str
    offset: int

    @property
    def mixed(self) -> bool:
        """Letters of two scripts in one word: most likely a look-alike letter."""
        return sum(bool(p.search(self.word)) for p in SCRIPTS.values()) > 1


def text_script(lang: str) -> str | None:
    return LANGUAGE_SCRIPTS.get(lang.split("-")[0])


def blank(text: str, pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def is_symbol(word: str) -> bool:
    if word.lower() in UNITS:
        return True
    return bool(ROMAN.fullmatch(word)) and (len(word) > 1 or word in ROMAN_SINGLE)


def foreign_words(text: str, script: str, allowed: frozenset[str] = frozenset()) -> list[Foreign]:
    """Words of `text` that hold letters of a known script other than `script`."""
    plain = blank(blank(text, DICE), ICON)
    found = []
    for m in WORD.finditer(plain):
        word = m.group(0)
        other = next(
            (name for name, p in SCRIPTS.items() if name != script and p.search(word)), None
        )
        if other and word not in allowed and not is_symbol(word):
            found.append(Foreign(word, other, m.start()))
    return found


def describe(found: list[Foreign], lang: str) -> tuple[str, str]:
    """The message (which words) and the hint (what to do)."""
    words = ", ".join(f"'{f.word}'" for f in found)
    scripts = " and ".join(sorted({f.script for f in found}))
    plural = "s" if len(found) > 1 else ""
    message = f"{scripts} word{plural} {words} in the {lang} text"
    if any(f.mixed for f in found):
        hint = "a word mixes two scripts: a look-alike letter typed in the wrong alphabet?"
    else:
        hint = (
            f"translate it, or, if it is a proper name or a symbol, list it under "
            f"`{ALLOW_FIELD}: {{{lang}: [...]}}` in pack.yaml"
        )
    return message, hint


# ----- localized strings -----------------------------------------------------------------------


def allowed_words(model: Model) -> dict[str, frozenset[str]]:
    raw = model.pack.data.get(ALLOW_FIELD) or {}
    return {lang: frozenset(words) for lang, words in raw.items()}


def check_strings(
    source: SourceFile,
    data: Any,
    prefix: tuple,
    languages: tuple[str, ...],
    allowed: Mapping[str, frozenset[str]],
) -> Iterator[Diagnostic]:
    for path, value in walk(data):
        if path[:1] == (ALLOW_FIELD,) or not is_localized(value, languages):
            continue
        for lang, text in value.items():
            script = text_script(lang)
            found = foreign_words(text, script, allowed.get(lang, frozenset())) if script else []
            if found:
                message, hint = describe(found, lang)
                where = ".".join(map(str, path))
                yield warning(CODE, f"{where}: {message}", source.span((*prefix, *path, lang)),
                              hint)


def print_sources(model: Model) -> tuple[list[tuple[SourceFile, bool]], list[Diagnostic]]:
    """The pack's print data files and the project's captions (False: not the pack's own),
    and the problems of any that cannot be read."""
    paths = [(p, True) for p in sorted((model.pack.root / "print").glob("*.yaml"))]
    paths += [(PROJECT_LABELS, False)] if PROJECT_LABELS.is_file() else []
    sources, problems = [], []
    for path, own in paths:
        source, errors = try_load(path, relative(path))
        problems += errors
        if source is not None:
            sources.append((source, own))
    return sources, problems


# ----- chapters --------------------------------------------------------------------------------


def prose(line: str, glossary: bool) -> str:
    """A chapter line with everything that is not prose blanked out (columns kept)."""
    text = blank(line, MARKUP)
    if glossary and GLOSSARY_ITEM.match(text):
        for m in GLOSSARY_TRANSLATION.finditer(text):
            text = text[: m.start(1)] + " " * len(m.group(1)) + text[m.end(1):]
    return text


def check_chapters(model: Model, allowed: Mapping[str, frozenset[str]]) -> Iterator[Diagnostic]:
    root = model.pack.root
    for lang in languages_present(root):
        script = text_script(lang)
        if script is None:
            continue
        glossary = load_glossary(root, lang)
        chapters = [*load_chapters(root, lang), *([glossary] if glossary else [])]
        for chapter in chapters:
            for n, line in enumerate(chapter.text.split("\n")):
                text = prose(line, chapter is glossary)
                found = foreign_words(text, script, allowed.get(lang, frozenset()))
                if found:
                    message, hint = describe(found, lang)
                    span = Span(chapter.display, n + 1, found[0].offset + 1)
                    yield warning(CODE, message, span, hint)


# ----- the check -------------------------------------------------------------------------------


def check(model: Model) -> Iterable[Diagnostic]:
    languages = model.pack.languages
    allowed = allowed_words(model)
    out: list[Diagnostic] = []
    for entity in model.entities:
        out += check_strings(entity.source, entity.data, entity.prefix, languages, allowed)
    manifest = model.pack.manifest
    out += check_strings(manifest, manifest.data, (), languages, allowed)
    sources, problems = print_sources(model)
    out += problems
    for source, own in sources:
        out += check_strings(source, source.data, (), languages, allowed if own else {})
    with contextlib.suppress(RelicError):  # an unreadable chapter: the rulebook check says so
        out += check_chapters(model, allowed)
    return out
