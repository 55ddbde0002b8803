"""Where the rules modules plug into the state machine.

- `rule`: `@rule("trace-id")` marks a function as the rule of a trace entry, in the
  catacombs' own `RULES` registry;
- `actions`: generators of a hero's legal actions, in a fixed order (`@actions_of`);
- `handlers`: what a player action does, by action kind (`@handles("move")`); returns the
  number of actions it spent;
- `tasks`: automatic steps, chance resolutions and decisions queued in the state (`@task`);
- `options`: the choices offered at a queued decision (`@options("rotate-tile")`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.rules import RuleRegistry

ActionGen = Callable[[Any, Any], list]
Handler = Callable[[Any, Any, Any], int]
TaskFn = Callable[[Any, dict, Any], None]
OptionsFn = Callable[[Any, dict], list]

ACTIONS: list[ActionGen] = []
HANDLERS: dict[str, Handler] = {}
TASKS: dict[str, TaskFn] = {}
OPTIONS: dict[str, OptionsFn] = {}
RULES = RuleRegistry("catacombs")
rule = RULES.rule


def actions_of(fn: ActionGen) -> ActionGen:
    ACTIONS.append(fn)
    return fn


def handles(kind: str) -> Callable[[Handler], Handler]:
    def mark(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn

    return mark


def task(name: str) -> Callable[[TaskFn], TaskFn]:
    def mark(fn: TaskFn) -> TaskFn:
        TASKS[name] = fn
        return fn

    return mark


def options(name: str) -> Callable[[OptionsFn], OptionsFn]:
    def mark(fn: OptionsFn) -> OptionsFn:
        OPTIONS[name] = fn
        return fn

    return mark
