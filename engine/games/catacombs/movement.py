"""Moving by speed: cells per action, walls, doors, crevices, open traps and sleeping tiles."""

from __future__ import annotations

import heapq
from functools import lru_cache
from typing import Any

from engine.core.api import Action
from engine.games.catacombs.board import Pos, laid
from engine.games.catacombs.data import Trap
from engine.games.catacombs.registry import actions_of, handles, rule
from engine.games.catacombs.state import CatacombsState, Hero


@lru_cache(maxsize=8192)
def pos_key(pos: Pos) -> str:
    return f"{pos[0]},{pos[1]},{pos[2]},{pos[3]}"


@lru_cache(maxsize=8192)
def move_to(pos: Pos) -> Action:
    """The move action to a cell (actions are values: one object per cell will do)."""
    return Action.of("move", to=pos_key(pos))


@lru_cache(maxsize=8192)
def parse_pos(text: str) -> Pos:
    a, b, c, d = (int(v) for v in text.split(","))
    return (a, b, c, d)


def feature_at(state: CatacombsState, pos: Pos, ftype: str) -> dict | None:
    for f in state.tile_of(pos).features:
        if f["type"] == ftype and f.get("cell") == [pos[2], pos[3]]:
            return f
    return None


def crevice_cell(state: CatacombsState, pos: Pos) -> dict | None:
    for f in state.tile_of(pos).features:
        horizontal = f["type"] == "crevice" and f.get("orientation") == "horizontal"
        if horizontal and [pos[2], pos[3]] in f.get("cells", []) and not f.get("bridged"):
            return f
    return None


def vertical_crevice(state: CatacombsState, pos: Pos, side: str | None, nxt: Pos) -> dict | None:
    """The vertical crevice on the edge crossed from `pos` to `nxt`, if any."""
    if side is None:
        return None
    for here, s in ((pos, side), (nxt, _opposite(side))):
        for f in state.tile_of(here).features:
            if f["type"] == "crevice" and f.get("orientation") == "vertical" and f.get("side") == s:
                return f
    return None


OPPOSITE_SIDE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def _opposite(side: str) -> str:
    return {"north": "south", "south": "north", "east": "west", "west": "east"}[side]


def closed_door(state: CatacombsState, pos: Pos) -> dict | None:
    door = feature_at(state, pos, "door")
    if door is not None and not door.get("open"):
        return door
    return None


def obstacle_index(state: CatacombsState) -> tuple[dict[Pos, dict], dict[Pos, dict]]:
    """Door features and horizontal crevice features by cell (cached until a passage or
    tile changes)."""

    def build() -> tuple[dict, dict]:
        doors: dict[Pos, dict] = {}
        crevices: dict[Pos, dict] = {}
        for tx, ty, tile in laid(state.tiles):
            for f in tile.features:
                if f["type"] == "door" and f.get("cell"):
                    doors.setdefault((tx, ty, f["cell"][0], f["cell"][1]), f)
                elif f["type"] == "crevice" and f.get("orientation") == "horizontal":
                    for c, r in f.get("cells", []):
                        crevices.setdefault((tx, ty, c, r), f)
        return doors, crevices

    return _cached(state, "obstacles", build)


def _cached(state: CatacombsState, key: str, build) -> Any:
    """A per-state cache of layout-derived data, cleared by `state.touch_layout()`."""
    cache = state.layout_cache
    if key not in cache:
        cache[key] = build()
    return cache[key]


def steps_graph(state: CatacombsState) -> dict[Pos, list[tuple[Pos, str | None]]]:
    """Every floor cell's orthogonal steps (`Board.steps`)."""

    def build() -> dict:
        board = state.board
        graph = {}
        for tx, ty, tile in laid(state.tiles):
            for c, r in tile.floor_cells():
                pos = (tx, ty, c, r)
                graph[pos] = list(board.steps(pos))
        return graph

    return _cached(state, "steps", build)


def tile_laid(state: CatacombsState, slot: tuple[int, int]) -> None:
    """Update the cached step graph and frontier for a new tile and its neighbours only."""
    cache = state.layout_cache
    steps, edges, crawl = cache.get("steps"), cache.get("frontier"), cache.get("crawl")
    state.touch_layout("tiles")
    if steps is None or edges is None:
        return
    board = state.board
    touched = [slot, *board.adjacent_slots(slot)]
    for sx, sy in touched:
        tile = board.tile_at((sx, sy))
        # A neighbour changes only along its border, where it may now meet the new tile.
        cells = tile.floor_cells() if (sx, sy) == slot else tile.border_cells()
        for c, r in cells:
            pos = (sx, sy, c, r)
            steps[pos] = list(board.steps(pos))
            sides = board.open_sides(pos)
            if sides:
                edges[pos] = sides
            else:
                edges.pop(pos, None)
    state.layout_cache["steps"], state.layout_cache["frontier"] = steps, edges
    if crawl is not None:
        crawl.forget(set(touched))
        state.layout_cache["crawl"] = crawl


def frontier(state: CatacombsState) -> dict[Pos, list[str]]:
    """Cells on an exit that opens onto an empty place, with those sides."""

    def build() -> dict:
        board = state.board
        cells = {}
        for pos in steps_graph(state):
            sides = board.open_sides(pos)
            if sides:
                cells[pos] = sides
        return cells

    return _cached(state, "frontier", build)


