"""Labyrinth geometry: tiles on a grid of slots, rotation, cells, edges and path finding.

A position is `(tx, ty, c, r)`: the tile's slot and the cell's column and row inside the tile.
Tiles meet where both facing edges have exit cells; an exit cell leads to the facing tile's exit
cell with the nearest index.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.games.catacombs.data import SIDES, Tile
from engine.games.catacombs.registry import rule

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
