"""The rules a table needs where the seed is silent (content/catacombs/trace-table.yaml): each
test plays the decision the book and the cards print."""

from __future__ import annotations

from engine_support import arena, canonical_plain, set_stat

from engine.core.api import Action
from engine.games.catacombs.data import from_plain

DATA = from_plain(canonical_plain())


def _together(state) -> None:
    """Every hero on hero 0's cell, on turn with two actions."""
    for hero in state.heroes:
        hero.pos = state.heroes[0].pos
        hero.hidden = 0
    state.seat, state.actions_left = 0, 2
    state.refresh()


def _befriend(state) -> list[Action]:
    return [a for a in state.legal_actions() if a.kind == "befriend"]


# ----- table.raise-sympathy ---------------------------------------------------------------------
def test_goodwill_without_communication_costs_a_treasure_given_to_the_partner() -> None:
    gift = DATA.check("relationship", "gift")
    free = DATA.check("relationship", "improve")
    state = arena(DATA, players=2)
    _together(state)
    hero, other = state.heroes
    set_stat(state, hero, "communication", free.requires[0].min - 1)
    state.set_relation(0, 1, 0)
    hero.treasures, other.treasures = gift.cost_treasures - 1, 0
    state.refresh()
    assert _befriend(state) == []  # cannot pay
    hero.treasures = gift.cost_treasures
    state.refresh()
    state.apply(Action.of("befriend", seat=1))
    assert (hero.treasures, other.treasures) == (0, gift.cost_treasures)
    assert state.relation(0, 1) == 1


def test_goodwill_works_once_per_pair_and_never_above_the_friendly_mark() -> None:
    free = DATA.check("relationship", "improve")
    friendly = DATA.scale.friendly
    state = arena(DATA, players=2)
    _together(state)
    hero = state.heroes[0]
    set_stat(state, hero, "communication", free.requires[0].min)
    state.set_relation(0, 1, DATA.scale.min)
    state.refresh()
    treasures = hero.treasures
    state.apply(Action.of("befriend", seat=1))
    assert hero.treasures == treasures  # free with communication 4+
    assert state.relation(0, 1) == DATA.scale.min + 1
    state.actions_left = 2
    state.refresh()
    assert _befriend(state) == []  # once per pair
    state.goodwill.clear()
    state.set_relation(0, 1, friendly)
    state.refresh()
    assert _befriend(state) == []  # already friendly: goodwill goes no higher


# ----- table.junk -------------------------------------------------------------------------------
def test_a_tile_without_a_cache_gives_one_junk_token_once() -> None:
    state = arena(DATA, players=1)
    _together(state)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    tile.features = [f for f in tile.features if f["type"] not in ("cache", "looted")]
    supply = state.pools["token:junk"]["junk"]
    assert supply == DATA.tokens["junk"].count
    state.refresh()
    state.apply(Action.of("rummage"))
    assert hero.junk == 1 and state.pools["token:junk"]["junk"] == supply - 1
    assert Action.of("rummage") not in state.legal_actions()


def test_no_rummaging_on_a_tile_with_a_cache_or_when_the_supply_is_empty() -> None:
    state = arena(DATA, players=1)
    _together(state)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    tile.features = [f for f in tile.features if f["type"] not in ("cache", "looted")]
    tile.features.append({"uid": "c1", "type": "cache", "card": "cache-plus-1", "cell": None})
    state.refresh()
    assert Action.of("rummage") not in state.legal_actions()
    tile.features.pop()
    state.pools["token:junk"]["junk"] = 0
    state.refresh()
    assert Action.of("rummage") not in state.legal_actions()
