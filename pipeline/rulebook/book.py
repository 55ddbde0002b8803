"""The whole book in one language: chapters parsed, references checked, HTML assembled."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from pipeline.diagnostics import Diagnostic, Span, error, relative, warning
from pipeline.loader import try_load
from pipeline.model import Model
from pipeline.rulebook import references as refs_mod
from pipeline.rulebook import views
from pipeline.rulebook.i18n import label, localized
from pipeline.rulebook.markdown import (
    Heading,
    ParsedChapter,
    Term,
    mark_terms,
    parse_chapter,
    to_html,
)
from pipeline.rulebook.references import Context, RefError
from pipeline.rulebook.source import load_chapters, load_glossary

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = PROJECT_ROOT / "templates" / "rulebook"
GLOSSARY_LINE = re.compile(r"^[-*]\s+\*\*(.+?)\*\*")
ENDINGS = {"ru": "аяоеиыуюйьё", "en": "e"}
PLACEHOLDER_LEFT = re.compile(r"\{\{|\{%|\}\}|%\}")
PAPERS = {"a5": "148mm 210mm", "a4": "210mm 297mm", "letter": "8.5in 11in"}
WIDE = {"a5": "210mm 148mm", "a4": "297mm 210mm", "letter": "11in 8.5in"}  # wide tables
FIXED_DATE = "2000-01-01T00:00:00Z"


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


@dataclass(frozen=True)
class Book:
    """One language's book, parsed; `diagnostics` hold the problems found while parsing."""

    lang: str
    chapters: tuple[ParsedChapter, ...]
    glossary: ParsedChapter | None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def parts(self) -> list[ParsedChapter]:
        return [*self.chapters, *([self.glossary] if self.glossary else [])]

    @property
    def headings(self) -> list[Heading]:
        return [h for p in self.parts for h in p.headings]

    @property
    def sections(self) -> dict[str, str]:
        return {h.id: h.text for h in self.headings}


def _section_ids(book: Book) -> list[Diagnostic]:
    seen: dict[str, Heading] = {}
    out = []
    for h in book.headings:
        if h.id in seen:
            out.append(error("rulebook-section", f"section id '{h.id}' is used twice "
                             f"(first at {seen[h.id].span})", h.span))
        seen.setdefault(h.id, h)
    return out


def parse_book(pack_root: Path, lang: str) -> Book:
    chapters = tuple(parse_chapter(c) for c in load_chapters(pack_root, lang))
    gloss = load_glossary(pack_root, lang)
    book = Book(lang, chapters, parse_chapter(gloss) if gloss else None)
    found = [d for part in book.parts for d in part.diagnostics] + _section_ids(book)
    return replace(book, diagnostics=tuple(found))


def decisions(pack_root: Path) -> dict[str, str]:
    """Decision id -> decision text, from every trace file of the pack."""
    found: dict[str, str] = {}
    for path in sorted(pack_root.glob("trace*.yaml")):
        source, _ = try_load(path, relative(path))
        data = source.data if source is not None else None
        if not isinstance(data, Mapping):
            continue
        for item in data.get("decisions") or ():
            if isinstance(item, Mapping) and isinstance(item.get("id"), str):
                found[item["id"]] = str(item.get("decision") or item.get("issue") or "")
    return found


def context(model: Model, book: Book, proof: bool = False,
            thumbnails: Mapping[str, Path] | None = None) -> Context:
    return Context(model, book.lang, environment(), book.sections, thumbnails or {}, proof,
                   decisions(model.pack.root))


def validate(model: Model, book: Book) -> list[Diagnostic]:
    """Every reference resolves (data and cross-references), at its place in the Markdown."""
    ctx = context(model, book)
    out = []
    for part in book.parts:
        for ref in part.refs:
            try:
                refs_mod.render(ctx, ref)
            except RefError as exc:
                out.append(error("rulebook-ref", f"{ref.source}: {exc.message}", ref.span,
                                 exc.hint))
    return out


def explained(model: Model, book: Book) -> set[str]:
    """The entity kinds the book shows the reader (through references that resolve)."""
    ctx = context(model, book)
    kinds: set[str] = set()
    for part in book.parts:
        for ref in part.refs:
            try:
                refs_mod.render(ctx, ref)
            except RefError:
                continue
            kinds |= refs_mod.explained_kinds(ctx, ref)
    return kinds


def glossary_terms(book: Book) -> list[Term]:
    if book.glossary is None:
        return []
    terms = []
    for line in book.glossary.chapter.text.split("\n"):
        m = GLOSSARY_LINE.match(line.strip())
        if m:
            terms.append(Term(m.group(1), tuple(_stems(m.group(1), book.lang))))
    return terms


