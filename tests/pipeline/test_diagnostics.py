"""Output formats cannot be forged, whatever text a diagnostic quotes; long reports are capped."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.diagnostics import (
    Diagnostic,
    Omitted,
    Severity,
    Span,
    cap_per_file,
    error,
    format_github,
    format_json,
    format_sarif,
    format_text,
    gh_data,
    gh_property,
    sarif_uri,
    visible,
    warning,
)
from tests.hostile.sarif import assert_valid_sarif


def test_github_escapes_data_and_properties() -> None:
    assert gh_data("50% done\r\n::warning::x") == "50%25 done%0D%0A::warning::x"
    assert gh_property("a%b,c:d\ne") == "a%25b%2Cc%3Ad%0Ae"


def test_a_file_name_cannot_forge_an_annotation() -> None:
    d = error("not-an-entity", "bad", Span("x\n::warning file=evil::forged.yaml", 1, 3))
    [line] = format_github([d]).splitlines()
    assert line.startswith("::error file=x\\n%3A%3Awarning file=evil%3A%3Aforged.yaml,line=1")


def test_invisible_characters_are_shown_escaped() -> None:
    assert visible("lai\u200br") == "lai\\u200br"
    assert visible("\x1b[31mred\x00") == "\\x1b[31mred\\x00"
    assert visible("a\nb\u2028c\u202ed\u2066e") == "a\\nb\\u2028c\\u202ed\\u2066e"
    assert visible("Зомби — 5 ± 1, naïve") == "Зомби — 5 ± 1, naïve"


def test_text_output_escapes_message_hint_and_file() -> None:
    d = error("unknown-kind", "unknown kind 'a\u200b'", Span("f\x1b.yaml", 2, 3),
              "did you mean 'a\u200e'?")
    assert d.text() == ("f\\x1b.yaml:2:3: error[unknown-kind]: unknown kind 'a\\u200b'\n"
                        "  hint: did you mean 'a\\u200e'?")


def test_sarif_uris_are_percent_encoded() -> None:
    assert sarif_uri("content/a b/x%.yaml") == "content/a%20b/x%25.yaml"
    assert sarif_uri("x\n::warning.yaml") == "x%0A%3A%3Awarning.yaml"
    assert sarif_uri("bad\udcffname.yaml") == "bad%FFname.yaml"  # a byte that is not UTF-8


TEXT = st.text(max_size=40)  # any code points, lone surrogates too
DIAGNOSTICS = st.lists(st.builds(
    Diagnostic, st.from_regex(r"[a-z]+(-[a-z]+)*", fullmatch=True), TEXT,
    st.builds(Span, TEXT, st.integers(1, 10**6), st.integers(1, 10**6)),
    st.sampled_from(list(Severity)), st.one_of(st.none(), TEXT)), max_size=5)


@settings(max_examples=80, deadline=None)
@given(DIAGNOSTICS)
def test_every_format_holds_any_text(diagnostics: list[Diagnostic]) -> None:
    """One annotation line per diagnostic; JSON and SARIF parse and SARIF is valid; all of them
    can be written as UTF-8 (no lone surrogate reaches the output)."""
    lines = format_github(diagnostics).splitlines() if diagnostics else []
    assert len(lines) == len(diagnostics)
    assert all(line.startswith(("::error file=", "::warning file=")) for line in lines)
    for output in (format_text(diagnostics), format_json(diagnostics),
                   format_sarif(diagnostics), format_github(diagnostics)):
        output.encode("utf-8")
    assert len(json.loads(format_json(diagnostics))) == len(diagnostics)
    assert_valid_sarif(json.loads(format_sarif(diagnostics)))
    assert len(format_text(diagnostics).splitlines()) == len(diagnostics) + sum(
        1 for d in diagnostics if d.hint) + 1


def test_the_cap_keeps_the_first_and_counts_the_rest() -> None:
    many = [error("e", f"problem {i}", Span("a.yaml", i + 1)) for i in range(105)]
    many += [warning("w", "note", Span("b.yaml", 1))]
    capped = cap_per_file(many, limit=100)
    in_a = [d for d in capped if d.span.file == "a.yaml"]
    assert [d.span.line for d in in_a[:100]] == list(range(1, 101))
    assert (in_a[100].code, in_a[100].span.line) == ("more-diagnostics", 101)
    assert in_a[100].message == "5 more problems in this file are not shown; the first 100 are"
    assert in_a[100].severity is Severity.ERROR
    assert [d.code for d in capped if d.span.file == "b.yaml"] == ["w"]


def test_the_cap_adds_what_was_only_counted() -> None:
    shown = [error("e", "x", Span("a.yaml", i + 1)) for i in range(100)]
    counted = Omitted()
    counted.add(7, Span("a.yaml", 200), exact=False)
    [more] = [d for d in cap_per_file(shown, {"a.yaml": counted}) if d.code == "more-diagnostics"]
    assert more.message.startswith("at least 7 more problems") and more.span.line == 200
