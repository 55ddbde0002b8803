"""Shared helpers for the dice dungeon's tests: the game built from the pack, and a driver that
plays chosen dice and choices through the public API (`legal_actions`, `apply`)."""

from __future__ import annotations

import heapq
import itertools
from functools import cache
from pathlib import Path

from engine.core.api import Action
from engine.games.dice_dungeon.data import Cell
from engine.games.dice_dungeon.game import DiceDungeonGame
from engine.games.dice_dungeon.grid import NEIGHBOURS, Placement, contact_area, legal_placements
from engine.games.dice_dungeon.state import DungeonState
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "content" / "dice-dungeon"


@cache
def plain() -> dict:
    return load_model(PACK).to_plain()


@cache
def game() -> DiceDungeonGame:
    return DiceDungeonGame.from_model(plain())


def play(state: DungeonState, action: Action) -> None:
    """Apply an action that must be among the legal ones (chance outcomes included)."""
    legal = state.legal_actions()
    assert action in legal, f"{action} is not legal here: {legal[:12]}"
    state.apply(action)


def start(players: int, adventure: str, classes: list[str], monster: int, treasure: int,
          gold: int, seed: int = 1) -> DungeonState:
    """A new game with chosen classes and a chosen setup roll."""
    state = game().new_initial_state(players, seed, {"adventure": adventure})
    for cls in classes:
        play(state, Action.of("pick-class", hero_class=cls))
    play(state, Action.of("setup", monster=monster, treasure=treasure, gold=gold))
    return state


def roll(state: DungeonState, *faces: int) -> None:
    play(state, Action.of("roll", dice="-".join(map(str, sorted(faces)))))


def path_to(state: DungeonState, target: Cell, face: int) -> list[Placement]:
    """Placements of one shape, legal one after the other, that end by painting `target`."""
    data, grid = state.data, state.adventure.grid
    shape = data.shapes[face]
    dist = _distances(grid.floor, target)

    def gap(painted: frozenset[Cell]) -> int:
        area = contact_area(grid, painted, data.rules)
        return min((dist.get((x + dx, y + dy), 99) for x, y in area for dx, dy in NEIGHBOURS),
                   default=99)

    first = frozenset(state.painted)
    todo: list = [(gap(first), 0, first, [])]
    seen, counter = {first}, itertools.count(1)
    while todo:
        _, _, painted, moves = heapq.heappop(todo)
        for move in legal_placements(grid, painted, shape, data.rules):
            after = painted | set(move.cells)
            if target in after:
                return [*moves, move]
            if after not in seen:
                seen.add(after)
                heapq.heappush(todo, (gap(after), next(counter), after, [*moves, move]))
    raise AssertionError(f"no path to {target}")


def _distances(floor: frozenset[Cell], target: Cell) -> dict[Cell, int]:
    found, todo = {target: 0}, [target]
    while todo:
        nxt = []
        for x, y in todo:
            for dx, dy in NEIGHBOURS:
                n = (x + dx, y + dy)
                if n in floor and n not in found:
                    found[n] = found[(x, y)] + 1
                    nxt.append(n)
        todo = nxt
    return found


def place(state: DungeonState, move: Placement) -> None:
    play(state, Action.of("place", x=move.x, y=move.y, turn=move.turn))


def finish_turn(state: DungeonState) -> None:
    """Decline the attack (if offered) and end the turn."""
    while state.queue and not state.is_chance_node and state.queue[0]["step"] in (
            "choose-attack", "end-turn",
                                                                  "upgrade"):
        step = state.queue[0]["step"]
        if step == "choose-attack":
            play(state, Action.of("pass"))
        elif step == "upgrade":
            play(state, state.legal_actions()[0])
        else:
            play(state, Action.of("done"))
