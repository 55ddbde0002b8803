"""Labyrinths: the tile piles they are built from, the cliff card at the table's edge, and
separate labyrinths reached through cliffs and floor hatches (with their paired ceiling
hatches)."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import (
    Placed,
    Pos,
    arrive,
    parse_pos,
    place,
    pos_key,
    slot_key,
    tile_laid,
)
from engine.games.catacombs.data import TABLE_EXTENT
from engine.games.catacombs.registry import actions_of, handles, rule
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import NewLabyrinth, TileDrawn

LABYRINTH_STRIDE = 100
"""Labyrinth n lies around slot (n * LABYRINTH_STRIDE, 0): far from every other one."""


def origin(labyrinth: int) -> tuple[int, int]:
    return (labyrinth * LABYRINTH_STRIDE, 0)


def labyrinth_of(slot: tuple[int, int]) -> int:
    return round(slot[0] / LABYRINTH_STRIDE)


def tile_pile(state: CatacombsState, hero: Hero | None) -> str:
    """The pile a hero draws from: the team's own pile in team play, else the common one."""
    if hero is not None and hero.team and f"tiles:{hero.team}" in state.pools:
        return f"tiles:{hero.team}"
    return "tiles"


@rule("table.final-tile-teams", "start.final-tile-bottom")
def draw_pile(state: CatacombsState, hero: Hero) -> str:
    """Where the hero's next tile comes from: their pile, and once it is empty the final tile
    (kept apart, beneath neither team's half: the first team to run out draws it)."""
    pile = tile_pile(state, hero)
    return pile if sum(state.pools.get(pile, {}).values()) else "final"


def tiles_left(state: CatacombsState, hero: Hero | None = None) -> bool:
    final = sum(state.pools["final"].values())
    if hero is None:
        piles = [p for name, p in state.pools.items() if name.startswith("tiles")]
        return final + sum(sum(p.values()) for p in piles) > 0
    return final + sum(state.pools.get(tile_pile(state, hero), {}).values()) > 0


@rule("move.cliff", "engine.table-edge")
def beyond_table(state: CatacombsState, slot: tuple[int, int]) -> bool:
    """The table holds TABLE_EXTENT tiles each way from a labyrinth's first tile."""
    ox, oy = origin(labyrinth_of(slot))
    return abs(slot[0] - ox) > TABLE_EXTENT or abs(slot[1] - oy) > TABLE_EXTENT


def cliff_tile(state: CatacombsState):
    return next((t for t in state.data.tiles.values() if t.type == "cliff"), None)


def lay_cliff(state: CatacombsState, hero: Hero, slot: tuple[int, int], side: str) -> None:
    """Where no tile fits, the cliff card is laid, its open edge towards the explorer."""
    tile = cliff_tile(state)
    if tile is None:
        return
    turns = next((r for r in range(4) if place(tile, slot, r).exits[side]), 0)
    placed = place(tile, slot, turns)
    placed.labyrinth = labyrinth_of(slot)
    placed.visited = True
    c, r = placed.center() if placed.floor(*placed.center()) else placed.floor_cells()[0]
    placed.features.append({"uid": f"f{state.uid()}", "type": "cliff", "cell": [c, r]})
    state.tiles[slot_key(slot)] = placed
    tile_laid(state, slot)
    state.log(f"{hero.character} reaches the table's edge: the cliff card is laid")


def ceiling_for(state: CatacombsState, mark: str) -> tuple[int, int, int, int] | None:
    for key, tile in state.tiles.items():
        for f in tile.features:
            if f["type"] == "ceiling-hatch" and f.get("mark") == mark and f.get("cell"):
                tx, ty = (int(v) for v in key.split(","))
                return (tx, ty, f["cell"][0], f["cell"][1])
    return None


def floor_for(state: CatacombsState, mark: str) -> tuple[int, int, int, int] | None:
    for key, tile in state.tiles.items():
        for f in tile.features:
            if f["type"] == "floor-hatch" and f.get("mark") == mark and f.get("cell"):
                tx, ty = (int(v) for v in key.split(","))
                return (tx, ty, f["cell"][0], f["cell"][1])
    return None


def descents(state: CatacombsState, hero: Hero) -> list[dict]:
    """Cliffs and floor hatches on the hero's tile."""
    return [f for f in state.tile_of(hero.pos).features if f["type"] in ("cliff", "floor-hatch")]


