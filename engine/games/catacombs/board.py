"""The board: positions, tiles on a grid of slots, the steps between cells, and arrival.

A position is `(tx, ty, c, r)`: the tile's slot and the cell's column and row inside the tile
(`pos_key` writes it `"tx,ty,c,r"` in actions, `parse_pos` reads it back). Tiles meet where
both facing edges have exit cells; an exit cell leads to the facing tile's exit cell with the
nearest index.

Three layers, each built on the one before:
- geometry without a state: `Placed` (a tile laid and turned), `place`, `Board.steps`;
- the layout of a state, cached in `state.layout_cache` until a tile, a door or a crevice
  changes (`state.touch_layout`): the step graph, the frontier of open edges, open traps,
  doors and crevices by cell, the cells no hero walks into;
- `arrive`: what ending a move on a cell sets off, through the rules modules' arrival stages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.games.catacombs import registry
from engine.games.catacombs.data import SIDES, Tile
from engine.games.catacombs.registry import rule

if TYPE_CHECKING:  # annotations only: the state is built on the board, not the other way
    from engine.games.catacombs.state import CatacombsState, Hero

Pos = tuple[int, int, int, int]
Slot = tuple[int, int]

DELTA = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
STEPS = ((0, -1, "north"), (1, 0, "east"), (0, 1, "south"), (-1, 0, "west"))


def slot_key(slot: Slot) -> str:
    return f"{slot[0]},{slot[1]}"


def parse_slot(key: str) -> Slot:
    x, y = key.split(",")
    return (int(x), int(y))


@lru_cache(maxsize=8192)
def pos_key(pos: Pos) -> str:
    return f"{pos[0]},{pos[1]},{pos[2]},{pos[3]}"


@lru_cache(maxsize=8192)
def parse_pos(text: str) -> Pos:
    a, b, c, d = (int(v) for v in text.split(","))
    return (a, b, c, d)


@dataclass
class Placed:
    """A tile on the table, already rotated; `features` are its tokens, cards and markers."""

    tile: str
    slot: list[int]
    rotation: int
    cols: int
    rows: int
    layout: list[str]
    exits: dict[str, list[int]]
    features: list[dict[str, Any]] = field(default_factory=list)
    traps: list[list[Any]] = field(default_factory=list)
    visited: bool = False
    labyrinth: int = 0

    def floor(self, c: int, r: int) -> bool:
        return 0 <= c < self.cols and 0 <= r < self.rows and self.layout[r][c] != "#"

    def on_edge(self, c: int, r: int, side: str) -> bool:
        if side == "north":
            return r == 0 and c in self.exits["north"]
        if side == "south":
            return r == self.rows - 1 and c in self.exits["south"]
        if side == "west":
            return c == 0 and r in self.exits["west"]
        return c == self.cols - 1 and r in self.exits["east"]

    def edge_cell(self, side: str, index: int) -> tuple[int, int]:
        if side == "north":
            return (index, 0)
        if side == "south":
            return (index, self.rows - 1)
        if side == "west":
            return (0, index)
        return (self.cols - 1, index)

    def trap_at(self, c: int, r: int) -> str | None:
        for trap_id, tc, tr in self.traps:
            if tc == c and tr == r:
                return trap_id
        return None

    def center(self) -> tuple[int, int]:
        c, r = self.cols // 2, self.rows // 2
        if self.floor(c, r):
            return (c, r)
        cells = sorted(
            (abs(x - c) + abs(y - r), x, y)
            for y in range(self.rows)
            for x in range(self.cols)
            if self.floor(x, y)
        )
        return (cells[0][1], cells[0][2])

    def floor_cells(self) -> list[tuple[int, int]]:
        return [(c, r) for r in range(self.rows) for c in range(self.cols) if self.floor(c, r)]

    def border_cells(self) -> list[tuple[int, int]]:
        """Floor cells on the tile's outer ring (the only ones with steps to other tiles)."""
        last_c, last_r = self.cols - 1, self.rows - 1
        return [(c, r) for c, r in self.floor_cells() if c in (0, last_c) or r in (0, last_r)]


def laid(tiles: dict[str, Placed]) -> Iterator[tuple[int, int, Placed]]:
    """Every tile on the table with its slot: `(tx, ty, tile)`, in the order of `tiles`."""
    for tile in tiles.values():
        yield tile.slot[0], tile.slot[1], tile


