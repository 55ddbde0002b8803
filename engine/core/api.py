"""Small value types shared by every game: actions, chance outcomes and engine errors."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

CHANCE = -1
"""`State.current_player` at a chance node (dice, shuffles, draws)."""
TERMINAL = -4
"""`State.current_player` once the game is over."""

Scalar = str | int | bool | None


@dataclass(frozen=True, order=True)
class Action:
    """One move or one chance outcome: a kind and sorted keyword arguments (hashable, ordered)."""

    kind: str
    args: tuple[tuple[str, Scalar], ...] = ()

    @classmethod
    def of(cls, kind: str, **args: Scalar) -> Action:
        items = tuple(args.items())
        return cls(kind, items if len(items) < 2 else tuple(sorted(items)))

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def __str__(self) -> str:
        if not self.args:
            return self.kind
        inner = ",".join(f"{k}={v}" for k, v in self.args)
        return f"{self.kind}({inner})"

    def to_json(self) -> list[Any]:
        return [self.kind, {k: v for k, v in self.args}]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Action:
        kind, args = raw
        return cls.of(kind, **args)


@dataclass(frozen=True)
class Outcome:
    """A chance outcome: the action that realises it and its exact probability."""

    action: Action
    probability: Fraction

    def __str__(self) -> str:
        return f"{self.action} p={self.probability}"


class EngineError(ValueError):
    """Any error raised by the rules engine."""


class IllegalActionError(EngineError):
    """An action that the current state does not allow; the message names action and state."""

    def __init__(self, action: Action, state_summary: str, reason: str):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action} in state [{state_summary}]: {reason}")


class ContentError(EngineError):
    """The plain model lacks something the engine needs (names the entity and field)."""
