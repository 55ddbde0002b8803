"""The whole book in one language: chapters parsed, references checked, HTML assembled."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from html import escape
from pathlib import Path
from typing import Any

import jinja2
from markdown_it.token import Token
from markupsafe import Markup

from pipeline.diagnostics import Diagnostic, Span, error, relative, warning
from pipeline.loader import try_load
from pipeline.model import Model
from pipeline.rulebook import columns, page, views
from pipeline.rulebook import references as refs_mod
from pipeline.rulebook.glyphs import FONTS
from pipeline.rulebook.i18n import label, localized
from pipeline.rulebook.layout import CHARSET_ID
from pipeline.rulebook.markdown import (
    Heading,
    ParsedChapter,
    Term,
    mark_terms,
    parse_chapter,
    to_html,
)
from pipeline.rulebook.pictures import NoPictures, Pictures
from pipeline.rulebook.references import Context, RefError
from pipeline.rulebook.source import load_chapters, load_glossary

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = PROJECT_ROOT / "templates" / "rulebook"
GLOSSARY_LINE = re.compile(r"^[-*]\s+\*\*(.+?)\*\*")
ENDINGS = {"ru": "аяоеиыуюйьё", "en": "e"}
PLACEHOLDER_LEFT = re.compile(r"\{\{|\{%|\}\}|%\}")
INDEX_COLUMNS = {"a5": (32, 36), "a4": (48, 46), "letter": (45, 48)}
"""The index's two columns on each paper: the lines a page's column surely holds (a few less
than it does, so that a long index reads down each page's columns in turn) and the characters
a line holds, roughly (to balance the columns: `columns.py`)."""
TOC_LINE = 40
"""A contents title of at most this many characters fits one line on every paper, and its dots
are set as one clipped run; a longer one may wrap, and takes WeasyPrint's `leader()`."""
FIXED_DATE = "2000-01-01T00:00:00Z"


@cache
def environment() -> jinja2.Environment:
    """The book's templates (one environment per process: each template is compiled once)."""
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


def context(model: Model, book: Book, proof: bool = False, paper: str = "a5") -> Context:
    return Context(model, book.lang, environment(), book.sections, proof=proof,
                   decisions=decisions(model.pack.root),
                   places={h.id: h.span for h in book.headings}, paper=paper,
                   figures=views.Figures(measure=False))


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


QUOTED = re.compile(r"""["“«„]([^"“”«»„]+)["”»“]\s*\(?\s*$""")


def doubled_references(book: Book) -> list[Diagnostic]:
    """A section named in quotes and then given again by `see()` is one reference printed
    twice: "See the chapter “The end of the game” (see p. 41)". The name is typed out or
    made by `title()`; `page()` gives the page alone."""
    out = []
    chapter_of = {h.id: p.headings[0].text for p in book.parts if p.headings
                  for h in p.headings}
    for part in book.parts:
        lines = part.chapter.text.split("\n")
        for ref in part.refs:
            if ref.name != "see" or not ref.args or ref.args[0] not in book.sections:
                continue
            target = ref.args[0]
            before = lines[ref.line][: ref.start]
            for r in part.refs:  # `"{{ title("x") }}" (` reads as the title itself
                if r.line == ref.line and r.end <= ref.start and r.name == "title":
                    before = before[: r.start] + book.sections.get(r.args[0], "") + \
                        before[r.end:] if r.args else before
            m = QUOTED.search(before)
            named = m.group(1).strip().lower() if m else None
            if named in (book.sections[target].lower(), chapter_of.get(target, "").lower()):
                out.append(warning(
                    "rulebook-doubled-ref",
                    f"“{m.group(1).strip()}” is named in quotes and then referred to "
                    f"again by {ref.source}",
                    ref.span,
                    hint=f'give its page once: “…”, {{{{ page("{target}") }}}} prints "'
                    f'{label("page", book.lang)} N"'))
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


def chapter_html(ctx: Context, part: ParsedChapter) -> str:
    def render_ref(n: int) -> tuple[Markup, bool]:
        ref = part.refs[n]
        return refs_mod.render(ctx, ref), refs_mod.SPECS[ref.name].block

    return to_html(part, render_ref)


PAGE_MARK = re.compile(f"{refs_mod.PAGE_OPEN}([^{refs_mod.PAGE_CLOSE}]*){refs_mod.PAGE_CLOSE}")
PAGE_STYLE, BODY = "<!--relic:page-style-->", "<!--relic:body-->"
PICTURE_URL = re.compile(re.escape(views.PICTURES_URL) + r"[^\"'\s)]+")
CHARSET_STYLES = (("serif", "normal", "normal"), ("serif", "bold", "normal"),
                  ("serif", "normal", "italic"), ("sans", "normal", "normal"),
                  ("sans", "bold", "normal"), ("sans", "normal", "italic"))
LIGATURES = "ff fi fl ffi ffl"


@dataclass(frozen=True)
class Unit:
    """A part of the book laid out on its own: the cover, the contents, a chapter, the
    glossary or the index. Every unit starts on a new page; `body` holds page marks where
    page numbers go (`references.page_mark`)."""

    name: str
    body: str

    @property
    def targets(self) -> list[str]:
        return list(dict.fromkeys(m[1] for m in PAGE_MARK.finditer(self.body)))

    @property
    def pictures(self) -> list[str]:
        return sorted(set(PICTURE_URL.findall(self.body)))


@dataclass(frozen=True)
class Composed:
    """One language's book as HTML, unit by unit, before any page is laid out."""

    lang: str
    title: str
    paper: str
    proof: bool
    document: str  # book.html.j2 with PAGE_STYLE and BODY to fill
    units: tuple[Unit, ...]
    pictures: Mapping[str, tuple[Any, int]]  # picture URL path -> (Picture, width px)
    drawn: Mapping[str, Any] = field(default_factory=dict)  # URL path -> `blocks.Block`
    drawn_read: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # what it read

    @cached_property
    def characters(self) -> tuple[frozenset[str], frozenset[str]]:
        """(running-text characters, `.sym` characters) the book prints, page numbers apart."""
        from pipeline.rulebook.glyphs import printed_characters

        text, symbols = printed_characters(self.whole())
        return frozenset(text), frozenset(symbols)

    def charset(self) -> str:
        """Every character any unit prints (page numbers, hyphens and ligatures included):
        each unit sets them all on a last, discarded page, so that every unit embeds the
        very same font subsets and the assembled book holds each font once."""
        text, symbols = self.characters
        chars = set("0123456789\u2010 ") | text | symbols
        chars |= set("".join(re.findall(r"content:[^;}]*", self.document)))  # CSS text
        return "".join(sorted(ch for ch in chars if unicodedata.category(ch)[0] != "C"))

    def fill(self, unit: Unit, number: Any) -> str:
        return PAGE_MARK.sub(lambda m: number(m[1]), unit.body)

    def html(self, unit: Unit, number: Any, first_page: int, charset: str) -> str:
        """A unit's own HTML document: its page numbers filled in by `number(target)`, its
        first page numbered `first_page`, and the charset page at the end (none for an
        empty `charset`)."""
        style = f"<style>@page :first {{ counter-reset: page {first_page}; }}</style>"
        return self.document.replace(PAGE_STYLE, style).replace(
            BODY, self.fill(unit, number) + (charset_section(charset) if charset else ""))

    def whole(self) -> str:
        """Every unit in one HTML text (page numbers left empty), for checks."""
        return self.document.replace(PAGE_STYLE, "").replace(
            BODY, "\n".join(self.fill(u, lambda t: "") for u in self.units))


@cache
def charset_section(charset: str) -> str:
    """A last page with every character of the book in every style the book sets, each in the
    faces that have it (a character a face lacks would pull in a fallback font)."""
    from pipeline.cards.fonts import missing_glyphs
    from pipeline.rulebook.glyphs import book_faces

    faces = book_faces(tuple(sorted(FONTS.items())))
    spaces = "".join(ch for ch in charset if ch.isspace())
    paragraphs = []
    for role, weight, style in CHARSET_STYLES:
        face = faces[role][0 if (weight, style) == ("normal", "normal") else
                           1 if weight == "bold" else 2]
        lacking = set(missing_glyphs(face, charset))
        glyphs = [ch for ch in charset if not ch.isspace() and ch not in lacking]
        text = escape(glyphs[0] + "".join(f"{sp}{glyphs[0]}" for sp in spaces) + " " +
                      " ".join(glyphs[1:]) + " " + LIGATURES)
        paragraphs.append(f'<p style="font-family: \'{FONTS[role]}\'; font-weight: {weight}; '
                          f'font-style: {style}; hyphens: manual; text-align: left">{text}</p>')
    return (f'<section class="charset" id="{CHARSET_ID}" style="break-before: page">'
            f'{"".join(paragraphs)}</section>')


def compose(model: Model, book: Book, *, paper: str = "a5", proof: bool = False,
            pictures: Pictures | None = None, measure: bool = True) -> Composed:
    """The book's units as HTML (raises `RefError` on a reference that does not resolve).
    `measure` False: the blocks drawn apart are not measured (their places have no height),
    for checks that read the book's words only."""
    figures = views.Figures(pictures or NoPictures(), measure=measure)
    ctx = replace(context(model, book, proof, paper=paper), figures=figures)
    terms = glossary_terms(book)
    book = replace(book, chapters=tuple(replace(p, tokens=writable_text(p.tokens))
                                        for p in book.chapters))
    marks: list[int] = []
    for part in book.chapters:
        marks += mark_terms(part.tokens, terms, len(marks))
    index: dict[int, list[str]] = {}
    for n, ti in enumerate(marks):
        index.setdefault(ti, []).append(f"ix-{n}")
    entries = sorted(({"term": terms[ti].text, "anchors": a} for ti, a in index.items()),
                     key=lambda e: e["term"].lower().replace("ё", "е"))
    toc = [h for h in book.headings if h.level <= 2]
    if entries:
        toc.append(Heading(1, "index", label("index", book.lang), Span("", 1, 1)))
    src = model.pack.source_language
    title = str(localized(model.pack.title, book.lang, src))
    env = environment()
    labels = {k: label(k, book.lang) for k in ("contents", "index", "proof", "see", "page")}
    common = {"lang": book.lang, "labels": labels, "proof": proof, "page": refs_mod.page_mark}
    cover = [pic for e in model.of_kind("monster")
             if (pic := figures.use(model, e.id, book.lang, "cover")) is not None][:4]
    units = [Unit("cover", env.get_template("cover.html.j2").render(
                 **common, title=title, subtitle=label("subtitle", book.lang), cover=cover,
                 description=localized(model.pack.data.get("description"), book.lang, src))),
             Unit("contents", env.get_template("contents.html.j2").render(
                 **common, toc=toc, toc_line=TOC_LINE))]
    for part in book.chapters:
        anchor = part.headings[0].id if part.headings else part.chapter.slug
        units.append(Unit(part.chapter.path.stem, f'<section class="chapter" '
                          f'id="chapter-{anchor}">\n{chapter_html(ctx, part)}\n</section>'))
    if book.glossary:
        units.append(Unit("glossary", f'<section class="chapter glossary">\n'
                          f"{chapter_html(ctx, book.glossary)}\n</section>"))
    if entries:
        units.append(Unit("index", env.get_template("index.html.j2").render(
            **common, blocks=index_blocks(entries, paper))))
    document = env.get_template("book.html.j2").render(
        lang=book.lang, title=title, proof=proof, page_size=page.PAPERS[paper], fonts=FONTS,
        paper=paper, date=FIXED_DATE, labels=labels,
        block_picture_mm=views.PICTURE_MM["block"], margins=page.MARGINS_MM[paper],
        base_font=f"{page.BASE_FONT_PT[paper]}pt", block_em=page.BLOCK_EM,
        block_border=page.BLOCK_BORDER_PT, block_padding=page.BLOCK_PADDING_EM,
        picture_gap=page.PICTURE_GAP_MM, line_em=page.LINE_EM, table_rule=page.TABLE_RULE,
        table_shade=page.TABLE_SHADE, cell_padding=page.CELL_PADDING_EM)
    return Composed(book.lang, title, paper, proof, document, tuple(units),
                    dict(figures.used), dict(figures.drawn), dict(figures.read))


def index_blocks(entries: list[dict[str, Any]], paper: str) -> list[list[list[dict]]]:
    """The index entries in blocks of two balanced columns (`columns.pages`); an entry's length
    is its term and about four characters per page number (", 12")."""
    lines, chars = INDEX_COLUMNS[paper]
    weights = [columns.lines_of(len(e["term"]) + 4 * len(e["anchors"]), chars) for e in entries]
    return columns.pages(entries, weights, 2, lines)


def writable_text(tokens: tuple[Token, ...]) -> tuple[Token, ...]:
    """The tokens with their own copies of the text tokens `mark_terms` writes into (the parsed
    chapter stays as it was); every other token is shared."""
    return tuple(tok.copy(children=[child.copy() for child in tok.children])
                 if tok.type == "inline" and tok.children else tok for tok in tokens)


def render_html(model: Model, book: Book, *, paper: str = "a5", proof: bool = False,
                pictures: Pictures | None = None) -> str:
    """The whole book's HTML in one text (page numbers left out): what checks read."""
    return compose(model, book, paper=paper, proof=proof, pictures=pictures).whole()


def glyph_problems(model: Model, book: Book, composed: Composed) -> list[Diagnostic]:
    """Characters of the book that its fonts lack (they would print from a fallback font)."""
    from pipeline.rulebook.glyphs import check_glyphs

    sources = [(p.chapter.display, p.chapter.text) for p in book.parts]
    text, symbols = composed.characters
    # the words of the blocks drawn apart are checked as running text is, in every style of
    # both families: stricter than the one family they are drawn in needs
    text = text.union(*(block.text for block in composed.drawn.values()))
    return check_glyphs((text, symbols), FONTS, sources, model.pack.manifest.span())


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
