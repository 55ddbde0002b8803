"""The move action: walking to a cell within reach (`reach.reachable`), squeezing through a
vertical crevice on the way, or walking to an open edge to explore from there."""

from __future__ import annotations

from functools import lru_cache

from engine.core.api import Action
from engine.games.catacombs.board import Pos, arrive, parse_pos, pos_key
from engine.games.catacombs.crevices import squeeze_through
from engine.games.catacombs.exploration import move_and_explore
from engine.games.catacombs.reach import can_move, reachable, reachable_at_choice
from engine.games.catacombs.registry import actions_of, handles, rule
from engine.games.catacombs.state import CatacombsState, Hero


@lru_cache(maxsize=8192)
def move_to(pos: Pos) -> Action:
    """The move action to a cell (actions are values: one object per cell will do)."""
    return Action.of("move", to=pos_key(pos))


@actions_of
def move_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not can_move(hero):
        return []
    return [move_to(p) for p in sorted(reachable(state, hero))]


@handles("move")
@rule("move.open-tiles")
def do_move(state: CatacombsState, hero: Hero, action: Action) -> int:
    """One move action: the hero walks to a reachable cell; what lies there takes effect."""
    if action.get("explore") is not None:
        return move_and_explore(state, hero, action)
    target = parse_pos(action.get("to"))
    squeezed = reachable_at_choice(state, hero)[target][1]
    hero.pos = target
    state.log(f"{hero.character} moves to {action.get('to')}")
    if squeezed:
        squeeze_through(state, hero)
    arrive(state, hero)
    return 1
