"""The monster phase after every round: players take and bring back their monsters, then each
awake monster walks its speed towards the nearest hero it can reach and attacks (a controlled
one may first drop from the ceiling or fight from where it stands), then acid burns."""

from __future__ import annotations

from engine.games.catacombs.controlled import fight_like_heroes, respawn, surprise, take_control
from engine.games.catacombs.monsters import (
    attack,
    burrow,
    enter,
    last_survivor,
    live_piece,
    loot,
    targets,
    underground,
)
from engine.games.catacombs.pathfinding import find_path, side_between
from engine.games.catacombs.registry import rule, task
from engine.games.catacombs.state import CatacombsState
from engine.games.catacombs.steps import Acid, MonsterAct, MonsterPhase


@task(MonsterPhase)
@rule("engine.monster-phase", "table.monster-control")
def monster_phase(state: CatacombsState, t: MonsterPhase, _: object) -> None:
    """After every round each awake monster moves and attacks, then acid burns."""
    take_control(state)
    respawn(state)
    last_survivor(state)
    for piece in sorted(state.pieces, key=lambda p: p.uid):
        if piece.alive and piece.awake:
            state.push(MonsterAct(uid=piece.uid), front=False)
    state.push(Acid(), front=False)


@task(MonsterAct)
@rule(
    "engine.monster-move",
    "shelters.uncontrolled",
    "venomous.speed",
    "bandit.speed",
    "ghost.speed",
    "demon.speed",
    "scarab.speed",
)
def monster_act(state: CatacombsState, t: MonsterAct, _: object) -> None:
    """The monster walks its speed towards the nearest hero it can reach, then attacks."""
    piece = live_piece(state, t.uid)
    if piece is None:
        return
    if piece.held > 0:
        piece.held -= 1
        return
    monster = state.data.monsters[piece.monster]
    if underground(state, piece, monster):
        return
    heroes = targets(state, piece)
    if not heroes:
        return
    if piece.controlled and (
        surprise(state, piece, monster, heroes) or fight_like_heroes(state, piece, monster, heroes)
    ):
        return
    goals = {h.pos for h in heroes}
    path = find_path(state, piece, goals)
    if path is None:
        burrow(state, piece, monster, "burrow-wall")
        return
    came = piece.pos
    for step in path[: monster.stats_for(piece.controlled).speed]:
        side = side_between(state, came, step)
        if not enter(state, piece, step, came, side):
            break
        came = step
    if piece.alive:
        loot(state, piece, monster)
        attack(state, piece, monster)

