"""Event cards act on whom they name (the explorer, the tile, everyone); a reward with a price
is each hero's choice; a flood drowns whoever stays in the labyrinth."""

from __future__ import annotations

from engine_support import arena, canonical_plain, set_stat

from engine.core.api import Action
from engine.games.catacombs.board import place, slot_key, tile_laid
from engine.games.catacombs.data import from_plain
from engine.games.catacombs.exploration import event_card
from engine.games.catacombs.steps import EventCard, EventOffer
from engine.games.catacombs.turn import begin_turn

DATA = from_plain(canonical_plain())


def _event(who: str) -> str:
    """The id of the content's first event card concerning `who`."""
    events = sorted(c.id for c in DATA.cards.values()
                    if DATA.decks[c.deck].type == "event" and c.who == who)
    assert events, f"the content has an event for {who!r}"
    return events[0]


def _apart(state) -> None:
    """Hero 1 leaves hero 0's tile for a tile laid beside it."""
    tx, ty = state.heroes[0].pos[:2]
    slot = (tx + 1, ty)
    tile = next(t for t in DATA.tiles.values() if t.type != "final")
    placed = place(tile, slot, 0)
    state.tiles[slot_key(slot)] = placed
    tile_laid(state, slot)
    state.heroes[1].pos = (*slot, *placed.center())
    state.refresh()


def test_a_tile_event_hits_every_hero_on_the_tile_and_no_one_else() -> None:
    card = next(c for c in DATA.cards.values() if c.who == "tile" and c.outcome.health < 0)
    state = arena(DATA, players=3)
    for hero in state.heroes:
        hero.pos = state.heroes[0].pos
        hero.hp = hero.max_hp = 10
    _apart(state)
    event_card(state, EventCard(pool="event", seat=0), card.id)
    hp = [h.hp for h in state.heroes]
    assert hp == [10 + card.outcome.health, 10, 10 + card.outcome.health]


def test_a_priced_reward_is_offered_to_each_hero_who_qualifies() -> None:
    card = DATA.cards[_event("everyone")]
    assert card.cost_treasures and card.requires
    need = card.requires[0]
    state = arena(DATA, players=3)
    rich, poor, unread = state.heroes
    for hero, value, money in ((rich, need.min, card.cost_treasures),
                               (poor, need.min, card.cost_treasures - 1),
                               (unread, need.min - 1, card.cost_treasures)):
        set_stat(state, hero, need.stat, value)
        hero.treasures = money
    event_card(state, EventCard(pool="event", seat=0), card.id)
    state._flush_front()
    state.refresh()
    offers = [t for t in state.queue if isinstance(t, EventOffer)]
    assert [t.seat for t in offers] == [rich.seat]
    assert state.legal_actions() == [Action.of("event-offer", take=True),
                                     Action.of("event-offer", take=False)]
    before = rich.secret_knowledge
    state.apply(Action.of("event-offer", take=True))
    assert rich.treasures == 0
    assert rich.secret_knowledge == before + card.reward.secret_knowledge
    assert (poor.treasures, unread.treasures) == (card.cost_treasures - 1, card.cost_treasures)


def test_declining_the_offer_costs_and_gives_nothing() -> None:
    card = DATA.cards[_event("everyone")]
    need = card.requires[0]
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    set_stat(state, hero, need.stat, need.min)
    hero.treasures = card.cost_treasures
    before = hero.secret_knowledge
    event_card(state, EventCard(pool="event", seat=0), card.id)
    state._flush_front()
    state.refresh()
    state.apply(Action.of("event-offer", take=False))
    assert (hero.treasures, hero.secret_knowledge) == (card.cost_treasures, before)


def _hatches(state, mark: str = "A") -> None:
    """A ceiling hatch in the hero's labyrinth, its paired floor hatch on a tile of another."""
    _apart_one(state)
    mine, other = list(state.tiles.values())[:2]
    other.labyrinth = mine.labyrinth + 1
    mine.features.append({"uid": "hc", "type": "ceiling-hatch", "mark": mark,
                          "cell": list(mine.center())})
    other.features.append({"uid": "hf", "type": "floor-hatch", "mark": mark,
                           "cell": list(other.center())})
    state.refresh()


