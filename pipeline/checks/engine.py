"""Engine-driven consistency checks: roll tables, thresholds, counts, decks, tiles, a smoke run,
and the link between the rules trace and the engine's rules.

Runs for packs whose ruleset has a rules engine (the catacombs). Each finding becomes a
diagnostic at the content line it names.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import Any

from pipeline.checks.trace import items, load_traces
from pipeline.diagnostics import Diagnostic, Severity, error, warning
from pipeline.model import Model


def check(model: Model) -> Iterable[Diagnostic]:
    if model.pack.ruleset != "catacombs":
        return []
    from engine.core.api import ContentError
    from engine.games.catacombs.consistency import Finding, run_all

    try:
        findings = run_all(model.to_plain())
    except ContentError as exc:
        findings = [Finding("engine-content", str(exc), None)]
    return [_diagnostic(model, f) for f in findings] + list(trace_links(model))


def _diagnostic(model: Model, finding: Any) -> Diagnostic:
    if finding.entity is not None and finding.entity in model.by_id:
        span = model.locate(finding.entity, finding.path)
    else:
        span = model.pack.manifest.span(("ruleset",))
    severity = Severity.WARNING if finding.severity == "warning" else Severity.ERROR
    return Diagnostic(f"engine-{finding.code}", finding.message, span, severity, finding.hint)


def resolve_function(dotted: str) -> Any:
    """The object a dotted engine path names (module, then attributes), or None."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr, None)
            if obj is None:
                return None
        return obj
    return None


def trace_links(model: Model) -> Iterator[Diagnostic]:
    """Trace entries name real engine functions; every engine rule names a trace entry."""
    from engine.games.catacombs import game  # noqa: F401 - registers the rules
    from engine.games.catacombs.registry import RULES

    sources, _ = load_traces(model.pack.root)
    if not sources:
        return
    traced: set[str] = set()
    rules = RULES.refs()
    for source in sources:
        for item in items(source):
            ident = item.data.get("id")
            traced.add(ident)
            target = item.data.get("engine")
            if not target:
                continue
            if not target.startswith("engine.") or resolve_function(target) is None:
                yield error(
                    "engine-unknown-function",
                    f"trace entry '{ident}' names '{target}', which is no engine function",
                    item.span("engine"),
                )
            status = item.data.get("status")
            engine_status = {r.status for r in rules.get(ident, [])}
            if status == "implemented" and "partial" in engine_status:
                yield warning(
                    "engine-status-mismatch",
                    f"trace entry '{ident}' says implemented; the engine marks it partial",
                    item.span("status"),
                )
    for trace_id, refs in rules.items():
        if trace_id not in traced:
            yield warning(
                "engine-rule-untraced",
                f"{refs[0].function} implements '{trace_id}', which no trace entry has",
                model.pack.manifest.span(("ruleset",)),
            )
