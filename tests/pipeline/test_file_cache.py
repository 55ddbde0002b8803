"""`files_cached_in`: each file's load-and-validate result kept in the build's cache, under its
bytes, the schemas and the code; a later process reads and validates only what changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline import stages
from pipeline.diagnostics import RelicError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "packs"


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    folder = tmp_path / "content" / "mini"
    shutil.copytree(FIXTURES / "valid" / "mini", folder)
    return folder


@pytest.fixture
def processed(monkeypatch) -> list[str]:
    """The names of the files read and validated (not taken from a cache)."""
    seen: list[str] = []
    original = stages._process

    def counting(job):
        seen.append(Path(job[0]).name)
        return original(job)

    monkeypatch.setattr(stages, "_process", counting)
    return seen


EVERY = ["critters.yaml", "lairs.yaml", "tables.yaml"]


def load(pack: Path, cache: Path):
    with stages.files_cached_in(cache):
        return stages.load_model(pack)


def test_a_second_load_reads_and_validates_nothing(pack: Path, tmp_path: Path,
                                                   processed: list[str]) -> None:
    first = load(pack, tmp_path / "cache")
    assert sorted(processed) == EVERY
    processed.clear()
    again = load(pack, tmp_path / "cache")
    assert processed == []
    assert sorted(again.by_id) == sorted(first.by_id)
    assert again.by_id["den"].locate("name") == first.by_id["den"].locate("name")


def test_an_edit_reads_the_edited_file_alone(pack: Path, tmp_path: Path,
                                             processed: list[str]) -> None:
    load(pack, tmp_path / "cache")
    processed.clear()
    critters = pack / "critters.yaml"
    critters.write_text(critters.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    load(pack, tmp_path / "cache")
    assert processed == ["critters.yaml"]


def test_a_changed_schema_validates_every_file_again(pack: Path, tmp_path: Path,
                                                     processed: list[str]) -> None:
    load(pack, tmp_path / "cache")
    processed.clear()
    schema = pack / "schemas" / "kinds" / "lair.json"
    doc = json.loads(schema.read_text(encoding="utf-8"))
    doc["description"] = doc.get("description", "") + " (edited)"
    schema.write_text(json.dumps(doc), encoding="utf-8")
    load(pack, tmp_path / "cache")
    assert sorted(processed) == EVERY


def test_cached_results_give_the_same_diagnostics(tmp_path: Path, processed: list[str]) -> None:
    broken = tmp_path / "content" / "unresolved-ref"
    shutil.copytree(FIXTURES / "invalid" / "unresolved-ref", broken)
    texts = []
    for _ in range(2):
        with pytest.raises(RelicError) as caught:
            load(broken, tmp_path / "cache")
        texts.append([d.text() for d in caught.value.diagnostics])
    assert texts[0] == texts[1]
    assert any("error[unresolved-ref]" in t for t in texts[0])
    assert sorted(processed) == sorted(set(processed))  # each file read once


def test_a_damaged_cache_entry_is_read_again(pack: Path, tmp_path: Path,
                                             processed: list[str]) -> None:
    load(pack, tmp_path / "cache")
    for entry in (tmp_path / "cache" / "files").glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    processed.clear()
    model = load(pack, tmp_path / "cache")
    assert sorted(processed) == EVERY
    assert "den" in model.by_id


def test_without_the_context_nothing_is_cached(pack: Path, tmp_path: Path,
                                               processed: list[str]) -> None:
    load(pack, tmp_path / "cache")
    processed.clear()
    stages.load_model(pack)
    assert sorted(processed) == EVERY
