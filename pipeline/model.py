"""The resolved content model: frozen, typed data that every later stage receives."""

from __future__ import annotations

import copyreg
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pipeline.diagnostics import Span

Key = str | int
PathKey = tuple[Key, ...]


SCALARS = (str, int, float, bool, type(None))
"""The leaves of plain data: a walk tests `type(value) in SCALARS` first, which is much cheaper
than `isinstance(value, Mapping)` (an abstract class) on every leaf."""


def freeze(value: Any) -> Any:
    """Plain data made immutable: dicts become read-only mappings, lists become tuples."""
    if type(value) in SCALARS:
        return value
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def _frozen(items: dict) -> MappingProxyType:
    return MappingProxyType(items)


# a model goes whole from the process that loads it to the one that builds (`relic build`):
# a read-only mapping pickles as the dict it shows, and is read-only again when unpickled
copyreg.pickle(MappingProxyType, lambda mapping: (_frozen, (dict(mapping),)))


def thaw(value: Any) -> Any:
    """The inverse of `freeze`: JSON-ready dicts and lists."""
    if type(value) in SCALARS:
        return value
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


def split_path(dotted: str) -> PathKey:
    """`rows.2.roll` -> ("rows", 2, "roll")."""
    if not dotted:
        return ()
    return tuple(int(p) if p.isdigit() else p for p in dotted.split("."))


_MISSING = object()


def real_path(data: Any, dotted: str) -> PathKey | None:
    """The keys of a dotted path as they really are in `data`: a digit part is a list index in a
    list and a string key in a mapping (`by_players.1`). None if the path does not exist."""
    keys: list[Key] = []
    value = data
    for part in split_path(dotted):
        key: Key = part
        if isinstance(value, Mapping):
            key = str(part)
            found = value.get(key, _MISSING)
        elif isinstance(value, list | tuple) and isinstance(part, int) and part < len(value):
            found = value[part]
        else:
            found = _MISSING
        if found is _MISSING:
            return None
        keys.append(key)
        value = found
    return tuple(keys)


def lookup(data: Any, dotted: str, default: Any = None) -> Any:
    """The value at a dotted path, or `default`."""
    path = real_path(data, dotted)
    if path is None:
        return default
    value = data
    for key in path:
        value = value[key]
    return value


@dataclass(frozen=True, eq=False)
class SourceFile:
    """One parsed file: its data and the place of every value in it."""

    path: Path
    display: str
    data: Any
    positions: Mapping[PathKey, tuple[int, int]]

    def span(self, key: PathKey = ()) -> Span:
        """The span of the value at `key`, or of its nearest ancestor that has one."""
        while True:
            pos = self.positions.get(key)
            if pos is not None:
                return Span(self.display, pos[0], pos[1])
            if not key:
                return Span(self.display, 1, 1)
            key = key[:-1]


@dataclass(frozen=True)
class Entity:
    id: str
    kind: str
    data: Mapping[str, Any]
    source: SourceFile = field(repr=False, compare=False)
    prefix: PathKey = field(repr=False, compare=False)

    @property
    def count(self) -> int:
        return int(self.data.get("count", 1))

    @property
    def provisional(self) -> Mapping[str, str]:
        """Provisional reasons by dotted field path ("" for the whole entity)."""
        raw = self.data.get("provisional")
        if raw is None:
            return MappingProxyType({})
        if isinstance(raw, str):
            return MappingProxyType({"": raw})
        return raw

    def get(self, dotted: str, default: Any = None) -> Any:
        return lookup(self.data, dotted, default)

    def text(self, name: str, lang: str) -> str | None:
        value = self.get(name)
        return value.get(lang) if isinstance(value, Mapping) else None

    @property
    def span(self) -> Span:
        return self.source.span(self.prefix)

    def locate(self, dotted: str = "") -> Span:
        """The place of a value; of its nearest existing ancestor if the path is absent."""
        path = real_path(self.data, dotted)
        return self.source.span(self.prefix + (split_path(dotted) if path is None else path))


@dataclass(frozen=True)
class PackInfo:
    id: str
    title: Mapping[str, str]
    languages: tuple[str, ...]
    ruleset: str | None
    root: Path
    manifest: SourceFile = field(repr=False, compare=False)
    data: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def source_language(self) -> str:
        return self.languages[0]

    @property
    def print_profile(self) -> Mapping[str, Any]:
        return self.data.get("print", MappingProxyType({}))


@dataclass(frozen=True)
class Model:
    pack: PackInfo
    entities: tuple[Entity, ...]
    files: tuple[SourceFile, ...] = field(repr=False, compare=False, default=())

    @cached_property
    def by_id(self) -> Mapping[str, Entity]:
        return MappingProxyType({e.id: e for e in self.entities})

    def of_kind(self, kind: str) -> tuple[Entity, ...]:
        return tuple(e for e in self.entities if e.kind == kind)

    def kinds(self) -> list[str]:
        return sorted({e.kind for e in self.entities})

    def locate(self, entity_id: str, dotted: str = "") -> Span:
        return self.by_id[entity_id].locate(dotted)

    def __iter__(self) -> Iterator[Entity]:
        return iter(self.entities)

    def to_plain(self) -> dict[str, Any]:
        """The JSON export: stable, sorted, with defaults applied."""
        pack = thaw(self.pack.data)
        pack.update(
            id=self.pack.id,
            title=thaw(self.pack.title),
            languages=list(self.pack.languages),
            ruleset=self.pack.ruleset,
        )
        entities = []
        for e in sorted(self.entities, key=lambda e: (e.kind, e.id)):
            plain = thaw(e.data)
            plain.setdefault("count", 1)
            entities.append(plain)
        return {"pack": pack, "entities": entities}

    def to_json(self) -> str:
        return json.dumps(self.to_plain(), ensure_ascii=False, sort_keys=True, indent=2) + "\n"


def entity_index(entities: Sequence[Entity]) -> dict[str, list[Entity]]:
    index: dict[str, list[Entity]] = {}
    for e in entities:
        index.setdefault(e.id, []).append(e)
    return index
