"""Exploration: stopping at an unexplored edge, drawing, turning and laying a tile, its icons,
the event card, far-seeing explorers, and what wakes when a hero first steps on a tile."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import (
    OPPOSITE,
    Placed,
    frontier,
    neighbour_slot,
    parse_pos,
    place,
    pos_key,
    slot_key,
    tile_laid,
    turn_cell,
)
from engine.games.catacombs.board import turn_side as rotate_side
from engine.games.catacombs.checks_util import apply_outcome
from engine.games.catacombs.controlled import spring_lairs
from engine.games.catacombs.data import Card, Tile
from engine.games.catacombs.labyrinths import (
    CLIFF_FOOT,
    arrive_below,
    beyond_table,
    draw_pile,
    floor_for,
    labyrinth_of,
    lay_cliff,
    tiles_left,
)
from engine.games.catacombs.monsters import spawn
from engine.games.catacombs.reach import can_move, reachable
from engine.games.catacombs.registry import actions_of, handles, on_arrival, options, rule, task
from engine.games.catacombs.search import open_stash
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import (
    EventCard,
    EventOffer,
    IconDrawn,
    PassageStash,
    RotateTile,
    TileDrawn,
)
from engine.games.catacombs.traps import spring_hidden_trap


@rule("engine.scouts", "table.scout")
def far_seeing(state: CatacombsState, hero: Hero) -> bool:
    """Lanterns, night-vision goggles, far-seeing characters, and scouts or drones (engine
    assumption: a scout device opens a neighbouring tile like a far-seeing explorer)."""
    if state.data.characters[hero.character].has("far-seeing"):
        return True
    items = [state.data.items[i] for i in hero.items if i in state.data.items]
    return any(i.far_seeing or i.scout for i in items)


@actions_of
def explore_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """Walk to an open edge and lay a new tile there (one action), or explore from afar."""
    if not can_move(hero) or state.round == 1 or not tiles_left(state, hero):
        return []
    board = state.board
    edges = frontier(state)
    out = [Action.of("explore", side=s) for s in edges.get(hero.pos, ())]
    for pos in sorted(p for p in reachable(state, hero) if p in edges):
        if not state.tile_of(pos).visited:
            continue
        for side in edges[pos]:
            out.append(Action.of("move", to=pos_key(pos), explore=side))
    if far_seeing(state, hero):
        slot = (hero.pos[0], hero.pos[1])
        for side in board.tile_sides_open(slot):
            out.append(Action.of("far-explore", side=side))
    return out


@handles("explore")
def do_explore(state: CatacombsState, hero: Hero, action: Action) -> int:
    start_exploring(state, hero, (hero.pos[0], hero.pos[1]), action.get("side"))
    return 1


@handles("far-explore")
@rule("move.far-seeing", "first-turn.no-far-seeing")
def do_far_explore(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Lanterns, night-vision goggles and far-seeing characters open a tile from anywhere on
    their own tile for one action."""
    start_exploring(state, hero, (hero.pos[0], hero.pos[1]), action.get("side"))
    return far_seeing_cost(state)


def far_seeing_cost(state: CatacombsState) -> int:
    """The far-seeing rule's action cost (the rule that names far-seeing items)."""
    entry = state.data.far_seeing_rule
    return entry.actions if entry is not None and entry.actions is not None else 1


def move_and_explore(state: CatacombsState, hero: Hero, action: Action) -> int:
    hero.pos = parse_pos(action.get("to"))
    state.log(f"{hero.character} walks to the edge at {action.get('to')}")
    start_exploring(state, hero, (hero.pos[0], hero.pos[1]), action.get("explore"))
    return 1


@rule("move.stop-at-edge", "start.final-tile-bottom", "first-turn.closed")
def start_exploring(state: CatacombsState, hero: Hero, slot: tuple[int, int], side: str) -> None:
    """The hero stops at the edge, loses the remaining steps and draws a tile (the final tile
    lies at the bottom of the pile)."""
    target = neighbour_slot(slot, side)
    if beyond_table(state, target):
        lay_cliff(state, hero, target, OPPOSITE[side])
        return
    pool = draw_pile(state, hero)
    state.push(TileDrawn(pool=pool, seat=hero.seat, slot=target, side=OPPOSITE[side]))


