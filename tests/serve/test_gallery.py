"""The gallery: every printed entity with its built pictures, deck, copies and source lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cards import BuildOptions, build
from pipeline.diagnostics import Span, error
from pipeline.serve.gallery import Image, attach, gallery, read_manifest
from pipeline.stages import load_model
from tests.serve.conftest import FIXTURE, PRINTED


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, render_cache: Path):
    out = tmp_path_factory.mktemp("gallery-out")
    model = load_model(FIXTURE)
    build(model, BuildOptions(out_root=out, cache_dir=render_cache, langs=("ru",),
                              png=True, workers=1))
    return model, out


def test_every_printed_entity_has_its_front_and_back(built) -> None:
    model, out = built
    manifest = read_manifest(out / "ru", "ru")
    shown = gallery(model, manifest)
    assert {item.id for item in shown.items} == PRINTED
    for item in shown.items:
        assert item.front is not None and (out / item.front.path).is_file(), item.id
        assert item.back is not None and (out / item.back.path).is_file(), item.id
        assert manifest.files[item.front.path.removeprefix("ru/")] == item.front.sha256


def test_decks_copies_names_and_sources(built) -> None:
    model, out = built
    items = {i.id: i for i in gallery(model, read_manifest(out / "ru", "ru")).items}
    draught, zombie, cache = items["draught"], items["zombie"], items["cache-plus-2"]
    assert (draught.deck, draught.deck_name, draught.copies) == ("event-deck", "События", 2)
    assert draught.name == "Сквозняк"
    assert draught.back is not None and draught.back.path == "ru/png/back-card-event-deck.png"
    assert items["echo"].back == draught.back  # one back for the deck
    assert zombie.copies == 3 and zombie.deck == "monster-deck"
    assert cache.deck == "" and cache.back is not None
    assert cache.back.path == "ru/png/cache-plus-2-1-back.png"  # a back of its own
    assert draught.source.file.endswith("cards.yaml") and draught.source.line == 13
    assert draught.last_line == items["echo"].source.line - 1
    assert "факелы гаснут" in draught.text


def test_picture_urls_change_with_their_bytes() -> None:
    one, two = Image("ru/png/a-1.png", "a" * 64), Image("ru/png/a-1.png", "b" * 64)
    assert one.url.startswith("/files/ru/png/a-1.png?v=")
    assert one.url != two.url


def test_diagnostics_go_to_the_entity_whose_lines_hold_them(built) -> None:
    model, out = built
    items = gallery(model, read_manifest(out / "ru", "ru")).items
    by_id = {i.id: i for i in items}
    file = by_id["draught"].source.file
    inside = error("x", "inside draught", Span(file, by_id["draught"].source.line + 2, 5))
    elsewhere = error("y", "in the manifest", Span("pack.yaml", 3, 1))
    found = attach(items, [inside, elsewhere])
    assert found == {"draught": [inside]}
