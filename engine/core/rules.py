"""Every engine rule names its rules-trace entry: `@rule("treasure-table")`.

The registry lets `relic check` and the trace report which trace entries the engine implements,
which only partly, and which not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

F = TypeVar("F", bound=Callable)

IMPLEMENTED, PARTIAL = "implemented", "partial"


@dataclass(frozen=True)
class RuleRef:
    trace_id: str
    function: str
    status: str
    note: str = ""


_REGISTRY: dict[str, list[RuleRef]] = {}


def rule(*trace_ids: str, status: str = IMPLEMENTED, note: str = "") -> Callable[[F], F]:
    """Mark a function as (part of) the implementation of the trace entries `trace_ids`."""
    if status not in (IMPLEMENTED, PARTIAL):
        raise ValueError(f"unknown rule status {status!r}")
    if not trace_ids:
        raise ValueError("a rule names at least one trace entry")

    def mark(fn: F) -> F:
        refs = []
        for trace_id in trace_ids:
            ref = RuleRef(trace_id, f"{fn.__module__}.{fn.__qualname__}", status, note)
            _REGISTRY.setdefault(trace_id, []).append(ref)
            refs.append(ref)
        fn.__rules__ = tuple(refs)  # type: ignore[attr-defined]
        return fn

    return mark


def registry() -> dict[str, list[RuleRef]]:
    """Trace id -> the engine functions that implement it (import the game modules first)."""
    return {k: list(v) for k, v in sorted(_REGISTRY.items())}


def status_of(trace_id: str) -> str:
    """implemented when every function is complete, partial when any is partial, else missing."""
    refs = _REGISTRY.get(trace_id)
    if not refs:
        return "missing"
    return PARTIAL if any(r.status == PARTIAL for r in refs) else IMPLEMENTED
