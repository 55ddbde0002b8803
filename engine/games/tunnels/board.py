"""A board as a graph of squares: cells by index, their square kinds, neighbours and distances."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.core.api import ContentError
from engine.games.tunnels.data import Square, Tunnels, label_of, parse_label
from engine.games.tunnels.registry import rule


@dataclass(frozen=True)
class Cell:
    index: int
    col: int
    row: int
    square: Square

    @property
    def label(self) -> str:
        return label_of(self.col, self.row)


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    columns: int
    rows: int
    cells: tuple[Cell, ...]
    neighbours: tuple[tuple[int, ...], ...]
    _nearest: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict, compare=False,
                                                            hash=False, repr=False)

    def at(self, label: str) -> int:
        col, row = parse_label(label)
        for cell in self.cells:
            if (cell.col, cell.row) == (col, row):
                return cell.index
        raise ContentError(f"{self.id} has no square at {label}")

    def label(self, index: int) -> str:
        return self.cells[index].label

    def square(self, index: int) -> Square:
        return self.cells[index].square

    def of_square(self, square_id: str) -> tuple[int, ...]:
        return tuple(c.index for c in self.cells if c.square.id == square_id)

    def where(self, index: int) -> str:
        """A cell as the log names it: "C1 (hungry tunnels)"."""
        sq = self.cells[index].square
        return self.label(index) if not sq.special else f"{self.label(index)} ({sq.name.lower()})"

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """Steps between every pair of cells (a large number when unreachable)."""
        out = []
        for src in range(len(self.cells)):
            dist = [10_000] * len(self.cells)
            dist[src] = 0
            queue = deque([src])
            while queue:
                here = queue.popleft()
                for n in self.neighbours[here]:
                    if dist[n] > dist[here] + 1:
                        dist[n] = dist[here] + 1
                        queue.append(n)
            out.append(tuple(dist))
        return tuple(out)

    def distance(self, a: int, b: int) -> int:
        return self.distances[a][b]

    def to_nearest(self, targets: tuple[int, ...]) -> tuple[int, ...]:
        """Every cell's steps to the nearest of `targets` (computed once per target set)."""
        found = self._nearest.get(targets)
        if found is None:
            found = tuple(min((self.distances[c][t] for t in targets), default=10_000)
                          for c in range(len(self.cells)))
            self._nearest[targets] = found
        return found


@rule("base.board")
def build_board(data: Tunnels, board_id: str) -> Board:
    """Rows of symbols through the legend; rock is no square; squares touch orthogonally."""
    raw: Mapping[str, Any] = data.boards[board_id]
    legend = {entry["symbol"]: entry for entry in raw["legend"]}
    grid: dict[tuple[int, int], Square] = {}
    width = 0
    for row, line in enumerate(raw["rows"]):
        symbols = line.split()
        width = max(width, len(symbols))
        for col, symbol in enumerate(symbols):
            entry = legend.get(symbol)
            if entry is None:
                raise ContentError(f"{board_id}: the symbol {symbol!r} is not in the legend")
            if entry.get("rock"):
                continue
            grid[(col, row)] = data.squares[entry["square"]]
    order = sorted(grid, key=lambda cr: (cr[1], cr[0]))
    index = {cr: i for i, cr in enumerate(order)}
    cells = tuple(Cell(i, cr[0], cr[1], grid[cr]) for i, cr in enumerate(order))
    neighbours = tuple(
        tuple(sorted(index[(c + dc, r + dr)] for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0))
                     if (c + dc, r + dr) in index))
        for c, r in order)
    return Board(board_id, raw["name"], width, len(raw["rows"]), cells, neighbours)
