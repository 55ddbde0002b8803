"""The tunnels keep the game protocol and are found through the registry."""

from __future__ import annotations

import json

import pytest
from tunnels_support import FREEDOM, GLITTER, game, start

from engine.core import registry
from engine.core.api import Action, IllegalActionError
from engine.core.game import Game
from engine.core.testing import check_protocol
from engine.games.tunnels.game import TunnelsGame


def test_the_tunnels_are_registered_under_their_ruleset():
    assert registry.load("tunnels") is TunnelsGame
    assert isinstance(game(), Game)
    assert game().player_counts == range(2, 3)


@pytest.mark.parametrize("scenario", [GLITTER, FREEDOM])
def test_the_tunnels_keep_the_protocol(scenario):
    steps = check_protocol(game(), players=2, seeds=range(2), options={"scenario": scenario})
    assert steps > 200


def test_both_lets_the_seed_pick_the_scenario():
    picked = {game().new_initial_state(2, seed, {}).scenario.id for seed in range(6)}
    assert picked == {GLITTER, FREEDOM}


def test_an_unknown_scenario_or_player_count_is_refused():
    with pytest.raises(ValueError, match="unknown scenario 'nowhere'"):
        game().new_initial_state(2, 0, {"scenario": "nowhere"})
    with pytest.raises(ValueError, match="2 players"):
        game().new_initial_state(3, 0, {})


def test_an_illegal_action_names_the_action_and_the_state():
    state = start(GLITTER)
    act = Action.of("step", to="Z9")
    with pytest.raises(IllegalActionError) as caught:
        state.apply(act)
    assert "step(to=Z9)" in str(caught.value) and "all-that-glitters round 1" in str(caught.value)


def test_a_state_round_trips_through_json_mid_game():
    state = start(FREEDOM, seed=5)
    bots = [game().make_bot("heuristic", seat, 5) for seat in (0, 1)]
    for _ in range(120):
        state.apply(state.sample_chance() if state.is_chance_node
                    else bots[state.current_player].choose(state))
    again = game().state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state and again.legal_actions() == state.legal_actions()


def test_the_turn_bound_stops_a_game_without_a_winner():
    state = game().new_initial_state(2, 1, {"scenario": FREEDOM, "max_rounds": 1})
    bots = [game().make_bot("random", seat, 1) for seat in (0, 1)]
    while not state.is_terminal:
        state.apply(state.sample_chance() if state.is_chance_node
                    else bots[state.current_player].choose(state))
    assert state.ended_by in ("turn-bound", "loot-escaped")
    if state.ended_by == "turn-bound":
        assert state.winners == [] and state.round == 1
