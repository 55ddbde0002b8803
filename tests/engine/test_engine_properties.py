"""Hypothesis: random legal play ends within the bound, states round-trip at every step, and
`legal_actions()` never offers an action that `apply` rejects."""

from __future__ import annotations

import json

from engine_support import canonical_plain, tiny_plain
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.rng import Rng
from engine.games.catacombs import CatacombsGame
from engine.games.catacombs.data import from_plain
from engine.games.catacombs.state import CatacombsState

CANONICAL = from_plain(canonical_plain())
TINY = from_plain(tiny_plain())
BOUND = 8
STEP_LIMIT = 4000

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def random_play(data, players: int, seed: int, check_each_step: bool) -> CatacombsState:
    teams = seed % 2 == 0
    state = CatacombsGame.from_model(data).new_initial_state(
        players, seed, {"max_rounds": BOUND, "teams": teams})
    chooser = Rng(seed ^ 0x5EED)
    steps = 0
    while not state.is_terminal:
        actions = state.legal_actions()
        assert actions, f"no legal action in a live state: {state.summary()}"
        if check_each_step:
            raw = state.to_dict()
            assert CatacombsState.from_dict(data, json.loads(json.dumps(raw))) == state
            for action in actions[:6] + actions[-3:]:
                state.clone().apply(action)
        state.apply(chooser.choice(actions))
        steps += 1
        assert steps < STEP_LIMIT, f"no end after {steps} steps: {state.summary()}"
    return state


@SETTINGS
@given(players=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_random_play_ends_within_the_bound(players, seed):
    state = random_play(CANONICAL, players, seed, check_each_step=False)
    assert state.round <= BOUND + 1
    assert state.ended_by in ("artifact", "all-dead", "turn-bound", "labyrinth-closed")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_round_trip_and_legal_actions_at_every_step(players, seed):
    random_play(CANONICAL, players, seed, check_each_step=True)


@SETTINGS
@given(players=st.integers(1, 2), seed=st.integers(0, 2**32))
def test_tiny_model_plays_to_the_end(players, seed):
    state = random_play(TINY, players, seed, check_each_step=True)
    assert state.is_terminal


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_cached_path_data_matches_a_fresh_state(seed):
    """Incrementally kept caches (step graph, frontier, blocked cells) equal fresh builds."""
    from engine.games.catacombs.board import (
        blocked_cells,
        frontier,
        squeeze_sides,
        steps_graph,
        visited_slots,
    )
    from engine.games.catacombs.bots import HeuristicBot
    from engine.games.catacombs.reach import stopping_traps

    state = CatacombsGame.from_model(CANONICAL).new_initial_state(3, seed, {"max_rounds": 12})
    bots = [HeuristicBot(seed + i) for i in range(3)]
    for step in range(2000):
        if state.is_terminal:
            break
        if step % 25 == 0 and state.tiles:
            fresh = state.clone()
            from engine.games.catacombs.pathfinding import crawl_graph

            crawl_graph(state).get(state.heroes[0].pos)
            for fn in (
                steps_graph, frontier, blocked_cells, squeeze_sides, visited_slots, stopping_traps
            ):
                assert fn(state) == fn(fresh), fn.__name__
            for placed in state.tiles.values():
                assert state.tile_of((*placed.slot, 0, 0)) is placed
            assert crawl_graph(state).materialize() == crawl_graph(fresh).materialize()
            from engine.games.catacombs.board import next_to
            from engine.games.catacombs.pathfinding import near_cells

            goals = {h.pos for h in state.heroes if h.active}
            brute = {p for p in steps_graph(state) if next_to(state, p, goals)}
            assert near_cells(state, goals) & set(steps_graph(state)) == brute
        state.apply(state.sample_chance() if state.is_chance_node
                    else bots[state.current_player].choose(state))
