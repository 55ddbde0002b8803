"""engine.crevice-geometry: a horizontal crevice cuts the way through a tile but never seals
one of its exits nor covers a hatch; a crevice filling a crossing is jumped round the corner."""

from __future__ import annotations

import pytest
from engine_support import arena, canonical_plain, set_stat

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


def test_a_crevice_never_takes_the_cell_of_a_cliff_foot() -> None:
    """Below a cliff the hero who came down stands on the foot: no crevice there."""
    placed, where = _crevice("tile-cross-4", 0)
    placed.features.append(
        {"uid": "cf", "type": "cliff-foot", "cell": list(where), "to": "0,0,2,2"}
    )
    assert _crevice_line(placed, where, 0) == []


def _cut_off(state):
    """The hero beside a spiked crevice 2 wide in a crossing, too slow to jump it."""
    hero = state.heroes[0]
    placed, where = _crevice("tile-cross-4", 0)
    feature = {"uid": "x1", "type": "crevice", "orientation": "horizontal", "cell": where,
               "cells": [where], "depth": "spiked", "width": 2}
    placed.features.append(feature)
    state.tiles["1,0"] = placed
    state.touch_layout("tiles")
    hero.pos = (1, 0, where[0] - 1, where[1])
    hero.junk = 0
    for stat, value in (("speed", 1), ("dexterity", 2), ("luck", 3)):
        set_stat(state, hero, stat, value)
    state.seat, state.actions_left = hero.seat, 2
    state.refresh()
    assert not [a for a in state.legal_actions() if a.kind == "jump"]
    return hero


def test_a_hero_at_a_crevice_breaks_junk_off_its_edge_in_a_whole_turn() -> None:
    """table.cut-off (provisional): both actions at the edge give 1 junk from the supply."""
    from engine.core.api import Action
    from engine.games.catacombs.crevices import do_scrape, scrape_actions
    from engine.games.catacombs.state import JUNK, JUNK_POOL

    check = DATA.check("crevice-horizontal", "scrape")
    assert check is not None and check.actions == 2
    state = arena(DATA, players=1)
    hero = _cut_off(state)
    assert scrape_actions(state, hero) == [Action.of("scrape")]
    supply = state.pools[JUNK_POOL][JUNK]
    assert do_scrape(state, hero, Action.of("scrape")) == 2
    assert hero.junk == 1 and state.pools[JUNK_POOL][JUNK] == supply - 1
    assert scrape_actions(state, hero) == []  # junk in hand
    hero.junk = 0
    state.actions_left = 1
    assert scrape_actions(state, hero) == []  # not a whole turn left
    state.actions_left = 2
    state.pools[JUNK_POOL][JUNK] = 0
    assert scrape_actions(state, hero) == []  # the supply is empty
    state.pools[JUNK_POOL][JUNK] = supply
    hero.pos = (1, 0, *where_far(state))
    assert scrape_actions(state, hero) == []  # not beside the crevice


def where_far(state) -> tuple[int, int]:
    """A floor cell of the crossing not beside its crevice (the end of an arm)."""
    return 2, 0


def test_the_heuristic_bot_cut_off_breaks_stones_and_bridges_the_crevice() -> None:
    """With nothing else in reach the bot spends its turn at the edge, then builds."""
    from engine.games.catacombs.bots import HeuristicBot

    state = arena(DATA, players=1)
    hero = _cut_off(state)
    state.tiles = {"1,0": state.tiles["1,0"]}  # the crossing alone, no tile left to lay
    state.tiles["1,0"].features.append({"uid": "r1", "type": "rummaged"})
    for name in [n for n in state.pools if n.startswith("tiles") or n == "final"]:
        state.pools[name] = {}
    state.refresh()
    bot = HeuristicBot(1)
    assert bot.choose(state).kind == "scrape"
    hero.junk = 1
    state.refresh()
    assert bot.choose(state).kind == "build-bridge"
