"""The catacombs' print set: every component the game and the rulebook name is built, in ru and
en, with the copies the model asks for. The component list is derived from the game's data (one
standee per character, one per monster of the kit, one title per pair of characters and a slider
for each, a board for every monster with its own health, an aid for every seat) and checked
against manifest.json; the book's box contents name every deck and add up to the manifest; the
aid's icon legend covers every icon the tiles, tokens and card layouts print."""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline import cli
from pipeline.model import Model
from pipeline.rulebook.i18n import pack_word
from pipeline.rulebook.views import KINDS, components_view, printed_kinds
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "content" / "catacombs"
LAYOUTS = ROOT / "templates" / "layouts"
ICONS = ROOT / "assets" / "icons"
LANGS = ("ru", "en")
# the layouts of the faces players read icons on (tiles, tokens, cards, boards)
ICON_LAYOUTS = ("card", "item", "monster", "tile", "token", "hero-board", "monster-board")


@pytest.fixture(scope="module")
def model() -> Model:
    return load_model(PACK)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("catacombs")
    code = cli.main(["build", "--pack", "catacombs", "--content", str(PACK.parent),
                     "--out", str(out), "--lang", "all", "--quiet", "--no-rulebook",
                     "--cache", str(out / "cache"), "--jobs", "2"])
    assert code == 0
    return out


def expected_components(model: Model) -> dict[str, int]:
    """What a table of up to the pack's most players needs, from the game's own data."""
    want: dict[str, int] = {}
    characters = [e.id for e in model.of_kind("character")]
    want |= dict.fromkeys(characters, 1)
    standees = model.of_kind("standee")
    heroes = {e.get("character"): e for e in standees if e.get("character")}
    assert set(heroes) == set(characters), "one standee for every character"
    want |= {e.id: 1 for e in heroes.values()}
    for monster in model.of_kind("monster"):
        want[monster.id] = monster.count  # the monster deck's cards
        figures = [e for e in standees if e.get("monster") == monster.id]
        species = monster.get("species") or []
        if species:
            by_species = {e.get("species"): e for e in figures}
            assert set(by_species) == {s["id"] for s in species}, monster.id
            want |= {by_species[s["id"]].id: int(s["kit"]) for s in species}
            assert sum(int(s["kit"]) for s in species) == monster.get("kit")
        else:
            [figure] = figures
            want[figure.id] = int(monster.get("kit"))
    pairs = {frozenset((e.get("a"), e.get("b"))): e.id for e in model.of_kind("relationship")}
    assert set(pairs) == {frozenset(p) for p in combinations(characters, 2)}, "a title per pair"
    want |= dict.fromkeys(pairs.values(), 1)
    [slider] = model.of_kind("slider-marker")
    assert slider.count == len(pairs), "a slider marker for every title"
    want[slider.id] = slider.count
    boards = {e.get("monster"): e.id for e in model.of_kind("monster-board")}
    assert set(boards) == {m.id for m in model.of_kind("monster") if m.get("health_by_players")}
    want |= dict.fromkeys(boards.values(), 1)
    [aid] = model.of_kind("player-aid")
    assert aid.count >= model.pack.data["players"]["max"], "a player aid for every seat"
    want[aid.id] = aid.count
    [die] = model.of_kind("die")
    want[die.id] = die.count
    for kind in ("card", "item", "tile", "token"):
        want |= {e.id: e.count for e in model.of_kind(kind)}
    return want


def test_the_model_derives_the_same_list_the_profile_prints(model: Model) -> None:
    printed = set(printed_kinds(model))
    derived = expected_components(model)
    assert {model.by_id[i].kind for i in derived} == printed
    assert derived == {e.id: e.count for e in model.entities if e.kind in printed}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_the_manifest_lists_every_component_the_game_needs(model: Model, built: Path,
                                                           lang: str) -> None:
    manifest = json.loads((built / lang / "manifest.json").read_text("utf-8"))
    assert manifest["components"] == expected_components(model)
    assert manifest["kinds"]["standee"] == 8 + sum(
        int(m.get("kit")) for m in model.of_kind("monster"))
    assert manifest["kinds"]["slider-marker"] == manifest["kinds"]["relationship"] == 28


@pytest.mark.parametrize("lang", LANGS)
def test_the_box_contents_name_every_deck_and_add_up(model: Model, lang: str) -> None:
    groups = components_view(model, lang, None)
    titles = [g["group"] for g in groups]
    fallback = KINDS["card"][lang]
    assert fallback not in titles, "no cards left under the 'other cards' fallback"
    decks = {e.get("deck") for kind in ("card", "item", "monster") for e in model.of_kind(kind)}
    for deck in decks:
        assert model.by_id[deck].get("name")[lang] in titles, deck
    for kind in ("standee", "slider-marker", "monster-board", "player-aid", "die"):
        word = pack_word(model, f"group-{kind}", lang)
        assert word and word in titles, kind
    total = sum(int(str(g["count"]).replace("\u00a0", "").replace(" ", "")) for g in groups)
    assert total == sum(expected_components(model).values())


