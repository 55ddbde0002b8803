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
from pipeline.model import SCALARS, Entity, Model, PackInfo, freeze, real_path
from pipeline.schemas import CATALOGUE, Catalogue, Reference
from pipeline.validate import ValidEntity, did_you_mean

_LANG = re.compile(r"^[a-z]{2}(-[A-Z]{2})?$")
MAX_COMPONENTS = 10_000  # printed copies in one pack (every entity of a printed kind x count)


# ----- values --------------------------------------------------------------------------------


Interval = RollRange
"""A range of totals (the one parser: `engine/core/notation.py`)."""


def parse_range(text: str) -> Interval | None:
    """`5`, `2-3`, `12+`, `2-12+` (2 to 12, and more above). None also for numbers too long to
    read (a pack-local schema may not bound them as defs.json does)."""
    try:
        return RollRange.try_parse(text)
    except ValueError:
        return None


def dice_bounds(expr: str) -> tuple[int, int] | None:
    try:
        dice = DiceExpression.try_parse(expr)
    except ValueError:
        return None
    return (dice.low, dice.high) if dice else None


# ----- walking data ----------------------------------------------------------------------------


def walk(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, value
    if type(value) in SCALARS:
        return
    if isinstance(value, Mapping):
        for key, child in value.items():
            yield from walk(child, (*path, key))
    elif isinstance(value, list | tuple):
        for index, child in enumerate(value):
            yield from walk(child, (*path, index))


def is_localized(value: Any, languages: Sequence[str]) -> bool:
    return (
        type(value) not in SCALARS
        and isinstance(value, Mapping)
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


def check_components_total(pack: PackInfo, entities: Sequence[ValidEntity]) -> list[Diagnostic]:
    """The printed copies of the pack (entity counts of the printed kinds) stay within bounds."""
    printed = printed_kinds(pack)
    counts = [(e.data.get("count", 1), e.id) for e in entities if e.kind in printed]
    counts = [(c, i) for c, i in counts if isinstance(c, int) and not isinstance(c, bool)]
    total = sum(c for c, _ in counts)
    if total <= MAX_COMPONENTS:
        return []
    largest = ", ".join(f"{i} ({c})" for c, i in sorted(counts, key=lambda x: (-x[0], x[1]))[:3])
    return [
        error(
            "too-many-components",
            f"the pack prints {total} components; the limit is {MAX_COMPONENTS}",
            pack.manifest.span(("print", "components")),
            f"the largest counts: {largest}",
        )
    ]


def _strongly_connected(graph: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = graph.get(node, ())
            if child < len(targets):
                work.append((node, child + 1))
                target = targets[child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                found.append(sorted(component))
    return found


def _cycle_from(start: str, members: set[str], graph: Mapping[str, Sequence[str]]) -> list[str]:
    """The shortest way from `start` back to itself inside one component (breadth first)."""
    previous: dict[str, str] = {}
    queue = [start]
    for node in queue:
        for target in graph.get(node, ()):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if target in members and target not in previous:
                previous[target] = node
                queue.append(target)
    return [start, start]


def check_dependency_cycles(entities: Sequence[ValidEntity]) -> list[Diagnostic]:
    """References marked `x-depends` (the target must come first) never form a cycle; an entity
    that depends on itself is the shortest one."""
    known = {e.id for e in entities}
    edges: dict[str, dict[str, tuple[ValidEntity, Reference]]] = {}
    for e in entities:
        for ref in e.references:
            if ref.depends and ref.target in known:
                edges.setdefault(e.id, {}).setdefault(ref.target, (e, ref))
    graph = {node: sorted(targets) for node, targets in edges.items()}
    out = []
    for component in _strongly_connected(graph):
        start = component[0]
        if len(component) == 1 and start not in graph.get(start, ()):
            continue
        cycle = _cycle_from(start, set(component), graph)
        entity, ref = edges[start][cycle[1]]
        field = next((str(p) for p in reversed(ref.path) if isinstance(p, str)), "reference")
        shown = cycle if len(cycle) <= 9 else [*cycle[:4], "…", *cycle[-3:]]
        chain = " → ".join(shown) + ("" if len(cycle) <= 9 else f" ({len(cycle) - 1} in all)")
        message = (
            f"'{start}' {field} itself"
            if len(cycle) == 2
            else f"{field} goes round in a cycle: {chain}"
        )
        out.append(
            error(
                "dependency-cycle",
                message,
                entity.source.span(entity.prefix + ref.path),
                "nothing in a cycle can ever come first; remove one of its links",
            )
        )
    return out


def printed_kinds(pack: PackInfo) -> set[str]:
    """The kinds the print profile prints (an entry's own `kind`, else its name)."""
    components = pack.print_profile.get("components", {})
    if not isinstance(components, Mapping):
        return set()
    return {spec.get("kind", name) if isinstance(spec, Mapping) else name
            for name, spec in components.items()}


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
    if not ref_problems:
        diagnostics += check_dependency_cycles(entities)
    diagnostics += check_components_total(pack, entities)
    unique = {}
    for e in entities:
        unique.setdefault(e.id, e)
    model_entities = tuple(
        Entity(id=e.id, kind=e.kind, data=freeze(e.data), source=e.source, prefix=e.prefix)
        for e in unique.values()
    )
    files = tuple(dict.fromkeys(e.source for e in entities))
    return Model(pack=pack, entities=model_entities, files=files), diagnostics
