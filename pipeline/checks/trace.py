"""The rules trace: `trace.yaml` and `trace-*.yaml` at the top of a pack, merged.

- every trace file matches `schemas/trace.json`;
- ids (sections, facts, decisions) are unique across all trace files;
- every content path (`entity-id[.dotted.path]`) names an existing entity and value;
- every schema path (`kinds/x.json[#/pointer]`) names an existing schema and node;
- every provisional value of the content is listed under some decision's `provisional`, and every
  listed one is still provisional in the content.

A pack without any trace file is not traced: the check says nothing about it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.diagnostics import Diagnostic, RelicError, Span, error, relative
from pipeline.loader import load_yaml
from pipeline.model import Model, PathKey, SourceFile, real_path
from pipeline.schemas import Catalogue, catalogue_for
from pipeline.validate import did_you_mean, schema_diagnostics

TRACE_SCHEMA = "trace.json"
LOCATION_FIELDS = ("content", "schema")


@dataclass(frozen=True)
class Item:
    """One traced item (section, fact or decision) and where it stands."""

    source: SourceFile
    path: PathKey
    data: Mapping[str, Any]

    def span(self, *more: str | int) -> Span:
        return self.source.span(self.path + more)


def trace_files(pack_dir: Path) -> list[Path]:
    main = pack_dir / "trace.yaml"
    extra = sorted(pack_dir.glob("trace-*.yaml"))
    return ([main] if main.is_file() else []) + [p for p in extra if p.is_file()]


def load_traces(pack_dir: Path) -> tuple[list[SourceFile], list[Diagnostic]]:
    sources, problems = [], []
    for path in trace_files(pack_dir):
        try:
            sources.append(load_yaml(path, relative(path)))
        except RelicError as exc:
            problems += exc.diagnostics
    return sources, problems


def items(source: SourceFile) -> Iterator[Item]:
    data = source.data if isinstance(source.data, Mapping) else {}
    for i, section in enumerate(data.get("sections") or ()):
        yield Item(source, ("sections", i), section)
        for j, fact in enumerate(section.get("facts") or ()):
            yield Item(source, ("sections", i, "facts", j), fact)
    for i, decision in enumerate(data.get("decisions") or ()):
        yield Item(source, ("decisions", i), decision)


def check_ids(all_items: list[Item]) -> Iterator[Diagnostic]:
    seen: dict[str, Item] = {}
    for item in all_items:
        ident = item.data.get("id")
        first = seen.setdefault(ident, item)
        if first is not item:
            yield error(
                "trace-duplicate-id",
                f"trace id '{ident}' is already used",
                item.span("id"),
                f"first used at {first.span('id')}",
            )


def check_content_path(model: Model, dotted: str, span: Span) -> Iterator[Diagnostic]:
    entity_id, _, rest = dotted.partition(".")
    entity = model.by_id.get(entity_id)
    if entity is None:
        yield error(
            "trace-unknown-entity",
            f"the trace names '{entity_id}', which is no entity of this pack",
            span,
            did_you_mean(entity_id, model.by_id),
        )
    elif rest and real_path(entity.data, rest) is None:
        yield error(
            "trace-unknown-path",
            f"'{entity_id}' has no value at '{rest}'",
            span,
            f"'{entity_id}' is defined at {entity.span}",
        )


def pointer_exists(document: Any, pointer: str) -> bool:
    node = document
    for raw in pointer.lstrip("/").split("/") if pointer.strip("/") else ():
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def check_schema_path(catalogue: Catalogue, target: str, span: Span) -> Iterator[Diagnostic]:
    rel, _, pointer = target.partition("#")
    document = catalogue.documents.get(rel)
    if document is None:
        yield error(
            "trace-unknown-schema",
            f"the trace names the schema '{rel}', which does not exist",
            span,
            did_you_mean(rel, catalogue.documents),
        )
    elif pointer and not pointer_exists(document, pointer):
        yield error("trace-unknown-schema", f"'{rel}' has nothing at '#{pointer}'", span)


def check_locations(model: Model, catalogue: Catalogue, item: Item) -> Iterator[Diagnostic]:
    for field in LOCATION_FIELDS:
        for index, target in enumerate(item.data.get(field) or ()):
            span = item.span(field, index)
            if field == "content":
                yield from check_content_path(model, target, span)
            else:
                yield from check_schema_path(catalogue, target, span)


def content_provisional(model: Model) -> dict[str, Span]:
    """Every provisional value of the content, as `id` or `id.path`, with its place."""
    found = {}
    for entity in model.entities:
        for dotted in entity.provisional:
            key = f"{entity.id}.{dotted}" if dotted else entity.id
            path = (*entity.prefix, "provisional", *((dotted,) if dotted else ()))
            found[key] = entity.source.span(path)
    return found


def check_provisional(model: Model, all_items: list[Item]) -> Iterator[Diagnostic]:
    marked = content_provisional(model)
    traced: dict[str, Span] = {}
    for item in all_items:
        for index, key in enumerate(item.data.get("provisional") or ()):
            traced.setdefault(key, item.span("provisional", index))
    for key, span in sorted(marked.items()):
        if key not in traced:
            yield error(
                "provisional-untraced",
                f"provisional value '{key}' is not listed under any decision of the trace",
                span,
                "add it to a decision's `provisional` list in trace.yaml",
            )
    for key, span in sorted(traced.items()):
        if key not in marked:
            yield error(
                "trace-stale-provisional",
                f"the trace lists '{key}' as provisional, but the content does not mark it",
                span,
            )


def check(model: Model) -> Iterable[Diagnostic]:
    pack_dir = model.pack.root
    sources, out = load_traces(pack_dir)
    if not sources and not out:
        return out
    catalogue = catalogue_for(pack_dir)
    valid = []
    for source in sources:
        errors, _ = catalogue.check(TRACE_SCHEMA, source.data)
        out += schema_diagnostics(errors, source, ())
        if not errors:
            valid.append(source)
    all_items = [item for source in valid for item in items(source)]
    out += check_ids(all_items)
    for item in all_items:
        out += check_locations(model, catalogue, item)
    if len(valid) == len(sources):  # an unreadable trace file would make every value untraced
        out += check_provisional(model, all_items)
    return out
