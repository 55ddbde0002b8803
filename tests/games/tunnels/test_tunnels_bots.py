"""The bots: the heuristic ones play sensibly and finish, the demon's never read the hidden
token values, and MCTS plays through the core."""

from __future__ import annotations

import pytest
from tunnels_support import FREEDOM, GLITTER, game

from engine.games.tunnels.bots import DemonBot, DemonMCTS
from engine.games.tunnels.view import demon_view


def play(mortal, demon, seed, scenario):
    state = game().new_initial_state(2, seed, {"scenario": scenario})
    bots = [game().make_bot(mortal, 0, seed), game().make_bot(demon, 1, seed)]
    while not state.is_terminal:
        state.apply(state.sample_chance() if state.is_chance_node
                    else bots[state.current_player].choose(state))
    return state


@pytest.mark.parametrize("scenario", [GLITTER, FREEDOM])
def test_heuristic_games_end_by_the_rules(scenario):
    for seed in range(12):
        state = play("heuristic", "heuristic", seed, scenario)
        assert state.ended_by in ("loot-escaped", "demon-banished", "squad-lost",
                                  "time-runs-out")
        assert state.round <= game().data.rounds


@pytest.mark.parametrize("scenario", [GLITTER, FREEDOM])
def test_each_heuristic_bot_beats_a_random_opponent(scenario):
    mortal = sum(play("heuristic", "random", s, scenario).winners == [0] for s in range(20))
    demon = sum(play("random", "heuristic", s, scenario).winners == [1] for s in range(20))
    assert mortal >= 16 and demon >= 16


def twin(state):
    """The same position with the loot on another live token (what the demon cannot see)."""
    raw = state.to_dict()
    live = [t for t in raw["tokens"] if not t["gone"]]
    loot = next(i for i, t in enumerate(live) if t["value"] == "loot")
    other = live[(loot + 1) % len(live)]
    for t in live:
        t["value"] = "loot" if t is other else "decoy"
    return game().state_from_dict(raw)


def demon_decisions(seed, limit=400):
    """Positions where the demon player decides, from a heuristic game of All that
    glitters with at least two live tokens."""
    state = game().new_initial_state(2, seed, {"scenario": GLITTER})
    bots = [game().make_bot("heuristic", seat, seed) for seat in (0, 1)]
    found = []
    while not state.is_terminal and len(found) < limit:
        if state.current_player == 1 and len([t for t in state.tokens if not t.gone]) > 1:
            found.append(state.clone())
        state.apply(state.sample_chance() if state.is_chance_node
                    else bots[state.current_player].choose(state))
    return found


def test_the_demons_heuristic_bot_never_reads_the_hidden_loot():
    checked = 0
    for seed in range(3):
        for state in demon_decisions(seed):
            other = twin(state)
            assert demon_view(other) == demon_view(state)
            assert DemonBot(7).choose(other) == DemonBot(7).choose(state)
            checked += 1
    assert checked > 100


def test_the_demons_mcts_guesses_the_loot_instead_of_reading_it():
    positions = [s for s in demon_decisions(4, limit=60) if len(s.legal_actions()) > 1][:3]
    assert positions
    for state in positions:
        assert DemonMCTS(11, iterations=6, rollout_steps=20).choose(twin(state)) == \
            DemonMCTS(11, iterations=6, rollout_steps=20).choose(state)


def test_mcts_plays_a_game_through_the_core():
    from engine.games.tunnels import bots

    state = game().new_initial_state(2, 2, {"scenario": FREEDOM, "max_rounds": 2})
    players = [bots.MCTSBot(1, 0, iterations=4, rollout_steps=20, evaluate=bots.progress),
               DemonMCTS(2, iterations=4, rollout_steps=20)]
    while not state.is_terminal:
        state.apply(state.sample_chance() if state.is_chance_node
                    else players[state.current_player].choose(state))
    assert state.ended_by in ("turn-bound", "loot-escaped", "demon-banished", "squad-lost")
    assert isinstance(game().make_bot("mcts", 1, 3), DemonMCTS)
