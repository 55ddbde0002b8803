"""The protocol every game implements, and the small value types it speaks in.

A game is a class registered under its ruleset name in the `relic.games` entry-point group
(`engine/core/registry.py`). The pipeline reaches a game only through this protocol:

    game = Catacombs.from_model(plain)                 # the plain model of `relic export model`
    state = game.new_initial_state(4, seed=7, options={"teams": True})
    game.consistency()                                 # findings for `relic check`
    game.odds()                                        # exact tables for `relic odds`
    game.make_bot("heuristic", seat=0, seed=7)         # bots for `relic sim`
    game.summarize(state)                              # one finished game, for the report
    game.report(summaries, players)                    # the game's own report sections

Everything else (the play loop, parallel runs, the generic report, replay logs and their
verification) lives in `engine/core/sim.py` and works for every game alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Protocol, runtime_checkable

from engine.core.rules import RuleRegistry
from engine.core.state import GameState

OptionValue = bool | int | str
Options = Mapping[str, OptionValue]

TURN_BOUND = "turn-bound"
"""`GameSummary.ended_by` of a game stopped by the turn bound (`max_rounds`)."""
STEP_LIMIT = "step-limit"
"""`GameSummary.ended_by` of a game stopped by the runner's safety limit on actions."""


@dataclass(frozen=True)
class GameOption:
    """An option a game declares; `relic sim` offers it as `--<name>` (a flag when boolean)."""

    name: str
    help: str
    default: OptionValue = False
    label: str = ""
    """How the report's header names the option when it is on (e.g. "team markers")."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Finding:
    """A consistency problem in the content, at an entity and a dotted path inside it.

    `entity=None` points at the pack manifest's `ruleset` line.
    """

    code: str
    message: str
    entity: str | None
    path: str = ""
    severity: str = "error"
    hint: str | None = None


@dataclass(frozen=True)
class OddsRow:
    """One condition (a stat level, a modifier) and the exact chance of each outcome under it."""

    label: str
    chances: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True)
class OddsTable:
    """Exact odds of one roll of the game, row by row."""

    id: str
    title: str
    rows: tuple[OddsRow, ...]
    note: str = ""


@dataclass(frozen=True)
class GameSummary:
    """What one finished game tells the report.

    `roles` is the role each seat played (a character, a side, a class) for the generic
    "results by role"; `details` is the game's own JSON-able record of the game, written into
    the per-game entries of `relic sim --format json` (put the roles there too if they should
    appear in it).
    """

    rounds: int
    ended_by: str
    winners: tuple[int, ...]
    roles: tuple[str, ...]
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Section:
    """A part of the simulation report that a game declares.

    `value` is a number or a mapping of labels to numbers; mappings are drawn as bar charts in
    the HTML report unless `plot` is False. `percent` shows the numbers as percentages.
    """

    key: str
    title: str
    value: float | int | Mapping[str, float | int]
    percent: bool = False
    plot: bool = True


class Bot(Protocol):
    def choose(self, state: Any) -> Any: ...


@runtime_checkable
class Game(Protocol):
    """A rule system the engine can play. See the module docstring and engine/README.md."""

    name: ClassVar[str]
    """The ruleset name a pack's manifest gives."""
    version: ClassVar[str]
    """The engine version of this game; replay logs record it."""
    role: ClassVar[str]
    """What a seat plays, in the report: "character", "side", "class"…"""
    options: ClassVar[tuple[GameOption, ...]]
    bots: ClassVar[tuple[str, ...]]
    """Bot names `make_bot` accepts, the default first."""
    default_max_rounds: ClassVar[int]
    rules: ClassVar[RuleRegistry]

    @classmethod
    def from_model(cls, plain: Mapping[str, Any]) -> Game:
        """Build the game from the plain model; raises `ContentError` naming what is missing."""
        ...

    @property
    def player_counts(self) -> range:
        """The numbers of players the content supports."""
        ...

    def new_initial_state(self, players: int, seed: int, options: Options) -> GameState:
        """A new game; `options` holds the declared options and `max_rounds`."""
        ...

    def state_from_dict(self, raw: Mapping[str, Any]) -> GameState: ...

    def consistency(self) -> list[Finding]:
        """Tables cover every reachable total, thresholds are reachable, counts suffice, and a
        seeded smoke game per player count ends cleanly."""
        ...

    def odds(self) -> list[OddsTable]:
        """Exact chances of every roll of the game, at every relevant stat level."""
        ...

    def make_bot(self, kind: str, seat: int, seed: int) -> Bot:
        """A bot named in `bots` for `seat` of the game seeded `seed`."""
        ...

    def summarize(self, state: GameState) -> GameSummary:
        """What a finished (or stopped) game tells the report."""
        ...

    def report(self, games: Sequence[GameSummary], players: int) -> list[Section]:
        """The game's own report sections over many games."""
        ...


def with_defaults(game: type[Game] | Game, options: Options) -> dict[str, OptionValue]:
    """The game's declared options with their defaults filled in, plus `max_rounds`."""
    values: dict[str, OptionValue] = {o.name: o.default for o in game.options}
    values["max_rounds"] = game.default_max_rounds
    unknown = sorted(set(options) - set(values))
    if unknown:
        raise ValueError(f"{game.name}: unknown option(s) {', '.join(unknown)}")
    values.update(options)
    return values
