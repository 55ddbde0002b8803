"""Searching: opening a cache with the treasure table and its attention and luck modifiers;
stash cards."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import Placed
from engine.games.catacombs.data import Card, Table
from engine.games.catacombs.registry import actions_of, handles, on_arrival, rule, task
from engine.games.catacombs.state import JUNK, JUNK_POOL, CatacombsState, Hero
from engine.games.catacombs.steps import ReceiveCard, TreasureLuck, TreasureRoll


def cache_here(state: CatacombsState, hero: Hero) -> dict | None:
    tile = state.tile_of(hero.pos)
    if any(f["type"] == "looted" for f in tile.features):
        return None
    for f in tile.features:
        if f["type"] == "cache" and f.get("card"):
            return f
    return None


def table_of(state: CatacombsState, token_id: str) -> Table | None:
    token = state.data.tokens.get(token_id)
    if token is None or token.table not in state.data.tables:
        return None
    return state.data.tables[token.table]


@actions_of
@rule("first-turn.no-search")
def search_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1 or hero.hidden:
        return []
    cache = cache_here(state, hero)
    if cache is None or table_of(state, cache["card"]) is None:
        return [Action.of("rummage")] if may_rummage(state, hero) else []
    return [Action.of("search")]


RUMMAGED = "rummaged"
"""The marker feature of a tile already rummaged through for junk."""


def may_rummage(state: CatacombsState, hero: Hero) -> bool:
    """A tile with no cache token, not looted and not rummaged yet, while the supply has junk."""
    check = state.data.check("tile", "rummage")
    supply = state.pools.get(JUNK_POOL, {}).get(JUNK, 0)
    if check is None or state.actions_left < check.actions or not supply:
        return False
    tile = state.tile_of(hero.pos)
    return not any(f["type"] in ("cache", "looted", RUMMAGED) for f in tile.features)


@handles("rummage")
@rule("table.junk")
def do_rummage(state: CatacombsState, hero: Hero, action: Action) -> int:
    """The hero rummages through a tile without a cache and takes a junk token (once a tile)."""
    check = state.data.check("tile", "rummage")
    tile = state.tile_of(hero.pos)
    tile.features.append({"uid": f"f{state.uid()}", "type": RUMMAGED})
    hero.junk += state.take_junk(1)
    state.log(f"{hero.character} rummages through the tile and finds junk ({hero.junk} held)")
    return check.actions


@handles("search")
@rule(
    "search.tiles", "search.looted", "caches.first", "caches.removed", "engine.search-opens-cache"
)
def do_search(state: CatacombsState, hero: Hero, action: Action) -> int:
    """The hero turns the cache token over and rolls on its table (luck die first)."""
    cache = cache_here(state, hero)
    assert cache is not None
    state.tile_of(hero.pos).features.remove(cache)
    token = state.data.tokens[cache["card"]]
    bonus = int(token.hidden.get("bonus", 0))
    state.log(f"{hero.character} opens a cache (+{bonus})")
    roll_treasure(state, hero, table_of(state, cache["card"]), bonus, "cache")
    return 1


def attention_add(state: CatacombsState, hero: Hero, table: Table) -> int:
    mod = table.modifier("add-to-roll")
    if mod is None:
        return 0
    step = mod.step_for(state.stat(hero, mod.stat))
    return step.add if step else 0


def jackpot_faces(state: CatacombsState, hero: Hero, table: Table) -> frozenset[int]:
    mod = table.modifier("jackpot")
    if mod is None:
        return frozenset()
    step = mod.step_for(state.stat(hero, mod.stat))
    return step.success if step else frozenset()


@rule(
    "caches.bonus",
    "caches.row-2-3",
    "caches.row-4-5",
    "caches.row-6-7",
    "caches.row-8-9",
    "caches.row-10-11",
    "caches.row-12",
)
def roll_treasure(state: CatacombsState, hero: Hero, table: Table, bonus: int, why: str) -> None:
    """Luck 3+ rolls the luck die first (top row on its faces); else d6 + bonus + attention."""
    faces = jackpot_faces(state, hero, table)
    if faces:
        state.push(TreasureLuck(dice="d6", faces=tuple(sorted(faces)), seat=hero.seat,
                                table=table.id, bonus=bonus, why=why))
    else:
        state.push(TreasureRoll(dice=str(table.dice), seat=hero.seat, table=table.id,
                                bonus=bonus, why=why))


@task(TreasureLuck)
@rule("caches.luck-3", "caches.luck-5", "caches.luck-example")
def treasure_luck(state: CatacombsState, t: TreasureLuck, value: int) -> None:
    hero = state.heroes[t.seat]
    table = state.data.tables[t.table]
    if value in t.faces:
        state.log(f"{hero.character}'s luck die shows {value}: the top row")
        state.gain(hero, table.top_row.reward, f"{t.why} (luck)")
        return
    state.push(TreasureRoll(dice=str(table.dice), seat=t.seat, table=t.table, bonus=t.bonus,
                            why=t.why))


@task(TreasureRoll)
@rule("caches.attention", "caches.example", "caches.attention-example")
def treasure_roll(state: CatacombsState, t: TreasureRoll, value: int) -> None:
    hero = state.heroes[t.seat]
    table = state.data.tables[t.table]
    total = value + t.bonus + attention_add(state, hero, table)
    row = table.row_for(max(total, table.range.low))
    state.log(f"{hero.character} rolls {value}, total {total} on {table.id}")
    if row is not None:
        state.gain(hero, row.reward, t.why)


@rule("engine.stash-on-entry")
def open_stash(state: CatacombsState, hero: Hero, tile: Placed, feature: dict) -> None:
    """A stash card is turned up; a hero who meets its thresholds (and holds the item it
    needs, a key) takes what it holds; otherwise it stays face up on the tile."""
    card = state.data.cards.get(feature["card"])
    if card is None:
        tile.features.remove(feature)
        return
    feature["revealed"] = True
    if may_take(state, hero, card):
        tile.features.remove(feature)
        state.gain(hero, card.reward, f"stash {card.id}")
    else:
        state.log(f"{hero.character} cannot take the stash {card.id}; it stays face up")


@rule("table.locked-stash")
def may_take(state: CatacombsState, hero: Hero, card: Card) -> bool:
    """The hero meets the card's thresholds and holds one of the items it needs (the locked
    stash's key, which is kept)."""
    if not card.allowed(state.stats(hero)):
        return False
    return not card.items or any(i in hero.items for i in card.items)


@on_arrival("stash")
def take_revealed_stash(state: CatacombsState, hero: Hero) -> None:
    """A hero ending a move on a tile where a stash card lies face up takes it if they may."""
    tile = state.tile_of(hero.pos)
    for f in list(tile.features):
        if f["type"] == "stash" and f.get("revealed") and hero.active:
            card = state.data.cards.get(f["card"])
            if card is not None and may_take(state, hero, card):
                tile.features.remove(f)
                state.gain(hero, card.reward, f"stash {card.id}")


@task(ReceiveCard)
def receive_card(state: CatacombsState, t: ReceiveCard, card: str) -> None:
    """A card drawn face down goes to the hero: items to the kit, spells to the hand."""
    hero = state.heroes[t.seat]
    if card in state.data.items:
        hero.items.append(card)
    else:
        hero.spells.append(card)
    state.log(f"{hero.character} draws {card}")
