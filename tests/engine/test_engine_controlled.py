"""Controlled monsters (monster players): lairs and respawns, lairs springing on the first step,
the venomous creatures' surprise drop, bandits fighting by the characters' reach."""

from __future__ import annotations

from engine_support import arena, canonical_plain, set_stat

from engine.core.api import Action
from engine.games.catacombs.board import next_to, place, slot_key, tile_laid
from engine.games.catacombs.controlled import control, respawn
from engine.games.catacombs.data import from_plain
from engine.games.catacombs.ending import death
from engine.games.catacombs.exploration import enter_tile
from engine.games.catacombs.monster_phase import monster_act
from engine.games.catacombs.monsters import LAIR, kill_piece, spawn
from engine.games.catacombs.steps import Death, MonsterAct, ShakeOff

PLAIN = canonical_plain()
DATA = from_plain(PLAIN)
RESPAWN = {e["id"]: e.get("respawn", {}) for e in PLAIN["entities"] if e["kind"] == "monster"}


def test_the_typed_data_carries_each_kinds_lair_limit_and_open_areas():
    for monster_id, spec in RESPAWN.items():
        assert DATA.monsters[monster_id].per_lair == spec.get("per_lair", 0)
        assert DATA.monsters[monster_id].from_open_areas == spec.get("from_open_areas", False)
    assert any(m.per_lair for m in DATA.monsters.values())
    assert any(m.from_open_areas for m in DATA.monsters.values())


def controlled_arena(players: int = 2):
    """A second-round state with monster players on and the other hero dead (a controller)."""
    state = arena(DATA, players=players)
    state.monster_players = True
    alive = state.heroes[state.seat]
    for hero in state.heroes:
        if hero is not alive:
            death(state, Death(seat=hero.seat, cause="test"), None)
    alive.hp = alive.max_hp = 30
    state.refresh()
    return state, alive


def lay_next_to(state, slot, labyrinth: int = 0, visited: bool = False):
    """Lay a labyrinth tile on a free slot beside `slot`."""
    tile = next(t for t in sorted(DATA.tiles.values(), key=lambda t: t.id) if t.type != "final")
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        free = (slot[0] + dx, slot[1] + dy)
        if slot_key(free) not in state.tiles:
            break
    placed = place(tile, free, 0)
    placed.labyrinth = labyrinth
    placed.visited = visited
    state.tiles[slot_key(free)] = placed
    tile_laid(state, free)
    state.refresh()
    return placed


def far_cell(state, hero):
    """A floor cell on the hero's tile that is not next to the hero."""
    tile = state.tile_of(hero.pos)
    for r in range(tile.rows):
        for c in range(tile.cols):
            pos = (*hero.pos[:2], c, r)
            if tile.floor(c, r) and not next_to(state, pos, {hero.pos}):
                return pos
    raise AssertionError("no far cell on the hero's tile")


def alive_of(state, monster_id: str):
    return [p for p in state.pieces if p.alive and p.monster == monster_id]


def test_a_controlled_zombie_lair_brings_back_up_to_its_limit():
    state, hero = controlled_arena()
    zombie = DATA.monsters["zombie"]
    card = spawn(state, "zombie", far_cell(state, hero), awake=False)
    lairs = [f for f in state.tile_of(card.pos).features if f["type"] == LAIR]
    assert [f["monster"] for f in lairs] == ["zombie"]
    kill_piece(state, card, hero, "test")
    state.pools["monster"]["zombie"] = 0  # every zombie card is out: all may come back
    respawn(state)
    back = alive_of(state, "zombie")
    limit = RESPAWN["zombie"]["per_lair"]
    assert len(back) == min(limit, zombie.count_for(state.players))
    assert all(p.controlled and p.awake and p.pos == card.pos for p in back)
    assert all(p.hp == zombie.controlled.health for p in back)
    print("zombies back from one lair:", len(back), "of", zombie.count_for(state.players))


def test_respawns_wait_for_the_cards_still_in_the_deck():
    state, hero = controlled_arena()
    zombie = DATA.monsters["zombie"]
    card = spawn(state, "zombie", far_cell(state, hero), awake=False)
    kill_piece(state, card, hero, "test")
    state.pools["monster"]["zombie"] = zombie.count_for(state.players) - 1
    respawn(state)
    assert len(alive_of(state, "zombie")) == 1
    respawn(state)
    assert len(alive_of(state, "zombie")) == 1


