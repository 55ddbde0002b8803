"""Engine-driven consistency checks: roll tables, thresholds, counts, decks, tiles, a smoke run.

Runs for packs whose ruleset has a rules engine (the catacombs). Each finding becomes a
diagnostic at the content line it names.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.diagnostics import Diagnostic, Severity
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
    return [_diagnostic(model, f) for f in findings]


def _diagnostic(model: Model, finding) -> Diagnostic:
    if finding.entity is not None and finding.entity in model.by_id:
        span = model.locate(finding.entity, finding.path)
    else:
        span = model.pack.manifest.span(("ruleset",))
    severity = Severity.WARNING if finding.severity == "warning" else Severity.ERROR
    return Diagnostic(f"engine-{finding.code}", finding.message, span, severity, finding.hint)