def rotate_cell(c: int, r: int, rows: int) -> tuple[int, int]:
    """One clockwise quarter turn of a cell in a grid with `rows` rows."""
    return (rows - 1 - r, c)


def place(tile: Tile, slot: Slot, rotation: int) -> Placed:
    """The tile turned `rotation` quarter turns clockwise, laid in `slot`."""
    turns = rotation % 4
    if turns not in tile.turned:
        tile.turned[turns] = _turn(tile, turns)
    cols, rows, layout, exits = tile.turned[turns]
    return Placed(
        tile.id,
        [slot[0], slot[1]],
        turns,
        cols,
        rows,
        list(layout),
        {side: list(cells) for side, cells in exits.items()},
    )


def _turn(tile: Tile, turns: int) -> tuple[int, int, list[str], dict[str, list[int]]]:
    layout = list(tile.layout) or ["." * tile.cols] * tile.rows
    cols, rows = tile.cols, tile.rows
    exits = {s: list(tile.exits.get(s, ())) for s in SIDES}
    for _ in range(turns):
        layout = ["".join(layout[rows - 1 - r][c] for r in range(rows)) for c in range(cols)]
        exits = {
            "east": exits["north"],
            "south": sorted(rows - 1 - r for r in exits["east"]),
            "west": exits["south"],
            "north": sorted(rows - 1 - r for r in exits["west"]),
        }
        cols, rows = rows, cols
    return cols, rows, layout, exits


def turn_cell(cell: tuple[int, int], tile: Tile, rotation: int) -> tuple[int, int]:
    c, r = cell
    rows, cols = tile.rows, tile.cols
    for _ in range(rotation % 4):
        c, r = rotate_cell(c, r, rows)
        rows, cols = cols, rows
    return (c, r)


def turn_side(side: str, rotation: int) -> str:
    return SIDES[(SIDES.index(side) + rotation) % 4]


def neighbour_slot(slot: Slot, side: str) -> Slot:
    dx, dy = DELTA[side]
    return (slot[0] + dx, slot[1] + dy)


def nearest(values: list[int], target: int) -> int:
    return min(values, key=lambda v: (abs(v - target), v))


class Board:
    """Read-only geometry over the placed tiles of a state."""

    def __init__(self, tiles: dict[str, Placed]):
        self.tiles = tiles

    def tile_at(self, slot: Slot) -> Placed | None:
        return self.tiles.get(slot_key(slot))

    def crossing(self, pos: Pos, side: str) -> Pos | None:
        """The cell beyond the tile edge at `side` of `pos`, if both tiles open there."""
        tx, ty, c, r = pos
        here = self.tiles[slot_key((tx, ty))]
        if not here.on_edge(c, r, side):
            return None
        nslot = neighbour_slot((tx, ty), side)
        there = self.tile_at(nslot)
        if there is None:
            return None
        facing = OPPOSITE[side]
        options = there.exits[facing]
        if not options:
            return None
        index = c if side in ("north", "south") else r
        nc, nr = there.edge_cell(facing, nearest(options, index))
        return (nslot[0], nslot[1], nc, nr)

    @rule("engine.board")
    def steps(self, pos: Pos) -> Iterator[tuple[Pos, str | None]]:
        """Orthogonal steps from `pos`: (next cell, side crossed or None inside the tile)."""
        tx, ty, c, r = pos
        here = self.tiles[slot_key((tx, ty))]
        for dc, dr, side in STEPS:
            nc, nr = c + dc, r + dr
            if 0 <= nc < here.cols and 0 <= nr < here.rows:
                if here.floor(nc, nr):
                    yield (tx, ty, nc, nr), None
            else:
                beyond = self.crossing(pos, side)
                if beyond is not None:
                    yield beyond, side

    def open_sides(self, pos: Pos) -> list[str]:
        """Sides at `pos` that open onto an empty slot (where a new tile can be laid)."""
        tx, ty, c, r = pos
        here = self.tiles[slot_key((tx, ty))]
        return [
            side
            for side in SIDES
            if here.on_edge(c, r, side) and self.tile_at(neighbour_slot((tx, ty), side)) is None
        ]

    def tile_sides_open(self, slot: Slot) -> list[str]:
        here = self.tiles[slot_key(slot)]
        return [s for s in SIDES if here.exits[s] and self.tile_at(neighbour_slot(slot, s)) is None]

    def adjacent_slots(self, slot: Slot) -> list[Slot]:
        return [neighbour_slot(slot, s) for s in SIDES if self.tile_at(neighbour_slot(slot, s))]


