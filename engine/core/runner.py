"""Playing games: one game with bots, many games in parallel with job-independent results."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from engine.core.api import Action
from engine.core.state import GameState

T = TypeVar("T")
R = TypeVar("R")


class Bot(Protocol):
    def choose(self, state: GameState) -> Action: ...


def play(
    state: GameState,
    bots: Sequence[Bot],
    max_steps: int,
    on_step: Callable[[GameState, Action], None] | None = None,
) -> int:
    """Play until the end or `max_steps` actions; returns the number of actions applied."""
    steps = 0
    while not state.is_terminal and steps < max_steps:
        if state.is_chance_node:
            action = state.sample_chance()
        else:
            action = bots[state.current_player].choose(state)
        if on_step is not None:
            on_step(state, action)
        state.apply(action)
        steps += 1
    return steps


def parallel_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    jobs: int = 1,
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
) -> list[R]:
    """`[fn(x) for x in items]`, in order, on `jobs` processes; the result never depends on jobs.

    `initializer(*initargs)` runs once in every worker (and once here when `jobs` is 1).
    """
    items = list(items)
    if jobs <= 1 or len(items) <= 1:
        if initializer is not None:
            initializer(*initargs)
        return [fn(x) for x in items]
    chunk = max(1, len(items) // (jobs * 32))
    with ProcessPoolExecutor(max_workers=jobs, initializer=initializer, initargs=initargs) as pool:
        return list(pool.map(fn, items, chunksize=chunk))


def merge_counts(target: dict[Any, int], extra: dict[Any, int]) -> None:
    for key, value in extra.items():
        target[key] = target.get(key, 0) + value