@task(TileDrawn)
def tile_drawn(state: CatacombsState, t: TileDrawn, card: str) -> None:
    state.push(RotateTile(seat=t.seat, tile=card, slot=t.slot, side=t.side, arrival=t.arrival,
                          passage=t.passage))


@options(RotateTile)
@rule("engine.tile-rotation")
def rotate_options(state: CatacombsState, t: RotateTile) -> list[Action]:
    """Turns that join the new tile to the edge the hero stands at (all four if none does)."""
    tile = state.data.tiles[t.tile]
    if t.side is None:
        return [Action.of("rotate", turns=r) for r in range(4)]
    good = [r for r in range(4) if place(tile, t.slot, r).exits[t.side]]
    return [Action.of("rotate", turns=r) for r in (good or range(4))]


@task(RotateTile)
@rule("move.attach")
def lay_tile(state: CatacombsState, t: RotateTile, action: Action) -> None:
    """Lay the tile turned as chosen (it may never turn again), put out its icons, then the
    explorer draws an event card."""
    tile = state.data.tiles[t.tile]
    rotation = int(action.get("turns"))
    placed = place(tile, t.slot, rotation)
    state.tiles[slot_key(t.slot)] = placed
    tile_laid(state, t.slot)
    placed.labyrinth = labyrinth_of(t.slot)
    state.log(f"tile {tile.id} laid at {slot_key(t.slot)} turned {rotation}"
              + (" behind the hidden passage" if t.passage else ""))
    if t.arrival is not None:
        arrive_below(state, state.heroes[t.seat], t.arrival.mark, placed)
    if t.passage:
        lay_out_icons(state, placed, tile, rotation, event=False, seat=t.seat)
        if sum(state.pools.get("stash", {}).values()) > 0:
            state.push(PassageStash(pool="stash", seat=t.seat, slot=t.slot))
        return
    lay_out_icons(state, placed, tile, rotation, event=True, seat=t.seat)


ICON_POOLS = {
    "monster": "monster",
    "cache": "token:cache",
    "trap": "hidden-trap",
    "stash": "stash",
    "statue": "token:statue",
    "door": "token:door",
    "lever": "token:lever",
    "floor-hatch": "token:floor-hatch",
}


@rule(
    "move.icons",
    "move.monster-face-down",
    "first-turn.no-event",
    "crevices.kinds",
    "crevices.vertical-edge",
    "crevices.horizontal",
    "depth.kinds",
    "move.icon-monster",
    "move.icon-cache",
    "move.icon-looted",
    "move.icon-trap",
    "move.icon-stash",
    "move.icon-crevice",
    "move.icon-shelter",
    "move.icon-statue",
    "move.icon-door",
    "move.icon-sarcophagus",
)
def lay_out_icons(
    state: CatacombsState, placed: Placed, tile: Tile, rotation: int, event: bool, seat: int = 0
) -> None:
    """Every icon on the tile gets its card or token; open traps are printed on the tile."""
    for trap_id, cell in tile.open_traps:
        c, r = turn_cell(cell, tile, rotation)
        placed.traps.append([trap_id, c, r])
        state.layout_cache.pop("traps", None)
        state.layout_cache.pop("walk", None)
    slot = (placed.slot[0], placed.slot[1])
    for icon, cell, side in tile.icons:
        where = list(turn_cell(cell, tile, rotation)) if cell is not None else None
        feature = {"type": icon, "cell": where}
        if side is not None:
            feature["side"] = rotate_side(side, rotation)
        if icon == "crevice":
            orientation = "vertical" if side is not None else "horizontal"
            feature["orientation"] = orientation
            if orientation == "horizontal" and where is not None:
                feature["cells"] = _crevice_line(placed, where, rotation)
                if not feature["cells"]:
                    continue  # the hatch stands where the crevice would be
            pool = f"token:crevice-{orientation}"
        else:
            pool = ICON_POOLS.get(icon)
        if pool is not None and state.stocked(pool):
            state.push(IconDrawn(pool=pool, slot=slot, feature=feature), front=event)
        elif pool is None or icon in ("crevice", "door"):
            _add_feature(state, slot, feature, None)
    if event and state.stocked("event"):
        state.push(EventCard(pool="event", seat=seat))


