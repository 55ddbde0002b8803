"""Engine-driven consistency checks and the link between the rules trace and the engine.

Runs for packs whose manifest names a ruleset; the game registered under it (see
`pipeline/games.py`) reports its findings (tables cover every reachable total, thresholds are
reachable, counts suffice, a seeded smoke game per player count), each at the content line it
names. Trace entries must name real functions of that game, and every `@rule` of the game must
name a trace entry.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import Any

from engine.core.game import Game
from pipeline.checks.trace import items, load_traces
from pipeline.diagnostics import Diagnostic, RelicError, error, warning
from pipeline.games import build_game, finding_diagnostic, game_package
from pipeline.model import Model


def check(model: Model) -> Iterable[Diagnostic]:
    try:
        game = build_game(model)
    except RelicError as exc:
        return exc.diagnostics
    if game is None:
        return []
    findings = [finding_diagnostic(model, f) for f in game.consistency()]
    return findings + list(trace_links(model, game))


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


def trace_links(model: Model, game: Game) -> Iterator[Diagnostic]:
    """Trace entries name real functions of the game; every game rule names a trace entry."""
    sources, _ = load_traces(model.pack.root)
    if not sources:
        return
    package = game_package(game)
    traced: set[str] = set()
    rules = game.rules.refs()
    for source in sources:
        for item in items(source):
            ident = item.data.get("id")
            traced.add(ident)
            target = item.data.get("engine")
            if not target:
                continue
            if not target.startswith(package + ".") or resolve_function(target) is None:
                yield error(
                    "engine-unknown-function",
                    f"trace entry '{ident}' names '{target}', which is no function of the "
                    f"game '{game.name}' ({package})",
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
