"""Stage 3, resolve: valid entities -> the frozen `Model`, with the pack-wide semantic checks.

Checks here are generic (no kind is special-cased except through its schema): unique ids,
references, localized text, counts, roll-table coverage, provisional paths, unused entities.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.notation import DiceExpression, RollRange
from pipeline.diagnostics import Diagnostic, error, warning
from pipeline.model import Entity, Model, PackInfo, freeze, real_path
from pipeline.schemas import CATALOGUE, Catalogue
from pipeline.validate import ValidEntity, did_you_mean

_LANG = re.compile(r"^[a-z]{2}(-[A-Z]{2})?$")


# ----- values --------------------------------------------------------------------------------


Interval = RollRange
"""A range of totals (the one parser: `engine/core/notation.py`)."""


def parse_range(text: str) -> Interval | None:
    """`5`, `2-3`, `12+`, `2-12+` (2 to 12, and more above)."""
    return RollRange.try_parse(text)


def dice_bounds(expr: str) -> tuple[int, int] | None:
    dice = DiceExpression.try_parse(expr)
    return (dice.low, dice.high) if dice else None


# ----- walking data ----------------------------------------------------------------------------


def walk(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, value
    if isinstance(value, Mapping):
        for key, child in value.items():
            yield from walk(child, (*path, key))
    elif isinstance(value, list | tuple):
        for index, child in enumerate(value):
            yield from walk(child, (*path, index))


def is_localized(value: Any, languages: Sequence[str]) -> bool:
    return (
        isinstance(value, Mapping)
        and bool(value)
        and any(k in languages for k in value)
        and all(isinstance(k, str) and _LANG.match(k) for k in value)
        and all(isinstance(v, str) for v in value.values())
    )


# ----- checks ----------------------------------------------------------------------------------


def check_unique_ids(entities: Sequence[ValidEntity]) -> list[Diagnostic]:
    seen: dict[str, ValidEntity] = {}
    out = []
    for e in entities:
        first = seen.setdefault(e.id, e)
        if first is not e:
            where = first.source.span((*first.prefix, "id"))
            out.append(
                error(
                    "duplicate-id",
                    f"id '{e.id}' is already used",
                    e.source.span((*e.prefix, "id")),
                    f"first defined at {where}",
                )
            )
    return out


def check_references(
    entities: Sequence[ValidEntity], invalid: Mapping[str, str] | None = None
) -> tuple[list[Diagnostic], set[str]]:
    """Resolve every reference. `invalid` holds ids (-> kind) of entities that failed their
    schema: they exist, so pointing at them is not a second error."""
    kinds = {**(invalid or {}), **{e.id: e.kind for e in entities}}
    used: set[str] = set()
    out = []
    for e in entities:
        for ref in e.references:
            span = e.source.span(e.prefix + ref.path)
            target_kind = kinds.get(ref.target)
            if target_kind is None:
                pool = [i for i, k in kinds.items() if not ref.kinds or k in ref.kinds]
                out.append(
                    error(
                        "unresolved-ref",
                        f"'{ref.target}' does not name any "
                        f"{' or '.join(ref.kinds) if ref.kinds else 'entity'} in this pack",
                        span,
                        did_you_mean(ref.target, pool),
                    )
                )
                continue
            used.add(ref.target)
            known_valid = not invalid or ref.target not in invalid
            if ref.kinds and target_kind not in ref.kinds and known_valid:
                out.append(
                    error(
                        "wrong-ref-kind",
                        f"'{ref.target}' is a {target_kind}, expected {' or '.join(ref.kinds)}",
                        span,
                    )
                )
    return out, used


def check_texts(e: ValidEntity, languages: Sequence[str]) -> list[Diagnostic]:
    out = []
    source_lang = languages[0]
    for path, value in walk(e.data):
        if not is_localized(value, languages):
            continue
        span = e.source.span(e.prefix + path)
        where = ".".join(map(str, path))
        if source_lang not in value:
            out.append(
                error(
                    "missing-source-text",
                    f"{where}: no '{source_lang}' text (source language)",
                    span,
                )
            )
        for lang in languages[1:]:
            if lang not in value:
                out.append(
                    warning("missing-translation", f"{where}: no '{lang}' translation", span)
                )
        for lang in value:
            if lang not in languages:
                out.append(
                    warning("unknown-language", f"{where}: '{lang}' is not a pack language", span)
                )
    return out


def check_count(e: ValidEntity) -> list[Diagnostic]:
    count = e.data.get("count", 1)
    if isinstance(count, int) and not isinstance(count, bool) and count >= 1:
        return []
    return [
        error(
            "count-not-positive",
            f"count must be a whole number of at least 1 (got {count!r})",
            e.source.span((*e.prefix, "count")),
        )
    ]


def check_provisional(e: ValidEntity) -> list[Diagnostic]:
    raw = e.data.get("provisional")
    if not isinstance(raw, Mapping):
        return []
    return [
        error(
            "provisional-path",
            f"provisional names '{dotted}', which '{e.id}' does not have",
            e.source.span((*e.prefix, "provisional", str(dotted))),
        )
        for dotted in raw
        if real_path(e.data, dotted) is None
    ]


def table_rows(e: ValidEntity) -> list[tuple[int, Interval]]:
    rows = e.data.get("rows")
    if not isinstance(rows, list):
        return []
    out = []
    for index, row in enumerate(rows):
        if isinstance(row, Mapping) and "roll" in row:
            interval = parse_range(row["roll"])
            if interval is not None:
                out.append((index, interval))
    return out


def table_span(e: ValidEntity) -> Interval | None:
    """The totals a table must cover: its `range` (`2-12+`), else what its dice can roll."""
    if "range" in e.data:
        return parse_range(str(e.data["range"]))
    bounds = dice_bounds(e.data.get("dice", ""))
    return Interval(*bounds) if bounds else None


def check_table(e: ValidEntity) -> list[Diagnostic]:
    rows = table_rows(e)
    target = table_span(e)
    if not rows or target is None:
        return []
    out = []
    span_of = lambda i: e.source.span((*e.prefix, "rows", i, "roll"))  # noqa: E731
    ordered = sorted(rows, key=lambda r: r[1].low)
    expected = target.low
    for position, (index, interval) in enumerate(ordered):
        if interval.high is None and position != len(ordered) - 1:
            out.append(
                error("table-open-row", f"'{interval}' is open-ended but not last", span_of(index))
            )
        if interval.low > expected:
            out.append(
                error(
                    "table-gap",
                    f"'{e.id}' has no row for {Interval(expected, interval.low - 1)}",
                    span_of(index),
                )
            )
        elif interval.low < expected:
            out.append(
                error(
                    "table-overlap",
                    f"'{e.id}': row {interval} overlaps the rows before it "
                    f"(they already cover up to {expected - 1})",
                    span_of(index),
                )
            )
        expected = (interval.high + 1) if interval.high is not None else None
        if expected is None:
            break
    last_index = ordered[-1][0]
    if expected is not None and target.high is None:
        out.append(
            error("table-gap", f"'{e.id}' has no row for {expected} and more", span_of(last_index))
        )
    elif expected is not None and target.high is not None and expected <= target.high:
        out.append(
            error(
                "table-gap",
                f"'{e.id}' has no row for {Interval(expected, target.high)}",
                span_of(last_index),
            )
        )
    if ordered[0][1].low > target.low and not out:
        out.append(
            error("table-gap", f"'{e.id}' starts above {target.low}", span_of(ordered[0][0]))
        )
    return out


def printed_kinds(pack: PackInfo) -> set[str]:
    components = pack.print_profile.get("components", {})
    return set(components) if isinstance(components, Mapping) else set()


def check_unused(
    entities: Sequence[ValidEntity], used: set[str], printed: set[str], catalogue: Catalogue
) -> list[Diagnostic]:
    return [
        warning(
            "unused-entity",
            f"{e.kind} '{e.id}' is neither printed nor referenced by any other entity",
            e.source.span((*e.prefix, "id")),
            f"print the kind '{e.kind}' (pack.yaml print.components) or refer to it",
        )
        for e in entities
        if e.id not in used and e.kind not in printed and not catalogue.is_standalone(e.kind)
    ]


# ----- the stage ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Partial:
    """What earlier stages could not read: checks that would only echo those errors step back."""

    unreadable_files: bool = False
    invalid_ids: Mapping[str, str] | None = None

    @property
    def complete(self) -> bool:
        return not self.unreadable_files and not self.invalid_ids


def resolve(
    pack: PackInfo,
    entities: Sequence[ValidEntity],
    catalogue: Catalogue = CATALOGUE,
    partial: Partial = Partial(),
) -> tuple[Model, list[Diagnostic]]:
    diagnostics = check_unique_ids(entities)
    ref_problems, used = check_references(entities, partial.invalid_ids)
    if not partial.unreadable_files:
        diagnostics += ref_problems
    for e in entities:
        diagnostics += check_texts(e, pack.languages)
        diagnostics += check_count(e)
        diagnostics += check_provisional(e)
        if e.kind == "table":
            diagnostics += check_table(e)
    if partial.complete and not ref_problems:
        diagnostics += check_unused(entities, used, printed_kinds(pack), catalogue)
    unique = {}
    for e in entities:
        unique.setdefault(e.id, e)
    model_entities = tuple(
        Entity(id=e.id, kind=e.kind, data=freeze(e.data), source=e.source, prefix=e.prefix)
        for e in unique.values()
    )
    files = tuple(dict.fromkeys(e.source for e in entities))
    return Model(pack=pack, entities=model_entities, files=files), diagnostics
