"""The book's box contents (`{{ components() }}`): a kind whose entities all belong to decks is
listed deck by deck under each deck's own name; any other kind (tokens carry no deck) under its
kind's group word."""

from __future__ import annotations

from pathlib import Path

from pipeline.model import Model
from pipeline.rulebook.views import components_view
from pipeline.stages import load_model

PACK = """\
id: decks
title: {ru: Колоды, en: Decks}
languages: [ru, en]
print:
  components:
    card: {format: poker, template: card, back: deck, back_by: deck}
    token: {format: token-round, template: token}
"""
ENTITIES = """\
- {id: events, kind: deck, name: {ru: События, en: Events}, cards: card, type: event}
- {id: spells, kind: deck, name: {ru: Заклинания, en: Spells}, cards: card, type: spell}
- {id: quiet, kind: card, count: 3, deck: events,
   name: {ru: Тишина, en: Silence}, text: {ru: Ничего., en: Nothing.}}
- {id: fall, kind: card, count: 2, deck: events,
   name: {ru: Обвал, en: Rockfall}, text: {ru: Больно., en: Ouch.}}
- {id: light, kind: card, deck: spells,
   name: {ru: Свет, en: Light}, text: {ru: Светло., en: Bright.}}
- {id: coin, kind: token, count: 5, type: treasure, name: {ru: Монета, en: Coin}}
"""


def pack(tmp_path: Path) -> Model:
    root = tmp_path / "decks"
    root.mkdir()
    (root / "pack.yaml").write_text(PACK, "utf-8")
    (root / "things.yaml").write_text(ENTITIES, "utf-8")
    return load_model(root)


def test_cards_are_listed_deck_by_deck(tmp_path: Path) -> None:
    groups = components_view(pack(tmp_path), "en", None)
    assert [(g["group"], g["count"]) for g in groups] == [
        ("Events", "5"), ("Spells", "1"), ("Tokens", "5")]
    assert groups[0]["parts"] == [{"name": "Rockfall", "count": "2"},
                                  {"name": "Silence", "count": "3"}]