# ----- the layout of a state (cached until it changes) ------------------------------------------
def cached(state: CatacombsState, key: str, build: Callable[[], Any]) -> Any:
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

    return cached(state, "steps", build)


def tile_laid(state: CatacombsState, slot: Slot) -> None:
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

    return cached(state, "frontier", build)


def cell_traps(state: CatacombsState) -> dict[Pos, str]:
    """Open traps by cell."""

    def build() -> dict:
        traps = {}
        for tx, ty, tile in laid(state.tiles):
            for trap_id, c, r in tile.traps:
                traps[(tx, ty, c, r)] = trap_id
        return traps

    return cached(state, "traps", build)


def visited_slots(state: CatacombsState) -> dict[Slot, bool]:
    """Whether a hero has stepped on each tile (the cache is cleared on a first step)."""

    def build() -> dict:
        out = {}
        for tx, ty, tile in laid(state.tiles):
            out[(tx, ty)] = tile.visited
        return out

    return cached(state, "visited", build)


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

    return cached(state, "obstacles", build)


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

    return cached(state, "walk", build)


def squeeze_sides(state: CatacombsState) -> frozenset[tuple[int, int, str]]:
    """Tile edges with a vertical crevice: (tx, ty, side)."""

    def build() -> frozenset:
        out = set()
        for tx, ty, tile in laid(state.tiles):
            for f in tile.features:
                if f["type"] == "crevice" and f.get("orientation") == "vertical":
                    out.add((tx, ty, f.get("side")))
        return frozenset(out)

    return cached(state, "squeeze", build)


# ----- what stands on a cell ---------------------------------------------------------------------
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


def closed_door(state: CatacombsState, pos: Pos) -> dict | None:
    door = feature_at(state, pos, "door")
    if door is not None and not door.get("open"):
        return door
    return None


def monster_at(state: CatacombsState, pos: Pos) -> bool:
    return any(p.on_map and p.pos == pos for p in state.pieces)


def blocked_at(state: CatacombsState, pos: Pos) -> bool:
    """No hero can stand on the cell: a closed door, a horizontal crevice, a jump-only trap or
    an awake monster is there."""
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


def next_to(state: CatacombsState, pos: Pos, goals: set[Pos]) -> bool:
    """`pos` is one of the goals or one step from one."""
    if pos in goals:
        return True
    return any(nxt in goals for nxt, _ in steps_graph(state).get(pos, ()))


def adjacent_tile(a: Pos, b: Pos) -> bool:
    """The two cells lie on tiles side by side."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


@rule("table.within-sight")
def in_sight(state: CatacombsState, a: Pos, b: Pos) -> bool:
    """"Within sight": on the same tile, or on tiles side by side that an open passage joins
    (exit cells meeting across the shared edge, with no closed door on either cell)."""
    if a[:2] == b[:2]:
        return True
    if not adjacent_tile(a, b):
        return False
    there = (b[0], b[1])
    graph = steps_graph(state)
    for c, r in state.tile_of(a).border_cells():
        pos = (a[0], a[1], c, r)
        for nxt, side in graph.get(pos, ()):
            if side is None or nxt[:2] != there:
                continue
            if closed_door(state, pos) is None and closed_door(state, nxt) is None:
                return True
    return False


# ----- arrival -----------------------------------------------------------------------------------
def arrive(state: CatacombsState, hero: Hero) -> None:
    """Effects of ending a move on a cell, in this order: the first step on a tile wakes it
    (`exploration.enter_tile`), an open trap takes effect (`traps.stop_on_trap`), the artifact
    and a dead hero's belongings are picked up (`ending`), a stash card left face up is taken
    by a hero who may (`search.take_revealed_stash`)."""
    pos = hero.pos
    assert pos is not None
    tile = state.tile_of(pos)
    if not tile.visited:
        registry.ARRIVALS["first-step"](state, hero, tile)
    if hero.active:
        registry.ARRIVALS["trap"](state, hero)
    if hero.active:
        registry.ARRIVALS["artifact"](state, hero)
        registry.ARRIVALS["belongings"](state, hero)
        registry.ARRIVALS["stash"](state, hero)
