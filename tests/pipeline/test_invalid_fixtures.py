"""Every error class has an invalid fixture pack and the exact diagnostic it must produce."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pipeline.diagnostics import Severity
from pipeline.loader import MAX_FILE_BYTES
from pipeline.stages import analyze

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "packs"

# case, code, file, line, col, severity
TABLE = [
    ("duplicate-key", "duplicate-key", "critters.yaml", 6, 3, "error"),
    ("custom-tag", "custom-tag", "critters.yaml", 4, 10, "error"),
    ("not-utf8", "not-utf8", "critters.yaml", 3, 26, "error"),  # columns count characters
    ("alias-limit", "alias-limit", "extra.yaml", 5, 8, "error"),
    ("nesting-limit", "nesting-limit", "critters.yaml", 6, 71, "error"),
    ("yaml-syntax", "yaml-syntax", "critters.yaml", 5, 7, "error"),
    ("multiple-documents", "multiple-documents", "lairs.yaml", 4, 1, "error"),
    ("schema-required", "schema-required", "critters.yaml", 1, 3, "error"),
    (
        "schema-additional-properties",
        "schema-additional-properties",
        "critters.yaml",
        5,
        9,
        "error",
    ),
    ("schema-pattern", "schema-pattern", "critters.yaml", 6, 9, "error"),
    ("asset-escape", "schema-pattern", "critters.yaml", 6, 10, "error"),
    ("unknown-kind", "unknown-kind", "lairs.yaml", 2, 9, "error"),
    ("duplicate-id", "duplicate-id", "lairs.yaml", 4, 7, "error"),
    ("unresolved-ref", "unresolved-ref", "critters.yaml", 5, 9, "error"),
    ("wrong-ref-kind", "wrong-ref-kind", "critters.yaml", 5, 9, "error"),
    ("missing-source-text", "missing-source-text", "lairs.yaml", 3, 9, "error"),
    ("missing-translation", "missing-translation", "lairs.yaml", 3, 9, "warning"),
    ("count-not-positive", "count-not-positive", "critters.yaml", 6, 10, "error"),
    ("table-gap", "table-gap", "tables.yaml", 7, 14, "error"),
    ("table-overlap", "table-overlap", "tables.yaml", 7, 14, "error"),
    ("unused-entity", "unused-entity", "notes.yaml", 1, 7, "warning"),
    ("provisional-path", "provisional-path", "critters.yaml", 6, 30, "error"),
    ("mixed-script", "mixed-script", "lairs.yaml", 3, 14, "warning"),
]


def test_every_fixture_folder_is_in_the_table() -> None:
    folders = {p.name for p in (FIXTURES / "invalid").iterdir() if p.is_dir()}
    assert folders == {row[0] for row in TABLE}


def test_the_valid_pack_is_clean() -> None:
    result = analyze(FIXTURES / "valid" / "mini")
    assert result.diagnostics == []
    assert result.model is not None
    assert [e.id for e in result.model.entities] == ["rat", "den", "loot"]


@pytest.mark.parametrize(("case", "code", "file", "line", "col", "severity"), TABLE)
def test_invalid_fixture_gives_exact_diagnostic(case, code, file, line, col, severity) -> None:
    result = analyze(FIXTURES / "invalid" / case)
    found = [
        (d.code, Path(d.span.file).name, d.span.line, d.span.col, d.severity.value)
        for d in result.diagnostics
    ]
    assert found == [(code, file, line, col, severity)], [d.text() for d in result.diagnostics]


def test_hints_name_the_likely_intent() -> None:
    [unresolved] = analyze(FIXTURES / "invalid" / "unresolved-ref").diagnostics
    assert unresolved.hint == "did you mean 'den'?"
    [typo] = analyze(FIXTURES / "invalid" / "schema-additional-properties").diagnostics
    assert typo.hint == "did you mean 'speed'?"
    [kind] = analyze(FIXTURES / "invalid" / "unknown-kind").diagnostics
    assert kind.hint == "did you mean 'lair'?"


def test_file_over_size_bound_is_refused_before_reading(tmp_path: Path) -> None:
    pack = tmp_path / "mini"
    shutil.copytree(FIXTURES / "valid" / "mini", pack, symlinks=False)
    big = pack / "big.yaml"
    big.write_text("# padding\n" * (MAX_FILE_BYTES // 10 + 1), "utf-8")
    [diag] = analyze(pack).diagnostics
    assert (diag.code, Path(diag.span.file).name, diag.span.line, diag.span.col) == (
        "file-too-large",
        "big.yaml",
        1,
        1,
    )
    assert diag.severity is Severity.ERROR


def test_all_errors_are_collected_before_reporting(tmp_path: Path) -> None:
    """Two broken files and a broken reference: all three are reported in one run."""
    pack = tmp_path / "mini"
    shutil.copytree(FIXTURES / "valid" / "mini", pack, symlinks=False)
    (pack / "lairs.yaml").write_text(
        "- id: den\n  kind: lair\n  name: {ru: Нора, en: Den}\n"
        "- id: den\n  kind: lair\n  name: {ru: Нора, en: Den}\n"
    )
    (pack / "tables.yaml").write_text((FIXTURES / "invalid/table-gap/tables.yaml").read_text())
    (pack / "critters.yaml").write_text(
        (FIXTURES / "valid/mini/critters.yaml").read_text() + "  count: 0\n"
    )
    codes = sorted(d.code for d in analyze(pack).diagnostics)
    assert codes == ["count-not-positive", "duplicate-id", "table-gap"]
    assert os.path.isdir(pack)
