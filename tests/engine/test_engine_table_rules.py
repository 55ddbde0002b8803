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


# ----- table.hero-fights, table.push ------------------------------------------------------------
def _foes(state) -> None:
    state.set_relation(0, 1, DATA.scale.levels["antipathy"])
    state.refresh()


def test_only_a_foe_can_be_struck_and_every_blow_sours_the_slider() -> None:
    state = arena(DATA, players=2)
    _together(state)
    hero, other = state.heroes
    hero.items, hero.spells, other.spells = [], [], []
    state.set_relation(0, 1, 0)
    state.refresh()
    assert not [a for a in state.legal_actions() if a.kind == "fight"]
    _foes(state)
    other.hp = other.max_hp = 20
    state.apply(Action.of("fight", target=1, ranged=False))
    assert other.hp == 20 - state.stat(hero, "strength")
    assert state.relation(0, 1) == DATA.scale.levels["antipathy"] - 1


def test_a_hidden_foe_cannot_be_struck_but_the_one_who_forced_them_out_gets_the_bonus() -> None:
    state = arena(DATA, players=2)
    _together(state)
    hero, other = state.heroes
    hero.items, hero.spells, other.spells = [], [], []
    _foes(state)
    other.hidden = 2
    state.refresh()
    assert not [a for a in state.legal_actions() if a.kind == "fight"]
    other.hidden, hero.ambush = 0, other.seat
    other.hp = other.max_hp = 20
    bonus = DATA.check("shelter", "hide").modifiers[0].add
    state.refresh()
    state.apply(Action.of("fight", target=1, ranged=False))
    assert other.hp == 20 - state.stat(hero, "strength") - bonus


# ----- mercenaries -------------------------------------------------------------------------------
def test_a_bodyguard_takes_blows_until_its_health_is_gone() -> None:
    from engine.games.catacombs.mercenaries import take_blow

    guard = DATA.cards["bodyguard"]
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    hero.spells, hero.hp = ["bodyguard"], 10
    take_blow(state, hero, guard.health - 1, "test", "killed by test")
    assert hero.hp == 10 and hero.spells == ["bodyguard"]
    take_blow(state, hero, 3, "test", "killed by test")
    assert hero.hp == 10 and hero.spells == []  # it fell, taking the whole blow
    take_blow(state, hero, 3, "test", "killed by test")
    assert hero.hp == 7


def test_a_porter_adds_its_compartments_to_the_backpack() -> None:
    porter = DATA.cards["porter"].ability
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    hero.spells = []
    room = state.arrangement(hero).room
    hero.spells = ["porter"]
    assert state.arrangement(hero).room == room + porter.amount


def test_a_guide_lends_attention_for_statue_door_and_lever_checks_only() -> None:
    from engine.games.catacombs.checks_util import may_try

    guide = DATA.cards["guide"].ability
    study = DATA.check("lever", "study")
    assert study.requires[0].stat == guide.stat and study.requires[0].min <= guide.amount
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    set_stat(state, hero, guide.stat, 1)
    assert not may_try(state, hero, study)
    hero.spells = ["guide"]
    assert may_try(state, hero, study)
    seal = DATA.check("shelter", "force-out")
    assert seal.requires[0].stat == guide.stat and "shelter" not in guide.subjects
    assert not may_try(state, hero, seal)


def test_an_unpaid_former_bandit_leaves_for_the_mercenary_deck() -> None:
    from engine.games.catacombs.mercenaries import upkeep

    cost = DATA.cards["hired-bandit"].ability.amount
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    hero.spells, hero.treasures = ["hired-bandit"], cost
    upkeep(state, hero)
    assert hero.treasures == 0 and hero.spells == ["hired-bandit"]
    before = state.pools.get("mercenary", {}).get("hired-bandit", 0)
    upkeep(state, hero)
    assert hero.spells == [] and state.pools["mercenary"]["hired-bandit"] == before + 1



def test_the_former_bandit_asks_for_nothing_in_the_first_round() -> None:
    from engine.games.catacombs.mercenaries import upkeep

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    hero.spells, hero.treasures = ["hired-bandit"], 0
    state.round = 1
    upkeep(state, hero)
    assert hero.spells == ["hired-bandit"]
    state.round = 2
    upkeep(state, hero)
    assert hero.spells == []

# ----- table.seal, table.sarcophagus ------------------------------------------------------------
def _sarcophagus(state) -> dict:
    tile = state.tile_of(state.heroes[0].pos)
    f = {"uid": "s1", "type": "sarcophagus", "cell": None, "card": "sarcophagus"}
    tile.features.append(f)
    state.refresh()
    return f


def _monster_face(table) -> int:
    return next(r.roll.low for r in table.rows if r.outcome == "monster")


def _attentive_at_sarcophagus(players: int):
    """A hero attentive enough to seal, at a sarcophagus: (state, the feature, its table)."""
    from engine.games.catacombs.sarcophagi import sarcophagus_table

    state = arena(DATA, players=players)
    _together(state)
    f = _sarcophagus(state)
    table = sarcophagus_table(state)
    seal = table.modifier("seal")
    set_stat(state, state.heroes[0], seal.stat, seal.steps[0].min)
    return state, f, table


