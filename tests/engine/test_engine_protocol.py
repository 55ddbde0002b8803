"""The catacombs pass the checks every game must pass (engine/core/testing.py), and are found
through the registry like any other game."""

from __future__ import annotations

from engine.core import registry
from engine.core.game import Game
from engine.core.testing import check_protocol
from engine.games.catacombs import CatacombsGame


def test_the_catacombs_are_registered_under_their_ruleset(tiny):
    assert registry.load("catacombs") is CatacombsGame
    assert isinstance(CatacombsGame.from_model(tiny), Game)


def test_the_catacombs_keep_the_protocol(tiny):
    game = CatacombsGame.from_model(tiny)
    steps = check_protocol(game, players=2, seeds=range(2), options={"max_rounds": 4})
    assert steps > 20
