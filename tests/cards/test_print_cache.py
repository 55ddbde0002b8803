"""Checked copies of the print files (formats, sheets, labels) in the build's cache: a later
process reads them without YAML or schema; a file with problems is never kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.cards import formats
from pipeline.diagnostics import RelicError
from pipeline.stages import load_model

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "packs"


@pytest.fixture
def cached(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setitem(formats.VALIDATED, "dir", tmp_path / "cache")
    formats._load_yaml_cached.cache_clear()
    yield tmp_path / "cache"
    formats._load_yaml_cached.cache_clear()


def _later_process() -> None:
    formats._load_yaml_cached.cache_clear()


def test_a_later_process_reads_the_checked_copies(cached: Path, monkeypatch) -> None:
    pack = load_model(FIXTURES / "valid" / "mini").pack
    first = formats.load_profile(pack), formats.load_labels(pack, "en")
    copies = sorted((cached / "print").iterdir())
    assert len(copies) >= 3  # formats, sheets, labels
    _later_process()
    monkeypatch.setattr("pipeline.loader.try_load",
                        lambda *a, **k: pytest.fail("YAML read again"))
    monkeypatch.setattr(formats, "validator", lambda *a: pytest.fail("checked again"))
    again = formats.load_profile(pack), formats.load_labels(pack, "en")
    assert again == first
    assert set(copies) <= formats.ENTRIES


def test_a_schema_change_checks_every_copy_again(cached: Path, monkeypatch) -> None:
    """A print schema refers to others (`../defs.json`): the copies are kept under them all."""
    pack = load_model(FIXTURES / "valid" / "mini").pack
    formats.load_profile(pack)
    _later_process()
    checked = []
    real = formats.validator
    monkeypatch.setattr(formats, "validator", lambda name: checked.append(name) or real(name))
    monkeypatch.setattr(formats, "_schemas_digest", lambda: "defs.json edited")
    formats.load_profile(pack)
    assert {"profile", "formats", "sheets"} <= set(checked)


def test_a_profile_with_problems_is_never_kept(cached: Path) -> None:
    """(The manifest's own schema checks the profile first; `load_profile` checks it again for
    callers that made the pack some other way.)"""
    from dataclasses import replace

    from pipeline.model import freeze, thaw

    pack = load_model(FIXTURES / "valid" / "mini").pack
    data = thaw(pack.data)
    data["print"]["paper"] = 7
    pack = replace(pack, data=freeze(data))
    for _ in range(2):  # the same error the second time: it was not kept as checked
        _later_process()
        with pytest.raises(RelicError) as caught:
            formats.load_profile(pack)
        assert [d.code for d in caught.value.diagnostics] == ["print-schema"]
        assert "paper" in caught.value.diagnostics[0].message


def test_a_print_file_with_problems_is_never_kept(cached: Path, tmp_path: Path) -> None:
    pack_dir = tmp_path / "mini"
    shutil.copytree(FIXTURES / "valid" / "mini", pack_dir)
    (pack_dir / "print").mkdir(exist_ok=True)
    (pack_dir / "print" / "formats.yaml").write_text(
        "formats:\n  poker: {width: wide}\n", encoding="utf-8")
    pack = load_model(pack_dir).pack
    for _ in range(2):  # the same error the second time: it was not kept as checked
        _later_process()
        with pytest.raises(RelicError) as caught:
            formats.load_profile(pack)
        assert any(d.code == "print-schema" for d in caught.value.diagnostics)
    pack_copies = [p for p in (cached / "print").iterdir()]
    assert all("wide" not in p.read_text(encoding="utf-8") for p in pack_copies)
