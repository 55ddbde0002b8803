"""What the demon player sees, and samples of the hidden part for the demon's search.

The demon player sees every figure, damage and grenade, which warriors carry a treasure token
and how many tokens lie in each square, decoys already turned up, and the loot itself only
when the scenario carries it face up. The demon's bots decide from a `DemonView` (heuristic)
or from a `determinize`d copy in which the loot is put on a live token at random (MCTS), so no
bot of the demon ever reads which token is the loot.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.api import Action
from engine.core.rng import Rng
from engine.games.tunnels.board import Board
from engine.games.tunnels.data import Scenario, Tunnels
from engine.games.tunnels.registry import rule
from engine.games.tunnels.state import TunnelsState
from engine.games.tunnels.treasure import DECOY, LOOT


@dataclass(frozen=True)
class SeenWarrior:
    card: str
    cell: int
    damage: int
    grenades: int
    alive: bool
    carries: bool


@dataclass(frozen=True)
class SeenMonster:
    key: str
    kind: str
    cell: int
    wounds: int


@dataclass(frozen=True)
class DemonView:
    """The public part of a position (plus the demon player's own legal actions)."""

    data: Tunnels
    board: Board
    scenario: Scenario
    round: int
    phase: str
    moving: int
    warriors: tuple[SeenWarrior, ...]
    monsters: tuple[SeenMonster, ...]
    ground: tuple[tuple[int, int], ...]
    """(cell, number of tokens) for every square with tokens on the ground."""
    loot_holder: str | None
    loot_cell: int | None
    """Where the loot is, only when the scenario carries it face up."""
    triggered: tuple[int, ...]
    extra_fate: int
    acting: str | None
    acting_stage: str | None
    acting_mov: int
    decision: str | None
    legal: tuple[Action, ...]

    def monster(self, key: str) -> SeenMonster | None:
        return next((m for m in self.monsters if m.key == key), None)

    def alive(self) -> list[SeenWarrior]:
        return [w for w in self.warriors if w.alive]


@rule("hidden-side")
def demon_view(s: TunnelsState) -> DemonView:
    """The demon player's view: token values stay hidden unless carried face up."""
    face_up = s.scenario.face_up
    loot = next((t for t in s.tokens if t.value == LOOT and not t.gone), None)
    ground: dict[int, int] = {}
    for t in s.tokens:
        if not t.gone and t.holder is None and t.cell is not None:
            ground[t.cell] = ground.get(t.cell, 0) + 1
    return DemonView(
        data=s.data,
        board=s.board,
        scenario=s.scenario,
        round=s.round,
        phase=s.phase,
        moving=s.moving,
        warriors=tuple(SeenWarrior(w.card, w.cell, w.damage, w.grenades, w.alive,
                                   s.carried(w.card) is not None) for w in s.warriors),
        monsters=tuple(SeenMonster(m.key, m.kind, m.cell, m.wounds) for m in s.monsters),
        ground=tuple(sorted(ground.items())),
        loot_holder=loot.holder if face_up and loot else None,
        loot_cell=loot.cell if face_up and loot and loot.holder is None else None,
        triggered=tuple(s.triggered),
        extra_fate=s.extra_fate,
        acting=s.act.piece if s.act else None,
        acting_stage=s.act.stage if s.act else None,
        acting_mov=s.act.mov if s.act else 0,
        decision=s.queue[0]["what"] if s.queue and s.queue[0]["t"] == "decide" else None,
        legal=tuple(s.legal_actions()),
    )


def determinize(s: TunnelsState, rng: Rng) -> TunnelsState:
    """A copy of the position with the loot put on one live token at random (the demon
    player's guess); the position's real token values are not read."""
    from engine.games.tunnels.treasure import HIDDEN

    sample = s.clone()
    sample.events = [e for e in sample.events if not e.startswith(HIDDEN)]
    if s.scenario.face_up:
        return sample
    live = [t for t in sample.tokens if not t.gone]
    if not live:
        return sample
    pick = rng.below(len(live))
    for i, token in enumerate(live):
        token.value = LOOT if i == pick else DECOY
    return sample
