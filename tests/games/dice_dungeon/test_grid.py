"""Shape placement, exactly as decided: one shared square edge, no corner contact but at the
ends of that edge, the allowed turns (no mirror images), never on obstacles, tombs, the start or
rooms; and a perft of every shape from seeded positions of every adventure."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from dd_support import game

from engine.core.rng import Rng
from engine.core.testing import compare_golden
from engine.games.dice_dungeon.data import Grid
from engine.games.dice_dungeon.grid import (
    legal_placements,
    orientations,
    perft,
    placement_problem,
)

GOLDEN = Path(__file__).parent / "golden" / "perft.json"


def _grid(rows: list[str]) -> Grid:
    cells = {(x, y): c for y, row in enumerate(rows) for x, c in enumerate(row)}
    pick = lambda mark: frozenset(c for c, v in cells.items() if v == mark)  # noqa: E731
    return Grid(len(rows[0]), len(rows), pick("."), pick("S"), pick("#"), pick("T"), ())


RULES = game().data.rules
OPEN = _grid([".....", ".....", "..S..", ".....", "....."])


def test_the_first_shape_shares_one_edge_with_the_start() -> None:
    assert placement_problem(OPEN, set(), [(3, 2), (4, 2)], RULES) is None
    assert placement_problem(OPEN, set(), [(3, 1), (3, 2)], RULES) is None  # corner at an end
    assert "no painted edge" in placement_problem(OPEN, set(), [(3, 3), (4, 3)], RULES)
    assert "no painted edge" in placement_problem(OPEN, set(), [(0, 0), (1, 0)], RULES)


def test_a_shape_shares_at_most_one_edge() -> None:
    painted = {(3, 2), (3, 1)}
    assert "2 edges" in placement_problem(OPEN, painted, [(2, 1), (1, 1)], RULES)
    assert "2 edges" in placement_problem(OPEN, painted, [(4, 1), (4, 2)], RULES)
    assert placement_problem(OPEN, painted, [(4, 1), (4, 0)], RULES) is None  # ends only
    assert placement_problem(OPEN, painted, [(3, 0), (4, 0)], RULES) is None


def test_corner_contact_only_at_the_ends_of_the_shared_edge() -> None:
    painted = {(1, 0), (3, 2)}
    grid = _grid([".....", ".....", ".....", ".....", "....S"])
    assert "only at a corner" in placement_problem(grid, painted, [(1, 1), (2, 1)], RULES)
    assert placement_problem(grid, {(0, 0), (1, 0), (2, 0)}, [(1, 1), (1, 2)], RULES) is None


def test_obstacles_tombs_start_and_rooms_are_never_painted() -> None:
    grid = _grid(["#T...", "..S..", "....."])
    for cell in ((0, 0), (1, 0), (2, 1)):
        assert placement_problem(grid, set(), [cell, (cell[0], cell[1] + 1)], RULES) is not None
    spider = game().data.adventure("spider-caves").grid
    room = next(iter(spider.rooms[0].cells))
    assert "not a floor square" in placement_problem(spider, set(), [room], RULES)


def test_turns_are_the_four_quarter_turns_and_no_mirror_images() -> None:
    shapes = game().data.shapes
    assert RULES.turns == (0, 90, 180, 270) and not RULES.mirror
    assert [len(orientations(shapes[f], RULES)) for f in (2, 3, 4, 5, 6)] == [2, 4, 4, 4, 2]
    mirrored = dataclasses.replace(RULES, mirror=True)
    assert len(orientations(shapes[5], mirrored)) == 8  # the P pentomino and its mirror image
    half = dataclasses.replace(RULES, turns=(0, 90, 180))
    assert len(orientations(shapes[3], half)) == 3


def _positions() -> list[tuple[str, int, frozenset]]:
    """Seeded positions: from each adventure's start, k random legal placements."""
    data = game().data
    out = []
    for adventure in data.adventures:
        for k in (0, 3, 6, 10):
            rng, painted = Rng(1000 + k), frozenset()
            for _ in range(k):
                shape = data.shapes[2 + rng.below(5)]
                moves = legal_placements(adventure.grid, painted, shape, data.rules)
                if moves:
                    painted = painted | set(moves[rng.below(len(moves))].cells)
            out.append((adventure.id, k, painted))
    return out


def _brute(grid: Grid, painted: frozenset, shape) -> int:
    """Every turn at every offset of the map, checked by the rule's definition."""
    count = 0
    for orient in orientations(shape, RULES):
        for x in range(-6, grid.cols + 6):
            for y in range(-6, grid.rows + 6):
                cells = [(x + cx, y + cy) for cx, cy in orient.cells]
                count += placement_problem(grid, painted, cells, RULES) is None
    return count


def test_perft_of_every_shape_from_seeded_positions() -> None:
    data = game().data
    table = {}
    for ident, k, painted in _positions():
        grid = data.adventure(ident).grid
        row = {f"shape-{f}": len(legal_placements(grid, painted, s, RULES))
               for f, s in sorted(data.shapes.items())}
        row["2 then 6"] = perft(grid, painted, [data.shapes[2], data.shapes[6]], RULES)
        table[f"{ident} after {k}"] = row
    compare_golden(GOLDEN, json.dumps(table, indent=1, sort_keys=True) + "\n")


@pytest.mark.parametrize("k", [0, 6])
def test_perft_counts_agree_with_brute_force(k: int) -> None:
    data = game().data
    for ident, steps, painted in _positions():
        if steps != k:
            continue
        grid = data.adventure(ident).grid
        for shape in data.shapes.values():
            assert len(legal_placements(grid, painted, shape, RULES)) == _brute(
                grid, painted, shape), (ident, k, shape.id)
