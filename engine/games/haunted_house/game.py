"""The haunted house (seed 004) on the game protocol of `engine/core/game.py`.

    game = HauntedHouseGame.from_model(plain)
    state = game.new_initial_state(4, seed=7, options={"max_rounds": 40})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core.bots import MCTSBot, RandomBot
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

# The rules modules register their actions and steps on import.
from engine.games.haunted_house import (  # noqa: F401
    checks,
    combat,
    exploration,
    items,
    scenario,
    traits,
    turn,
)
from engine.games.haunted_house.data import House, from_plain
from engine.games.haunted_house.registry import RULES
from engine.games.haunted_house.state import HouseState

DEFAULT_MAX_ROUNDS = 40


class HauntedHouseGame:
    """The haunted house for 3 to 6 players (as many as the pack's manifest allows)."""

    name: ClassVar[str] = "haunted-house"
    version: ClassVar[str] = "1.1"  # 1.1: the trait clip's moves are logged in marks
    role: ClassVar[str] = "side"
    options: ClassVar[tuple[GameOption, ...]] = ()
    bots: ClassVar[tuple[str, ...]] = ("heuristic", "random", "mcts")
    default_max_rounds: ClassVar[int] = DEFAULT_MAX_ROUNDS
    rules = RULES

    def __init__(self, data: House, min_players: int = 3):
        self.data = data
        self.min_players = min_players

    @classmethod
    def from_model(cls, plain: Mapping[str, Any] | House) -> HauntedHouseGame:
        if isinstance(plain, House):
            return cls(plain)
        players = (plain.get("pack") or {}).get("players") or {}
        return cls(from_plain(plain), int(players.get("min", 3)))

    @property
    def player_counts(self) -> range:
        return range(self.min_players, min(self.data.max_players, len(self.data.explorers)) + 1)

    def new_initial_state(self, players: int, seed: int = 0, options: Options | None = None
                          ) -> HouseState:
        values = with_defaults(self, options or {})
        if players not in self.player_counts:
            raise ValueError(f"the haunted house needs {self.player_counts.start} to "
                             f"{self.player_counts.stop - 1} players, got {players}")
        from engine.games.haunted_house.turn import new_game

        return new_game(self.data, players, seed, int(values["max_rounds"]))

    def state_from_dict(self, raw: Mapping[str, Any]) -> HouseState:
        return HouseState.from_dict(self.data, dict(raw))

    def consistency(self) -> list[Finding]:
        from engine.games.haunted_house.consistency import run_all

        return run_all(self)

    def odds(self) -> list[OddsTable]:
        from engine.games.haunted_house.odds import odds_tables

        return odds_tables(self.data)

    def make_bot(self, kind: str, seat: int, seed: int) -> Bot:
        if kind == "random":
            return RandomBot(derive_seed(seed, 1000 + seat))
        if kind == "mcts":
            from engine.games.haunted_house.sim import progress

            return MCTSBot(derive_seed(seed, 2000 + seat), seat, iterations=16,
                           rollout_steps=80, evaluate=progress)
        if kind == "heuristic":
            from engine.games.haunted_house.bots import HeuristicBot

            return HeuristicBot(seat)
        raise ValueError(f"the haunted house has no bot '{kind}' "
                         f"(it has {', '.join(self.bots)})")

    def summarize(self, state: HouseState) -> GameSummary:  # type: ignore[override]
        from engine.games.haunted_house.sim import summary_details

        details = summary_details(state)
        return GameSummary(state.round, state.ended_by or STEP_LIMIT, tuple(state.winners),
                           tuple(details["roles"]), details)

    def report(self, games: Sequence[GameSummary], players: int) -> list[Section]:
        from engine.games.haunted_house.sim import report_sections

        return report_sections(games)
