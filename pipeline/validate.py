"""Stage 2, validate: every loaded file against its JSON Schema.

Input: the pack's `SourceFile`s. Output: `ValidEntity` records (an entity mapping that passed its
kind's schema, with the references the schema marks) and diagnostics for everything else.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import ValidationError
from referencing.exceptions import Unresolvable

from pipeline.diagnostics import MAX_PER_FILE, Diagnostic, Omitted, error
from pipeline.model import PathKey, SourceFile
from pipeline.schemas import CATALOGUE, Catalogue, Reference


@dataclass(frozen=True)
class ValidEntity:
    source: SourceFile
    prefix: PathKey
    data: dict[str, Any]
    references: tuple[Reference, ...]

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def kind(self) -> str:
        return self.data["kind"]


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _code(err: ValidationError) -> str:
    return "schema-" + "".join("-" + c.lower() if c.isupper() else c for c in str(err.validator))


def _message(err: ValidationError) -> str:
    message = err.message
    if err.validator == "pattern":
        message = f"{err.instance!r} does not have the required form"
    elif err.validator in ("oneOf", "anyOf"):
        message = f"{_short(err.instance)} matches none of the allowed forms"
    if len(message) > 300:
        message = message[:297] + "..."
    where = ".".join(str(p) for p in err.absolute_path)
    return f"{where}: {message}" if where else message


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _hint(err: ValidationError) -> str | None:
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = err.schema.get("properties", {}).keys()
        extras = [k for k in err.instance if k not in allowed]
        for extra in extras:
            hint = did_you_mean(str(extra), allowed)
            if hint:
                return hint
        return "allowed here: " + ", ".join(sorted(allowed)) if allowed else None
    if err.validator == "enum":
        return did_you_mean(str(err.instance), [str(v) for v in err.validator_value])
    if err.validator == "required":
        return None
    return err.schema.get("description") if isinstance(err.schema, dict) else None


def schema_diagnostics(
    errors: Sequence[ValidationError], source: SourceFile, prefix: PathKey
) -> list[Diagnostic]:
    out = []
    for err in errors:
        path = prefix + tuple(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = err.schema.get("properties", {})
            extra = next((k for k in err.instance if k not in allowed), None)
            if extra is not None:
                path = (*path, extra)
        out.append(error(_code(err), _message(err), source.span(path), _hint(err)))
    return out


def validate_manifest(manifest: SourceFile, catalogue: Catalogue = CATALOGUE) -> list[Diagnostic]:
    errors, _ = catalogue.check("pack.json", manifest.data)
    return schema_diagnostics(errors, manifest, ())


def _entity_items(source: SourceFile) -> tuple[list[tuple[PathKey, Any]], list[Diagnostic]]:
    data = source.data
    if data is None:
        return [], []
    if isinstance(data, dict):
        return [((), data)], []
    if isinstance(data, list):
        return [((i,), item) for i, item in enumerate(data)], []
    return [], [
        error(
            "not-entities",
            "an entity file holds a list of entities (or one entity mapping)",
            source.span(()),
        )
    ]


def validate_entity(
    source: SourceFile, prefix: PathKey, item: Any, catalogue: Catalogue,
    limit: int | None = None,
) -> tuple[ValidEntity | None, list[Diagnostic]]:
    """One entity against its kind's schema; at most `limit` schema diagnostics."""
    span = source.span(prefix)
    if not isinstance(item, dict):
        return None, [error("not-an-entity", "an entity is a mapping with id and kind", span)]
    kind = item.get("kind")
    if not isinstance(kind, str):
        return None, [error("missing-kind", "entity has no 'kind'", span)]
    if kind in catalogue.broken:  # its schema has its own bad-schema diagnostic
        return None, []
    if kind not in catalogue.kinds:
        hint = did_you_mean(kind, catalogue.kinds) or "known kinds: " + ", ".join(catalogue.kinds)
        return None, [
            error("unknown-kind", f"unknown kind '{kind}'", source.span((*prefix, "kind")), hint)
        ]
    try:
        errors, refs = catalogue.check(f"kinds/{kind}.json", item, limit)
    except (Unresolvable, RecursionError) as exc:
        where = source.span((*prefix, "kind"))
        return None, [error("bad-schema", f"the schema of kind '{kind}' cannot be used: "
                            f"{type(exc).__name__}", where)]
    if errors:
        return None, schema_diagnostics(errors, source, prefix)
    return ValidEntity(source, prefix, item, tuple(refs)), []


@dataclass
class Validated:
    entities: list[ValidEntity]
    diagnostics: list[Diagnostic]
    invalid_ids: dict[str, str]  # id -> kind of entities that failed their schema
    omitted: dict[str, Omitted] = field(default_factory=dict)  # file -> what was not shown


def validate_files(
    files: Sequence[SourceFile], catalogue: Catalogue = CATALOGUE, limit: int = MAX_PER_FILE
) -> Validated:
    """Every entity of every file. A file shows at most `limit` diagnostics; past them the rest
    are only counted (an entity validation stops at its first error), so a file of 10^5 wrong
    values costs little more than one of a hundred."""
    result = Validated([], [], {})
    for source in files:
        items, problems = _entity_items(source)
        shown = list(problems)
        more = Omitted()
        for prefix, item in items:
            room = limit - len(shown)
            if room <= 0 and not isinstance(item, dict):
                more.add(1, None if more.span else source.span(prefix), exact=True)
                continue
            # one more than there is room for: whether the file has more to say
            entity, problems = validate_entity(source, prefix, item, catalogue, max(room, 0) + 1)
            if entity is not None:
                result.entities.append(entity)
            elif isinstance(item, dict) and isinstance(item.get("id"), str):
                result.invalid_ids[item["id"]] = str(item.get("kind"))
            shown += problems[: max(room, 0)]
            rest = problems[max(room, 0):]
            if rest:  # validation stopped there: the entity may have had still more
                more.add(len(rest), rest[0].span, exact=False)
        result.diagnostics.extend(shown)
        if more.count:
            result.omitted[source.display] = more
    return result
