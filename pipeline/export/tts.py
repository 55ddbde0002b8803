"""`relic export tts`: a pack as a Tabletop Simulator saved object (docs/exports.md).

    the pack's faces, drawn as for the default build (cached)        pipeline.cards.build
      -> groups: decks (card formats sharing a back) and the rest    export.groups
      -> card sheets of at most 10 x 7, at most 4096 px a side, RGB; the last slot of each sheet
         holds the hidden card; a back image per deck; an image per tile, token and board face
      -> <pack>-<lang>.json (ObjectStates: DeckCustom, Card, Custom_Tile, Bag) and a thumbnail

Image addresses are file:/// paths of the written folder, or --base-url followed by the file's
path inside the language folder. The layout (sheet limits, which formats are cards, what scale 1
stands for) is data: templates/print/tts.yaml, checked by schemas/print/tts.json.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from PIL import Image

from pipeline.cards.components import Components
from pipeline.cards.formats import LIBRARY, SCHEMAS, Format, Profile, _load_yaml
from pipeline.cards.layout import Layout
from pipeline.cards.outputs import staging_for, swap_in, write_manifest
from pipeline.cards.render import Rendered
from pipeline.cards.units import PT_PER_MM, parse_length
from pipeline.cards.write import PackMeta
from pipeline.diagnostics import RelicError
from pipeline.export.groups import Entry, Group, groups
from pipeline.export.raster import face_images
from pipeline.fsutil import atomic_write

SAVE_SCHEMA = SCHEMAS / "export" / "tts-save.json"
HIDDEN_FILL = (96, 96, 96)  # the hidden face of a deck without a shared back
THUMBNAIL = 256


@dataclass(frozen=True)
class TtsProfile:
    sheet_max: int
    grid_max: tuple[int, int]
    card_dpi: int
    tile_dpi: int
    card_formats: tuple[str, ...]
    card_width: float  # mm that scale 1 stands for
    tile_width: float
    tile_thickness: float
    token_thickness: float


def load_tts(pack_root: Path) -> TtsProfile:
    """templates/print/tts.yaml overlaid by the pack's print/tts.yaml (RelicError if wrong)."""
    merged: dict[str, Any] = {}
    errors = []
    for path in (LIBRARY / "tts.yaml", pack_root / "print" / "tts.yaml"):
        if path.is_file():
            data, errs = _load_yaml(path, "tts")
            errors += errs
            merged.update(data.get("tts", {}))
    if errors:
        raise RelicError(errors)
    return TtsProfile(int(merged["sheet_max"]), tuple(merged["grid_max"]),  # type: ignore[arg-type]
                      int(merged["card_dpi"]), int(merged["tile_dpi"]),
                      tuple(merged["card_formats"]), parse_length(merged["card_width"]),
                      parse_length(merged["tile_width"]), float(merged["tile_thickness"]),
                      float(merged["token_thickness"]))


@dataclass(frozen=True)
class SheetGrid:
    cols: int
    rows: int
    cell: tuple[int, int]  # px of one card (its trim)

    @property
    def hidden(self) -> int:
        """The slot of the hidden card: the sheet's last."""
        return self.cols * self.rows - 1


