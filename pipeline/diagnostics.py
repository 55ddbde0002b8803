"""Diagnostics: every problem with a place, collected first and reported once."""

from __future__ import annotations

import json
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
        head = f"{self.span}: {self.severity.value}[{self.code}]: {self.message}"
        return head + (f"\n  hint: {self.hint}" if self.hint else "")

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "col": self.span.col,
            "hint": self.hint,
        }


def error(code: str, message: str, span: Span, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, span, Severity.ERROR, hint)


def warning(code: str, message: str, span: Span, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, span, Severity.WARNING, hint)


class RelicError(Exception):
    """The project's own error: carries one or more diagnostics."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(d.text() for d in self.diagnostics))


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
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except ValueError:
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


def _gh_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def format_github(diagnostics: Sequence[Diagnostic]) -> str:
    out = []
    for d in diagnostics:
        message = d.message + (f" (hint: {d.hint})" if d.hint else "")
        out.append(
            f"::{d.severity.value} file={d.span.file},line={d.span.line},col={d.span.col},"
            f"title={d.code}::{_gh_escape(message)}"
        )
    return "\n".join(out)


def format_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    rules = sorted({d.code for d in diagnostics})
    results = [
        {
            "ruleId": d.code,
            "level": d.severity.value,
            "message": {"text": d.message + (f" Hint: {d.hint}" if d.hint else "")},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": d.span.file},
                        "region": {"startLine": d.span.line, "startColumn": d.span.col},
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
