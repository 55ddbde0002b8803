"""Markdown chapters -> HTML, with data references and index marks swapped in afterwards.

References are replaced by private-use placeholders before markdown-it parses the text (raw HTML
in the prose is escaped, never passed through), and by their rendered HTML afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from pipeline.checks.assets import ASSETS
from pipeline.checks.assets import problem as asset_problem
from pipeline.diagnostics import Diagnostic, Span, error
from pipeline.rulebook.source import Chapter, Reference, scan

OPEN, CLOSE = "\ue000", "\ue001"
IX_OPEN, IX_MID, IX_CLOSE = "\ue002", "\ue004", "\ue003"
PLACEHOLDER = re.compile(f"{OPEN}(\\d+){CLOSE}")
BLOCK_PLACEHOLDER = re.compile(f"<p>{OPEN}(\\d+){CLOSE}</p>")
INDEX_MARK = re.compile(f"{IX_OPEN}(\\d+){IX_MID}([^{IX_CLOSE}]*){IX_CLOSE}")
HEADING_ID = re.compile(r"\s*\{#([a-z0-9]+(?:-[a-z0-9]+)*)\}\s*$")
QUOTES = {"ru": "«»„“", "en": "“”‘’"}
IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".svg")


@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    text: str
    span: Span


@dataclass(frozen=True)
class ParsedChapter:
    chapter: Chapter
    refs: tuple[Reference, ...]
    headings: tuple[Heading, ...]
    tokens: tuple[Token, ...]
    diagnostics: tuple[Diagnostic, ...]


def parser(lang: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": True,
                                   "quotes": QUOTES.get(lang, QUOTES["en"])})
    md.enable(["table", "replacements", "smartquotes", "strikethrough"])
    return md


def _with_placeholders(text: str, refs: Sequence[Reference]) -> str:
    lines = text.split("\n")
    for n in sorted(range(len(refs)), key=lambda i: (refs[i].line, -refs[i].start)):
        r = refs[n]
        line = lines[r.line]
        lines[r.line] = line[: r.start] + f"{OPEN}{n}{CLOSE}" + line[r.end:]
    return "\n".join(lines)


def _headings(chapter: Chapter, tokens: list[Token]) -> tuple[list[Heading], list[Diagnostic]]:
    found: list[Heading] = []
    problems: list[Diagnostic] = []
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open":
            continue
        inline = tokens[i + 1]
        line = (tok.map[0] + 1) if tok.map else 1
        span = Span(chapter.display, line, 1)
        m = HEADING_ID.search(inline.content)
        text = inline.content[: m.start()] if m else inline.content
        if m and inline.children:
            last = inline.children[-1]
            last.content = HEADING_ID.sub("", last.content)
        level = int(tok.tag[1])
        if m:
            hid = m.group(1)
        elif level == 1:
            hid = chapter.slug
        else:
            hid = f"{chapter.slug}-{len(found) + 1}"
        if PLACEHOLDER.search(text):
            problems.append(error("rulebook-heading", "headings cannot hold references", span))
        tok.attrSet("id", hid)
        found.append(Heading(level, hid, text.strip(), span))
    return found, problems


IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)>\s]*)")
FENCE = re.compile(r"^\s*(```|~~~)")


def _image_problem(src: str, pack_root: Path) -> str | None:
    why = asset_problem(src, pack_root)
    if why is None and not src.lower().endswith(IMAGE_TYPES):
        why = f"is not a picture the book can print ({', '.join(IMAGE_TYPES)})"
    return why


def _image_diagnostics(chapter: Chapter, pack_root: Path) -> list[Diagnostic]:
    """Every `![alt](src)` of the prose (outside code blocks) names a picture file of the pack
    or of assets/, by a path from the pack folder: never a URL, an absolute path or a file
    outside. Checked on the source text, so that links markdown-it refuses to parse (`file:`)
    are reported too, at their own line and column."""
    out = []
    fenced = False
    for n, line in enumerate(chapter.text.split("\n")):
        if FENCE.match(line):
            fenced = not fenced
        if fenced:
            continue
        for m in IMAGE.finditer(line):
            why = _image_problem(m.group(1), pack_root)
            if why is not None:
                out.append(error("rulebook-image", f"image {m.group(1)!r} {why}",
                                 Span(chapter.display, n + 1, m.start() + 1),
                                 hint="pictures are files in the pack folder or assets/, "
                                 "named by their path from the pack folder"))
    return out


def _resolve_images(tokens: list[Token], pack_root: Path) -> None:
    """An image's src becomes its file's URL; a refused one (reported) shows nothing."""
    for block in tokens:
        for tok in block.children or ():
            if tok.type != "image":
                continue
            src = unquote(str(tok.attrGet("src") or ""))
            if _image_problem(src, pack_root) is not None:
                tok.attrSet("src", "")
                continue
            found = next(root / src for root in (pack_root.resolve(), ASSETS)
                         if (root / src).resolve().is_file())
            tok.attrSet("src", found.resolve().as_uri())


def parse_chapter(chapter: Chapter) -> ParsedChapter:
    refs, problems = scan(chapter)
    md = parser(chapter.lang)
    tokens = md.parse(_with_placeholders(chapter.text, refs))
    headings, more = _headings(chapter, tokens)
    pack_root = chapter.path.parent.parent.parent  # <pack>/rules/<lang>/<chapter>.md
    more += _image_diagnostics(chapter, pack_root)
    _resolve_images(tokens, pack_root)
    if not headings or headings[0].level != 1:
        more.append(error("rulebook-chapter", "a chapter starts with a '# Title' heading",
                          Span(chapter.display, 1, 1)))
    return ParsedChapter(chapter, tuple(refs), tuple(headings), tuple(tokens),
                         tuple(problems + more))


@dataclass(frozen=True)
class Term:
    """An index term: its printed form and the regexes (of lowercase stems) that find it."""

    text: str
    stems: tuple[str, ...]

    @cached_property
    def finder(self) -> re.Pattern[str]:
        """Its first use in a lowercase text: the leftmost of any of its stems, starting a
        word."""
        return re.compile(r"(?<![\w-])(?:" + "|".join(f"(?:{s})" for s in self.stems) + ")")


WORD = re.compile(r"[\w-]*")


def mark_terms(tokens: Sequence[Token], terms: Sequence[Term], start: int) -> list[int]:
    """Put an index mark on one use of each term in the chapter: in a heading (where the term is
    explained) when there is one, else its first use in the text.

    Returns, for every mark placed (numbered from `start`), the index of its term.
    """
    placed: list[int] = []
    pending = dict(enumerate(terms))
    headings, text = [], []
    in_heading = False
    for tok in tokens:
        if tok.type == "heading_open":
            in_heading = True
        elif tok.type == "heading_close":
            in_heading = False
        elif tok.type == "inline" and tok.children:
            (headings if in_heading else text).append(tok)
    for tok in headings + text:
        for child in tok.children or ():
            if child.type == "text" and pending:
                _mark(child, pending, placed, start)
    return placed


def _mark(child: Token, pending: dict[int, Term], placed: list[int], start: int) -> None:
    low = child.content.lower()
    hits = []
    for ti, term in pending.items():
        found = term.finder.search(low)
        if found is not None:
            pos = found.start()
            end = pos + len(WORD.match(child.content, pos).group(0))
            hits.append((pos, end, ti))
    chosen: list[tuple[int, int, int]] = []
    for pos, end, ti in sorted(hits):
        if all(end <= a or pos >= b for a, b, _ in chosen):
            chosen.append((pos, end, ti))
    for _, _, ti in chosen:
        del pending[ti]
    for pos, end, ti in reversed(chosen):
        mark = f"{IX_OPEN}{start + len(placed)}{IX_MID}"
        text = child.content
        child.content = text[:pos] + mark + text[pos:end] + IX_CLOSE + text[end:]
        placed.append(ti)


def to_html(parsed: ParsedChapter, render_ref: Callable[[int], tuple[Markup, bool]]) -> str:
    """The chapter's HTML; `render_ref(n)` gives reference n's HTML and whether it is a block."""
    md = parser(parsed.chapter.lang)
    html = md.renderer.render(list(parsed.tokens), md.options, {})
    rendered: dict[int, tuple[Markup, bool]] = {}

    def get(n: int) -> tuple[Markup, bool]:
        if n not in rendered:
            rendered[n] = render_ref(n)
        return rendered[n]

    def block(m: re.Match[str]) -> str:
        out, is_block = get(int(m.group(1)))
        return str(out) if is_block else f"<p>{out}</p>"

    html = BLOCK_PLACEHOLDER.sub(block, html)
    html = PLACEHOLDER.sub(lambda m: str(get(int(m.group(1)))[0]), html)
    return INDEX_MARK.sub(
        lambda m: f'<span class="ix" id="ix-{m.group(1)}">{m.group(2)}</span>', html)
