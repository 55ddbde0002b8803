"""Where the rules modules plug into the state machine.

- `actions_of(order)`: a generator of the legal actions of the seat on turn (lower order first);
- `handles(kind)`: what a player action of that kind does;
- `resolves(fn)`: what a chance outcome or a decision does to the queued frame named `fn`;
- `step(fn)`: an automatic step queued as a `do` frame;
- `options(fn)`: the choices offered at a queued decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ActionGen = Callable[[Any], list]
Handler = Callable[[Any, Any], None]
Resolver = Callable[[Any, dict, Any], None]
StepFn = Callable[[Any, dict], None]
OptionsFn = Callable[[Any, dict], list]

ACTIONS: list[tuple[int, ActionGen]] = []
HANDLERS: dict[str, Handler] = {}
RESOLVERS: dict[str, Resolver] = {}
STEPS: dict[str, StepFn] = {}
OPTIONS: dict[str, OptionsFn] = {}


def actions_of(order: int) -> Callable[[ActionGen], ActionGen]:
    def mark(fn: ActionGen) -> ActionGen:
        ACTIONS.append((order, fn))
        ACTIONS.sort(key=lambda pair: pair[0])
        return fn

    return mark


def _into(table: dict[str, Any], name: str) -> Callable[[Any], Any]:
    def mark(fn: Any) -> Any:
        table[name] = fn
        return fn

    return mark


def handles(kind: str) -> Callable[[Handler], Handler]:
    return _into(HANDLERS, kind)


def resolves(fn: str) -> Callable[[Resolver], Resolver]:
    return _into(RESOLVERS, fn)


def step(fn: str) -> Callable[[StepFn], StepFn]:
    return _into(STEPS, fn)


def options(fn: str) -> Callable[[OptionsFn], OptionsFn]:
    return _into(OPTIONS, fn)