def layout_icons(name: str) -> set[str]:
    text = (LAYOUTS / f"{name}.yaml").read_text("utf-8")
    literal = set(re.findall(r"\bicon: ([a-z][a-z0-9-]*)\b", text))
    literal |= set(re.findall(r"type: icon, name: ([a-z][a-z0-9-]*)\b", text))
    literal |= set(re.findall(r"\bname: ([a-z][a-z0-9-]*)\n\s+tint", text))
    inline = set(re.findall(r"[\"' ]:([a-z][a-z0-9-]*):", text))
    if name != "card":  # the card layout's emblems serve every pack: see deck_emblems
        quoted = set(re.findall(r"'([a-z][a-z0-9-]*)'", text))
        literal |= {w for w in quoted if (ICONS / f"{w}.svg").is_file()}
    return literal | inline


def deck_emblems(model: Model) -> set[str]:
    """The emblems the card layout draws for this pack's decks (its deck-type mapping)."""
    mapping = dict(re.findall(r"'([a-z][a-z0-9-]*)': '([a-z][a-z0-9-]*)'",
                              (LAYOUTS / "card.yaml").read_text("utf-8")))
    types = {model.by_id[e.get("deck")].get("type") for e in model.of_kind("card")}
    assert types <= set(mapping), sorted(types - set(mapping))
    return {mapping[t] for t in types}


def test_the_icon_legend_covers_every_icon_on_tiles_tokens_and_cards(model: Model) -> None:
    [aid] = model.of_kind("player-aid")
    legend = [sign["icon"] for sign in aid.get("legend")]
    assert len(legend) == len(set(legend))
    assert all((ICONS / f"{icon}.svg").is_file() for icon in legend)
    used = {mark["icon"] for tile in model.of_kind("tile") for mark in tile.get("icons") or []}
    used.add("trap")  # open traps on tiles
    used |= {t.get("type") for t in model.of_kind("token")}
    for name in ICON_LAYOUTS:
        used |= layout_icons(name)
    used |= deck_emblems(model)
    used |= {stat for c in model.of_kind("character") for stat in c.get("stats")}
    assert used <= set(legend), sorted(used - set(legend))
    assert {"stash", "looted", "sarcophagus", "melee", "ranged", "poison"} <= set(legend)


def test_the_scale_is_the_rules_and_has_seven_steps(model: Model) -> None:
    scale = model.by_id["relationships"].get("scale")
    assert scale["max"] - scale["min"] + 1 == 7
    for title in model.of_kind("relationship"):
        assert title.get("track") == "relationships"
        assert title.get("start") in scale["levels"]


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_the_faces_print_tracks_slots_and_standees(model: Model, built: Path,
                                                   lang: str) -> None:
    def text(fmt: str) -> str:
        pages = PdfReader(built / lang / "shop" / f"{fmt}.pdf").pages
        return " ".join(" ".join(p.extract_text() for p in pages).split())  # lines rejoined

    titles = text("relationship-title")
    for step in ("\u22123", "\u22122", "\u22121", "0", "+1", "+2", "+3"):
        assert step in titles, step
    labels = {"ru": ("Рюкзак", "Займы", "Бережливость"), "en": ("Backpack", "Loans", "Thrift")}
    boards = text("play-board")
    assert all(word in boards for word in labels[lang])
    for character in model.of_kind("character"):
        assert character.get("name")[lang] in boards
    standees = text("standee")
    for standee in model.of_kind("standee"):
        assert standee.get("name")[lang] in standees
    scarab = text("monster-board")
    assert str(max(model.by_id["scarab"].get("health_by_players").values())) in scarab
    aid = text("player-aid")
    assert model.by_id["treasure-table"].get("name")[lang] in aid


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_format_prints_with_bleed(built: Path, lang: str) -> None:
    manifest = json.loads((built / lang / "manifest.json").read_text("utf-8"))
    for name, info in manifest["formats"].items():
        assert info["bleed_mm"] == 3.0, name
        page = PdfReader(built / lang / "shop" / f"{name}.pdf").pages[0]
        assert round(float(page.mediabox.width) - float(page.trimbox.width)) == round(
            2 * 3 * 72 / 25.4), name
    for two_sided in ("play-board", "player-aid", "tile", "poker", "tarot", "token-round"):
        assert (built / lang / "pnp" / f"{two_sided}-a4-duplex.pdf").exists(), two_sided
