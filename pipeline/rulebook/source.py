"""Finding the rulebook's Markdown chapters and scanning them for data references."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pipeline.diagnostics import Diagnostic, RelicError, Span, error, relative

RULES_DIR = "rules"
CHAPTER = re.compile(r"^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$")
GLOSSARY = "glossary.md"
REFERENCE = re.compile(r"\{\{(.*?)\}\}")
STRAY = re.compile(r"\{\{|\}\}|\{%|%\}")


@cache
def _parser():
    """Jinja's parser, for the references the simple form does not read (imported only then:
    a build that only asks which languages have a book does not import Jinja)."""
    import jinja2

    return jinja2.Environment(autoescape=True)


@dataclass(frozen=True)
class Chapter:
    """One Markdown file of the book in one language."""

    path: Path
    display: str
    lang: str
    order: int
    slug: str
    text: str


@dataclass(frozen=True)
class Reference:
    """A `{{ name(args) }}` data reference or cross-reference found in the prose."""

    name: str
    args: tuple[Any, ...]
    span: Span
    line: int  # 0-based line index in the file
    start: int  # 0-based character offsets of `{{` and after `}}` in the line
    end: int

    @property
    def source(self) -> str:
        shown = ", ".join(repr(a).replace("'", '"') for a in self.args)
        return f"{self.name}({shown})"


def rules_dir(pack_root: Path) -> Path:
    return pack_root / RULES_DIR


def languages_present(pack_root: Path) -> list[str]:
    root = rules_dir(pack_root)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.md")))


def _read(path: Path, lang: str, order: int, slug: str) -> Chapter:
    try:
        text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        raise RelicError([error("rulebook-encoding", f"not UTF-8: {exc.reason} at byte "
                                f"{exc.start}", Span(relative(path), 1, 1))]) from None
    return Chapter(path, relative(path), lang, order, slug, text)


def load_chapters(pack_root: Path, lang: str) -> list[Chapter]:
    """The numbered chapters `rules/<lang>/NN-name.md`, in order."""
    folder = rules_dir(pack_root) / lang
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.md")):
        m = CHAPTER.match(path.name)
        if m:
            found.append(_read(path, lang, int(m.group(1)), m.group(2)))
    return sorted(found, key=lambda c: (c.order, c.slug))


def load_glossary(pack_root: Path, lang: str) -> Chapter | None:
    path = rules_dir(pack_root) / lang / GLOSSARY
    return _read(path, lang, 10_000, "glossary") if path.is_file() else None


# the form nearly every reference takes: a name and double-quoted strings or whole numbers
_SIMPLE_CALL = re.compile(r'\s*([A-Za-z_]\w*)\(\s*((?:"[^"\\{}]*"|\d+)'
                          r'(?:\s*,\s*(?:"[^"\\{}]*"|\d+))*)?\s*\)\s*')
_SIMPLE_ARG = re.compile(r'"([^"\\{}]*)"|(\d+)')


def _const_call(expr: str) -> tuple[str, tuple[Any, ...]] | str:
    """`name("a", 1)` -> ("name", ("a", 1)); otherwise a message saying what is wrong. The
    simple form is read directly, anything else by Jinja's parser (which says what is
    wrong)."""
    simple = _SIMPLE_CALL.fullmatch(expr)
    if simple is not None:
        return simple[1], tuple(int(number) if number else text
                                for text, number in _SIMPLE_ARG.findall(simple[2] or ""))
    import jinja2
    from jinja2 import nodes

    try:
        tree = _parser().parse("{{" + expr + "}}")
    except jinja2.TemplateSyntaxError as exc:
        return f"not a valid reference: {exc.message}"
    body = tree.body
    if len(body) != 1 or not isinstance(body[0], nodes.Output) or len(body[0].nodes) != 1:
        return "a reference holds one call"
    call = body[0].nodes[0]
    if not isinstance(call, nodes.Call) or not isinstance(call.node, nodes.Name):
        return 'a reference is a call such as stat("zombie", "stats.speed")'
    if call.kwargs or call.dyn_args or call.dyn_kwargs:
        return "a reference takes plain arguments only (no keywords)"
    args = []
    for arg in call.args:
        if not isinstance(arg, nodes.Const):
            return "reference arguments must be quoted strings or numbers"
        args.append(arg.value)
    return call.node.name, tuple(args)


def scan(chapter: Chapter) -> tuple[list[Reference], list[Diagnostic]]:
    """Every reference of a chapter with its place; syntax problems as diagnostics."""
    refs: list[Reference] = []
    problems: list[Diagnostic] = []
    for n, line in enumerate(chapter.text.split("\n")):
        rest = line
        for m in REFERENCE.finditer(line):
            span = Span(chapter.display, n + 1, m.start() + 1)
            parsed = _const_call(m.group(1))
            if isinstance(parsed, str):
                problems.append(error("rulebook-syntax", parsed, span))
            else:
                refs.append(Reference(parsed[0], parsed[1], span, n, m.start(), m.end()))
            rest = rest[: m.start()] + " " * (m.end() - m.start()) + rest[m.end():]
        for m in STRAY.finditer(rest):
            problems.append(
                error(
                    "rulebook-syntax",
                    f"stray '{m.group(0)}': only complete {{{{ name(...) }}}} references on one "
                    "line are allowed",
                    Span(chapter.display, n + 1, m.start() + 1),
                )
            )
    return refs, problems
