"""Every engine rule names its rules-trace entry: `@rule("treasure-table")`.

Each game keeps its own `RuleRegistry`, so two games never mix their trace ids. A game module
writes `rule = RULES.rule` once (for the catacombs, in `engine/games/catacombs/registry.py`) and
decorates its functions with it. The registry lets `relic check` and the trace report which
trace entries the engine implements, which only partly, and which not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

F = TypeVar("F", bound=Callable)

IMPLEMENTED, PARTIAL, MISSING = "implemented", "partial", "missing"


@dataclass(frozen=True)
class RuleRef:
    trace_id: str
    function: str
    status: str
    note: str = ""


class RuleRegistry:
    """The rules of one game: trace id -> the functions that carry it out."""

    def __init__(self, game: str):
        self.game = game
        self._refs: dict[str, list[RuleRef]] = {}

    def rule(self, *trace_ids: str, status: str = IMPLEMENTED, note: str = ""
             ) -> Callable[[F], F]:
        """Mark a function as (part of) the implementation of the trace entries `trace_ids`."""
        if status not in (IMPLEMENTED, PARTIAL):
            raise ValueError(f"{self.game}: unknown rule status {status!r}")
        if not trace_ids:
            raise ValueError(f"{self.game}: a rule names at least one trace entry")

        def mark(fn: F) -> F:
            refs = []
            for trace_id in trace_ids:
                ref = RuleRef(trace_id, f"{fn.__module__}.{fn.__qualname__}", status, note)
                self._refs.setdefault(trace_id, []).append(ref)
                refs.append(ref)
            fn.__rules__ = (*getattr(fn, "__rules__", ()), *refs)  # type: ignore[attr-defined]
            return fn

        return mark

    def refs(self) -> dict[str, list[RuleRef]]:
        """Trace id -> the functions that implement it (once the game's modules are imported)."""
        return {k: list(v) for k, v in sorted(self._refs.items())}

    def status_of(self, trace_id: str) -> str:
        """implemented when every function is complete, partial when any is partial, else
        missing."""
        refs = self._refs.get(trace_id)
        if not refs:
            return MISSING
        return PARTIAL if any(r.status == PARTIAL for r in refs) else IMPLEMENTED

    def __contains__(self, trace_id: object) -> bool:
        return trace_id in self._refs
