"""The print set: every component the game and the rulebook name is built, in ru and en, with the
copies the model asks for (the list derived from the game's data, checked against
manifest.json), and the faces keep the print guarantees (bleed, duplex backs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from house_support import PACK, entity, game, plain
from pypdf import PdfReader

from pipeline import cli


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("haunted-house")
    code = cli.main(["build", "--pack", "haunted-house", "--content", str(PACK.parent),
                     "--out", str(out), "--lang", "all", "--quiet", "--no-rulebook",
                     "--cache", str(out / "cache"), "--jobs", "2"])
    assert code == 0
    return out


def expected_components() -> dict[str, int]:
    """What the game needs on the table, from its own data and the pack's model."""
    data = game().data
    model = plain()
    by_kind: dict[str, list[dict]] = {}
    for e in model["entities"]:
        by_kind.setdefault(e["kind"], []).append(e)
    want: dict[str, int] = {}
    want |= dict.fromkeys(data.explorers, 1)
    pawns = {e["explorer"]: e["id"] for e in by_kind["pawn"]}
    assert set(pawns) == set(data.explorers), "one pawn for every explorer"
    want |= dict.fromkeys(pawns.values(), 1)
    want |= dict.fromkeys(data.rooms, 1)  # the landings and every tile of the stack
    want |= dict.fromkeys(data.events, 1)
    want |= dict.fromkeys(data.omens, 1)
    want |= {i: int(data.raw[i].get("count", 1)) for i in data.items}
    tokens = max(t.count for sc in data.scenarios.values() for t in sc.tokens)
    assert want["item-token"] >= tokens, "enough item tokens for every scenario"
    want |= dict.fromkeys(data.monsters, 1)
    want |= dict.fromkeys(data.scenarios, 1)
    pages = {(e["scenario"], e["side"]): e["id"] for e in by_kind["scenario-page"]}
    assert set(pages) == {(sc, side) for sc in data.scenarios for side in ("heroes", "traitor")}
    want |= dict.fromkeys(pages.values(), 1)
    want["house-die"] = data.rules.dice_in_box  # a strip of stickers for every die
    [aid] = by_kind["player-aid"]
    assert aid["count"] >= data.max_players, "a player aid for every seat"
    want[aid["id"]] = aid["count"]
    return want


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_manifest_lists_every_component_the_game_needs(built: Path, lang: str) -> None:
    manifest = json.loads((built / lang / "manifest.json").read_text("utf-8"))
    assert manifest["components"] == expected_components()
    assert manifest["kinds"] == {"die": 8, "event": 14, "explorer": 6, "house-item": 15,
                                 "house-monster": 2, "omen": 8, "pawn": 6, "player-aid": 6,
                                 "room": 31, "scenario": 2, "scenario-page": 4}


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_format_prints_with_bleed_and_duplex_backs(built: Path, lang: str) -> None:
    manifest = json.loads((built / lang / "manifest.json").read_text("utf-8"))
    formats = manifest["formats"]
    assert set(formats) == {"explorer-card", "pawn", "tile", "poker", "token-round", "standee",
                            "sheet-a5", "die-stickers", "aid"}
    for name, info in formats.items():
        assert info["bleed_mm"] == 3.0
        shop = PdfReader(built / lang / "shop" / f"{name}.pdf")
        page = shop.pages[0]
        trim, media = page.trimbox, page.mediabox
        assert round(float(media.width) - float(trim.width)) == round(2 * 3 * 72 / 25.4)
    two_sided = {"explorer-card", "tile", "poker", "token-round", "sheet-a5"}
    for name in two_sided:
        assert (built / lang / "pnp" / f"{name}-a4-duplex.pdf").exists(), name


@pytest.mark.slow
def test_the_cards_print_the_data_in_each_language(built: Path) -> None:
    for lang in ("ru", "en"):
        text = " ".join(p.extract_text() for p in
                        PdfReader(built / lang / "shop" / "explorer-card.pdf").pages)
        vera = entity(plain(), "vera-lanskaya")
        assert vera["name"][lang] in text
        tiles = " ".join(p.extract_text() for p in
                         PdfReader(built / lang / "shop" / "tile.pdf").pages)
        assert entity(plain(), "vault")["name"][lang] in tiles