def sheet_grid(count: int, fmt: Format, tts: TtsProfile) -> SheetGrid:
    """The grid for `count` cards plus the hidden one: at most grid_max, at least 2 x 2 (the
    smallest TTS takes), each card as large as card_dpi and sheet_max allow."""
    max_cols, max_rows = tts.grid_max
    slots = count + 1
    if slots > max_cols * max_rows:
        raise ValueError(f"{count} cards do not fit one sheet of {max_cols} x {max_rows}")
    rows = max(2, -(-slots // max_cols))  # as few rows as the width allows, then
    cols = max(2, -(-slots // rows))  # as few columns as those rows need
    per_mm = min(tts.card_dpi / 25.4, tts.sheet_max / (cols * fmt.width),
                 tts.sheet_max / (rows * fmt.height))
    return SheetGrid(cols, rows, (math.floor(fmt.width * per_mm), math.floor(fmt.height * per_mm)))


class Images:
    """Rasterizes faces at the trim and writes them; remembers the address of every file."""

    def __init__(self, staging: Path, final: Path, base_url: str | None, profile: Profile,
                 meta: PackMeta, rendered: Mapping[str, Rendered]):
        self.staging, self.final, self.base_url = staging, final, base_url
        self.profile, self.meta, self.rendered = profile, meta, rendered
        self.files: list[str] = []

    def url(self, name: str) -> str:
        if self.base_url:
            return self.base_url.rstrip("/") + "/" + quote(name)
        return (self.final.resolve() / name).as_uri()

    def trimmed(self, keys: Sequence[str], fmt: Format, size: tuple[int, int]) -> list[Image.Image]:
        """The faces at `size` px, bleed cut off (drawn at a little more, then fitted)."""
        dpi = max(size[0] / fmt.width, size[1] / fmt.height) * 25.4
        images = face_images([self.rendered[k] for k in keys], self.profile.fonts,
                             self.meta.charset, dpi, fmt.bleed * PT_PER_MM)
        return [im if im.size == size else im.resize(size, Image.Resampling.LANCZOS)
                for im in images]

    def save(self, image: Image.Image, name: str) -> str:
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, "PNG", optimize=False, compress_level=6)
        target = self.staging / name
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, buffer.getvalue())
        self.files.append(name)
        return self.url(name)


def _guid(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:6]


def _transform(x: float, z: float, sx: float = 1.0, sz: float = 1.0, flip: bool = False
               ) -> dict[str, float]:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if flip else 0.0, "scaleX": round(sx, 4), "scaleY": 1.0,
            "scaleZ": round(sz, 4)}


def _base(name: str, nickname: str, transform: dict, guid: str, memo: str = "") -> dict:
    obj: dict[str, Any] = {"Name": name, "GUID": guid, "Nickname": nickname,
                           "Description": "", "Transform": transform, "Locked": False,
                           "Grid": True, "Snap": True, "Tooltip": True}
    if memo:
        obj["Memo"] = memo
    return obj


class SaveBuilder:
    """The saved object's ObjectStates, deck by deck and tile set by tile set."""

    def __init__(self, images: Images, profile: Profile, tts: TtsProfile, lang: str):
        self.images, self.profile, self.tts, self.lang = images, profile, tts, lang
        self.objects: list[dict] = []
        self.next_key = 1  # CustomDeck keys: one per sheet, unique in the save
        self.decks_placed = 0
        self.tiles_placed = 0
        self.sheets: list[dict] = []  # what the manifest lists about every sheet

    def deck(self, group: Group) -> None:
        fmt = self.profile.formats[group.format]
        max_cols, max_rows = self.tts.grid_max
        per_sheet = max_cols * max_rows - 1
        entries = list(group.entries)
        card_of: dict[str, tuple[int, dict]] = {}  # entity id -> (CardID, its CustomDeck)
        chunks = [entries[i:i + per_sheet] for i in range(0, len(entries), per_sheet)]
        grids = [sheet_grid(len(chunk), fmt, self.tts) for chunk in chunks]
        cell = min(g.cell for g in grids)  # one card size for the deck (and its one back)
        for number, (chunk, grid) in enumerate(zip(chunks, grids, strict=True), start=1):
            key, custom = self._sheet(group, fmt, chunk, number,
                                      SheetGrid(grid.cols, grid.rows, cell))
            for index, entry in enumerate(chunk):
                card_of[entry.id] = (key * 100 + index, {str(key): custom})
        sideways = fmt.width > fmt.height
        x, z = 3.5 * self.decks_placed, 0.0
        self.decks_placed += 1
        sx, sz = self._card_scale(fmt)
        cards = []
        for copy, entry in enumerate(group.copies):
            card_id, custom = card_of[entry.id]
            card = _base("Card", entry.name, _transform(x, z, sx, sz, flip=True),
                         _guid(self.lang, group.name, entry.id, str(copy)), entry.id)
            card.update({"CardID": card_id, "SidewaysCard": sideways, "CustomDeck": custom})
            cards.append(card)
        if len(cards) == 1:
            self.objects.append(cards[0])
            return
        deck = _base("DeckCustom", group.label, _transform(x, z, sx, sz, flip=True),
                     _guid(self.lang, group.name), group.name)
        deck.update({
            "SidewaysCard": sideways,
            "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": {k: v for c in cards for k, v in c["CustomDeck"].items()},
            "ContainedObjects": cards,
        })
        self.objects.append(deck)

    def _sheet(self, group: Group, fmt: Format, chunk: list[Entry], number: int,
               grid: SheetGrid) -> tuple[int, dict]:
        images = self.images
        unique_back = group.back is None and any(e.back for e in chunk)
        keys = [e.front for e in chunk]
        backs = [e.back for e in chunk] if unique_back else []
        hidden_key = group.back
        drawn = images.trimmed([*keys, *[b for b in backs if b],
                                *([hidden_key] if hidden_key else [])], fmt, grid.cell)
        fronts, rest = drawn[:len(keys)], drawn[len(keys):]
        back_images = rest[:len(backs)]
        hidden = rest[-1] if hidden_key else Image.new("RGB", grid.cell, HIDDEN_FILL)
        face_url = images.save(self._grid_image(grid, fronts, hidden),
                               f"{group.name}-{number}.png")
        if unique_back:
            back_url = images.save(self._grid_image(grid, back_images, hidden),
                                   f"{group.name}-{number}-backs.png")
        else:  # the shared back (or the plain hidden face of a deck without one)
            back_url = images.save(hidden, f"{group.name}-back.png")
        key = self.next_key
        self.next_key += 1
        custom = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": grid.cols,
                  "NumHeight": grid.rows, "BackIsHidden": True, "UniqueBack": unique_back,
                  "Type": 0 if fmt.corner > 0 else 1}
        self.sheets.append({"deck": group.name, "key": key, "file": f"{group.name}-{number}.png",
                            "cols": grid.cols, "rows": grid.rows, "cell_px": list(grid.cell),
                            "cards": [e.id for e in chunk], "hidden_slot": grid.hidden})
        return key, custom

    @staticmethod
    def _grid_image(grid: SheetGrid, cards: list[Image.Image], hidden: Image.Image
                    ) -> Image.Image:
        w, h = grid.cell
        sheet = Image.new("RGB", (grid.cols * w, grid.rows * h), (255, 255, 255))
        for index, card in enumerate(cards):
            sheet.paste(card, ((index % grid.cols) * w, (index // grid.cols) * h))
        slot = grid.hidden
        sheet.paste(hidden, ((slot % grid.cols) * w, (slot // grid.cols) * h))
        return sheet

    def _card_scale(self, fmt: Format) -> tuple[float, float]:
        """A card's scale: its width against card_width, its height in the poker proportion
        TTS's card mesh has (2.5 x 3.5)."""
        short, long_ = sorted((fmt.width, fmt.height))
        base = self.tts.card_width
        return short / base, long_ / (base * 3.5 / 2.5)

    def tiles(self, group: Group) -> None:
        fmt = self.profile.formats[group.format]
        dpi = self.tts.tile_dpi
        size = (round(fmt.width / 25.4 * dpi), round(fmt.height / 25.4 * dpi))
        faces: list[tuple[str, str]] = []
        for entry in group.entries:
            faces.append((entry.front, f"{group.name}/{entry.id}.png"))
            if group.back is None and entry.back:
                faces.append((entry.back, f"{group.name}/{entry.id}-back.png"))
        if group.back:
            faces.append((group.back, f"{group.name}/back.png"))
        drawn = self.images.trimmed([k for k, _ in faces], fmt, size)
        url = {name: self.images.save(im, name) for (_, name), im in zip(faces, drawn,
                                                                           strict=True)}
        x, z = 6.0 * self.tiles_placed, -8.0
        self.tiles_placed += 1
        scale = fmt.width / self.tts.tile_width
        round_ = fmt.shape == "round"
        objects = []
        for copy, entry in enumerate(group.copies):
            back = (f"{group.name}/back.png" if group.back
                    else f"{group.name}/{entry.id}-back.png" if entry.back else None)
            image: dict[str, Any] = {"ImageURL": url[f"{group.name}/{entry.id}.png"],
                                     "ImageScalar": 1.0, "WidthScale": 0.0}
            if back:
                image["ImageSecondaryURL"] = url[back]
            image["CustomTile"] = {
                "Type": 2 if round_ else 0,
                "Thickness": self.tts.token_thickness if round_ else self.tts.tile_thickness,
                "Stackable": round_, "Stretch": fmt.width == fmt.height}
            tile = _base("Custom_Tile", entry.name, _transform(x, z, scale, scale),
                         _guid(self.lang, group.name, entry.id, str(copy)), entry.id)
            tile["CustomImage"] = image
            objects.append(tile)
        if len(objects) == 1:
            self.objects.append(objects[0])
            return
        bag = _base("Bag", group.label, _transform(x, z), _guid(self.lang, group.name, "bag"),
                    group.name)
        bag["ContainedObjects"] = objects
        self.objects.append(bag)


def save_state(title: str, objects: list[dict]) -> dict:
    """The saved-object file: TTS's SaveState with the objects to spawn."""
    return {"SaveName": title, "GameMode": "", "Date": "", "VersionNumber": "", "Gravity": 0.5,
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "TabStates": {}, "ObjectStates": objects}


@cache
def save_validator():
    from jsonschema import Draft7Validator

    return Draft7Validator(json.loads(SAVE_SCHEMA.read_text(encoding="utf-8")))


def write_tts(meta: PackMeta, profile: Profile, lang: str, components: Components,
              layouts: Mapping[str, Layout], rendered: Mapping[str, Rendered], options, *,
              tts: TtsProfile, base_url: str | None = None) -> Path:
    """The language's TTS folder (BuildOptions.writer): the saved object, its thumbnail, the
    images it names, and a manifest."""
    final = options.out_root / lang
    staging = staging_for(final)
    images = Images(staging, final, base_url, profile, meta, rendered)
    builder = SaveBuilder(images, profile, tts, lang)
    for group in groups(components, profile):
        if group.format in tts.card_formats:
            builder.deck(group)
        else:
            builder.tiles(group)
    title = meta.title.get(lang) or meta.title.get(meta.source_language, meta.id)
    save = save_state(title, builder.objects)
    problems = sorted(save_validator().iter_errors(save), key=lambda e: list(e.absolute_path))
    if problems:  # our own output: a bug here, never the user's content
        raise RuntimeError(f"the TTS save breaks {SAVE_SCHEMA.name}: {problems[0].message}")
    stem = f"{meta.id}-{lang}"
    atomic_write(staging / f"{stem}.json",
                 json.dumps(save, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
    _thumbnail(staging, stem, builder)
    write_manifest(staging, {"pack": meta.id, "lang": lang, "save": f"{stem}.json",
                             "base_url": base_url or "", "sheets": builder.sheets,
                             "components": components.counts()})
    swap_in(staging, final)
    return final


def _thumbnail(staging: Path, stem: str, builder: SaveBuilder) -> None:
    """<stem>.png beside the JSON: what TTS shows for the saved object in its browser."""
    first = builder.sheets[0]["file"] if builder.sheets else None
    thumb = Image.new("RGB", (THUMBNAIL, THUMBNAIL), (40, 36, 32))
    if first:
        with Image.open(staging / first) as sheet:
            sheet_grid_ = builder.sheets[0]
            w, h = sheet_grid_["cell_px"]
            card = sheet.crop((0, 0, w, h))
            card.thumbnail((THUMBNAIL, THUMBNAIL))
            thumb.paste(card, ((THUMBNAIL - card.width) // 2, (THUMBNAIL - card.height) // 2))
    buffer = io.BytesIO()
    thumb.save(buffer, "PNG")
    atomic_write(staging / f"{stem}.png", buffer.getvalue())


def export_options(pack_root: Path, base_url: str | None) -> dict[str, Any]:
    """What `relic export tts` sets in the build's options: its writer."""
    return {"writer": partial(write_tts, tts=load_tts(pack_root), base_url=base_url)}
