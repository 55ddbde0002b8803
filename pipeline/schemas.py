"""The schema catalogue: one JSON Schema per entity kind, plus shared definitions.

Adding `schemas/kinds/<kind>.json` adds a kind; the loader has no per-kind code.
References between entities are marked in schemas with the `x-ref` keyword.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator, ValidationError, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = PROJECT_ROOT / "schemas"
REF_KEYWORD = "x-ref"
STANDALONE_KEYWORD = "x-standalone"
SCHEMA_ID_PREFIX = "relic://schemas/"

# Schema ids use the relic:// scheme; teach urljoin that it has relative paths like https.
for _registry in (urllib.parse.uses_relative, urllib.parse.uses_netloc):
    if "relic" not in _registry:
        _registry.append("relic")


def _ref_marker(
    validator: Any, kinds: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """Not a failure: a marker that records where a reference stands (split off later)."""
    if isinstance(instance, str):
        yield ValidationError("reference", instance=instance)


RelicValidator = validators.extend(Draft7Validator, {REF_KEYWORD: _ref_marker})


def inline_refs(node: Any, base: str, registry: Registry, depth: int = 0) -> Any:
    """Replace every `$ref` by its target, once, so validation does no look-ups.

    In draft-07 a `$ref` ignores its siblings, so the replacement is exact. Recursive schemas
    keep their `$ref` past a depth and are then resolved by the registry as usual.
    """
    if isinstance(node, list):
        return [inline_refs(item, base, registry, depth) for item in node]
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("$ref"), str) and depth < 16:
        target = urllib.parse.urljoin(base, node["$ref"])
        resolved = registry.resolver().lookup(target)
        doc_base = target.split("#", 1)[0]
        return inline_refs(resolved.contents, doc_base, registry, depth + 1)
    return {key: inline_refs(value, base, registry, depth) for key, value in node.items()}


@dataclass(frozen=True)
class Reference:
    path: tuple[str | int, ...]
    target: str
    kinds: tuple[str, ...]  # empty: any kind


@dataclass(frozen=True)
class Catalogue:
    """The schemas of the project, optionally extended (or overridden) by a pack's own."""

    roots: tuple[Path, ...] = (SCHEMA_DIR,)

    @cached_property
    def documents(self) -> dict[str, dict]:
        docs = {}
        for root in self.roots:
            for path in sorted(root.rglob("*.json")):
                docs[path.relative_to(root).as_posix()] = json.loads(path.read_text("utf-8"))
        return docs

    @cached_property
    def registry(self) -> Registry:
        resources = [
            (SCHEMA_ID_PREFIX + rel, Resource.from_contents(doc, default_specification=DRAFT7))
            for rel, doc in self.documents.items()
        ]
        return Registry().with_resources(resources)

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        return tuple(
            rel.removeprefix("kinds/").removesuffix(".json")
            for rel in self.documents
            if rel.startswith("kinds/")
        )

    def kind_schema(self, kind: str) -> dict:
        return self.documents[f"kinds/{kind}.json"]

    @cached_property
    def stat_names(self) -> tuple[str, ...]:
        """The statistics a threshold or a stat field may name (`defs.json#/definitions/stat`,
        the one home of that list)."""
        return tuple(self.documents["defs.json"]["definitions"]["stat"]["enum"])

    def is_standalone(self, kind: str) -> bool:
        return bool(self.kind_schema(kind).get(STANDALONE_KEYWORD, False))

    def validator(self, rel: str) -> Draft7Validator:
        found = self._validators.get(rel)
        if found is None:
            schema = inline_refs(self.documents[rel], SCHEMA_ID_PREFIX + rel, self.registry)
            found = self._validators[rel] = RelicValidator(schema, registry=self.registry)
        return found

    @cached_property
    def _validators(self) -> dict[str, Draft7Validator]:
        return {}

    def check(self, rel: str, instance: Any) -> tuple[list[ValidationError], list[Reference]]:
        """Validate; return the real errors and the references found, separately."""
        errors, refs = [], []
        for err in self.validator(rel).iter_errors(instance):
            if err.validator == REF_KEYWORD:
                kinds = err.validator_value
                kinds = (
                    ()
                    if kinds in ("*", None)
                    else (kinds,)
                    if isinstance(kinds, str)
                    else tuple(kinds)
                )
                refs.append(Reference(tuple(err.absolute_path), err.instance, kinds))
            else:
                errors.append(err)
        return errors, refs


CATALOGUE = Catalogue()


def catalogue_for(pack_dir: Path) -> Catalogue:
    """A pack may add kinds in its own `schemas/kinds/` folder."""
    local = pack_dir / "schemas"
    return Catalogue((SCHEMA_DIR, local)) if local.is_dir() else CATALOGUE
