"""The OpenSpiel-shaped API on the catacombs: chance nodes, legality, serialization, errors."""

from __future__ import annotations

import ast
import json
from fractions import Fraction

import pytest
from engine_support import ROOT

from engine.core.api import CHANCE, TERMINAL, Action, IllegalActionError
from engine.core.bots import RandomBot
from engine.core.runner import play
from engine.games.catacombs import CatacombsGame
from engine.games.catacombs.state import CatacombsState


def test_engine_never_imports_pipeline():
    offenders = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n == "pipeline" or n.startswith("pipeline.")]
    assert offenders == []


def test_setup_starts_with_chance_draws_of_characters(tiny):
    state = CatacombsGame.from_model(tiny).new_initial_state(2, 3, {})
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert [o.action for o in outcomes] == [Action.of("draw", card="runner"),
                                           Action.of("draw", card="thinker")]
    assert sum(o.probability for o in outcomes) == 1


def test_chance_outcomes_always_sum_to_one(plain):
    state = CatacombsGame.from_model(plain).new_initial_state(3, 11, {})
    bots = [RandomBot(i) for i in range(3)]
    for _ in range(400):
        if state.is_terminal:
            break
        if state.is_chance_node:
            assert sum(o.probability for o in state.chance_outcomes()) == Fraction(1)
            state.apply(state.sample_chance())
        else:
            state.apply(bots[state.current_player].choose(state))


def test_same_seed_same_game(plain):
    def run(seed: int) -> list[str]:
        state = CatacombsGame.from_model(plain).new_initial_state(4, seed, {"max_rounds": 15})
        play(state, [RandomBot(100 + i) for i in range(4)], 5000)
        return state.events

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_illegal_action_names_action_and_state(tiny):
    state = CatacombsGame.from_model(tiny).new_initial_state(2, 1, {})
    with pytest.raises(IllegalActionError) as info:
        state.apply(Action.of("draw", card="nobody"))
    message = str(info.value)
    assert "draw(card=nobody)" in message and "round 0" in message and "chance" in message


def test_first_turn_is_a_single_move_on_the_first_tile(tiny):
    state = CatacombsGame.from_model(tiny).new_initial_state(2, 2, {})
    while state.is_chance_node or state.round == 0:
        if state.is_chance_node:
            state.apply(state.sample_chance())
        else:
            state.apply(Action.of("done") if Action.of("done") in state.legal_actions()
                        else state.legal_actions()[0])
    assert state.round == 1 and state.actions_left == 1
    kinds = {a.kind for a in state.legal_actions()}
    assert kinds <= {"move", "pass"}
    start = state.heroes[state.seat].pos[:2]
    assert all(a.get("to").startswith(f"{start[0]},{start[1]},")
               for a in state.legal_actions() if a.kind == "move")


def test_serialization_round_trip_is_exact_and_json(plain):
    game = CatacombsGame.from_model(plain)
    state = game.new_initial_state(3, 21, {"max_rounds": 10})
    play(state, [RandomBot(i) for i in range(3)], 300)
    raw = state.to_dict()
    again = CatacombsState.from_dict(game.data, json.loads(json.dumps(raw)))
    assert again == state
    clone = state.clone()
    assert clone == state
    if not clone.is_terminal:
        clone.apply(clone.legal_actions()[0])
        assert clone != state


def test_terminal_state_has_returns_and_no_actions(tiny):
    state = CatacombsGame.from_model(tiny).new_initial_state(2, 4, {"max_rounds": 6})
    play(state, [RandomBot(1), RandomBot(2)], 10_000)
    assert state.is_terminal and state.current_player == TERMINAL
    assert state.legal_actions() == []
    assert len(state.returns) == 2 and set(state.returns) <= {0.0, 1.0}
    with pytest.raises(IllegalActionError):
        state.apply(Action.of("pass"))


def test_players_out_of_range_are_refused(tiny):
    with pytest.raises(ValueError, match="1 to 2 players"):
        CatacombsGame.from_model(tiny).new_initial_state(3, 0, {})


def test_legal_actions_are_deterministic(plain):
    a = CatacombsGame.from_model(plain).new_initial_state(2, 9, {})
    b = CatacombsGame.from_model(plain).new_initial_state(2, 9, {})
    for _ in range(150):
        if a.is_terminal:
            break
        assert a.legal_actions() == b.legal_actions()
        action = a.sample_chance() if a.is_chance_node else a.legal_actions()[-1]
        a.apply(action)
        b.apply(action)



def test_mcts_bot_picks_a_legal_action_reproducibly(plain):
    from engine.core.bots import MCTSBot
    from engine.games.catacombs.sim import progress

    state = CatacombsGame.from_model(plain).new_initial_state(2, 8, {"max_rounds": 10})
    while state.is_chance_node or state.round < 2:
        state.apply(state.sample_chance() if state.is_chance_node else state.legal_actions()[0])
    seat = state.current_player
    picks = [MCTSBot(77, seat, iterations=6, rollout_steps=20, evaluate=progress).choose(state)
             for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in state.legal_actions()
    before = state.to_dict()
    MCTSBot(78, seat, iterations=4, rollout_steps=10).choose(state)
    assert state.to_dict() == before
