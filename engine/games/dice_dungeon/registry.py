"""Where the rules modules plug into the state machine of `state.py`.

- `rule`: `@rule("trace-id")` marks a function as the rule of a trace entry, in the dice
  dungeon's own `RULES` registry;
- steps: the state keeps a queue of pending steps (plain dicts with a `step` name). A step is a
  chance node (`@chance(name)`: its outcomes), a decision of the party (`@decision(name)`: its
  options) or an automatic step (`@auto(name)`: it runs at once). `@resolves(name)` applies the
  chosen outcome or option of a chance or decision step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.rules import RuleRegistry

RULES = RuleRegistry("dice-dungeon")
rule = RULES.rule

CHANCE, DECISION, AUTO = "chance", "decision", "auto"


@dataclass
class StepKind:
    name: str
    kind: str
    offer: Callable[[Any, dict], list] | None = None
    """Chance outcomes (list of Outcome) or decision options (list of Action)."""
    resolve: Callable[[Any, dict, Any], None] | None = None
    run: Callable[[Any, dict], None] | None = None


STEPS: dict[str, StepKind] = {}


def _kind(name: str, kind: str) -> StepKind:
    found = STEPS.setdefault(name, StepKind(name, kind))
    if found.kind != kind:
        raise ValueError(f"step '{name}' is a {found.kind} step, not a {kind} step")
    return found


def chance(name: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        _kind(name, CHANCE).offer = fn
        return fn

    return mark


def decision(name: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        _kind(name, DECISION).offer = fn
        return fn

    return mark


def resolves(name: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        if name not in STEPS:
            raise ValueError(f"@resolves('{name}') before its @chance or @decision")
        STEPS[name].resolve = fn
        return fn

    return mark


def auto(name: str) -> Callable:
    def mark(fn: Callable) -> Callable:
        _kind(name, AUTO).run = fn
        return fn

    return mark
