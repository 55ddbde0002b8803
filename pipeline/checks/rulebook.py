"""Rulebook checks inside `relic check`: references, cross-references, placeholders, coverage.

- every data reference in the Markdown resolves (entity id and field exist) -> rulebook-ref
- every cross-reference `see("id")` names a section of the same language's book -> rulebook-ref
- no template placeholder (`{{`, `{%`) survives into the rendered HTML -> rulebook-placeholder
- every printed entity kind (keys of `print.components`) is shown somewhere -> rulebook-coverage
  (a warning)
- every chapter and section of the source language is translated -> rulebook-translation
- every picture of the prose is a file of the pack or assets/ (no URL, no file outside)
  -> rulebook-image
- every character the book prints has a glyph in the book's own fonts -> rulebook-glyph
- a section named in quotes is not given again by `see()` -> rulebook-doubled-ref (a warning)
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.diagnostics import Diagnostic, Severity, Span, warning
from pipeline.model import Model
from pipeline.rulebook import book as bk
from pipeline.rulebook.references import RefError
from pipeline.rulebook.source import languages_present
from pipeline.rulebook.views import printed_kinds


def check(model: Model) -> Iterable[Diagnostic]:
    root = model.pack.root
    langs = [lang for lang in languages_present(root) if lang in model.pack.languages]
    if not langs:
        return []
    books = bk.books_for(root, langs)
    out: list[Diagnostic] = []
    for lang, book in books.items():
        problems = [*book.diagnostics, *bk.validate(model, book)]
        out += problems
        if any(d.severity is Severity.ERROR for d in problems):
            continue
        try:
            composed = bk.compose(model, book, measure=False)  # (its words, not its pages)
        except RefError as exc:  # validated above; kept for safety
            out.append(warning("rulebook-render", exc.message, Span(str(root / "rules" / lang))))
            continue
        out += bk.placeholders_left(composed.whole(),
                                    f"{root / 'rules' / lang} (rendered HTML)")
        out += bk.glyph_problems(model, book, composed)
        out += bk.doubled_references(book)
    out += bk.translation_gaps(root, books, model.pack.source_language)
    source = books.get(model.pack.source_language) or next(iter(books.values()), None)
    if source is not None:
        out += coverage(model, bk.explained(model, source), source.lang)
    return out


def coverage(model: Model, shown: set[str], lang: str) -> list[Diagnostic]:
    """Printed kinds that the book never shows (by a reference to one of its entities)."""
    out = []
    manifest = model.pack.manifest
    for kind in printed_kinds(model):
        if kind not in shown:
            out.append(warning(
                "rulebook-coverage",
                f"the printed kind '{kind}' is not explained anywhere in the "
                f"{lang} rulebook",
                manifest.span(("print", "components", kind)),
                hint=f'show it with a reference, e.g. {{{{ components("{kind}") }}}}',
            ))
    return out
