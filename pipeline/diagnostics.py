"""Diagnostics: every problem with a place, collected first and reported once.

Messages quote content (names, ids, file names), and content can be hostile: every output
format shows control, zero-width and bidi characters escaped (`visible`), GitHub workflow
commands escape their properties and data, and SARIF file locations are percent-encoded URIs, so
no input can forge a line, an annotation or a result.
"""

from __future__ import annotations

import json
import os
import unicodedata
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Span:
    """A place in a source file; line and column are 1-based."""

    file: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    severity: Severity = Severity.ERROR
    hint: str | None = None

    def sort_key(self) -> tuple:
        return (self.span.file, self.span.line, self.span.col, self.code, self.message)

    def escalated(self) -> Diagnostic:
        """The same diagnostic as an error (for --strict)."""
        return Diagnostic(self.code, self.message, self.span, Severity.ERROR, self.hint)

    def text(self) -> str:
        where = f"{visible(self.span.file)}:{self.span.line}:{self.span.col}"
        head = f"{where}: {self.severity.value}[{visible(self.code)}]: {visible(self.message)}"
        return head + (f"\n  hint: {visible(self.hint)}" if self.hint else "")

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": visible(self.message),
            "file": printable_path(self.span.file),
            "line": self.span.line,
            "col": self.span.col,
            "hint": visible(self.hint) if self.hint else None,
        }


_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def visible(text: str) -> str:
    """`text` with every control, format (zero-width, bidi), line-separator, private-use and
    unassigned character written as an escape (`\\x1b`, `\\u200b`, `\\n`)."""
    if text.isprintable():
        return text
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if not ch.isprintable() and unicodedata.category(ch) in _HIDDEN
        else ch
        for ch in text
    )


def printable_path(path: str) -> str:
    """A path that any UTF-8 output can hold: bytes that are not UTF-8 (kept by Python as lone
    surrogates) become `\\xff` escapes."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


MAX_PER_FILE = 100


@dataclass
class Omitted:
    """Diagnostics of one file that were counted but never built (past the cap)."""

    count: int = 0
    exact: bool = True  # False: validation stopped early, so there may be more
    span: Span | None = None  # where the first of them stands

    def add(self, count: int, span: Span | None, exact: bool) -> None:
        if span is not None and (self.span is None or span < self.span):
            self.span = span
        self.count += count
        self.exact = self.exact and exact


def cap_per_file(
    diagnostics: Sequence[Diagnostic],
    omitted: dict[str, Omitted] | None = None,
    limit: int = MAX_PER_FILE,
) -> list[Diagnostic]:
    """At most `limit` diagnostics per file (the first ones, in file order), then one that says
    how many more there are (`omitted`: those counted but never built)."""
    omitted = omitted or {}
    per_file = Counter(d.span.file for d in diagnostics)
    if not omitted and all(n <= limit for n in per_file.values()):
        return list(diagnostics)
    kept: list[Diagnostic] = []
    rest: dict[str, list[Diagnostic]] = {}
    shown: Counter[str] = Counter()
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        if shown[d.span.file] < limit:
            shown[d.span.file] += 1
            kept.append(d)
        else:
            rest.setdefault(d.span.file, []).append(d)
    for file in sorted(set(rest) | set(omitted)):
        more = Omitted()
        for d in rest.get(file, []):
            more.add(1, d.span, exact=True)
        if file in omitted:
            counted = omitted[file]
            more.add(counted.count, counted.span or Span(file), counted.exact)
        errors = any(d.severity is Severity.ERROR for d in rest.get(file, [])) or file in omitted
        amount = f"{more.count}" if more.exact else f"at least {more.count}"
        kept.append(Diagnostic(
            "more-diagnostics",
            f"{amount} more problems in this file are not shown; the first {shown[file]} are",
            more.span or Span(file),
            Severity.ERROR if errors else Severity.WARNING,
            "fix these and check again",
        ))
    return kept


def error(code: str, message: str, span: Span, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, span, Severity.ERROR, hint)


def warning(code: str, message: str, span: Span, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, span, Severity.WARNING, hint)


class RelicError(Exception):
    """The project's own error: carries one or more diagnostics."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(d.text() for d in self.diagnostics))

    def __reduce__(self):  # whole across process pools (a worker's refusal reaches the command)
        return (type(self), (self.diagnostics,))


@dataclass
class Report:
    """A collector: stages add diagnostics; the command reports once at the end."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.items.extend(diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.WARNING]

    def sorted(self, strict: bool = False) -> list[Diagnostic]:
        items = [d.escalated() for d in self.items] if strict else list(self.items)
        unique = {(d.sort_key(), d.severity): d for d in items}
        return sorted(unique.values(), key=Diagnostic.sort_key)


def relative(path: Path | str, root: Path | None = None) -> str:
    """A stable, readable path for messages: relative to the working folder when possible."""
    path = Path(path)
    base = root or Path.cwd()
    # As written first (a link is shown as the link), then with links resolved; never
    # Path.resolve(), which raises on a symlink loop.
    for resolve in (os.path.abspath, os.path.realpath):
        try:
            return str(Path(resolve(path)).relative_to(resolve(base)))
        except ValueError:
            continue
    return str(path)


# ----- output formats -------------------------------------------------------------------------


def format_text(diagnostics: Sequence[Diagnostic]) -> str:
    lines = [d.text() for d in diagnostics]
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = len(diagnostics) - errors
    lines.append(f"{errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)


def format_json(diagnostics: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], ensure_ascii=False, indent=2)


def gh_data(text: str) -> str:
    """Escape the data of a GitHub workflow command (the message after `::`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def gh_property(text: str) -> str:
    """Escape a property value of a GitHub workflow command (`file=…,title=…`)."""
    return gh_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(diagnostics: Sequence[Diagnostic]) -> str:
    out = []
    for d in diagnostics:
        message = visible(d.message) + (f" (hint: {visible(d.hint)})" if d.hint else "")
        out.append(
            f"::{d.severity.value} file={gh_property(visible(d.span.file))},"
            f"line={d.span.line},col={d.span.col},title={gh_property(visible(d.code))}"
            f"::{gh_data(message)}"
        )
    return "\n".join(out)


def sarif_uri(path: str) -> str:
    """A file path as a relative URI reference (RFC 3986): every character that is not
    unreserved, and every `%`, percent-encoded in UTF-8 (lone surrogates too)."""
    raw = path.replace(os.sep, "/").encode("utf-8", "surrogateescape")
    return urllib.parse.quote(raw, safe="/") or "."


def format_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    rules = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(rules)}
    results = [
        {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": d.severity.value,
            "message": {
                "text": (visible(d.message) or d.code)
                + (f" Hint: {visible(d.hint)}" if d.hint else "")
            },
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": sarif_uri(d.span.file)},
                        "region": {
                            "startLine": max(1, d.span.line),
                            "startColumn": max(1, d.span.col),
                        },
                    }
                }
            ],
        }
        for d in diagnostics
    ]
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "relic",
                        "informationUri": "https://example.invalid/relic-press",
                        "rules": [{"id": code} for code in rules],
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(sarif, ensure_ascii=False, indent=2)


FORMATTERS = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
    "sarif": format_sarif,
}
