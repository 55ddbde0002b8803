"""relic export tts, read back: the saved object against a schema written from TTS's format, the
sheets' sizes and grids, every card by its count, the hidden slot, the images' addresses."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from jsonschema import Draft7Validator
from PIL import Image, ImageChops

from pipeline.model import Model
from tests.cards.conftest import copy_pack
from tests.export.conftest import FIXTURES, run

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "export" / "tts-save.json").read_text("utf-8"))
CARD_KINDS = ("card", "item", "monster", "relationship")  # the mini pack's kinds in card formats


def _save(folder: Path, pack: str = "mini") -> dict:
    return json.loads((folder / f"{pack}-{folder.name}.json").read_text("utf-8"))


def _file(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file" and parsed.netloc == ""
    return Path(unquote(parsed.path))


def _objects(save: dict):
    """Every object, those inside decks and bags too."""
    stack = list(save["ObjectStates"])
    while stack:
        obj = stack.pop()
        yield obj
        stack.extend(obj.get("ContainedObjects", []))


def _sheets(save: dict) -> dict[str, dict]:
    return {k: v for obj in _objects(save) for k, v in obj.get("CustomDeck", {}).items()}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_save_is_valid_against_the_format(tts_out: Path, lang: str) -> None:
    save = _save(tts_out / lang)
    errors = [e.message for e in Draft7Validator(SCHEMA).iter_errors(save)]
    assert errors == []
    names = {obj["Name"] for obj in save["ObjectStates"]}
    assert {"DeckCustom", "Custom_Tile", "Bag"} <= names
    assert (tts_out / lang / f"mini-{lang}.png").is_file()  # the thumbnail TTS shows


def test_sheets_are_rgb_grids_of_at_most_10_by_7_and_4096_px(tts_out: Path) -> None:
    for key, deck in _sheets(_save(tts_out / "en")).items():
        assert 2 <= deck["NumWidth"] <= 10 and 2 <= deck["NumHeight"] <= 7, key
        with Image.open(_file(deck["FaceURL"])) as sheet:
            assert sheet.mode == "RGB"
            assert sheet.width <= 4096 and sheet.height <= 4096
            assert sheet.width % deck["NumWidth"] == 0 and sheet.height % deck["NumHeight"] == 0
            cell = (sheet.width // deck["NumWidth"], sheet.height // deck["NumHeight"])
        with Image.open(_file(deck["BackURL"])) as back:
            assert back.mode == "RGB" and back.size == cell  # one back image per deck


def test_deck_ids_hold_every_card_by_its_count(tts_out: Path, mini: Model) -> None:
    save = _save(tts_out / "en")
    counted: Counter[str] = Counter()
    for obj in save["ObjectStates"]:
        if obj["Name"] == "DeckCustom":
            by_card = {c["CardID"]: c["Memo"] for c in obj["ContainedObjects"]}
            assert [c["CardID"] for c in obj["ContainedObjects"]] == obj["DeckIDs"]
            counted.update(by_card[i] for i in obj["DeckIDs"])
            for card in obj["ContainedObjects"]:  # every card names its own sheet
                assert str(card["CardID"] // 100) in card["CustomDeck"]
        elif obj["Name"] == "Card":
            counted[obj["Memo"]] += 1
    expected = {e.id: e.count for kind in CARD_KINDS for e in mini.of_kind(kind)}
    assert dict(counted) == expected
    tiles = Counter(o["Memo"] for o in _objects(save) if o["Name"] == "Custom_Tile")
    assert dict(tiles) == {e.id: e.count for kind in ("tile", "token", "character")
                           for e in mini.of_kind(kind)}


def _cell(sheet: Image.Image, deck: dict, slot: int) -> Image.Image:
    w, h = sheet.width // deck["NumWidth"], sheet.height // deck["NumHeight"]
    col, row = slot % deck["NumWidth"], slot // deck["NumWidth"]
    return sheet.crop((col * w, row * h, (col + 1) * w, (row + 1) * h))


def test_the_last_slot_holds_the_hidden_card(tts_out: Path) -> None:
    """The hidden face is the deck's back; the slots between the cards and it stay empty."""
    for deck in _sheets(_save(tts_out / "en")).values():
        with Image.open(_file(deck["FaceURL"])) as sheet, \
                Image.open(_file(deck["BackURL"])) as back:
            slots = deck["NumWidth"] * deck["NumHeight"]
            hidden = _cell(sheet, deck, slots - 1)
            assert ImageChops.difference(hidden, back.convert("RGB")).getbbox() is None
            first = _cell(sheet, deck, 0)
            assert ImageChops.difference(first, back.convert("RGB")).getbbox() is not None


