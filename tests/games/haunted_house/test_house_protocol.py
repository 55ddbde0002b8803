"""The haunted house passes the checks every game must pass, and keeps golden playthroughs
(regenerate with RELIC_REGEN_GOLDEN=1 after a deliberate rules change, and review the diff)."""

from __future__ import annotations

from pathlib import Path

import pytest
from house_support import game

from engine.core import registry
from engine.core.testing import check_protocol, compare_golden, playthrough
from engine.games.haunted_house.game import HauntedHouseGame

GOLDEN = Path(__file__).parent / "golden"


def test_the_game_is_registered_under_its_ruleset() -> None:
    assert registry.load("haunted-house") is HauntedHouseGame
    assert list(game().player_counts) == [3, 4, 5, 6]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_play_keeps_the_protocol(players: int) -> None:
    steps = check_protocol(game(), players, seeds=range(2), options={"max_rounds": 10})
    assert steps > 50


def test_a_bot_playing_the_protocol_sees_every_kind_of_node() -> None:
    """Heuristic games reach rolls, draws, decisions and both phases of a turn."""
    g = game()
    kinds: set[str] = set()
    for seed in range(4):
        state = g.new_initial_state(4, seed)
        bots = [g.make_bot("heuristic", s, seed) for s in range(4)]
        while not state.is_terminal:
            if state.queue:
                kinds.add(f"{state.queue[0]['t']}:{state.queue[0]['fn']}")
            kinds.add(state.turn["phase"])
            state.apply(state.sample_chance() if state.is_chance_node
                        else bots[state.current_player].choose(state))
    assert {"roll:check", "roll:fight-roll", "roll:task", "roll:dread", "draw:room",
            "draw:omen", "decide:split", "monster", "explorer"} <= kinds


@pytest.mark.parametrize(("players", "seed", "bot"), [(3, 7, "heuristic"), (5, 11, "heuristic"),
                                                      (4, 3, "random")])
def test_golden_playthrough(players: int, seed: int, bot: str) -> None:
    options = {"max_rounds": 12} if bot == "random" else {}
    text = playthrough(game(), players=players, seed=seed, bot=bot, options=options)
    compare_golden(GOLDEN / f"{bot}-{players}p-seed{seed}.jsonl", text)
