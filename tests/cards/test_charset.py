"""The build's charset (`cards.charset`): every character any face of any language prints,
worked out from the pack's printed data without expanding every language, and the same
whichever languages a build asks for."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cards import BuildOptions, expand, prepare
from pipeline.cards.formats import load_labels, load_profile
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[2]
PACKS = [ROOT / "content" / name for name in ("catacombs", "tunnels", "dice-dungeon",
                                              "haunted-house")]
PACKS.append(Path(__file__).resolve().parent / "fixtures" / "mini")


@pytest.mark.parametrize("pack", PACKS, ids=[p.name for p in PACKS])
def test_the_charset_holds_every_character_of_every_language_s_faces(pack: Path,
                                                                     tmp_path: Path) -> None:
    model = load_model(pack)
    langs = tuple(model.pack.languages)
    print_set = prepare(model, BuildOptions(tmp_path / "out", tmp_path / "cache",
                                            langs=langs[:1]))
    assert set(print_set.expanded) == {langs[0]}  # only the language built is expanded
    profile = load_profile(model.pack)
    for lang in langs:
        components = expand(model, profile, lang, False, load_labels(model.pack, lang))
        printed = {ch for face in components.faces.values() for ch in face.context}
        printed |= set(components.labels)
        missing = {ch for ch in printed if ch not in print_set.charset and ch.isprintable()
                   and not ch.isspace()}
        assert not missing, (lang, sorted(missing))


def test_the_charset_is_the_same_whichever_languages_are_built(mini_model,
                                                               tmp_path: Path) -> None:
    langs = tuple(mini_model.pack.languages)
    assert len(langs) > 1
    charsets = {prepare(mini_model, BuildOptions(tmp_path / "out", tmp_path / "cache",
                                                 langs=chosen)).charset
                for chosen in (langs, langs[:1], langs[1:])}
    assert len(charsets) == 1