def test_an_attentive_hero_seals_a_monster_in_and_only_another_hero_may_open_it() -> None:
    from engine.games.catacombs.sarcophagi import resolve

    state, f, table = _attentive_at_sarcophagus(players=2)
    seals = state.pools["token:seal"]["seal"]
    resolve(state, state.heroes[0], "s1", _monster_face(table), sealable=True)
    assert f["state"] == "sealed" and state.pools["token:seal"]["seal"] == seals - 1
    state.refresh()
    assert not [a for a in state.legal_actions() if a.kind == "sarcophagus"]
    state.seat = 1
    state.refresh()
    assert Action.of("sarcophagus", how="open-sealed") in state.legal_actions()
    state.apply(Action.of("sarcophagus", how="open-sealed"))
    state.apply(Action.of("roll", value=1))  # a monster comes out
    assert f["state"] == "lair-spent" and state.pools["token:seal"]["seal"] == seals


def test_with_no_seal_token_left_the_monster_comes_out_at_once() -> None:
    from engine.games.catacombs.sarcophagi import resolve

    state, f, table = _attentive_at_sarcophagus(players=1)
    state.pools["token:seal"]["seal"] = 0
    pieces = len(state.pieces)
    resolve(state, state.heroes[0], "s1", _monster_face(table), sealable=True)
    assert f["state"] == "lair-spent" and len(state.pieces) == pieces + 1


def test_checking_a_sarcophagus_costs_its_check_actions() -> None:
    check = DATA.check("sarcophagus", "study")
    state = arena(DATA, players=1)
    _together(state)
    _sarcophagus(state)
    state.apply(Action.of("sarcophagus", how="check"))
    assert state.actions_left == 2 - check.actions


# ----- table.within-sight ----------------------------------------------------------------------
def test_sight_reaches_a_neighbouring_tile_only_through_an_open_passage() -> None:
    from engine.games.catacombs.board import in_sight, neighbour_slot, place, slot_key, tile_laid

    state = arena(DATA, players=1)
    home = state.tile_of(state.heroes[0].pos)
    here = (home.slot[0], home.slot[1])
    side = next(s for s in ("north", "east", "south", "west") if home.exits[s]
                and state.board.tile_at(neighbour_slot(here, s)) is None)
    slot = neighbour_slot(here, side)
    cross = next(t for t in DATA.tiles.values() if t.id.startswith("tile-cross"))
    state.tiles[slot_key(slot)] = place(cross, slot, 0)
    tile_laid(state, slot)
    state.refresh()
    a, b = (*here, *home.center()), (*slot, *state.tiles[slot_key(slot)].center())
    assert in_sight(state, a, b)
    blank = next(t for t in DATA.tiles.values() if t.type == "labyrinth" and not any(
        place(t, slot, 0).exits[s] for s in ("north", "east", "south", "west")
        if neighbour_slot(slot, s) == here))
    state.tiles[slot_key(slot)] = place(blank, slot, 0)
    tile_laid(state, slot)
    state.refresh()
    assert not in_sight(state, a, (*slot, *state.tiles[slot_key(slot)].center()))


# ----- table.passage-tile -----------------------------------------------------------------------
def test_a_hidden_passage_lays_a_tile_from_the_stack_with_the_stash_card_on_it() -> None:
    from engine.games.catacombs.statues import hidden_passage

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    tiles = len(state.tiles)
    pile = sum(state.pools["tiles"].values())
    hidden_passage(state, hero, "behind the statue")
    state.advance()
    state.refresh()
    edge = state.legal_actions()[0]
    assert edge.kind == "passage"
    state.apply(edge)
    state.apply(state.sample_chance())  # the tile
    state.apply(state.legal_actions()[0])  # its turn
    while state.is_chance_node:
        state.apply(state.sample_chance())
    assert len(state.tiles) == tiles + 1 and sum(state.pools["tiles"].values()) == pile - 1
    x, y, side = edge.get("edge").split(",")
    from engine.games.catacombs.board import neighbour_slot, slot_key

    laid = state.tiles[slot_key(neighbour_slot((int(x), int(y)), side))]
    assert any(f["type"] == "stash" and f.get("card") for f in laid.features)
    assert not any("draws event" in e for e in state.events[-6:])


def test_a_passage_with_nowhere_to_go_ends_in_a_niche() -> None:
    from engine.games.catacombs.statues import hidden_passage

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    state.pools["tiles"] = {}
    tiles = len(state.tiles)
    hidden_passage(state, hero, "by a lever")
    state.advance()
    state.refresh()
    assert state.is_chance_node and state.queue[0].fn == "passage-stash"
    state.apply(state.sample_chance())
    assert len(state.tiles) == tiles


# ----- table.reshuffle --------------------------------------------------------------------------
def test_an_empty_event_deck_is_made_again_from_its_discards() -> None:
    from engine.games.catacombs.exploration import event_card
    from engine.games.catacombs.steps import EventCard

    state = arena(DATA, players=1)
    event_card(state, EventCard(pool="event", seat=0), "quiet-corridor")
    assert state.pools["discard:event"] == {"quiet-corridor": 1}
    state.pools["event"] = {c: 0 for c in state.pools["event"]}
    assert state.stocked("event")
    assert sum(state.pools["event"].values()) == 1 and state.pools["discard:event"] == {}