def test_tiles_tokens_and_boards_have_their_own_images(tts_out: Path, mini: Model) -> None:
    save = _save(tts_out / "en")
    tiles = [o for o in _objects(save) if o["Name"] == "Custom_Tile"]
    for tile in tiles:
        image = tile["CustomImage"]
        assert _file(image["ImageURL"]).is_file()
        assert _file(image["ImageSecondaryURL"]).is_file()  # every mini tile has a back
        assert image["ImageURL"] != image["ImageSecondaryURL"]
    token = next(t for t in tiles if t["Memo"] == "cache-plus-2")
    assert token["CustomImage"]["CustomTile"]["Type"] == 2  # round: TTS's circle tile


def test_base_url_prefixes_every_image(tmp_path: Path, cache_dir: Path) -> None:
    out = tmp_path / "out"
    run("export", "tts", "--pack", "mini", "--content", str(FIXTURES), "--out", str(out),
        "--cache", str(cache_dir), "--lang", "ru", "--base-url", "https://example.org/mini/ru/")
    text = (out / "ru" / "mini-ru.json").read_text("utf-8")
    addresses = list(_walk_urls(json.loads(text)))
    assert addresses and all(u.startswith("https://example.org/mini/ru/") for u in addresses)
    for url in addresses:  # the rest of the address is the file's path in the language folder
        assert (out / "ru" / unquote(url.removeprefix("https://example.org/mini/ru/"))).is_file()
    assert "file://" not in text


def _walk_urls(value):
    if isinstance(value, dict):
        for k, v in value.items():
            if k.endswith("URL") and isinstance(v, str):
                yield v
            else:
                yield from _walk_urls(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk_urls(v)


def test_a_deck_of_75_cards_fills_a_10_by_7_sheet_and_goes_on(tmp_path: Path,
                                                               cache_dir: Path) -> None:
    """69 cards and the hidden one in the 70th slot of a full sheet, the rest on a second."""
    pack = copy_pack(tmp_path)
    extra = "".join(f"\n- id: filler-{i:02d}\n  kind: card\n  deck: event-deck\n"
                    f"  name: {{ru: Карта {i}, en: Card {i}}}\n"
                    f"  text: {{ru: Текст {i}., en: Text {i}.}}\n" for i in range(72))
    (pack / "cards.yaml").write_text((pack / "cards.yaml").read_text("utf-8") + extra, "utf-8")
    out = tmp_path / "out"
    run("export", "tts", "--pack", "mini", "--content", str(pack.parent), "--out", str(out),
        "--cache", str(cache_dir), "--lang", "en")
    save = _save(out / "en")
    events = next(o for o in save["ObjectStates"] if o.get("Memo") == "event-deck")
    sheets = [events["CustomDeck"][k] for k in sorted(events["CustomDeck"], key=int)]
    assert (sheets[0]["NumWidth"], sheets[0]["NumHeight"]) == (10, 7)
    assert len(sheets) == 2
    assert len(events["DeckIDs"]) == 2 + 1 + 72  # draught twice, the long tale, the fillers
    first_ids = sorted({i for i in events["DeckIDs"] if i // 100 == int(min(
        events["CustomDeck"], key=int))})
    assert len(first_ids) == 69 and max(first_ids) % 100 == 68  # slot 70 (index 69) is hidden
    with Image.open(_file(sheets[0]["FaceURL"])) as sheet, \
            Image.open(_file(sheets[0]["BackURL"])) as back:
        assert sheet.width <= 4096 and sheet.height <= 4096
        hidden = _cell(sheet, sheets[0], 69)
        assert ImageChops.difference(hidden, back.convert("RGB")).getbbox() is None


def test_one_export_at_a_time_per_output_folder(tmp_path: Path, cache_dir: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Like relic build: a second export into a folder another one holds stops at once."""
    from pipeline.cli import main
    from pipeline.commands.output import build_lock

    out = tmp_path / "out"
    with build_lock(out, "mini"):
        code = main(["export", "tts", "--pack", "mini", "--content", str(FIXTURES), "--out",
                     str(out), "--cache", str(cache_dir), "--quiet"])
    assert code == 2
    assert "error[usage]: another build of mini is running" in capsys.readouterr().err
    assert not (out / "en").exists()


def test_bags_are_named_in_the_build_language(tts_out: Path) -> None:
    """A bag takes its kind's printed caption (labels.yaml), not the kind's id."""
    bags = {o["Memo"]: o["Nickname"] for o in _save(tts_out / "ru")["ObjectStates"]
            if o["Name"] == "Bag"}
    assert bags == {"token": "Жетон", "character": "Персонаж"}