def test_no_lairs_and_no_respawns_without_monster_players():
    state = arena(DATA, players=2)
    hero = state.heroes[state.seat]
    death(state, Death(seat=1 - state.seat, cause="test"), None)
    card = spawn(state, "zombie", far_cell(state, hero), awake=False)
    assert not [f for f in state.tile_of(card.pos).features if f["type"] == LAIR]
    kill_piece(state, card, hero, "test")
    state.pools["monster"]["zombie"] = 0
    respawn(state)
    assert not alive_of(state, "zombie")


def test_a_lair_on_an_unexplored_tile_springs_on_the_first_step():
    state, hero = controlled_arena()
    venomous = DATA.monsters["venomous"]
    tile = lay_next_to(state, hero.pos[:2])
    cell = (*tile.slot, *tile.center())
    card = spawn(state, "venomous", cell, awake=False)
    assert not card.awake
    kill_piece(state, card, hero, "test")
    state.pools["monster"]["venomous"] = 0
    respawn(state)
    lair = next(f for f in tile.features if f["type"] == LAIR)
    limit = RESPAWN["venomous"]["per_lair"]
    assert lair["waiting"] == limit and not alive_of(state, "venomous")
    hero.pos = cell
    enter_tile(state, hero, tile)
    sprung = alive_of(state, "venomous")
    assert len(sprung) == limit and lair["waiting"] == 0
    assert all(p.awake and p.controlled and p.pos == cell for p in sprung)
    assert len(venomous.species) and all(p.species for p in sprung)
    print("venomous creatures sprung from the lair:", [p.species for p in sprung])


def test_controlled_bandits_respawn_on_an_explored_tile_near_the_heroes():
    state, hero = controlled_arena()
    bandit = DATA.monsters["bandit"]
    near = lay_next_to(state, hero.pos[:2], visited=True)
    state.pools["monster"]["bandit"] = 0
    respawn(state)
    back = alive_of(state, "bandit")
    assert len(back) == RESPAWN["bandit"]["per_lair"] < bandit.count_for(state.players)
    assert back[0].pos == (*near.slot, *near.center()) and back[0].controlled
    assert back[0].hp == bandit.controlled.health


def surprise_setup(dexterity: int, labyrinth: int = 0):
    state, hero = controlled_arena()
    set_stat(state, hero, "dexterity", dexterity)
    hero.antidotes = 0
    tile = lay_next_to(state, hero.pos[:2], labyrinth=labyrinth, visited=True)
    piece = spawn(state, "venomous", (*tile.slot, *tile.center()), awake=True)
    control(state, piece, DATA.monsters["venomous"])
    assert not next_to(state, piece.pos, {hero.pos})
    return state, hero, piece


def drop(state, piece):
    monster_act(state, MonsterAct(uid=piece.uid), None)
    state.advance()
    return state.queue[0] if state.queue else None


def test_a_controlled_creature_drops_on_a_hero_who_fails_to_shake_it_off():
    check = DATA.check("venomous", "shake-off")
    dex = check.modifiers[0].requires[0].min
    state, hero, piece = surprise_setup(dexterity=dex - 1)
    head = drop(state, piece)
    assert isinstance(head, ShakeOff) and head.seat == hero.seat
    assert piece.pos == hero.pos
    before = hero.hp
    state.apply(Action.of("roll", value=min(check.success) - 1))
    assert hero.hp == before - check.on_failure.poison
    assert not piece.alive
    print("surprise bite:", before, "->", hero.hp)


def test_dexterity_helps_shake_off_the_creature():
    check = DATA.check("venomous", "shake-off")
    modifier = check.modifiers[0]
    state, hero, piece = surprise_setup(dexterity=modifier.requires[0].min)
    drop(state, piece)
    before = hero.hp
    state.apply(Action.of("roll", value=min(check.success) - modifier.add))
    assert hero.hp == before and piece.alive and piece.pos == hero.pos


def test_no_surprise_across_labyrinths_or_when_uncontrolled():
    state, _, piece = surprise_setup(dexterity=1, labyrinth=1)
    assert drop(state, piece) is None
    state, _, piece = surprise_setup(dexterity=1)
    piece.controlled = False
    assert drop(state, piece) is None


def test_a_controlled_bandit_shoots_from_where_it_stands():
    bandit = DATA.monsters["bandit"]
    for controlled in (True, False):
        state, hero = controlled_arena()
        start = far_cell(state, hero)
        piece = spawn(state, "bandit", start, awake=True)
        if controlled:
            control(state, piece, bandit)
        before = hero.hp
        monster_act(state, MonsterAct(uid=piece.uid), None)
        if controlled:
            assert piece.pos == start
            assert hero.hp == before - bandit.controlled.ranged
        else:
            assert piece.pos != start
            assert hero.hp == before - bandit.stats.melee
