"""The catacombs (seed 000) on the game protocol of `engine/core/game.py`.

    game = CatacombsGame.from_model(plain)
    state = game.new_initial_state(4, seed=7, options={"teams": True, "max_rounds": 80})
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
from engine.games.catacombs import rules, setup  # noqa: F401 - rules registers every rules module
from engine.games.catacombs.data import Catacombs, from_plain
from engine.games.catacombs.registry import RULES
from engine.games.catacombs.state import CatacombsState

DEFAULT_MAX_ROUNDS = 80


class CatacombsGame:
    """The catacombs for 1 to as many players as there are characters."""

    name: ClassVar[str] = "catacombs"
    version: ClassVar[str] = "1.0"
    role: ClassVar[str] = "character"
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption("teams", "let every seat take a team marker (two teams are possible)",
                   label="team markers"),
        GameOption("monster_players",
                   "players whose heroes died control the monsters (controlled stats)",
                   label="monster players"),
    )
    bots: ClassVar[tuple[str, ...]] = ("heuristic", "random", "mcts")
    default_max_rounds: ClassVar[int] = DEFAULT_MAX_ROUNDS
    rules = RULES

    def __init__(self, data: Catacombs, max_players: int = 8):
        self.data = data
        self.max_players = max_players
        """The most players the pack's manifest supports (its consistency checks go that far)."""

    @classmethod
    def from_model(cls, plain: Mapping[str, Any] | Catacombs) -> CatacombsGame:
        """From the plain model, or from catacombs data already built (tests)."""
        if isinstance(plain, Catacombs):
            return cls(plain)
        most = plain.get("pack", {}).get("players", {}).get("max", 8)
        return cls(from_plain(plain), int(most))

    @property
    def player_counts(self) -> range:
        return range(1, len(self.data.characters) + 1)

    def new_initial_state(self, players: int, seed: int = 0, options: Options | None = None
                          ) -> CatacombsState:
        values = with_defaults(self, options or {})
        if players not in self.player_counts:
            raise ValueError(f"the catacombs needs 1 to {len(self.data.characters)} players, "
                             f"got {players}")
        return setup.new_game(self.data, players, seed, int(values["max_rounds"]),
                              bool(values["teams"]), bool(values["monster_players"]))

    def state_from_dict(self, raw: Mapping[str, Any]) -> CatacombsState:
        return CatacombsState.from_dict(self.data, dict(raw))

    def consistency(self) -> list[Finding]:
        from engine.games.catacombs.consistency import run_all

        return run_all(self.data, self.max_players)

    def odds(self) -> list[OddsTable]:
        from engine.games.catacombs.odds import odds_tables

        return odds_tables(self.data)

    def make_bot(self, kind: str, seat: int, seed: int) -> Bot:
        if kind == "random":
            return RandomBot(derive_seed(seed, 1000 + seat))
        if kind == "mcts":
            from engine.games.catacombs.sim import progress

            return MCTSBot(derive_seed(seed, 2000 + seat), seat, iterations=16,
                           rollout_steps=60, evaluate=progress)
        if kind == "heuristic":
            from engine.games.catacombs.bots import HeuristicBot

            return HeuristicBot(derive_seed(seed, 3000 + seat))
        raise ValueError(f"the catacombs has no bot '{kind}' (it has {', '.join(self.bots)})")

    def summarize(self, state: CatacombsState) -> GameSummary:  # type: ignore[override]
        from engine.games.catacombs.sim import heroes_record

        heroes = heroes_record(state)
        return GameSummary(min(state.round, state.max_rounds), state.ended_by or STEP_LIMIT,
                           tuple(state.winners), tuple(h["character"] for h in heroes),
                           {"heroes": heroes, "idle_rounds": state.longest_idle})

    def report(self, games: Sequence[GameSummary], players: int) -> list[Section]:
        from engine.games.catacombs.sim import report_sections

        return report_sections(games)
