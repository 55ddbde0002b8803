"""How far a hero walks in one move action: speed, walls, doors, crevices, open traps, awake
monsters and tiles nobody has stepped on yet."""

from __future__ import annotations

import heapq

from engine.games.catacombs.board import (
    OPPOSITE,
    Pos,
    blocked_cells,
    cached,
    cell_traps,
    squeeze_sides,
    steps_graph,
    visited_slots,
)
from engine.games.catacombs.data import Trap
from engine.games.catacombs.registry import rule
from engine.games.catacombs.state import CatacombsState, Hero


def can_move(hero: Hero) -> bool:
    return hero.active and hero.hidden == 0


@rule("setup.speed")
def move_budget(state: CatacombsState, hero: Hero) -> int:
    return max(1, state.stat(hero, "speed"))


def neutralized(state: CatacombsState, hero: Hero, trap_id: str) -> bool:
    trap = state.data.traps.get(trap_id)
    return trap is not None and bool(set(trap.neutralized_by) & set(hero.items))


@rule("move.speed", "first-turn.stay", "traps.web", "traps.web-items", "traps.spikes-careful")
def reachable(state: CatacombsState, hero: Hero) -> dict[Pos, tuple[int, bool]]:
    return state.memo(_reachable_key(hero), lambda: _reachable(state, hero))


def reachable_at_choice(state: CatacombsState, hero: Hero) -> dict[Pos, tuple[int, bool]]:
    """`reachable` as it was in the position the move being applied was chosen in."""
    return state.memo_at_choice(_reachable_key(hero), lambda: _reachable(state, hero))


def _reachable_key(hero: Hero) -> tuple:
    return ("reachable", hero.seat, hero.pos)


def _reachable(state: CatacombsState, hero: Hero) -> dict[Pos, tuple[int, bool]]:
    """Cells the hero can end one move action on: cost and whether a vertical crevice was passed.

    Walls, closed doors, horizontal crevices, jump-only traps and awake monsters block; floor
    spikes, the carnivorous plant, an unvisited tile and a vertical crevice end the move.
    A web costs its speed penalty, but one cell per action is always possible.
    """
    start = hero.pos
    assert start is not None
    budget = move_budget(state, hero)
    graph = steps_graph(state)
    closed = blocked_cells(state) | {p.pos for p in state.pieces if p.on_map}
    squeezes = squeeze_sides(state)
    stops = stopping_traps(state)
    slow = _slowdowns(state, hero)
    visited = visited_slots(state)
    best: dict[Pos, tuple[int, bool]] = {start: (0, False)}
    heap: list[tuple[int, Pos, bool]] = [(0, start, False)]
    home = (start[0], start[1]) if state.round == 1 else None
    while heap:
        cost, pos, squeezed = heapq.heappop(heap)
        if best[pos][0] < cost:
            continue
        if pos != start and (squeezed or not visited[(pos[0], pos[1])] or pos in stops):
            continue
        for nxt, side in graph.get(pos, ()):
            if nxt in closed or (home is not None and (nxt[0], nxt[1]) != home):
                continue
            total = cost + 1 - slow.get(nxt, 0)
            if cost == 0:
                total = min(total, budget)
            elif total > budget:
                continue
            crossed = squeezed or (
                side is not None
                and (
                    (pos[0], pos[1], side) in squeezes
                    or (nxt[0], nxt[1], OPPOSITE[side]) in squeezes
                )
            )
            if nxt not in best or total < best[nxt][0]:
                best[nxt] = (total, crossed)
                heapq.heappush(heap, (total, nxt, crossed))
    del best[start]
    return best


def _slowdowns(state: CatacombsState, hero: Hero) -> dict[Pos, int]:
    """The speed each open trap's cell costs this hero (none where its items neutralize it)."""
    out = {}
    for pos, trap_id in cell_traps(state).items():
        trap = state.data.traps.get(trap_id)
        if trap is not None and trap.speed and not neutralized(state, hero, trap_id):
            out[pos] = trap.speed
    return out


def stopping_traps(state: CatacombsState) -> frozenset[Pos]:
    """Cells whose open trap ends a move there (floor spikes, the carnivorous plant, …)."""

    def build() -> frozenset:
        data = state.data.traps
        return frozenset(
            pos
            for pos, trap_id in cell_traps(state).items()
            if trap_id in data and _stops_on(data[trap_id])
        )

    return cached(state, "stops", build)


def _stops_on(trap: Trap) -> bool:
    return bool(trap.stop_on_it or (trap.checks and not trap.poison_per_stop))
