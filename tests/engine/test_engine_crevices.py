"""engine.crevice-geometry: a horizontal crevice cuts the way through a tile but never seals
one of its exits nor covers a hatch; a crevice filling a crossing is jumped round the corner."""

from __future__ import annotations

import pytest
from engine_support import arena, canonical_plain

from engine.games.catacombs.board import place, turn_cell
from engine.games.catacombs.crevices import jumps, landings
from engine.games.catacombs.data import from_plain
from engine.games.catacombs.exploration import _crevice_line

DATA = from_plain(canonical_plain())
SIDES = ("north", "east", "south", "west")
CREVICE_TILES = sorted(
    t.id for t in DATA.tiles.values()
    if any(icon == "crevice" and side is None for icon, _, side in t.icons)
)


def _crevice(tile_id: str, rotation: int):
    tile = DATA.tiles[tile_id]
    placed = place(tile, (1, 0), rotation)
    cell = next(c for icon, c, side in tile.icons if icon == "crevice" and side is None)
    return placed, list(turn_cell(cell, tile, rotation))


def test_the_pack_has_horizontal_crevices_to_check() -> None:
    assert "tile-cross-4" in CREVICE_TILES and len(CREVICE_TILES) >= 2


@pytest.mark.parametrize("rotation", range(4))
@pytest.mark.parametrize("tile_id", CREVICE_TILES)
def test_a_crevice_covers_no_exit_and_holds_its_icon_cell(tile_id: str, rotation: int) -> None:
    placed, where = _crevice(tile_id, rotation)
    cells = _crevice_line(placed, where, rotation)
    assert where in cells
    assert all(placed.floor(c, r) for c, r in cells)
    assert not [(c, r, s) for c, r in cells for s in SIDES if placed.on_edge(c, r, s)]


def test_at_a_crossing_the_crevice_is_its_cell_alone_and_is_jumped_round_the_corner() -> None:
    placed, where = _crevice("tile-cross-4", 0)
    cells = _crevice_line(placed, where, 0)
    assert cells == [where]
    c, r = where
    # from the cell west of it: straight across (east) and round both corners (north, south)
    assert landings(placed, cells, c - 1, r) == sorted([(c + 1, r), (c, r - 1), (c, r + 1)])


def test_a_crevice_never_takes_a_hatch_cell_and_is_not_laid_on_its_only_one() -> None:
    placed, where = _crevice("tile-cross-4", 0)
    placed.features.append({"uid": "h", "type": "ceiling-hatch", "cell": list(where)})
    assert _crevice_line(placed, where, 0) == []


def test_the_jump_actions_offer_every_landing() -> None:
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    placed, where = _crevice("tile-cross-4", 0)
    feature = {"uid": "x1", "type": "crevice", "orientation": "horizontal", "cell": where,
               "cells": [where], "depth": "deep"}
    placed.features.append(feature)
    state.tiles["1,0"] = placed
    state.touch_layout("tiles")
    hero.pos = (1, 0, where[0] - 1, where[1])
    lands = sorted(pos[2:] for f, pos in jumps(state, hero) if f is feature)
    c, r = where
    assert lands == sorted([(c + 1, r), (c, r - 1), (c, r + 1)])
