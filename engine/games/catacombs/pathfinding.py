"""How monsters find their way: the obstacle matrix (what a door, a crevice, water, a bridge or
an open trap does to each kind of monster), shortest paths through it, creatures crawling
through walls, and the short searches that drive a seized hero."""

from __future__ import annotations

from collections import deque

from engine.games.catacombs.board import (
    DELTA,
    OPPOSITE,
    Pos,
    cached,
    cell_traps,
    obstacle_index,
    slot_key,
    squeeze_sides,
    steps_graph,
)
from engine.games.catacombs.data import MatrixCell
from engine.games.catacombs.registry import rule
from engine.games.catacombs.state import CatacombsState, Hero, Piece

SEARCH_LIMIT = 400


def matrix_cell(state: CatacombsState, piece: Piece, obstacle: str) -> MatrixCell | None:
    cell = state.data.matrix.get((piece.species, obstacle)) if piece.species else None
    if cell is None:
        cell = state.data.matrix.get((piece.monster, obstacle))
    if cell is None:
        return None
    if piece.controlled and cell.controlled is not None:
        return cell.controlled
    if piece.shield and cell.shielded is not None:
        return cell.shielded
    return cell


def obstacles(state: CatacombsState, pos: Pos, came: Pos, side: str | None) -> list[tuple]:
    """The obstacles met on entering `pos` from `came`: (name, width, feature)."""
    out = []
    doors, crevices = obstacle_index(state)
    door = doors.get(pos)
    if door is not None and not door.get("open"):
        token = state.data.tokens.get(door.get("card") or "")
        locked = bool(token and token.hidden.get("locked"))
        out.append(("locked-door" if locked else "door", 0, door))
    crevice = crevices.get(pos)
    if crevice is not None and not crevice.get("bridged"):
        name = "water" if crevice.get("depth") == "water" else "crevice-horizontal"
        if crevice.get("bridge", 0) > 0:
            name = "bridge"
        out.append((name, int(crevice.get("width") or 1), crevice))
    if side is not None:
        squeezes = squeeze_sides(state)
        if (came[0], came[1], side) in squeezes or (
            pos[0],
            pos[1],
            OPPOSITE[side],
        ) in squeezes:
            out.append(("crevice-vertical", 0, None))
    trap = cell_traps(state).get(pos)
    if trap is not None:
        out.append((trap, 0, None))
    return out


def obstacle_effect(state: CatacombsState, piece: Piece, name: str, width: int) -> str:
    cell = matrix_cell(state, piece, name)
    if cell is None:
        return "pass"
    if cell.max_width is not None and width > cell.max_width:
        return "blocked"
    return cell.effect


@rule(
    "monsters.matrix",
    "traps.web-monsters",
    "traps.spikes-monsters",
    "traps.cutter-monsters",
    "traps.darts-monsters",
    "traps.plant-monsters",
    "crevices.zombies",
    "crevices.bandits",
    "crevices.demon",
    "crevices.others",
    "crevices.vertical-monsters",
    "doors.zombie-door",
    "doors.locked-monsters",
    "doors.others",
)
def passable(state: CatacombsState, piece: Piece, pos: Pos, came: Pos, side: str | None) -> bool:
    doors, crevices = obstacle_index(state)
    if (
        pos not in doors
        and pos not in crevices
        and pos not in cell_traps(state)
        and (side is None or not squeeze_sides(state))
    ):
        return True
    return all(
        obstacle_effect(state, piece, name, width) != "blocked"
        for name, width, _ in obstacles(state, pos, came, side)
    )


def find_path(state: CatacombsState, piece: Piece, goals: set[Pos]) -> list[Pos] | None:
    """Shortest path (cells after the start) to a cell next to or on a goal, within the limit."""
    through_walls = "through-walls" in state.data.monsters[piece.monster].special
    graph = crawl_graph(state) if through_walls else steps_graph(state)
    start = piece.pos
    near = near_cells(state, goals)
    if start in near:
        return []
    doors, crevices = obstacle_index(state)
    hard = doors.keys() | crevices.keys() | cell_traps(state).keys()
    squeezes = bool(squeeze_sides(state))
    parent: dict[Pos, Pos | None] = {start: None}
    queue = deque([start])
    while queue and len(parent) < SEARCH_LIMIT:
        pos = queue.popleft()
        for nxt, side in graph.get(pos, ()):
            if nxt in parent:
                continue
            if (nxt in hard or (squeezes and side is not None)) and not passable(
                state, piece, nxt, pos, side
            ):
                continue
            parent[nxt] = pos
            if nxt in near:
                path = [nxt]
                while parent[path[-1]] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(nxt)
    return None


