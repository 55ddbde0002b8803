"""The dice dungeon (seed 002) on the game protocol of `engine/core/game.py`.

    game = DiceDungeonGame.from_model(plain)
    state = game.new_initial_state(2, seed=7, options={"adventure": "spider-caves"})

A game is one adventure (by default the one a game's seed picks, so a run of games covers all
four) or, with `campaign`, the four levels in order.
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

# The rules modules register their steps on import.
from engine.games.dice_dungeon import (  # noqa: F401
    chests,
    combat,
    ending,
    heroes,
    monsters,
    setup,
    turn,
)
from engine.games.dice_dungeon.data import Dungeon, from_plain
from engine.games.dice_dungeon.registry import RULES, rule
from engine.games.dice_dungeon.state import DungeonState

ANY = "any"
DEFAULT_MAX_ROUNDS = 200
"""The simulation's turn bound: more than the four adventures' turn limits together."""


class DiceDungeonGame:
    """The cooperative dice dungeon for 1 to 4 players: they win a level by beating its boss."""

    name: ClassVar[str] = "dice-dungeon"
    version: ClassVar[str] = "1.0"
    role: ClassVar[str] = "class"
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption("adventure", "the adventure every game plays, or 'any' for the one each "
                   "game's seed picks", default=ANY),
        GameOption("campaign", "play the four adventures in order as one campaign",
                   label="campaign"),
    )
    bots: ClassVar[tuple[str, ...]] = ("heuristic", "random", "mcts")
    default_max_rounds: ClassVar[int] = DEFAULT_MAX_ROUNDS
    rules = RULES

    def __init__(self, data: Dungeon):
        self.data = data

    @classmethod
    def from_model(cls, plain: Mapping[str, Any] | Dungeon) -> DiceDungeonGame:
        """From the plain model, or from dungeon data already built (tests)."""
        return cls(plain if isinstance(plain, Dungeon) else from_plain(plain))

    @property
    def player_counts(self) -> range:
        rules = self.data.rules
        most = min(self.data.max_players, len(self.data.classes) // rules.heroes_per_player)
        return range(1, most + 1)

    @rule("engine.adventure-choice")
    def levels_for(self, seed: int, values: Mapping[str, Any]) -> list[str]:
        """The levels a game plays: the campaign, the adventure asked for, or one the seed
        picks."""
        ids = [a.id for a in self.data.adventures]
        if values.get("campaign"):
            return ids
        chosen = str(values.get("adventure") or ANY)
        if chosen == ANY:
            return [ids[derive_seed(seed, 77) % len(ids)]]
        self.data.adventure(chosen)  # raises a ValueError naming the adventures
        return [chosen]

    def new_initial_state(self, players: int, seed: int = 0, options: Options | None = None
                          ) -> DungeonState:
        values = with_defaults(self, options or {})
        if players not in self.player_counts:
            raise ValueError(f"the dice dungeon is played by {self.player_counts.start} to "
                             f"{self.player_counts.stop - 1} players, got {players}")
        return setup.new_game(self.data, players, seed, self.levels_for(seed, values),
                              int(values["max_rounds"]))

    def state_from_dict(self, raw: Mapping[str, Any]) -> DungeonState:
        return DungeonState.from_dict(self.data, dict(raw))

    def consistency(self) -> list[Finding]:
        from engine.games.dice_dungeon.consistency import run_all

        return run_all(self)

    def odds(self) -> list[OddsTable]:
        from engine.games.dice_dungeon.odds import odds_tables

        return odds_tables(self.data)

    def make_bot(self, kind: str, seat: int, seed: int) -> Bot:
        if kind == "random":
            return RandomBot(derive_seed(seed, 1000 + seat))
        if kind == "mcts":
            from engine.games.dice_dungeon.sim import progress

            return MCTSBot(derive_seed(seed, 2000 + seat), seat, iterations=16,
                           rollout_steps=60, evaluate=progress)
        if kind == "heuristic":
            from engine.games.dice_dungeon.bots import HeuristicBot

            return HeuristicBot(derive_seed(seed, 3000 + seat))
        raise ValueError(f"the dice dungeon has no bot '{kind}' (it has {', '.join(self.bots)})")

    def summarize(self, state: DungeonState) -> GameSummary:  # type: ignore[override]
        from engine.games.dice_dungeon.sim import summary_details

        details = summary_details(state)
        winners = tuple(range(state.players)) if state.ended_by == "won" else ()
        return GameSummary(state.round, state.ended_by or STEP_LIMIT, winners,
                           tuple(details["seat_classes"]), details)

    def report(self, games: Sequence[GameSummary], players: int) -> list[Section]:
        from engine.games.dice_dungeon.sim import report_sections

        return report_sections(games)