@actions_of
def labyrinth_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    out = []
    for f in descents(state, hero):
        known = landing(state, hero.pos[:2], f) is not None
        if known or tiles_left(state, hero):
            out.append(Action.of("descend", via=f["uid"]))
    tile = state.tile_of(hero.pos)
    for f in tile.features:
        if f.get("cell") != list(hero.pos[2:]):
            continue
        if f["type"] == "ceiling-hatch" and f.get("mark"):
            up = floor_for(state, f["mark"])
            if up is not None:
                out.append(Action.of("climb", to=pos_key(up)))
        elif f["type"] == CLIFF_FOOT:
            out.append(Action.of("climb", to=f["to"]))
    return out


@handles("descend")
@rule("hatches.floor", "hatches.separate", "engine.new-labyrinth")
def do_descend(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Down a cliff or a floor hatch: into the labyrinth its paired ceiling hatch lies in, or
    a new separate labyrinth whose first tile is drawn and laid anywhere free."""
    feature = next(f for f in descents(state, hero) if f["uid"] == action.get("via"))
    mark = feature.get("mark")
    below = landing(state, hero.pos[:2], feature)
    if below is not None:
        _land(state, hero, below)
        return 1
    number = 1 + max(t.labyrinth for t in state.tiles.values())
    pool = draw_pile(state, hero)
    state.log(f"{hero.character} climbs down into a new labyrinth")
    arrival = NewLabyrinth(number, mark)
    state.push(
        TileDrawn(pool=pool, seat=hero.seat, slot=origin(number), side=None, arrival=arrival)
    )
    return 1


def landing(state: CatacombsState, slot: tuple[int, int], feature: dict) -> Pos | None:
    """Where a descent already leads: a floor hatch to its paired ceiling hatch, a cliff to its
    foot (table.cliff-climb); None while it leads somewhere new."""
    if feature["type"] == "floor-hatch":
        return ceiling_for(state, feature.get("mark")) if feature.get("mark") else None
    if feature["type"] != "cliff" or not feature.get("cell"):
        return None
    top = pos_key((slot[0], slot[1], feature["cell"][0], feature["cell"][1]))
    for tile in state.tiles.values():
        for f in tile.features:
            if f["type"] == CLIFF_FOOT and f.get("to") == top:
                return (tile.slot[0], tile.slot[1], f["cell"][0], f["cell"][1])
    return None


def arrive_below(state: CatacombsState, hero: Hero, mark: str | None, placed: Placed) -> None:
    """The first tile of a new labyrinth: a ceiling hatch paired with the floor hatch the hero
    came down (none for a cliff) in its centre, and the hero standing there."""
    c, r = placed.center()
    if mark:
        placed.features.append(
            {"uid": f"f{state.uid()}", "type": "ceiling-hatch", "cell": [c, r], "mark": mark}
        )
    else:
        cliff_foot(state, hero, placed, (c, r))
    placed.visited = True
    state.touch_layout("visited")
    hero.pos = (placed.slot[0], placed.slot[1], c, r)


CLIFF_FOOT = "cliff-foot"
"""The feature at the centre of the first tile below a cliff: the way back up."""


@rule("table.cliff-climb")
def cliff_foot(state: CatacombsState, hero: Hero, placed: Placed, cell: tuple[int, int]) -> None:
    """Below a cliff the first tile's centre is the cliff's foot: from there a hero climbs
    back up to the cliff card (one action), so a labyrinth reached only by a cliff is never a
    dead end, not even for the artifact's carrier."""
    here = state.tile_of(hero.pos)
    cliff = next((f for f in here.features if f["type"] == "cliff" and f.get("cell")), None)
    if cliff is None:
        return
    top = (here.slot[0], here.slot[1], cliff["cell"][0], cliff["cell"][1])
    placed.features.append(
        {"uid": f"f{state.uid()}", "type": CLIFF_FOOT, "cell": list(cell), "to": pos_key(top)}
    )


@handles("climb")
@rule("hatches.pairs", "hatches.ceiling", "engine.climb-hatch", "table.cliff-climb")
def do_climb(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Up a ceiling hatch to its paired floor hatch, or up a cliff from its foot (one
    action)."""
    _land(state, hero, parse_pos(action.get("to")))
    return 1


def _land(state: CatacombsState, hero: Hero, pos: tuple[int, int, int, int]) -> None:
    hero.pos = tuple(pos)
    state.log(f"{hero.character} comes out at {pos_key(hero.pos)}")
    arrive(state, hero)


def open_descents(state: CatacombsState) -> bool:
    """Some cliff or floor hatch still leads somewhere new."""
    for tile in state.tiles.values():
        for f in tile.features:
            if f["type"] in ("cliff", "floor-hatch") and landing(state, tile.slot, f) is None:
                return True
    return False
