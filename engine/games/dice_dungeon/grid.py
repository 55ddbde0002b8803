"""Exploration on the map: how a shape may be turned, where it may be painted, and a perft.

A placement is legal when (`placement_problem` says why not):
- every square is on the map, floor (obstacles, tombs, the start and room squares never are)
  and not yet painted;
- the shape shares exactly one square edge with the painted area (the start square counts as
  painted for contact, so the first shape shares one edge with it);
- apart from the two ends of that edge it meets the painted area at no corner.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.games.dice_dungeon.data import Cell, Grid, Rules, Shape, cell_name
from engine.games.dice_dungeon.registry import rule

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class Orientation:
    turn: int
    """Degrees clockwise (as drawn on the sheet)."""
    cells: tuple[Cell, ...]
    """Sorted, normalised so the smallest column and row are 0."""


@dataclass(frozen=True)
class Placement:
    x: int
    y: int
    turn: int
    cells: tuple[Cell, ...]

    def describe(self) -> str:
        return " ".join(cell_name(c) for c in self.cells)


def _normalise(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    lx, ly = min(x for x, _ in cells), min(y for _, y in cells)
    return tuple(sorted((x - lx, y - ly) for x, y in cells))


def _turned(cells: Sequence[Cell], degrees: int) -> tuple[Cell, ...]:
    out = list(cells)
    for _ in range((degrees // 90) % 4):
        out = [(-y, x) for x, y in out]  # 90 degrees clockwise with rows counted downwards
    return _normalise(out)


@rule("exploration.rotation", "exploration.turns")
def orientations(shape: Shape, rules: Rules) -> tuple[Orientation, ...]:
    """The distinct ways a shape may lie: the allowed turns (and flips when mirrors are allowed),
    each cell pattern once, under the smallest turn that gives it."""
    flips = [shape.cells] + ([[(-x, y) for x, y in shape.cells]] if rules.mirror else [])
    seen: dict[tuple[Cell, ...], Orientation] = {}
    for flip_index, cells in enumerate(flips):
        for turn in rules.turns:
            pattern = _turned(cells, turn)
            seen.setdefault(pattern, Orientation(turn + 360 * flip_index, pattern))
    return tuple(seen.values())


@rule("exploration.start", "exploration.start-contact")
def contact_area(grid: Grid, painted: frozenset[Cell] | set[Cell], rules: Rules) -> set[Cell]:
    """The squares a new shape must touch: the painted ones, and the start square."""
    area = set(painted)
    if rules.start_counts_as_painted:
        area |= grid.start
    return area


def _edge_ends(cell: Cell, other: Cell) -> tuple[Cell, Cell]:
    """The two corners (as lattice points) of the edge between two neighbouring squares."""
    (x, y), (ox, oy) = cell, other
    if ox != x:
        vx = max(x, ox)
        return ((vx, y), (vx, y + 1))
    vy = max(y, oy)
    return ((x, vy), (x + 1, vy))


@rule("exploration.edges", "exploration.corners", "exploration.unpainted", "exploration.contact",
      "exploration.corner-contact", "exploration.rooms")
def placement_problem(grid: Grid, painted: set[Cell] | frozenset[Cell], cells: Iterable[Cell],
                      rules: Rules) -> str | None:
    """Why a shape may not be painted on these squares (None when it may)."""
    cells = tuple(cells)
    area = contact_area(grid, painted, rules)
    for cell in cells:
        if not grid.inside(cell):
            return f"{cell} is off the map"
        if cell in painted:
            return f"{cell_name(cell)} is already painted"
        if cell not in grid.floor:
            return f"{cell_name(cell)} is not a floor square"
    mine = set(cells)
    edges = [(c, (c[0] + dx, c[1] + dy)) for c in cells for dx, dy in NEIGHBOURS
             if (c[0] + dx, c[1] + dy) in area]
    if len(edges) < rules.min_shared_edges:
        return "it touches no painted edge"
    if len(edges) > rules.max_shared_edges:
        return f"it shares {len(edges)} edges with the painted area"
    ends = {end for c, o in edges for end in _edge_ends(c, o)}
    for c in cells:
        for dx, dy in DIAGONALS:
            other = (c[0] + dx, c[1] + dy)
            if other in area and other not in mine:
                corner = (c[0] + (dx > 0), c[1] + (dy > 0))
                if corner not in ends:
                    return f"it touches {cell_name(other)} only at a corner"
    return None


def frontier(grid: Grid, painted: set[Cell] | frozenset[Cell], rules: Rules) -> set[Cell]:
    """Unpainted floor squares next to the contact area: every legal shape covers one of them."""
    area = contact_area(grid, painted, rules)
    return {(x + dx, y + dy) for x, y in area for dx, dy in NEIGHBOURS
            if (x + dx, y + dy) in grid.floor and (x + dx, y + dy) not in painted}


@lru_cache(maxsize=64)
def _orientations(shape: Shape, rules: Rules) -> tuple[Orientation, ...]:
    return orientations(shape, rules)


@dataclass(frozen=True)
class _Contacts:
    """An orientation's neighbourhood, relative to its origin: for every square next to the
    shape, the shape edges it shares (as their two end corners) and the corners it meets
    diagonally. Checking a placement then looks at these squares only."""

    cells: tuple[Cell, ...]
    around: tuple[Cell, ...]
    edges: dict[Cell, tuple[tuple[Cell, Cell], ...]]
    corners: dict[Cell, tuple[Cell, ...]]


@lru_cache(maxsize=256)
def _contacts(orient: Orientation) -> _Contacts:
    mine = set(orient.cells)
    edges: dict[Cell, list[tuple[Cell, Cell]]] = {}
    corners: dict[Cell, list[Cell]] = {}
    for cx, cy in orient.cells:
        for dx, dy in NEIGHBOURS:
            n = (cx + dx, cy + dy)
            if n not in mine:
                edges.setdefault(n, []).append(_edge_ends((cx, cy), n))
        for dx, dy in DIAGONALS:
            n = (cx + dx, cy + dy)
            if n not in mine:
                corners.setdefault(n, []).append((cx + (dx > 0), cy + (dy > 0)))
    around = tuple(sorted(set(edges) | set(corners)))
    return _Contacts(orient.cells, around, {k: tuple(v) for k, v in edges.items()},
                     {k: tuple(v) for k, v in corners.items()})


def _fits(c: _Contacts, x: int, y: int, free: frozenset[Cell] | set[Cell],
          area: set[Cell], rules: Rules) -> bool:
    """The fast form of `placement_problem(...) is None` (they must agree; a test checks)."""
    for cx, cy in c.cells:
        if (x + cx, y + cy) not in free:
            return False
    hits = [q for q in c.around if (x + q[0], y + q[1]) in area]
    shared = [e for q in hits for e in c.edges.get(q, ())]
    if not rules.min_shared_edges <= len(shared) <= rules.max_shared_edges:
        return False
    ends = {(x + vx, y + vy) for e in shared for vx, vy in e}
    return all((x + vx, y + vy) in ends for q in hits for vx, vy in c.corners.get(q, ()))


_CACHE: dict[tuple, tuple[Grid, list[Placement]]] = {}


@rule("exploration.shape")
def legal_placements(grid: Grid, painted: set[Cell] | frozenset[Cell], shape: Shape,
                     rules: Rules) -> list[Placement]:
    """Every legal placement of the shape, sorted by row, column and turn."""
    key = (id(grid), frozenset(painted), shape, rules)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is grid:
        return list(hit[1])
    found: dict[tuple[int, int, int], Placement] = {}
    area = contact_area(grid, painted, rules)
    free = grid.floor - set(painted)
    edge = sorted(frontier(grid, painted, rules))
    for orient in _orientations(shape, rules):
        contacts = _contacts(orient)
        for fx, fy in edge:
            for sx, sy in orient.cells:
                x, y = fx - sx, fy - sy
                k = (y, x, orient.turn)
                if k not in found and _fits(contacts, x, y, free, area, rules):
                    found[k] = Placement(x, y, orient.turn,
                                         tuple((x + cx, y + cy) for cx, cy in orient.cells))
    result = [found[k] for k in sorted(found)]
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[key] = (grid, result)
    return list(result)


def placement_at(shape: Shape, rules: Rules, x: int, y: int, turn: int) -> Placement | None:
    for orient in _orientations(shape, rules):
        if orient.turn == turn:
            return Placement(x, y, turn, tuple((x + cx, y + cy) for cx, cy in orient.cells))
    return None


def perft(grid: Grid, painted: frozenset[Cell], shapes: Sequence[Shape], rules: Rules) -> int:
    """Legal sequences of placements of `shapes` in order (like a chess perft)."""
    if not shapes:
        return 1
    moves = legal_placements(grid, painted, shapes[0], rules)
    if len(shapes) == 1:
        return len(moves)
    return sum(perft(grid, painted | set(m.cells), shapes[1:], rules) for m in moves)
