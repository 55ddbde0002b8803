"""The dice dungeon passes the checks every game must pass, keeps golden playthroughs and is
found through the registry under its ruleset name."""

from __future__ import annotations

from pathlib import Path

import pytest
from dd_support import game

from engine.core.registry import load
from engine.core.testing import check_protocol, compare_golden, playthrough
from engine.games.dice_dungeon.game import DiceDungeonGame

GOLDEN = Path(__file__).parent / "golden"


def test_the_registry_finds_the_game_under_its_ruleset() -> None:
    assert load("dice-dungeon") is DiceDungeonGame
    assert game().player_counts == range(1, 5)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_protocol_with_random_play(players: int) -> None:
    assert check_protocol(game(), players, seeds=range(2)) > 100


def test_protocol_in_a_campaign() -> None:
    assert check_protocol(game(), 2, seeds=[5], options={"campaign": True}) > 400


@pytest.mark.parametrize(("name", "players", "seed", "bot", "options"), [
    ("heuristic-2p-spider-caves", 2, 11, "heuristic", {"adventure": "spider-caves"}),
    ("heuristic-4p-goblin-forge", 4, 12, "heuristic", {"adventure": "goblin-forge"}),
    ("heuristic-1p-dragons-lair", 1, 13, "heuristic", {"adventure": "dragons-lair"}),
    ("random-3p-sunken-crypt", 3, 14, "random", {"adventure": "sunken-crypt"}),
])
def test_golden_playthrough(name: str, players: int, seed: int, bot: str, options: dict) -> None:
    compare_golden(GOLDEN / f"{name}.jsonl", playthrough(game(), players, seed, bot, options))


def test_unknown_adventures_and_player_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="no adventure 'nowhere'"):
        game().new_initial_state(2, 0, {"adventure": "nowhere"})
    with pytest.raises(ValueError, match="1 to 4 players"):
        game().new_initial_state(5, 0, {})
    with pytest.raises(ValueError, match="unknown option"):
        game().new_initial_state(2, 0, {"teams": True})


def test_mcts_plays_through_the_core() -> None:
    """MCTS (engine.core.bots) plays the first turns: every choice legal, the game moves on."""
    g = game()
    state = g.new_initial_state(2, 3, {"adventure": "spider-caves"})
    bots = [g.make_bot("mcts", seat, 3) for seat in range(2)]
    while not state.is_terminal and state.turn < 4:
        state.apply(state.sample_chance() if state.is_chance_node
                    else bots[state.current_player].choose(state))
    assert state.turn == 4 and state.painted and bots[0].calls + bots[1].calls > 0