class CrawlGraph(dict):
    """The crawl graph, filled one tile at a time as paths reach it."""

    def __init__(self, state: CatacombsState):
        super().__init__()
        self.state = state

    def get(self, pos, default=None):  # type: ignore[override]
        if pos not in self:
            if slot_key((pos[0], pos[1])) not in self.state.tiles:
                return default
            self.update(crawl_cells(self.state, (pos[0], pos[1])))
        return dict.get(self, pos, default)

    def forget(self, slots) -> None:
        """Drop the entries of these tiles (they changed)."""
        for pos in [p for p in self if (p[0], p[1]) in slots]:
            del self[pos]

    def materialize(self) -> dict:
        for key in self.state.tiles:
            tx, ty = (int(v) for v in key.split(","))
            self.get((tx, ty, 0, 0))
        return dict(self)


@rule("venomous.walls")
def crawl_graph(state: CatacombsState) -> CrawlGraph:
    """Creatures that crawl through walls step into any cell of a laid tile (a wall costs a
    cell like any other) and across any edge two laid tiles share."""
    return cached(state, "crawl", lambda: CrawlGraph(state))


def crawl_cells(state: CatacombsState, slot: tuple[int, int]) -> dict:
    """The crawl graph's entries for every cell of one tile."""
    board = state.board
    tile = board.tile_at(slot)
    tx, ty = slot
    graph: dict[Pos, list[tuple[Pos, str | None]]] = {}
    for r in range(tile.rows):
        for c in range(tile.cols):
            out: list[tuple[Pos, str | None]] = []
            for dc, dr, side in (
                (0, -1, "north"),
                (1, 0, "east"),
                (0, 1, "south"),
                (-1, 0, "west"),
            ):
                nc, nr = c + dc, r + dr
                if 0 <= nc < tile.cols and 0 <= nr < tile.rows:
                    out.append(((tx, ty, nc, nr), None))
                    continue
                nslot = (tx + dc, ty + dr)
                there = board.tile_at(nslot)
                if there is None:
                    continue
                index = c if side in ("north", "south") else r
                limit = there.cols if side in ("north", "south") else there.rows
                facing = OPPOSITE[side]
                out.append(((*nslot, *there.edge_cell(facing, min(index, limit - 1))), side))
            graph[(tx, ty, c, r)] = out
    return graph


def near_cells(state: CatacombsState, goals: set[Pos]) -> set[Pos]:
    """The goals and every cell with a step onto one (where `near` holds): the goals' own
    neighbours and, across tile edges, every exit cell facing them."""
    graph = steps_graph(state)
    board = state.board
    near = set(goals)
    for goal in goals:
        candidates = [cand for cand, _ in graph.get(goal, ())]
        tile = state.tiles.get(slot_key((goal[0], goal[1])))
        for side in OPPOSITE:
            if tile is None or not tile.on_edge(goal[2], goal[3], side):
                continue
            slot = (goal[0] + DELTA[side][0], goal[1] + DELTA[side][1])
            there = board.tile_at(slot)
            if there is not None:
                facing = OPPOSITE[side]
                candidates += [(*slot, *there.edge_cell(facing, i)) for i in there.exits[facing]]
        for cand in candidates:
            if any(nxt in goals for nxt, _ in graph.get(cand, ())):
                near.add(cand)
    return near


def side_between(state: CatacombsState, a: Pos, b: Pos) -> str | None:
    for nxt, side in steps_graph(state).get(a, ()):
        if nxt == b:
            return side
    return None


def nearest_trap(state: CatacombsState, hero: Hero) -> Pos | None:
    """The closest open-trap cell within the hero's speed (walking, traps count as floor)."""
    traps = cell_traps(state)
    if not traps:
        return None
    graph = steps_graph(state)
    limit = max(1, state.stat(hero, "speed"))
    seen = {hero.pos: 0}
    queue = deque([hero.pos])
    while queue:
        pos = queue.popleft()
        if pos in traps and pos != hero.pos:
            return pos
        if seen[pos] >= limit:
            continue
        for nxt, _ in graph.get(pos, ()):
            if nxt not in seen:
                seen[nxt] = seen[pos] + 1
                queue.append(nxt)
    return None


def step_towards(state: CatacombsState, start: Pos, goal: Pos) -> Pos | None:
    graph = steps_graph(state)
    parent: dict[Pos, Pos | None] = {goal: None}
    queue = deque([goal])
    while queue and len(parent) < SEARCH_LIMIT:
        pos = queue.popleft()
        for nxt, _ in graph.get(pos, ()):
            if nxt not in parent:
                parent[nxt] = pos
                if nxt == start:
                    step = pos
                    return step if step != goal else None
                queue.append(nxt)
    return None