def _crevice_line(placed: Placed, cell: list[int], rotation: int) -> list[list[int]]:
    """Engine assumption: a horizontal crevice runs across the tile through its cell, along
    the row or the column of floor cells that holds fewer of the tile's exits (so it cuts the
    way through rather than lying along it); where that line still holds an exit, the crevice
    is its own cell alone; never a hatch's or a cliff foot's cell (none at all when one stands
    on it)."""
    c, r = cell

    def run(dc: int, dr: int) -> list[list[int]]:
        cells = [[c, r]]
        for sign in (1, -1):
            x, y = c + sign * dc, r + sign * dr
            while placed.floor(x, y):
                cells.append([x, y])
                x, y = x + sign * dc, y + sign * dr
        return sorted(cells)

    def exits_in(cells: list[list[int]]) -> int:
        return sum(
            1
            for x, y in cells
            for side in ("north", "east", "south", "west")
            if placed.on_edge(x, y, side)
        )

    row, column = run(1, 0), run(0, 1)
    line = min((row, column), key=lambda cells: (exits_in(cells), len(cells)))
    # At a crossing both lines run through exits: the crevice fills the crossing alone, so it
    # never seals an exit (a tile laid beyond one would be out of everyone's reach). Nor does
    # it swallow a hatch (the entrance in the first tile's centre) or a cliff's foot (the first
    # tile below a cliff: the hero who came down stood in the crevice).
    cells = line if not exits_in(line) else [[c, r]]
    hatches = [f.get("cell") for f in placed.features if f["type"] in HATCHES]
    return [cell for cell in cells if cell not in hatches]


HATCHES = ("ceiling-hatch", "floor-hatch", CLIFF_FOOT)
"""Features whose cell a horizontal crevice never covers."""


def _add_feature(
    state: CatacombsState, slot: tuple[int, int], feature: dict, card: str | None
) -> None:
    feature = dict(feature)
    feature["uid"] = f"f{state.uid()}"
    if card is not None:
        feature["card"] = card
        token = state.data.tokens.get(card)
        if token is not None and token.mark:
            feature["mark"] = token.mark
        if token is not None and feature["type"] == "crevice":
            feature["depth"] = token.depth
            feature["width"] = token.width
    state.tiles[slot_key(slot)].features.append(feature)
    if feature["type"] in ("door", "crevice"):
        state.touch_layout("passage")


@task(IconDrawn)
def icon_drawn(state: CatacombsState, t: IconDrawn, card: str) -> None:
    feature = t.feature
    if feature["type"] == "monster":
        cell = feature["cell"] or list(state.tiles[slot_key(t.slot)].center())
        spawn(state, card, (t.slot[0], t.slot[1], cell[0], cell[1]), awake=False)
        return
    _add_feature(state, t.slot, feature, card)


@task(EventCard)
@rule("move.event", "table.intrigue-draw")
def event_card(state: CatacombsState, t: EventCard, card: str) -> None:
    """The explorer reads the event card and does what it says, to whom it says: the explorer,
    every hero on the tile or every hero. A reward with a cost is each one's choice."""
    hero = state.heroes[t.seat]
    c = state.data.cards.get(card)
    state.log(f"{hero.character} draws event {card}")
    state.discard(card)
    if c is None or not hero.active:
        return
    for target in event_heroes(state, hero, c.who):
        if c.has_outcome:
            apply_outcome(state, target, c.outcome, f"event {card}")
        if c.has_reward and target.active and _may_take(state, target, c):
            if c.cost_treasures:
                state.push(EventOffer(seat=target.seat, card=card))
            else:
                state.gain(target, c.reward, f"event {card}")
    if c.flood_after:
        start_flood(state, hero, c)
    if c.monster and hero.active and c.monster in state.data.monsters:
        spawn(state, c.monster, hero.pos, awake=True, meet=True)


