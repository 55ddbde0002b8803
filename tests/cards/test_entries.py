"""Print entries: one kind printed as two components (`kind:`), and entries that print only some
entities of their kind (`where:`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cards.components import expand
from pipeline.cards.formats import load_labels, load_profile
from pipeline.diagnostics import RelicError
from pipeline.resolve import printed_kinds as resolve_printed_kinds
from pipeline.rulebook.views import printed_kinds as book_printed_kinds
from pipeline.stages import load_model
from tests.cards.conftest import copy_pack

ENTRIES = """\
    character-token:
      kind: character
      format: token-round
      template: token
      back: token
      back_by: id
    journalist-card:
      kind: character
      where: {field: id, equals: journalist}
      format: poker
      template: card
"""


def _pack(tmp_path: Path, extra: str = ENTRIES) -> Path:
    pack = copy_pack(tmp_path)
    manifest = pack / "pack.yaml"
    text = manifest.read_text(encoding="utf-8")
    anchor = "    character: {format: board, template: character, back: board}\n"
    assert anchor in text
    manifest.write_text(text.replace(anchor, anchor + extra), encoding="utf-8")
    return pack


def _components(pack: Path):
    model = load_model(pack)
    profile = load_profile(model.pack)
    return model, profile, expand(model, profile, "en", False, load_labels(model.pack, "en"))


def test_a_kind_prints_as_several_entries_with_their_own_ids(tmp_path: Path) -> None:
    model, profile, comps = _components(_pack(tmp_path))
    characters = sorted(e.id for e in model.of_kind("character"))
    assert characters == ["archaeologist", "journalist"]
    by_entry: dict[str, list[str]] = {}
    for c in comps.items:
        if c.kind == "character":
            by_entry.setdefault(c.entry, []).append(c.id)
    assert by_entry == {
        "character": characters,
        "character-token": [f"{i}.character-token" for i in characters],
        "journalist-card": ["journalist.journalist-card"],
    }
    counts = comps.counts()
    assert counts["archaeologist"] == 1 and counts["archaeologist.character-token"] == 1
    tokens = [c for c in comps.items if c.entry == "character-token"]
    assert {c.format for c in tokens} == {"token-round"}
    assert all(c.back for c in tokens)
    # the entry's own shared backs: one per group, none shared with the boards' back
    boards = {c.back for c in comps.items if c.entry == "character"}
    assert not boards & {c.back for c in tokens}
    assert len({c.back for c in tokens}) == 2  # grouped by id: one back each
    assert profile.for_entry("journalist-card").kind == "character"
    assert profile.for_entry("character").template == "character"


def test_where_prints_only_the_matching_entities(tmp_path: Path) -> None:
    _, _, comps = _components(_pack(tmp_path))
    cards = [c for c in comps.items if c.entry == "journalist-card"]
    assert [(c.id, c.format, c.back) for c in cards] == [
        ("journalist.journalist-card", "poker", None)]


def test_printed_kinds_name_the_kinds_not_the_entries(tmp_path: Path) -> None:
    model = load_model(_pack(tmp_path))
    assert "character-token" not in resolve_printed_kinds(model.pack)
    assert "character" in resolve_printed_kinds(model.pack)
    assert book_printed_kinds(model) == sorted(resolve_printed_kinds(model.pack))


def test_a_where_without_its_value_is_a_schema_error(tmp_path: Path) -> None:
    bad = """\
    journalist-card:
      kind: character
      where: {field: id}
      format: poker
      template: card
"""
    with pytest.raises(RelicError) as caught:
        load_model(_pack(tmp_path, bad))
    found = [d.text() for d in caught.value.diagnostics]
    assert len(found) == 1
    assert found[0].endswith("pack.yaml:11:14: error[schema-required]: "
                             "print.components.journalist-card.where: 'equals' is a required "
                             "property"), found


def test_the_box_contents_list_each_entry_with_what_it_prints(tmp_path: Path) -> None:
    """The rulebook's `components()` goes by print entry, as the card build does: a kind printed
    twice is listed twice, and an entry with `where` lists only the entities it prints; every
    group's total is what the build expands."""
    from pipeline.rulebook.views import components_view

    model, _, comps = _components(_pack(tmp_path))
    groups = {g["kind"]: g for g in components_view(model, "en", None)}
    assert {"character", "character-token", "journalist-card"} <= set(groups)
    names = {e.id: e.get("name")["en"] for e in model.of_kind("character")}
    journalist = groups["journalist-card"]
    assert journalist["count"] == "1"
    assert [p["name"] for p in journalist["parts"]] == [names["journalist"]]
    tokens = [g for g in components_view(model, "en", None) if g["kind"] == "character-token"]
    assert [g["count"] for g in tokens] == ["1", "1"]  # back_by: id, one group each
    assert sum(int(g["count"]) for g in components_view(model, "en", None)) == sum(
        comps.counts().values())
    # asking for a kind lists every entry that prints it
    picked = {g["kind"] for g in components_view(model, "en", ["character"])}
    assert picked == {"character", "character-token", "journalist-card"}