def test_a_flood_drowns_those_who_stay_once_the_water_is_up() -> None:
    card = next(c for c in DATA.cards.values() if c.flood_after)
    state = arena(DATA, players=2)
    _hatches(state)
    hero, other = state.heroes
    hero.hp = hero.max_hp = other.hp = other.max_hp = 10
    other.pos = (*list(state.tiles.values())[1].slot, *list(state.tiles.values())[1].center())
    event_card(state, EventCard(pool="event", seat=0), card.id)
    hp_after_event = hero.hp
    flood_round = state.round + card.flood_after
    state.round = flood_round - 1
    state.seat = hero.seat
    begin_turn(state)
    assert hero.hp == hp_after_event  # not yet
    state.round = flood_round
    begin_turn(state)
    assert hero.hp == hp_after_event - card.flood_health
    state.seat = other.seat
    begin_turn(state)
    assert other.hp == 10  # in the other labyrinth: dry
    lab = state.tile_of(hero.pos).labyrinth
    falls = flood_round + card.flood_lasts
    assert state.to_dict()["floods"] == {str(lab): [flood_round, card.flood_health, falls]}


def test_the_water_falls_again_after_the_cards_turns_and_drowns_nobody_more() -> None:
    """table.rising-water (provisional): the water stays up `lasts_turns` rounds."""
    from engine.games.catacombs.turn import flooding, recede_floods

    card = next(c for c in DATA.cards.values() if c.flood_after)
    assert card.flood_lasts == 3
    state = arena(DATA, players=1)
    _hatches(state)
    hero = state.heroes[0]
    mine = next(iter(state.tiles.values()))
    hero.pos = (*mine.slot, *mine.center())
    hero.hp = hero.max_hp = 10
    event_card(state, EventCard(pool="event", seat=0), card.id)
    falls = state.round + card.flood_after + card.flood_lasts
    state.round = falls - 1
    recede_floods(state)
    assert flooding(state, hero)
    state.round = falls
    recede_floods(state)
    assert not flooding(state, hero) and state.floods == {}
    assert state.events[-1].endswith("falls again")
    hp = hero.hp
    state.seat = hero.seat
    begin_turn(state)
    assert hero.hp == hp


def test_with_no_ceiling_hatch_leading_out_the_water_drains_away() -> None:
    card = next(c for c in DATA.cards.values() if c.flood_after)
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    event_card(state, EventCard(pool="event", seat=0), card.id)
    assert state.floods == {}
    state.round += card.flood_after
    hp = hero.hp
    begin_turn(state)
    assert hero.hp == hp


def test_the_heuristic_bot_climbs_out_of_a_flooding_labyrinth() -> None:
    from engine.games.catacombs.bots import HeuristicBot

    card = next(c for c in DATA.cards.values() if c.flood_after)
    state = arena(DATA, players=1)
    _hatches(state)
    hero = state.heroes[0]
    mine = next(iter(state.tiles.values()))
    hero.pos = (*mine.slot, *mine.center())
    event_card(state, EventCard(pool="event", seat=0), card.id)
    state.seat, state.actions_left = hero.seat, 2
    state.refresh()
    assert HeuristicBot(1).choose(state).kind == "climb"


def test_a_dive_to_another_labyrinth_needs_the_far_check() -> None:
    from engine.games.catacombs.crevices import dive_actions

    near, far = DATA.check("water", "dive"), DATA.check("water", "dive-far")
    assert near.requires[0].min < far.requires[0].min
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    _apart_one(state)
    tiles = list(state.tiles.values())
    for tile, uid in ((tiles[0], "w0"), (tiles[1], "w1")):
        c, r = tile.center()
        tile.features.append({"uid": uid, "type": "crevice", "orientation": "horizontal",
                              "depth": "water", "cells": [[c, r]], "width": 1})
    hero.pos = (*tiles[0].slot, *_beside(tiles[0]))
    tiles[1].labyrinth = tiles[0].labyrinth + 1
    stat = far.requires[0].stat
    for value, dives in ((far.requires[0].min - 1, False), (far.requires[0].min, True)):
        set_stat(state, hero, stat, value)
        state.touch_layout("tiles")
        state.refresh()
        targets = {a.get("crevice") for a in dive_actions(state, hero)}
        assert ("w1" in targets) == dives, value


def _apart_one(state) -> None:
    """A second tile beside the hero's."""
    tx, ty = state.heroes[0].pos[:2]
    tile = next(t for t in DATA.tiles.values() if t.type != "final")
    state.tiles[slot_key((tx + 1, ty))] = place(tile, (tx + 1, ty), 0)
    tile_laid(state, (tx + 1, ty))


def _beside(tile) -> tuple[int, int]:
    """A floor cell next to the tile's centre."""
    c, r = tile.center()
    return next((c + dc, r + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if tile.floor(c + dc, r + dr))
