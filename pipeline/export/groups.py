"""Components -> groups: the decks (components of one format that share one back) and the other
sets a vendor or a virtual table handles together (a kind's components in one format)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property

from pipeline.cards.components import Components
from pipeline.cards.formats import Profile


@dataclass(frozen=True)
class Entry:
    """One printed entity of a group: its faces and its number of copies."""

    id: str
    kind: str
    name: str  # in the build's language (the entity's name or title, else its id)
    front: str  # Face.key
    back: str | None  # Face.key
    count: int


@dataclass(frozen=True)
class Group:
    name: str  # file-safe: the deck's id for shared backs by deck, else the kind
    label: str  # in the build's language
    kind: str
    format: str
    back: str | None  # the shared back (None: each entry has its own back, or none)
    entries: tuple[Entry, ...]

    @property
    def shared_back(self) -> bool:
        return self.back is not None

    @cached_property
    def copies(self) -> tuple[Entry, ...]:
        """Every physical copy, in order (an entry repeated by its count)."""
        return tuple(e for e in self.entries for _ in range(e.count))


def _text(context: str, *keys: str) -> str:
    data = json.loads(context)
    for where in ("entity", "group"):
        value = data.get(where) or {}
        for key in keys:
            if isinstance(value.get(key), str) and value[key]:
                return value[key]
    return ""


def groups(components: Components, profile: Profile) -> tuple[Group, ...]:
    """The groups of a language's components, in the order the components come."""
    keyed: dict[tuple, dict] = {}
    for comp in components.items:
        spec = profile.for_kind(comp.kind)
        shared = comp.back is not None and not (spec is not None and spec.back_per_entity)
        key = (comp.format, comp.back) if shared else (comp.format, comp.kind)
        if key not in keyed:
            keyed[key] = {"kind": comp.kind, "format": comp.format,
                          "back": comp.back if shared else None, "entries": {}}
        entries = keyed[key]["entries"]
        if comp.id not in entries:
            face = components.faces[comp.front]
            entries[comp.id] = Entry(comp.id, comp.kind,
                                     _text(face.context, "name", "title") or comp.id,
                                     comp.front, comp.back, comp.copies)
    named = []
    # a kind's printed caption in the build's language (labels.yaml; or the pack's name of
    # its group in the box contents, group-KIND), else its id
    labels = json.loads(components.labels)
    for g in keyed.values():
        name = g["kind"]
        label = labels.get(name) or labels.get(f"group-{name}") or name
        if g["back"] is not None:
            group = json.loads(components.faces[g["back"]].context).get("group") or {}
            name = group.get("id") or name
            label = group.get("name") or label
        named.append((name, label, g))
    # a caption shared by groups of several formats gains the format's size (Token 25×25)
    captions = [label for _, label, _ in named]
    named = [(name, label if captions.count(label) == 1 else
              f"{label} {profile.formats[g['format']].width:g}×"
              f"{profile.formats[g['format']].height:g}", g) for name, label, g in named]
    # a name shared by groups of several formats: a kind's groups take their format's name
    # (tile, final-tile), a deck's groups their deck and format (else kind-format)
    names = [n for n, _, _ in named]
    single = {n for n in names if names.count(n) == 1}
    out = []
    for name, label, g in named:
        if name not in single:
            fmt = g["format"]
            name = fmt if g["back"] is None and fmt not in single else f"{name}-{fmt}"
        out.append(Group(name, label, g["kind"], g["format"], g["back"],
                         tuple(g["entries"].values())))
    return tuple(out)
