"""Statues: study, break, move, the hidden mechanism, the snake, the relic keepers' attitude."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import OPPOSITE, neighbour_slot, parse_slot, slot_key
from engine.games.catacombs.checks_util import apply_outcome, may_try, poison
from engine.games.catacombs.data import Check, Reward
from engine.games.catacombs.labyrinths import beyond_table, tile_pile
from engine.games.catacombs.registry import actions_of, handles, options, rule, task
from engine.games.catacombs.search import may_take
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import PassageEdge, PassageStash, TileDrawn

HOW = ("study", "break", "move", "mechanism")


def statue_here(state: CatacombsState, hero: Hero) -> dict | None:
    for f in state.tile_of(hero.pos).features:
        if f["type"] == "statue" and f.get("card") and not f.get("moved"):
            return f
    return None


def statue_check(state: CatacombsState, how: str) -> Check | None:
    return state.data.check("statue", how)


def _legal(state: CatacombsState, hero: Hero, f: dict, how: str) -> bool:
    check = statue_check(state, how)
    if not may_try(state, hero, check) or state.actions_left < check.actions:
        return False
    studied = f["uid"] in hero.studied
    if how == "study":
        return not studied
    if how == "mechanism":
        token = state.data.tokens[f["card"]]
        needs_ok = all(n != "statue-study" or studied for n in check.needs)
        return needs_ok and studied and bool(token.hidden.get("hidden_passage"))
    return True


@actions_of
def statue_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    f = statue_here(state, hero)
    if f is None:
        return []
    return [Action.of("statue", how=h) for h in HOW if _legal(state, hero, f, h)]


@handles("statue")
@rule(
    "statues.study",
    "statues.break",
    "statues.move",
    "statues.mechanism",
    "statues.token",
    "statues.keepers-cannot-break",
    "statues.snake",
)
def do_statue(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Study (attention), break (not relic keepers; snake bites the unwary), move (strength and
    dexterity, ends the turn) or work the mechanism (knowledge, after studying)."""
    how = action.get("how")
    f = statue_here(state, hero)
    check = statue_check(state, how)
    token = state.data.tokens[f["card"]]
    tile = state.tile_of(hero.pos)
    if how == "study":
        hero.studied.append(f["uid"])
        state.log(f"{hero.character} studies the statue: {token.id}")
        return check.actions
    if how == "break":
        tile.features.remove(f)
        state.log(f"{hero.character} breaks the statue")
        if token.hidden.get("snake") and f["uid"] not in hero.studied:
            snake_bite(state, hero)
        if hero.active:
            state.gain(hero, Reward(treasures=int(token.hidden.get("treasures", 0))),
                       "the statue's treasures")
        apply_outcome(state, hero, check.on_success, "breaking a statue")
    else:
        f["moved"] = True
        done = "moves the statue aside" if how == "move" else "works the statue's mechanism"
        state.log(f"{hero.character} {done}")
        apply_outcome(state, hero, check.on_success, f"statue {how}")
    if token.hidden.get("hidden_passage") and hero.active:
        hidden_passage(state, hero, "behind the statue")
    if how == "move":
        return state.actions_left
    return check.actions


@rule("table.statue-snake")
def snake_bite(state: CatacombsState, hero: Hero) -> None:
    """The snake in a statue bites whoever breaks it unstudied: the poisonings of the monster
    whose species is the snake (an antidote cures each); it slips away, no figure is placed."""
    bites = 1
    for m in state.data.monsters.values():
        if any(sp == "snake" for sp, _ in m.species):
            bites = max(1, m.stats.poison)
    state.log(f"a snake in the statue bites {hero.character} and slips away")
    for _ in range(bites):
        poison(state, hero, "snake in a statue")


@rule("engine.hidden-passage-stash", "table.passage-tile", "levers.passage")
def hidden_passage(state: CatacombsState, hero: Hero, where: str) -> None:
    """A hidden passage opens (behind a statue or by a lever): its tile is drawn from the
    hero's pile and attached to a free open edge of the hero's tile (else of their
    labyrinth), which the player picks, and the stash card goes on it. With no such edge or
    no tile left but the final one, the passage ends in a niche: the stash card goes straight
    to the hero."""
    if sum(state.pools.get("stash", {}).values()) <= 0:
        return
    state.log(f"{hero.character} opens a hidden passage ({where})")
    edges = passage_edges(state, hero)
    if not edges or not sum(state.pools.get(tile_pile(state, hero), {}).values()):
        state.push(PassageStash(pool="stash", seat=hero.seat))
        return
    keys = tuple(f"{slot[0]},{slot[1]},{side}" for slot, side in edges)
    state.push(PassageEdge(seat=hero.seat, edges=keys))


def passage_edges(state: CatacombsState, hero: Hero) -> list[tuple[tuple[int, int], str]]:
    """Free open edges within the table: the hero's tile's, else any of their labyrinth's."""
    board = state.board

    def free(slot: tuple[int, int]) -> list[tuple[tuple[int, int], str]]:
        return [
            (slot, side)
            for side in board.tile_sides_open(slot)
            if not beyond_table(state, neighbour_slot(slot, side))
        ]

    own = free((hero.pos[0], hero.pos[1]))
    if own:
        return own
    labyrinth = state.tile_of(hero.pos).labyrinth
    out = []
    for key in sorted(state.tiles):
        if state.tiles[key].labyrinth == labyrinth:
            out += free(parse_slot(key))
    return out


@options(PassageEdge)
def passage_edge_options(state: CatacombsState, t: PassageEdge) -> list[Action]:
    return [Action.of("passage", edge=e) for e in t.edges]


@task(PassageEdge)
def passage_edge(state: CatacombsState, t: PassageEdge, action: Action) -> None:
    """The passage's tile is drawn for the chosen edge (it is turned as the player likes)."""
    x, y, side = action.get("edge").split(",")
    slot = (int(x), int(y))
    hero = state.heroes[t.seat]
    state.push(TileDrawn(pool=tile_pile(state, hero), seat=t.seat,
                         slot=neighbour_slot(slot, side), side=OPPOSITE[side], passage=True))


@task(PassageStash)
def passage_stash(state: CatacombsState, t: PassageStash, card: str) -> None:
    """The stash card goes face down on the passage's tile (revealed on the first step there),
    or, in a niche, straight to the hero who opened the passage."""
    if t.slot is not None:
        tile = state.tiles[slot_key(t.slot)]
        c, r = tile.center()
        tile.features.append({"uid": f"f{state.uid()}", "type": "stash", "card": card,
                              "cell": [c, r]})
        state.log(f"the stash card lies on the passage's tile at {slot_key(t.slot)}")
        return
    hero = state.heroes[t.seat]
    c = state.data.cards.get(card)
    if c is None or not hero.active:
        return
    if may_take(state, hero, c):
        state.gain(hero, c.reward, f"stash {card} in a niche behind the passage")
        return
    state.tile_of(hero.pos).features.append(
        {"uid": f"f{state.uid()}", "type": "stash", "card": card, "revealed": True,
         "cell": [hero.pos[2], hero.pos[3]]}
    )
    state.log(f"{hero.character} cannot take the stash {card} in the niche; it stays face up")
