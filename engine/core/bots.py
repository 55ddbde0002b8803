"""Game-independent bots: uniformly random, and UCT Monte-Carlo tree search on `clone()`."""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.core.api import Action
from engine.core.rng import Rng, derive_seed
from engine.core.state import GameState


class RandomBot:
    """Picks a legal action uniformly with its own seeded generator."""

    def __init__(self, seed: int):
        self.rng = Rng(seed)

    def choose(self, state: GameState) -> Action:
        return self.rng.choice(state.legal_actions())


class MCTSBot:
    """Flat UCT over the current decisions with random rollouts on clones (small budgets)."""

    def __init__(
        self,
        seed: int,
        player: int,
        iterations: int = 32,
        rollout_steps: int = 200,
        evaluate: Callable[[GameState, int], float] | None = None,
    ):
        self.seed = seed
        self.player = player
        self.iterations = iterations
        self.rollout_steps = rollout_steps
        self.evaluate = evaluate
        self.calls = 0

    def choose(self, state: GameState) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        self.calls += 1
        rng = Rng(derive_seed(self.seed, self.calls))
        visits = [0] * len(actions)
        totals = [0.0] * len(actions)
        for it in range(self.iterations):
            index = it if it < len(actions) else _ucb_pick(visits, totals, it)
            totals[index] += self._rollout(state, actions[index], rng)
            visits[index] += 1
        best = max(range(len(actions)), key=lambda i: (totals[i] / max(visits[i], 1), -i))
        return actions[best]

    def _rollout(self, state: GameState, first: Action, rng: Rng) -> float:
        sim = state.clone()
        sim.rng = Rng(rng.next_u64())
        sim.apply(first)
        steps = 0
        while not sim.is_terminal and steps < self.rollout_steps:
            if sim.is_chance_node:
                sim.apply(sim.sample_chance())
            else:
                sim.apply(rng.choice(sim.legal_actions()))
            steps += 1
        if sim.is_terminal:
            return sim.returns[self.player]
        return self.evaluate(sim, self.player) if self.evaluate else 0.0


def _ucb_pick(visits: list[int], totals: list[float], t: int) -> int:
    def score(i: int) -> float:
        return totals[i] / visits[i] + 1.4 * math.sqrt(math.log(t + 1) / visits[i])

    return max(range(len(visits)), key=score)
