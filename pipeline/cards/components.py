"""Model -> Components: one entry per physical copy, each pointing at the faces it prints."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pipeline.cards.formats import Profile
from pipeline.model import SCALARS, Entity, Model, thaw

LANG_KEY = re.compile(r"^[a-z]{2}(-[A-Z]{2})?$")


@dataclass(frozen=True)
class Face:
    """One distinct printed face: a template filled with one context; rendered once."""

    key: str  # sha256 of template name, format and context (the cache adds template/asset hashes)
    side: str  # "front" or "back"
    template: str  # the layout: "monster" (templates/layouts/monster.yaml), "backs/deck"
    format: str
    context: str  # canonical JSON: what the template receives
    entity_id: str  # the entity named in diagnostics (for shared backs: the first one)


@dataclass(frozen=True)
class Component:
    """One physical copy of a printed entity."""

    id: str  # the entity's id (suffixed with the entry's name for a kind's second print)
    kind: str
    copy: int  # 1-based
    copies: int
    format: str
    front: str  # Face.key
    back: str | None  # Face.key
    entry: str = ""  # the print profile's entry (default: the kind)

    @property
    def name(self) -> str:
        return f"{self.id}-{self.copy}"


@dataclass(frozen=True)
class Components:
    items: tuple[Component, ...]
    faces: Mapping[str, Face]
    # the language's printed captions (labels.yaml), canonical JSON: every face of the language
    # sees them as `labels`, so they are kept once here, not in each face's context
    labels: str = "{}"

    def of_format(self, fmt: str) -> tuple[Component, ...]:
        return tuple(c for c in self.items if c.format == fmt)

    def formats(self) -> list[str]:
        return sorted({c.format for c in self.items})

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.items:
            out[c.id] = out.get(c.id, 0) + 1
        return out


_MAPS = (dict, MappingProxyType)


def is_text(value: Any) -> bool:
    """A localized text mapping: every key a language code, every value a string."""
    return (
        isinstance(value, Mapping)
        and bool(value)
        and all(isinstance(k, str) and LANG_KEY.match(k) for k in value)
        and all(isinstance(v, str) for v in value.values())
    )


def localize(value: Any, lang: str, fallback: str) -> Any:
    """Plain data (dicts and lists, from the model's frozen data too) with every localized
    text replaced by its string in `lang` (or the source). A localized text always has the
    source language (schemas/defs.json), so a mapping keyed by two-letter ids that is not text
    (`{bb: neutral}`) stays a mapping."""
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind in _MAPS or isinstance(value, Mapping):
        if fallback in value and is_text(value):
            return value.get(lang) or value.get(fallback) or next(iter(value.values()))
        return {k: localize(v, lang, fallback) for k, v in value.items()}
    if kind is tuple or kind is list:
        return [localize(v, lang, fallback) for v in value]
    return value


def _strings(value: Any) -> list[str]:
    """Every string value, and every mapping key (attitudes are keyed by character id): a walk
    with a stack of its own (a recursive generator cost a build 0.02 s on the canonical
    pack)."""
    found: list[str] = []
    stack = [value]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is str:
            found.append(value)
        elif kind in SCALARS:
            continue
        elif kind in _MAPS or isinstance(value, Mapping):
            for k, v in value.items():
                if isinstance(k, str):
                    found.append(k)
                stack.append(v)
        elif kind is list or kind is tuple or isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, str):
            found.append(value)
    return found


def _own(entity: Entity) -> dict[str, Any]:
    """What a view shows besides the entity's data (over a data field of the same name)."""
    return {"count": entity.count, "provisional": dict(entity.provisional)}


def entity_view(entity: Entity, lang: str, fallback: str) -> dict[str, Any]:
    view = localize(entity.data, lang, fallback)
    view.update(_own(entity))
    return view


REF_FIELDS = ("id", "kind", "name", "title", "type")


def ref_view(entity: Entity, lang: str, fallback: str,
             extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """What a face shows of an entity it refers to: its name and kind, not its numbers (so that
    editing a monster's stats re-renders the monster's card, not every card naming it), plus
    the `extra` fields its print profile asks for (`ref_fields`)."""
    own, data = _own(entity), entity.data
    return {k: own[k] if k in own else localize(data[k], lang, fallback)
            for k in (*REF_FIELDS, *extra) if k in own or k in data}


def printed_text(model: Model, profile: Profile) -> set[str]:
    """Every string a face of any language may print of the pack's data: the data and the
    provisional notes of each entity the profile prints and of each entity it refers to, in
    every language, and the pack's title. It holds what every language's face contexts hold
    (a view picks its strings from the data), so the charset spans the languages without
    expanding each (`cards.charset`)."""
    found: set[str] = {model.pack.id, *_strings(model.pack.title)}
    printed = {entity.id: entity for spec in profile.kinds
               for entity in model.of_kind(spec.kind) if spec.prints(entity.get)}
    for entity in printed.values():
        found.add(entity.id)
        found.update(_strings(entity.data))
        found.update(_strings(dict(entity.provisional)))
    for referred in [model.by_id[s] for s in found if s in model.by_id and s not in printed]:
        found.update(_strings(referred.data))  # (its name and kind on the faces referring to
        found.update(_strings(dict(referred.provisional)))  # it, and its `ref_fields`)
    return found


def references(entity: Entity, model: Model) -> list[Entity]:
    """Entities whose id appears as a value in this entity's data (one level)."""
    ids = sorted({s for s in _strings(entity.data) if s in model.by_id and s != entity.id})
    return [model.by_id[i] for i in ids]


def face_context(entity: Entity | None, kind: str, model: Model, lang: str,
                 proof: bool, ref_fields: tuple[str, ...] = ()) -> dict[str, Any]:
    """What a template sees of one face: the entity, the entities it refers to, pack info (the
    language's labels are added when the face is drawn: `Components.labels`)."""
    src = model.pack.source_language
    pack = {
        "id": model.pack.id,
        "title": localize(model.pack.title, lang, src),
        "lang": lang,
    }
    ctx: dict[str, Any] = {"kind": kind, "pack": pack, "lang": lang, "proof": proof}
    if entity is not None:
        ctx["entity"] = entity_view(entity, lang, src)
        ctx["refs"] = {e.id: ref_view(e, lang, src, ref_fields)
                       for e in references(entity, model)}
    return ctx


def canonical(value: Any) -> str:
    """The JSON a face's context and a language's labels are kept as."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _face(side: str, template: str, fmt: str, ctx: dict[str, Any], entity_id: str) -> Face:
    text = canonical(ctx)
    key = hashlib.sha256(f"{side}\0{template}\0{fmt}\0{text}".encode()).hexdigest()
    return Face(key, side, template, fmt, text, entity_id)


def expand(model: Model, profile: Profile, lang: str, proof: bool,
           labels: Mapping[str, Any]) -> Components:
    """The one place where counts become copies: every printed entity times its count."""
    items: list[Component] = []
    faces: dict[str, Face] = {}
    shared_backs: dict[tuple[str, str, Any], str] = {}
    for spec in profile.kinds:
        for entity in sorted(model.of_kind(spec.kind), key=lambda e: e.id):
            if not spec.prints(entity.get):
                continue
            fmt, template, back = spec.choose(entity.get)
            ctx = face_context(entity, spec.kind, model, lang, proof, spec.ref_fields)
            front = _face("front", template, fmt, ctx, entity.id)
            faces.setdefault(front.key, front)
            back_key = None
            if back and spec.back_per_entity:
                face = _face("back", f"backs/{back}", fmt, ctx, entity.id)
                faces.setdefault(face.key, face)
                back_key = face.key
            elif back:
                group = entity.get(spec.back_by) if spec.back_by else None
                shared = (spec.name, fmt, back, group)
                if shared not in shared_backs:
                    bctx = face_context(None, spec.kind, model, lang, proof)
                    if isinstance(group, str) and group in model.by_id:
                        bctx["group"] = entity_view(model.by_id[group], lang,
                                                    model.pack.source_language)
                    face = _face("back", f"backs/{back}", fmt, bctx, entity.id)
                    faces.setdefault(face.key, face)
                    shared_backs[shared] = face.key
                back_key = shared_backs[shared]
            for copy in range(1, entity.count + 1):
                items.append(Component(spec.component_id(entity.id), spec.kind, copy,
                                       entity.count, fmt, front.key, back_key, spec.name))
    return Components(tuple(items), faces, canonical(thaw(labels)))