def cell_traps(state: CatacombsState) -> dict[Pos, str]:
    """Open traps by cell."""

    def build() -> dict:
        traps = {}
        for tx, ty, tile in laid(state.tiles):
            for trap_id, c, r in tile.traps:
                traps[(tx, ty, c, r)] = trap_id
        return traps

    return _cached(state, "traps", build)


def visited_slots(state: CatacombsState) -> dict[tuple[int, int], bool]:
    """Whether a hero has stepped on each tile (the cache is cleared on a first step)."""

    def build() -> dict:
        out = {}
        for tx, ty, tile in laid(state.tiles):
            out[(tx, ty)] = tile.visited
        return out

    return _cached(state, "visited", build)


def blocked_cells(state: CatacombsState) -> frozenset[Pos]:
    """Cells no hero walks into: closed doors, horizontal crevices, jump-only traps."""

    def build() -> frozenset:
        out = set()
        for tx, ty, tile in laid(state.tiles):
            for f in tile.features:
                if f["type"] == "door" and not f.get("open") and f.get("cell"):
                    out.add((tx, ty, f["cell"][0], f["cell"][1]))
                elif (
                    f["type"] == "crevice"
                    and f.get("orientation") == "horizontal"
                    and not f.get("bridged")
                ):
                    out |= {(tx, ty, c, r) for c, r in f.get("cells", [])}
            for trap_id, c, r in tile.traps:
                trap = state.data.traps.get(trap_id)
                if trap is not None and trap.jumpable:
                    out.add((tx, ty, c, r))
        return frozenset(out)

    return _cached(state, "walk", build)


def squeeze_sides(state: CatacombsState) -> frozenset[tuple[int, int, str]]:
    """Tile edges with a vertical crevice: (tx, ty, side)."""

    def build() -> frozenset:
        out = set()
        for tx, ty, tile in laid(state.tiles):
            for f in tile.features:
                if f["type"] == "crevice" and f.get("orientation") == "vertical":
                    out.add((tx, ty, f.get("side")))
        return frozenset(out)

    return _cached(state, "squeeze", build)


def monster_at(state: CatacombsState, pos: Pos) -> bool:
    return any(p.on_map and p.pos == pos for p in state.pieces)


def neutralized(state: CatacombsState, hero: Hero, trap_id: str) -> bool:
    trap = state.data.traps.get(trap_id)
    return trap is not None and bool(set(trap.neutralized_by) & set(hero.items))


@rule("setup.speed")
def move_budget(state: CatacombsState, hero: Hero) -> int:
    return max(1, state.stat(hero, "speed"))


@rule("move.speed", "first-turn.stay", "traps.web", "traps.web-items", "traps.spikes-careful")
def reachable(state: CatacombsState, hero: Hero) -> dict[Pos, tuple[int, bool]]:
    return state.memo(_reachable_key(hero), lambda: _reachable(state, hero))


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
                    or (nxt[0], nxt[1], OPPOSITE_SIDE[side]) in squeezes
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

    return _cached(state, "stops", build)


def _stops_on(trap: Trap) -> bool:
    return bool(trap.stop_on_it or (trap.checks and not trap.poison_per_stop))


def _blocked(state: CatacombsState, pos: Pos) -> bool:
    return _static_blocked(state, pos) or monster_at(state, pos)


def _static_blocked(state: CatacombsState, pos: Pos) -> bool:
    if closed_door(state, pos) is not None or crevice_cell(state, pos) is not None:
        return True
    trap_id = state.tile_of(pos).trap_at(pos[2], pos[3])
    if trap_id is not None:
        trap = state.data.traps.get(trap_id)
        if trap is not None and trap.jumpable:
            return True
    return False


def can_move(hero: Hero) -> bool:
    return hero.active and hero.hidden == 0


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
        from engine.games.catacombs.exploration import move_and_explore

        return move_and_explore(state, hero, action)
    target = parse_pos(action.get("to"))
    found = state.memo_at_choice(_reachable_key(hero), lambda: _reachable(state, hero))
    squeezed = found[target][1]
    came_from = hero.pos
    hero.pos = target
    state.log(f"{hero.character} moves to {action.get('to')}")
    if squeezed:
        from engine.games.catacombs.crevices import squeeze_through

        squeeze_through(state, hero)
    arrive(state, hero, came_from)
    return 1


def arrive(state: CatacombsState, hero: Hero, came_from: Pos | None) -> None:
    """Effects of ending a move on a cell: a new tile wakes, traps fire, the artifact is taken."""
    from engine.games.catacombs.ending import pick_up_artifact
    from engine.games.catacombs.exploration import enter_tile
    from engine.games.catacombs.traps import stop_on_trap

    pos = hero.pos
    assert pos is not None
    tile = state.tile_of(pos)
    if not tile.visited:
        enter_tile(state, hero, tile)
    if hero.active:
        stop_on_trap(state, hero)
    if hero.active:
        pick_up_artifact(state, hero)
        from engine.games.catacombs.ending import pick_up_belongings

        pick_up_belongings(state, hero)