def test_decks_that_do_not_reshuffle_stay_empty() -> None:
    state = arena(DATA, players=1)
    state.pools["stash"] = {}
    state.pools["discard:stash"] = {"stash-coins": 1}
    assert not state.stocked("stash")


# ----- table.locked-in --------------------------------------------------------------------------
def test_a_locked_door_nobody_can_force_can_still_be_battered_down() -> None:
    from engine.games.catacombs.doors import door_actions, doors_next_to

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    set_stat(state, hero, "strength", 1)
    tile = state.tile_of(hero.pos)
    c, r = hero.pos[2], hero.pos[3]
    nxt = next(n for n, side in state.board.steps(hero.pos) if side is None)
    tile.features.append({"uid": "d1", "type": "door", "cell": [nxt[2], nxt[3]],
                          "card": "locked-door-clear", "known_locked": True})
    state.touch_layout("passage")
    state.refresh()
    hows = [a.get("how") for a in door_actions(state, hero) if a.get("door") == "d1"]
    assert "batter" in hows and "force" not in hows
    state.apply(Action.of("door", how="batter", door="d1"))
    state.apply(Action.of("roll", value=5))
    assert doors_next_to(state, hero)  # it holds
    state.apply(Action.of("door", how="batter", door="d1"))
    state.apply(Action.of("roll", value=6))
    assert not any(f.get("uid") == "d1" for f in tile.features)
    assert (c, r) == hero.pos[2:]


# ----- table.cliff-climb ------------------------------------------------------------------------
def test_a_cliff_can_be_climbed_back_up_and_leads_to_its_foot_again() -> None:
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    top = hero.pos
    tile = state.tile_of(top)
    tile.features.append({"uid": "cl", "type": "cliff", "cell": [top[2], top[3]]})
    state.refresh()
    tiles = len(state.tiles)
    state.apply(Action.of("descend", via="cl"))
    while state.queue:
        state.apply(state.sample_chance() if state.is_chance_node else state.legal_actions()[0])
    assert len(state.tiles) == tiles + 1 and hero.pos[0] != top[0]
    foot = hero.pos
    climb = [a for a in state.legal_actions() if a.kind == "climb"]
    assert climb and climb[0].get("to") == ",".join(map(str, top))
    state.actions_left = 2
    state.apply(climb[0])
    assert hero.pos == top
    state.actions_left = 2
    state.refresh()
    state.apply(Action.of("descend", via="cl"))
    assert hero.pos == foot and len(state.tiles) == tiles + 1


# ----- table.locked-stash -----------------------------------------------------------------------
def test_the_locked_stash_pays_only_a_hero_with_a_key_and_waits_for_one() -> None:
    from engine.games.catacombs.search import open_stash, take_revealed_stash

    card = DATA.cards["stash-locked"]
    assert card.items == ("key",)
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    hero.items, hero.treasures = [], 0
    tile = state.tile_of(hero.pos)
    f = {"uid": "st", "type": "stash", "card": card.id, "cell": list(hero.pos[2:])}
    tile.features.append(f)
    open_stash(state, hero, tile, f)
    assert f in tile.features and f["revealed"] and hero.treasures == 0
    hero.items = ["key"]
    take_revealed_stash(state, hero)
    assert f not in tile.features
    assert hero.treasures == card.reward.treasures and hero.items == ["key"]


def test_a_sealer_passes_over_their_own_seal_to_another_sarcophagus_on_the_tile() -> None:
    from engine.games.catacombs.sarcophagi import sarcophagus_here

    state = arena(DATA, players=1)
    _together(state)
    tile = state.tile_of(state.heroes[0].pos)
    tile.features = [f for f in tile.features if f["type"] != "sarcophagus"]
    mine = _sarcophagus(state)
    mine.update(state="sealed", sealed_by=0)
    assert sarcophagus_here(state, state.heroes[0]) is None
    other = {"uid": "s2", "type": "sarcophagus", "cell": None, "card": "sarcophagus"}
    tile.features.append(other)
    state.refresh()
    assert sarcophagus_here(state, state.heroes[0]) is other
    assert [a for a in state.legal_actions() if a.kind == "sarcophagus"]


def test_a_hero_standing_where_the_artifact_falls_picks_it_up_for_an_action() -> None:
    state = arena(DATA, players=2)
    _together(state)
    carrier, other = state.heroes
    carrier.artifact, state.artifact_taken = True, True
    state.hurt(carrier, carrier.hp, "a test", "a test")
    state.seat, state.actions_left = other.seat, 2
    state.refresh()
    assert not carrier.alive and not other.artifact
    assert Action.of("pick-up") in state.legal_actions()
    state.apply(Action.of("pick-up"))
    assert other.artifact and state.actions_left == 1
    assert Action.of("pick-up") not in state.legal_actions()
