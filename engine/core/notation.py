"""The game notation every part reads the same way: roll ranges and dice expressions.

The pipeline (schema-level checks of tables), the engine (rules and odds) and the rulebook all
parse them here, so `2-12+` means the same everywhere.

- A roll range: `5`, `2-3`, `12+` (twelve and more), `2-12+` (two to twelve, and more above),
  `-1` (a negative total, after modifiers).
- A dice expression: `NdS` with an optional `+M`/`-M`: `d6`, `3d6`, `2d6+1`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RANGE = re.compile(r"^(-?\d+)(?:-(-?\d+))?(\+)?$")
_DICE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


class NotationError(ValueError):
    """A roll range or dice expression that does not parse; names the text."""


@dataclass(frozen=True, order=True)
class RollRange:
    """An inclusive range of totals; `high is None` means open above (`12+`)."""

    low: int
    high: int | None

    @classmethod
    def parse(cls, text: str | int) -> RollRange:
        found = cls.try_parse(text)
        if found is None:
            raise NotationError(f"not a roll range: {str(text)!r} (write 5, 2-3, 12+ or 2-12+)")
        return found

    @classmethod
    def try_parse(cls, text: str | int) -> RollRange | None:
        match = _RANGE.match(str(text).strip())
        if not match:
            return None
        low, high, open_end = match.groups()
        if open_end:
            return cls(int(low), None)
        return cls(int(low), int(high) if high is not None else int(low))

    def __contains__(self, total: object) -> bool:
        return isinstance(total, int) and total >= self.low and (
            self.high is None or total <= self.high)

    def __str__(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class DiceExpression:
    """`count` dice of `sides` faces plus `modifier`: `2d6+1`."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> DiceExpression:
        found = cls.try_parse(text)
        if found is None:
            raise NotationError(f"not a dice expression: {text!r} (write d6, 3d6 or 2d6+1)")
        return found

    @classmethod
    def try_parse(cls, text: str) -> DiceExpression | None:
        match = _DICE.match(str(text).strip())
        if not match:
            return None
        return cls(int(match.group(1) or 1), int(match.group(2)), int(match.group(3) or 0))

    @property
    def low(self) -> int:
        return self.count + self.modifier

    @property
    def high(self) -> int:
        return self.count * self.sides + self.modifier

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"
