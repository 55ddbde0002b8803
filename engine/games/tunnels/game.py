"""The tunnels (seed 001) on the game protocol of `engine/core/game.py`.

    game = TunnelsGame.from_model(plain)
    state = game.new_initial_state(2, seed=7, options={"scenario": "to-freedom"})

Seat 0 is the mortal player, seat 1 the demon player. The `scenario` option picks one of the
two scenarios, or `both` (the default) lets each game's seed pick one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core.bots import RandomBot
from engine.core.game import (
    STEP_LIMIT,
    Bot,
    Finding,
    GameOption,
    GameSummary,
    OddsTable,
    Options,
    Section,
    with_defaults,
)
from engine.core.rng import derive_seed
from engine.games.tunnels.board import Board, build_board
from engine.games.tunnels.data import SIDE_IDS, Tunnels, from_plain
from engine.games.tunnels.registry import RULES
from engine.games.tunnels.setup import new_game
from engine.games.tunnels.state import TunnelsState

BOTH = "both"


class TunnelsGame:
    """Two players: the mortal player's squad against the demon player."""

    name: ClassVar[str] = "tunnels"
    version: ClassVar[str] = "1.0"
    role: ClassVar[str] = "side"
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption("scenario", "the scenario: all-that-glitters, to-freedom, or both (each "
                   "game's seed picks one)", default=BOTH),
    )
    bots: ClassVar[tuple[str, ...]] = ("heuristic", "random", "mcts")
    default_max_rounds: ClassVar[int] = 30
    rules = RULES

    def __init__(self, data: Tunnels):
        self.data = data
        self._boards: dict[str, Board] = {}

    @classmethod
    def from_model(cls, plain: Mapping[str, Any] | Tunnels) -> TunnelsGame:
        if isinstance(plain, Tunnels):
            return cls(plain)
        return cls(from_plain(plain))

    @property
    def player_counts(self) -> range:
        return range(2, 3)

    def board(self, board_id: str) -> Board:
        if board_id not in self._boards:
            self._boards[board_id] = build_board(self.data, board_id)
        return self._boards[board_id]

    @RULES.rule("engine.scenario-option")
    def scenario_for(self, choice: str, seed: int) -> str:
        ids = [s.id for s in self.data.scenarios]
        if choice == BOTH:
            return ids[seed % len(ids)]
        if choice not in ids:
            raise ValueError(f"tunnels: unknown scenario '{choice}' (choose {', '.join(ids)} "
                             f"or {BOTH})")
        return choice

    @RULES.rule("two-players")
    def new_initial_state(self, players: int, seed: int = 0, options: Options | None = None
                          ) -> TunnelsState:
        values = with_defaults(self, options or {})
        if players not in self.player_counts:
            raise ValueError(f"the tunnels are played by 2 players, got {players}")
        scenario = self.data.scenario(self.scenario_for(str(values["scenario"]), seed))
        return new_game(self.data, self.board(scenario.board), scenario, seed,
                        int(values["max_rounds"]))

    def state_from_dict(self, raw: Mapping[str, Any]) -> TunnelsState:
        return TunnelsState.from_dict(self.data, self.board, dict(raw))

    def consistency(self) -> list[Finding]:
        from engine.games.tunnels.consistency import run_all

        return run_all(self)

    def odds(self) -> list[OddsTable]:
        from engine.games.tunnels.odds import odds_tables

        return odds_tables(self.data)

    def make_bot(self, kind: str, seat: int, seed: int) -> Bot:
        if kind == "random":
            return RandomBot(derive_seed(seed, 1000 + seat))
        if kind == "heuristic":
            from engine.games.tunnels.bots import heuristic_bot

            return heuristic_bot(seat, derive_seed(seed, 3000 + seat))
        if kind == "mcts":
            from engine.games.tunnels.bots import mcts_bot

            return mcts_bot(seat, derive_seed(seed, 2000 + seat))
        raise ValueError(f"the tunnels have no bot '{kind}' (they have {', '.join(self.bots)})")

    def summarize(self, state: TunnelsState) -> GameSummary:  # type: ignore[override]
        from engine.games.tunnels.sim import details

        return GameSummary(state.round, state.ended_by or STEP_LIMIT, tuple(state.winners),
                           SIDE_IDS, details(state))

    def report(self, games: Sequence[GameSummary], players: int) -> list[Section]:
        from engine.games.tunnels.sim import report_sections

        return report_sections(games)