@rule("hatches.ceiling", "engine.flood", "table.rising-water")
def start_flood(state: CatacombsState, explorer: Hero, card: Card) -> None:
    """The explorer's separate labyrinth starts to flood if a ceiling hatch in it leads out to
    another labyrinth: `after_turns` rounds later the water is up and every hero still in it
    loses `health_per_turn` at the start of each turn; `lasts_turns` rounds after that the water
    falls again (turn.recede_floods). With no way out the water drains away at once."""
    if explorer.pos is None:
        return
    number = state.tile_of(explorer.pos).labyrinth
    labyrinth = str(number)
    if labyrinth in state.floods:
        return
    if not way_out(state, number):
        state.log(f"water seeps into labyrinth {labyrinth} and drains away")
        return
    up = state.round + card.flood_after
    down = up + card.flood_lasts if card.flood_lasts else 0
    state.floods[labyrinth] = [up, card.flood_health, down]
    state.log(f"labyrinth {labyrinth} starts to flood (the water is up in round "
              f"{state.round + card.flood_after})")


def way_out(state: CatacombsState, labyrinth: int) -> bool:
    """A ceiling hatch of this labyrinth whose paired floor hatch is on the table."""
    return any(
        f["type"] == "ceiling-hatch" and f.get("mark") and floor_for(state, f["mark"])
        for tile in state.tiles.values()
        if tile.labyrinth == labyrinth
        for f in tile.features
    )


def event_heroes(state: CatacombsState, explorer: Hero, who: str) -> list[Hero]:
    """Whom an event concerns, in seat order from the explorer's."""
    if who == "explorer":
        return [explorer]
    seats = [(explorer.seat + i) % state.players for i in range(state.players)]
    heroes = [state.heroes[s] for s in seats if state.heroes[s].active]
    if who == "tile":
        return [h for h in heroes if h.pos[:2] == explorer.pos[:2]]
    return heroes


def _may_take(state: CatacombsState, hero: Hero, card: Card) -> bool:
    return card.allowed(state.stats(hero)) and hero.treasures >= card.cost_treasures


@options(EventOffer)
def event_offer_options(state: CatacombsState, t: EventOffer) -> list[Action]:
    return [Action.of("event-offer", take=True), Action.of("event-offer", take=False)]


@task(EventOffer)
@rule("engine.event-offer")
def event_offer(state: CatacombsState, t: EventOffer, action: Action) -> None:
    """A hero offered an event's reward for a price pays and takes it, or declines."""
    hero = state.heroes[t.seat]
    card = state.data.cards[t.card]
    if not action.get("take") or not hero.active or not _may_take(state, hero, card):
        return
    hero.treasures -= card.cost_treasures
    state.gain(hero, card.reward, f"event {card.id}")


@on_arrival("first-step")
@rule("move.activate", "move.activate-monster", "move.activate-trap", "move.activate-stash")
def enter_tile(state: CatacombsState, hero: Hero, tile: Placed) -> None:
    """The first step on a tile wakes its monsters, springs its lairs and reveals its hidden
    trap and stash."""
    tile.visited = True
    state.touch_layout("visited")
    slot = (tile.slot[0], tile.slot[1])
    for piece in state.pieces_on(slot):
        if not piece.awake:
            piece.awake = True
            state.log(f"a {piece.monster} wakes on {slot_key(slot)}")
            for h in state.heroes_on(slot):
                state.meet(h, piece)
    spring_lairs(state, hero, tile)
    for feature in list(tile.features):
        if feature["type"] == "trap" and feature.get("card"):
            tile.features.remove(feature)
            spring_hidden_trap(state, hero, feature["card"])
        elif feature["type"] == "stash" and feature.get("card"):
            open_stash(state, hero, tile, feature)
        if not hero.active:
            return
