"""`rulebook.record`: what a book read of the model, field by field, and when a build may link
the cached book without making it again."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pipeline.model import Model
from pipeline.rulebook.blocks import BlockSpec, height_mm
from pipeline.rulebook.page import block_size_pt, block_width_mm
from pipeline.rulebook.pictures import Picture
from pipeline.rulebook.record import (
    BookRecord,
    DrawnBlock,
    Reassembly,
    RecordingModel,
    RecordingPictures,
    files_digest,
    read_block,
    read_digest,
)
from pipeline.stages import load_model

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "packs"
SETTINGS = {"lang": "en", "paper": "a5", "proof": False, "booklet": False}


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(FIXTURES / "valid" / "mini", folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_reads_are_noted_field_by_field(pack: Path) -> None:
    recorder = RecordingModel(load_model(pack))
    den = recorder.by_id["den"]
    den.get("name")
    assert "missing" not in recorder.by_id
    assert recorder.read == {"id:den", "field:den:name", "id:missing"}
    list(recorder.of_kind("critter"))
    recorder.kinds()
    assert {"kind:critter", "kinds"} <= recorder.read
    dict(den.data)  # read whole: every field, and which fields there are
    assert {"keys:den", *(f"field:den:{k}" for k in recorder.model.by_id["den"].data)} \
        <= recorder.read
    recorder.entities  # noqa: B018 - the list of every entity: everything
    assert "*" in recorder.read


def test_a_field_not_read_may_change_and_one_read_may_not(pack: Path) -> None:
    recorder = RecordingModel(load_model(pack))
    recorder.by_id["rat"].get("name")
    record = BookRecord("files", recorder.digests(), {}, "book.pdf")
    critters = pack / "critters.yaml"
    edit(critters, "speed: 2", "speed: 3")  # a field the book did not read
    assert record.data_holds(load_model(pack), "files")
    assert not record.data_holds(load_model(pack), "other files")
    edit(critters, "en: Rat}", "en: Big rat}")  # the one it read
    assert not record.data_holds(load_model(pack), "files")


def test_every_kind_of_read_has_a_digest(pack: Path) -> None:
    model = load_model(pack)
    names = ["id:rat", "id:missing", "field:rat:name", "field:rat:nothing", "keys:rat",
             "kind:critter", "kinds", "*"]
    digests = {n: read_digest(model, n) for n in names}
    assert digests["id:missing"] == "absent"
    assert digests["field:rat:nothing"] == "absent"
    assert len({digests[n] for n in names if n not in ("id:missing", "field:rat:nothing")}) \
        == len(names) - 2


def test_the_files_digest_follows_the_rules_not_the_entities(pack: Path) -> None:
    model = load_model(pack)
    before = files_digest(model, SETTINGS)
    edit(pack / "critters.yaml", "speed: 2", "speed: 5")
    assert files_digest(model, SETTINGS) == before  # entities are read field by field
    (pack / "rules" / "en").mkdir(parents=True)
    (pack / "rules" / "en" / "01-intro.md").write_text("# Intro\n", encoding="utf-8")
    assert files_digest(model, SETTINGS) != before
    assert files_digest(model, {**SETTINGS, "proof": True}) != files_digest(model, SETTINGS)


class _Pictures:
    def __init__(self, keys: dict[str, str | None], aspect: float = 1.4):
        self.keys = keys
        self.aspect = aspect

    def find(self, entity_id: str) -> Picture | None:
        key = self.keys.get(entity_id)
        return Picture(entity_id, key, self.aspect) if key else None


NO_MODEL: Any = None  # these records' books draw no block apart: no model is read


def test_pictures_hold_while_their_keys_and_files_do(tmp_path: Path) -> None:
    looked = RecordingPictures(_Pictures({"zombie": "k1"}))
    assert looked.find("zombie").key == "k1"
    assert looked.find("ghost") is None
    assert looked.keys == {"zombie": "k1", "ghost": ""}
    book = tmp_path / "book.pdf"
    book.write_bytes(b"%PDF")
    unit = tmp_path / "unit.pdf"
    unit.write_bytes(b"%PDF")
    record = BookRecord("files", {}, looked.keys, str(book), (str(unit),))
    assert record.pictures_hold(_Pictures({"zombie": "k1"}), NO_MODEL)
    assert not record.pictures_hold(_Pictures({"zombie": "k2"}), NO_MODEL)
    assert not record.pictures_hold(_Pictures({"zombie": "k1", "ghost": "k3"}), NO_MODEL)
    unit.unlink()  # pruned from the cache: the book is made again
    assert not record.pictures_hold(_Pictures({"zombie": "k1"}), NO_MODEL)


PLAN = Reassembly("base", "Title", "en", ("unit-1", "unit-2"),
                  (("/relic-pictures/zombie-260.png", "zombie", 260, 1.4),))


def test_a_book_whose_pictures_changed_alone_is_assembled_again_only_as_it_was_laid_out(
        ) -> None:
    """The record of a book that showed the zombie (and looked for the ghost's picture, which
    the pack does not print) can be assembled again with a new zombie picture of the same
    aspect; not when the ghost gets a picture (the book would show it), when the zombie loses
    its own or changes its aspect (the units were laid out with its height), nor without a
    plan."""
    record = BookRecord("files", {}, {"zombie": "k1", "ghost": ""}, "/b.pdf", (), PLAN)
    assert record.reassembles(_Pictures({"zombie": "k2"}), NO_MODEL)
    assert record.reassembles(_Pictures({"zombie": "k1"}), NO_MODEL)
    assert not record.reassembles(_Pictures({"zombie": "k2", "ghost": "k3"}), NO_MODEL)
    assert not record.reassembles(_Pictures({}), NO_MODEL)
    assert not record.reassembles(_Pictures({"zombie": "k2"}, aspect=0.7), NO_MODEL)
    assert not BookRecord("files", {}, {"zombie": "k1"}, "/b.pdf").reassembles(
        _Pictures({"zombie": "k2"}), NO_MODEL)


def test_a_record_survives_the_cache_and_a_damaged_one_is_none(tmp_path: Path) -> None:
    record = BookRecord("files", {"id:den": "lair"}, {"zombie": "k"}, "/b.pdf", ("/u.pdf",))
    path = tmp_path / "record.json"
    record.save(path)
    assert BookRecord.load(path) == record
    planned = BookRecord("files", {}, {"zombie": "k"}, "/b.pdf", ("/u.pdf",), PLAN)
    planned.save(path)
    assert BookRecord.load(path) == planned
    path.write_text(path.read_text(encoding="utf-8").replace('"base"', '"bass"'),
                    encoding="utf-8")
    assert BookRecord.load(path) is None  # a plan that is not one: the book is made again
    path.write_text("{not json", encoding="utf-8")
    assert BookRecord.load(path) is None
    assert BookRecord.load(tmp_path / "none.json") is None


def test_the_font_subsetter_is_part_of_the_cache_keys(monkeypatch) -> None:
    """HarfBuzz and fontTools make different bytes of the same font subset: installing
    libharfbuzz-subset0 makes the units and the book again, rather than mix the two kinds of
    subset in one book or link a book that a cold build would not make."""
    from pipeline.rulebook import record, render, subsets

    assert subsets.subsetter().startswith(("harfbuzz-subset ", "fonttools "))
    keys = []
    for name in ("harfbuzz-subset 6.0.0", "fonttools 4.55.0"):
        monkeypatch.setattr(subsets, "subsetter", lambda name=name: name)
        keys.append((render.code_key.__wrapped__(), record.project_digest.__wrapped__()))
    (units, book), (units_again, book_again) = keys
    assert units != units_again and book != book_again


def test_a_block_drawn_apart_holds_while_what_its_words_read_does(model: Model,
                                                                   pack_copy: Path) -> None:
    """The zombie's stat block reads its stats, not the book's prose: a new health leaves
    the block's record holding no more, and the block is composed again only then, with the
    same height (a number of the same width) and new words; the plan it is kept in survives
    the cache."""
    spec = BlockSpec("monster", "zombie", "en", block_width_mm("a5", None), block_size_pt("a5"))
    block, read = read_block(model, spec)
    assert "field:zombie:stats" in read and not any("oligarch" in name for name in read)
    drawn = DrawnBlock("/relic-pictures/blocks/monster-zombie.pdf", spec, height_mm(block),
                       block.key, read)
    plan = Reassembly("base", "Title", "en", ("unit-1",), (), (drawn,))
    assert Reassembly.from_json(plan.to_json()) == plan
    assert plan.drawings_hold(model)
    assert plan.blocks_now(model) == {drawn.path: (None, drawn)}  # not composed again
    monsters = pack_copy / "monsters.yaml"
    text = monsters.read_text(encoding="utf-8")
    at = text.index("  stats:\n    speed: ", text.index("- id: zombie"))
    health = text.index("health: ", at)
    monsters.write_text(text[:health] + "health: 9" + text[health + len("health: 2"):],
                        encoding="utf-8")
    edited = load_model(pack_copy)
    assert not plan.drawings_hold(edited)
    (now, kept), = plan.blocks_now(edited).values()
    assert now.key != block.key and kept.key == now.key and kept.height_mm == drawn.height_mm
    assert ("Health", "9", "3") in now.rows
