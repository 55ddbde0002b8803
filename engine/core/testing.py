"""Checks every game must pass, and golden playthroughs, for any game's tests.

    from engine.core.testing import check_protocol, playthrough, compare_golden

    def test_protocol():
        check_protocol(game, players=3, seeds=range(3))

    def test_golden():
        compare_golden(path, playthrough(game, players=2, seed=7, bot="heuristic"))

`RELIC_REGEN_GOLDEN=1` rewrites golden files instead of comparing them (review the diff).
"""

from __future__ import annotations

import hashlib
import json
import os
from fractions import Fraction
from pathlib import Path

from engine.core.api import Action, IllegalActionError
from engine.core.bots import RandomBot
from engine.core.game import Game, Options
from engine.core.rng import derive_seed
from engine.core.state import GameState

REGEN = os.environ.get("RELIC_REGEN_GOLDEN") == "1"


def digest(state: GameState) -> str:
    """A short hash of the state without its event log."""
    raw = dict(state.to_dict())
    raw.pop("events", None)
    return hashlib.sha256(json.dumps(raw, sort_keys=True).encode()).hexdigest()[:16]


def check_protocol(game: Game, players: int, seeds: range | list[int] = range(3),
                   options: Options | None = None, max_steps: int = 20_000) -> int:
    """Random play from several seeds, asserting at every step:

    - chance outcomes have positive exact probabilities that sum to one;
    - `legal_actions()` is deterministic (the same on a clone and after a JSON round trip);
    - `to_dict`/`from_dict` round-trip exactly through JSON, and `clone()` equals the state;
    - every offered action applies; an action not offered raises `IllegalActionError`
      naming the action and the state;
    - the game ends within `max_steps` actions and `returns` has one value per seat.

    Returns the number of steps played (so a caller can see the check did work).
    """
    options = dict(options or {})
    total = 0
    for seed in seeds:
        state = game.new_initial_state(players, seed, options)
        rng_bot = RandomBot(derive_seed(seed, 99))
        steps = 0
        while not state.is_terminal:
            assert steps < max_steps, f"{game.name}: seed {seed} did not end in {max_steps} steps"
            _check_step(game, state)
            action = state.sample_chance() if state.is_chance_node else rng_bot.choose(state)
            state.apply(action)
            steps += 1
        assert len(state.returns) == players
        assert state.legal_actions() == []
        total += steps
    return total


def _check_step(game: Game, state: GameState) -> None:
    actions = state.legal_actions()
    assert actions, f"{game.name}: a live state offers no action: {state.summary()}"
    assert len(set(actions)) == len(actions), f"{game.name}: duplicate actions offered"
    if state.is_chance_node:
        outcomes = state.chance_outcomes()
        assert all(isinstance(o.probability, Fraction) and o.probability > 0 for o in outcomes)
        assert sum(o.probability for o in outcomes) == 1, f"{game.name}: chances must sum to 1"
    raw = json.loads(json.dumps(state.to_dict()))
    again = game.state_from_dict(raw)
    assert again == state, f"{game.name}: from_dict(to_dict(s)) differs from s"
    assert again.legal_actions() == actions, f"{game.name}: legal actions depend on history"
    assert state.clone() == state
    bogus = Action.of("no-such-action-" + game.name)
    try:
        state.clone().apply(bogus)
    except IllegalActionError as exc:
        assert str(bogus) in str(exc) and state.summary() in str(exc)
    else:
        raise AssertionError(f"{game.name}: an action never offered was accepted")


def playthrough(game: Game, players: int, seed: int, bot: str,
                options: Options | None = None, max_steps: int = 50_000) -> str:
    """A seeded game as JSON lines: setup, then every action with its events and a digest."""
    state = game.new_initial_state(players, seed, dict(options or {}))
    bots = [game.make_bot(bot, seat, seed) for seat in range(players)]
    lines = [json.dumps({"setup": state.events, "digest": digest(state)}, ensure_ascii=False)]
    seen, step = len(state.events), 0
    while not state.is_terminal and step < max_steps:
        player = state.current_player
        action = state.sample_chance() if state.is_chance_node else bots[player].choose(state)
        state.apply(action)
        step += 1
        lines.append(json.dumps({"step": step, "player": player, "action": str(action),
                                 "events": state.events[seen:], "digest": digest(state)},
                                ensure_ascii=False))
        seen = len(state.events)
    summary = game.summarize(state)
    lines.append(json.dumps({"ended_by": summary.ended_by, "winners": list(summary.winners),
                             "rounds": summary.rounds}))
    return "\n".join(lines) + "\n"


def compare_golden(path: Path, text: str) -> None:
    """Assert `text` equals the golden file line by line (or rewrite it with REGEN)."""
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: write it with RELIC_REGEN_GOLDEN=1"
    expected = path.read_text(encoding="utf-8").splitlines()
    got = text.splitlines()
    for i, (want, have) in enumerate(zip(expected, got, strict=False)):
        assert have == want, f"{path.name}: first difference at line {i + 1}"
    assert len(got) == len(expected), f"{path.name}: {len(got)} lines, golden has {len(expected)}"
