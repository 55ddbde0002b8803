"""Model + a built folder's manifest -> the gallery: one item per printed entity, front and back.

Only the stage's public surface is read: the pack's print profile (which kinds print, how backs
are shared), `manifest.json` (every file with its sha256) and the documented PNG names of the
output folder (`png/<id>-<copy>.png`, `-back.png`, `back-<kind>-<deck>.png`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.cards.formats import KindPrint, load_profile
from pipeline.diagnostics import Diagnostic, Span
from pipeline.model import Entity, Model, thaw

__all__ = ["Gallery", "Image", "Item", "Manifest", "attach", "gallery", "read_manifest"]


@dataclass(frozen=True)
class Image:
    """A file of the build output: its path under the served folder and its content hash."""

    path: str  # posix, relative to the served build folder: "ru/png/zombie-1.png"
    sha256: str

    @property
    def url(self) -> str:
        """Cache-busting by content: a new picture is a new URL, an unchanged one stays cached."""
        return f"/files/{self.path}?v={self.sha256[:16]}"


@dataclass(frozen=True)
class Item:
    """One printed entity: its faces, copies and where it is written."""

    id: str
    kind: str
    deck: str  # the id of the group whose back it shares (`back_by`), or ""
    deck_name: str
    name: str  # caption in the preview language
    copies: int
    front: Image | None
    back: Image | None
    source: Span  # where the entity starts
    last_line: int  # its last line in that file (the next entity's start - 1)
    text: str  # every string it prints, lowercased, for search

    def owns(self, span: Span) -> bool:
        return span.file == self.source.file and self.source.line <= span.line <= self.last_line


@dataclass(frozen=True)
class Gallery:
    pack: str
    title: str
    lang: str
    items: tuple[Item, ...]
    ruleset: str | None = None  # a pack with a game can be simulated
    players: tuple[int, int] | None = None  # the pack's player counts (pack.yaml `players`)

    def images(self) -> dict[str, str]:
        """path -> sha256 of every picture the gallery shows."""
        out = {}
        for item in self.items:
            for image in (item.front, item.back):
                if image is not None:
                    out[image.path] = image.sha256
        return out


@dataclass(frozen=True)
class Manifest:
    """What a built language folder holds: relative path -> sha256."""

    lang: str
    files: Mapping[str, str]
    counts: Mapping[str, int]


def read_manifest(folder: Path, lang: str) -> Manifest:
    data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    files = {f["path"]: f["sha256"] for f in data.get("files", [])}
    return Manifest(lang, files, dict(data.get("components", {})))


def _localized(value: Any, lang: str, fallback: str) -> str | None:
    if isinstance(value, Mapping):
        text = value.get(lang) or value.get(fallback)
        return text if isinstance(text, str) else None
    return None


def caption(entity: Entity, lang: str, fallback: str) -> str:
    for field in ("name", "title"):
        text = _localized(entity.get(field), lang, fallback)
        if text:
            return text
    return entity.id


def _strings(value: Any, lang: str) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        if lang in value and isinstance(value[lang], str):
            yield value[lang]
            return
        for v in value.values():
            yield from _strings(v, lang)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v, lang)


def _last_lines(model: Model) -> dict[str, int]:
    """Each entity's last line: the line before the next entity of the same file starts."""
    by_file: dict[str, list[Entity]] = {}
    for entity in model.entities:
        by_file.setdefault(entity.span.file, []).append(entity)
    out: dict[str, int] = {}
    for entities in by_file.values():
        entities.sort(key=lambda e: (e.span.line, e.span.col))
        for here, after in zip(entities, [*entities[1:], None], strict=True):
            out[here.id] = after.span.line - 1 if after is not None else 10**9
    return out


def _image(manifest: Manifest, name: str) -> Image | None:
    rel = f"png/{name}.png"
    sha = manifest.files.get(rel)
    return Image(f"{manifest.lang}/{rel}", sha) if sha else None


def _back(model: Model, spec: KindPrint, entity: Entity, manifest: Manifest) -> Image | None:
    fmt, _, back = spec.choose(entity.get)
    if not back:
        return None
    if spec.back_per_entity:
        return _image(manifest, f"{entity.id}-1-back")
    group = entity.get(spec.back_by) if spec.back_by else None
    shared = group if isinstance(group, str) and group in model.by_id else fmt
    return _image(manifest, f"back-{entity.kind}-{shared}")


def gallery(model: Model, manifest: Manifest) -> Gallery:
    """Every printed entity of the model with the pictures the built folder holds for it."""
    lang, src = manifest.lang, model.pack.source_language
    profile = load_profile(model.pack)
    last = _last_lines(model)
    items = []
    for spec in profile.kinds:
        for entity in sorted(model.of_kind(spec.kind), key=lambda e: e.id):
            group = entity.get(spec.back_by) if spec.back_by else None
            deck = group if isinstance(group, str) and group in model.by_id else ""
            deck_name = caption(model.by_id[deck], lang, src) if deck else ""
            name = caption(entity, lang, src)
            words = [entity.id, entity.kind, deck, deck_name,
                     *_strings(thaw(entity.data), lang)]
            items.append(Item(
                id=entity.id, kind=entity.kind, deck=deck, deck_name=deck_name, name=name,
                copies=manifest.counts.get(entity.id, entity.count),
                front=_image(manifest, f"{entity.id}-1"),
                back=_back(model, spec, entity, manifest),
                source=entity.span, last_line=last[entity.id],
                text=" ".join(words).lower()))
    title = _localized(thaw(model.pack.title), lang, src) or model.pack.id
    players = model.pack.data.get("players") or {}
    span = (int(players.get("min", 1)), int(players.get("max", players.get("min", 1))))
    return Gallery(model.pack.id, title, lang, tuple(items), model.pack.ruleset,
                   span if players else None)


def attach(items: Iterable[Item], diagnostics: Iterable[Diagnostic]) -> dict[str, list[Diagnostic]]:
    """Each entity's own diagnostics: those whose place lies inside its lines."""
    items = list(items)
    out: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        for item in items:
            if item.owns(d.span):
                out.setdefault(item.id, []).append(d)
                break
    return out
