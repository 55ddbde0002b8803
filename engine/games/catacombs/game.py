"""`Game(model, players=N, seed=S)`: the catacombs as an OpenSpiel-shaped game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The rules modules register their actions in this order (it is the legal-action order).
from engine.games.catacombs import (  # noqa: F401
    cards,
    combat,
    crevices,
    doors,
    ending,
    exploration,
    inventory,
    labyrinths,
    movement,
    relationships,
    sarcophagi,
    search,
    setup,
    shelters,
    statues,
    traps,
    turn,
)
from engine.games.catacombs.data import Catacombs, from_plain
from engine.games.catacombs.state import CatacombsState

DEFAULT_MAX_ROUNDS = 80


class Game:
    """The catacombs for `players` heroes; every game's randomness comes from `seed`."""

    name = "catacombs"

    def __init__(
        self,
        model: Mapping[str, Any] | Catacombs,
        players: int,
        seed: int = 0,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        teams: bool = False,
        monster_players: bool = False,
    ):
        self.data = model if isinstance(model, Catacombs) else from_plain(model)
        if not 1 <= players <= len(self.data.characters):
            raise ValueError(
                f"the catacombs needs 1 to {len(self.data.characters)} players, got {players}"
            )
        self.players = players
        self.seed = seed
        self.max_rounds = max_rounds
        self.teams = teams
        self.monster_players = monster_players

    def new_initial_state(self) -> CatacombsState:
        return setup.new_game(
            self.data, self.players, self.seed, self.max_rounds, self.teams, self.monster_players
        )

    def state_from_dict(self, raw: dict[str, Any]) -> CatacombsState:
        return CatacombsState.from_dict(self.data, raw)