def _stems(term: str, lang: str) -> list[str]:
    r"""Alternative spellings separated by '/', each a regex of word stems that matches the
    inflected forms: "тайное знание" -> r"тайн\w*\s+знан\w*"."""
    out = []
    ends = ENDINGS.get(lang, "")
    for alt in term.lower().split("/"):
        words = []
        for word in alt.split():
            while len(word) > 3 and word[-1] in ends:
                word = word[:-1]
            words.append(re.escape(word) + r"[\w-]*")
        out.append(r"\s+".join(words))
    return out


@dataclass(frozen=True)
class Rendered:
    html: str
    toc: list[Heading]
    index: list[dict[str, Any]]


def chapter_html(ctx: Context, part: ParsedChapter) -> str:
    def render_ref(n: int) -> tuple[Markup, bool]:
        ref = part.refs[n]
        return refs_mod.render(ctx, ref), refs_mod.SPECS[ref.name].block

    return to_html(part, render_ref)


def render_html(model: Model, book: Book, *, paper: str = "a5", proof: bool = False,
                thumbnails: Mapping[str, Path] | None = None) -> str:
    """The book's HTML (raises `RefError` on a reference that does not resolve)."""
    ctx = context(model, book, proof, thumbnails)
    terms = glossary_terms(book)
    book = replace(book, chapters=tuple(replace(p, tokens=copy.deepcopy(p.tokens))
                                        for p in book.chapters))
    marks: list[int] = []
    for part in book.chapters:
        marks += mark_terms(part.tokens, terms, len(marks))
    index: dict[int, list[str]] = {}
    for n, ti in enumerate(marks):
        index.setdefault(ti, []).append(f"ix-{n}")
    entries = sorted(({"term": terms[ti].text, "anchors": a} for ti, a in index.items()),
                     key=lambda e: e["term"].lower().replace("ё", "е"))
    chapters = [{"id": p.headings[0].id if p.headings else p.chapter.slug,
                 "html": Markup(chapter_html(ctx, p))} for p in book.chapters]
    glossary = Markup(chapter_html(ctx, book.glossary)) if book.glossary else None
    toc = [h for h in book.headings if h.level <= 2]
    if entries:
        toc.append(Heading(1, "index", label("index", book.lang), Span("", 1, 1)))
    cover = cover_pictures(model, book.lang, ctx.thumbnails)
    src = model.pack.source_language
    return environment().get_template("book.html.j2").render(
        lang=book.lang,
        title=localized(model.pack.title, book.lang, src),
        description=localized(model.pack.data.get("description"), book.lang, src),
        subtitle=label("subtitle", book.lang),
        labels={k: label(k, book.lang) for k in ("contents", "index", "proof", "see", "page")},
        toc=toc,
        chapters=chapters,
        glossary=glossary,
        index=entries,
        cover=cover,
        proof=proof,
        page_size=PAPERS[paper],
        wide_size=WIDE[paper],
        paper=paper,
        date=FIXED_DATE,
        base_font="9.5pt" if paper == "a5" else "10.5pt",
    )


def cover_pictures(model: Model, lang: str, thumbnails: Mapping[str, Path],
                   most: int = 4) -> list[dict[str, str]]:
    """The first monster cards that have a rendered picture, for the cover."""
    pics = []
    for e in model.of_kind("monster"):
        if len(pics) < most and e.id in thumbnails:
            pics.append(views.thumb(model, e.id, lang, thumbnails[e.id]))
    return pics


def placeholders_left(html: str, display: str) -> list[Diagnostic]:
    """A template placeholder that survived into the output is an error."""
    out = []
    for m in PLACEHOLDER_LEFT.finditer(html):
        line = html.count("\n", 0, m.start()) + 1
        snippet = html[max(0, m.start() - 30): m.end() + 30].replace("\n", " ")
        out.append(error("rulebook-placeholder",
                         f"template placeholder '{m.group(0)}' left in the output: …{snippet}…",
                         Span(display, line, 1)))
    return out


def translation_gaps(pack_root: Path, books: dict[str, Book], source: str) -> list[Diagnostic]:
    """Every chapter and section of the source language exists in every translation."""
    if source not in books:
        return []
    base = books[source]
    out = []
    for lang, book in books.items():
        if lang == source:
            continue
        have = set(book.sections)
        files = {p.chapter.path.name for p in book.parts}
        for part in base.parts:
            if part.chapter.path.name not in files:
                out.append(warning("rulebook-translation",
                                   f"chapter {part.chapter.path.name} has no {lang} translation",
                                   Span(part.chapter.display, 1, 1)))
                continue
            for h in part.headings:
                if h.id not in have:
                    out.append(warning("rulebook-translation",
                                       f"section '{h.id}' is missing from the {lang} book",
                                       h.span))
    return out


def books_for(pack_root: Path, languages: list[str]) -> dict[str, Book]:
    return {lang: parse_book(pack_root, lang) for lang in languages
            if load_chapters(pack_root, lang)}
