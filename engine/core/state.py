"""The OpenSpiel-shaped state interface every game implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from engine.core.api import CHANCE, TERMINAL, Action, IllegalActionError, Outcome
from engine.core.rng import Rng


class GameState(ABC):
    """A game position. Chance nodes are explicit: `current_player == CHANCE`.

    Subclasses keep every bit of state in plain, comparable attributes, so `clone()`,
    `to_dict()` / `from_dict()` and `==` are exact. Besides the methods below, every state
    has `rng` (its seeded generator), `round` (the current round, 0 during setup) and `events`
    (the human-readable log of what happened, one line per event, only ever appended to; replay
    logs and `relic replay --verify` compare them).
    """

    rng: Rng
    round: int
    events: list[str]

    # ----- to implement -----------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def _player_actions(self) -> list[Action]:
        """The legal decisions of `current_player`, in a deterministic order."""

    @abstractmethod
    def chance_outcomes(self) -> list[Outcome]:
        """At a chance node: each outcome with its exact probability (they sum to one)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def summary(self) -> str:
        """A one-line description used in error messages."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]: ...

    @abstractmethod
    def clone(self) -> GameState: ...

    @property
    @abstractmethod
    def returns(self) -> list[float]: ...

    # ----- shared behaviour -------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def legal_actions(self) -> list[Action]:
        if self.is_terminal:
            return []
        if self.is_chance_node:
            return [o.action for o in self.chance_outcomes()]
        return self._player_actions()

    def apply(self, action: Action) -> None:
        if self.is_terminal:
            raise IllegalActionError(action, self.summary(), "the game is over")
        if action not in self.legal_actions():
            who = "chance" if self.is_chance_node else f"player {self.current_player}"
            raise IllegalActionError(action, self.summary(), f"not a legal action for {who}")
        self._apply(action)

    def sample_chance(self) -> Action:
        """Draw a chance outcome with the state's own seeded generator."""
        outcomes = self.chance_outcomes()
        index = self.rng.weighted([o.probability for o in outcomes])
        return outcomes[index].action
