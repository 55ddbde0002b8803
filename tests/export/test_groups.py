"""Components -> groups (pipeline/export/groups.py): decks by their shared back, the other sets by
kind and format, with file-safe names and captions in the build's language."""

from __future__ import annotations

from pipeline.cards.components import expand
from pipeline.cards.formats import load_labels, load_profile
from pipeline.export.groups import groups
from pipeline.model import Model


def _groups(model: Model, lang: str) -> dict[str, tuple[str, str, int]]:
    profile = load_profile(model.pack)
    components = expand(model, profile, lang, False, load_labels(model.pack, lang))
    return {g.name: (g.label, g.format, len(g.copies)) for g in groups(components, profile)}


def test_decks_and_kinds_are_named_and_captioned(mini: Model) -> None:
    ru, en = _groups(mini, "ru"), _groups(mini, "en")
    assert ru["monster-deck"] == ("Монстры", "poker", 3)
    assert en["monster-deck"][0] == "Monsters"
    assert ru["token"][0] == "Жетон" and en["character"][0] == "Character"


def test_a_kind_in_two_formats_gives_two_groups_told_apart(mini: Model) -> None:
    """The tiles come in two formats: file names take the format, captions its size."""
    ru = _groups(mini, "ru")
    assert ru["tile-tile"][:2] == ("Площадка 80×80", "tile")
    assert ru["tile-tile-final"][:2] == ("Площадка 80×120", "tile-final")
    assert sum(n for _, _, n in ru.values()) == sum(
        e.count for e in mini.entities if e.kind != "deck")
