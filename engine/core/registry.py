"""The registry of games: every rule system registers under its ruleset name in the
`relic.games` entry-point group, the way pytest plugins do.

In this project's `pyproject.toml`:

    [project.entry-points."relic.games"]
    catacombs = "engine.games.catacombs.game:Catacombs"

A game shipped as its own installed package declares the same group in its own metadata; the
pipeline then finds it with no edit of ours.
"""

from __future__ import annotations

import difflib
import sys
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points

from engine.core.api import EngineError
from engine.core.game import Game

GROUP = "relic.games"


class UnknownGameError(EngineError):
    """No game is registered under a ruleset name; names the ones that are."""

    def __init__(self, name: str, known: list[str]):
        self.name = name
        self.known = known
        self.suggestion = suggest(name, known)
        listed = ", ".join(known) if known else "none"
        super().__init__(f"no game is registered for ruleset '{name}' (registered: {listed})")


class BrokenGameError(EngineError):
    """A registered entry point that does not load, or loads something that is no game."""


def available() -> dict[str, EntryPoint]:
    """Ruleset name -> its entry point, for every installed game."""
    return dict(_scan(tuple(sys.path)))


@lru_cache(maxsize=8)
def _scan(path: tuple[str, ...]) -> tuple[tuple[str, EntryPoint], ...]:
    del path  # the cache key: a new folder on sys.path may bring new games
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep)
    return tuple(sorted(found.items()))


def names() -> list[str]:
    return sorted(available())


def load(name: str) -> type[Game]:
    """The game class registered as `name`."""
    found = available().get(name)
    if found is None:
        raise UnknownGameError(name, names())
    try:
        game = found.load()
    except Exception as exc:  # a plug-in's import error must not look like ours
        raise BrokenGameError(f"the game '{name}' ({found.value}) does not load: "
                              f"{type(exc).__name__}: {exc}") from exc
    missing = [a for a in ("name", "from_model", "new_initial_state", "summarize")
               if not hasattr(game, a)]
    if missing:
        raise BrokenGameError(f"'{found.value}' registered as game '{name}' lacks "
                              f"{', '.join(missing)}")
    return game


def suggest(name: str, known: list[str]) -> str | None:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return close[0] if close else None
