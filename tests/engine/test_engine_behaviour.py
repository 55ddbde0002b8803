"""Rules behaviour on the canonical content: setup, the turn, crevices, monsters, levers, the
artifact and teams."""

from __future__ import annotations

from engine_support import arena, canonical_plain, set_stat

from engine.core.api import Action
from engine.games.catacombs import CatacombsGame
from engine.games.catacombs.crevices import squeeze_through
from engine.games.catacombs.data import from_plain
from engine.games.catacombs.ending import death, do_leave, pick_up_artifact
from engine.games.catacombs.monster_phase import monster_act
from engine.games.catacombs.monsters import acid, spawn
from engine.games.catacombs.steps import Acid, Death, MonsterAct, Revive, RunUpSecond, TreasureLuck
from engine.games.catacombs.turn import begin_turn

DATA = from_plain(canonical_plain())


def hero_of(state, character: str):
    return next(h for h in state.heroes if h.character == character)


def game_with(characters: list[str], **kw):
    """A state whose seats drew these characters (chance outcomes chosen explicitly)."""
    state = CatacombsGame.from_model(DATA).new_initial_state(len(characters), 5, {**kw})
    for name in characters:
        state.apply(Action.of("draw", card=name))
    return state


def test_relationship_titles_start_from_the_content():
    state = game_with(["oligarch", "archaeologist", "journalist"])
    key = tuple(sorted(("oligarch", "archaeologist")))
    expected = {"sympathy": 1, "neutral": 0, "antipathy": -1}[DATA.relationships[key]]
    assert state.relation(0, 1) == expected


def test_the_boy_steals_a_banknote_from_everyone_at_the_station():
    state = game_with(["boy", "oligarch", "journalist"])
    boy = DATA.characters["boy"]
    others = [DATA.characters["oligarch"], DATA.characters["journalist"]]
    amount = boy.ability("steal-banknotes-at-station").amount
    stolen = sum(amount for c in others if c.banknotes >= amount)
    assert state.heroes[0].banknotes == boy.banknotes + stolen
    assert state.heroes[1].banknotes == others[0].banknotes - amount


def test_the_shop_counter_follows_the_shop_rule():
    state = game_with(["oligarch", "boy"])
    while state.is_chance_node:
        state.apply(state.sample_chance())
    shop = DATA.shop_rule
    counter = state.pools["counter"]
    unique = [i for i in DATA.items.values() if i.rarity == "unique"]
    for item in unique:
        assert counter.get(item.id, 0) == item.count
    common = sum(n for c, n in counter.items()
                 if c in DATA.items and DATA.items[c].rarity == "common")
    assert common == shop.common_per_character * 2
    magic = sum(n for c, n in counter.items()
                if c in DATA.items and DATA.items[c].rarity == "magic")
    assert magic == shop.magic_per_character * 2
    buy = next(a for a in state.legal_actions() if a.kind == "buy")
    before = state.heroes[0].banknotes
    state.apply(buy)
    assert state.heroes[0].banknotes < before


def test_two_actions_a_turn_and_one_more_for_the_tireless():
    state = arena(DATA, players=2)
    hero = state.heroes[state.seat]
    begin_turn(state)
    extra = DATA.characters[hero.character].ability("extra-action")
    assert state.actions_left == 2 + (extra.amount if extra else 0)
    hero.turns_lost = 1
    begin_turn(state)
    assert state.actions_left == 0 and hero.turns_lost == 0


def test_vertical_crevice_stalls_the_slow_but_not_the_boy():
    state = arena(DATA, players=2)
    hero = next(h for h in state.heroes if h.character != "boy")
    set_stat(state, hero, "speed", 2)
    squeeze_through(state, hero)
    assert hero.turns_lost == 1
    hero.turns_lost = 0
    set_stat(state, hero, "speed", 3)
    set_stat(state, hero, "dexterity", 3)
    squeeze_through(state, hero)
    assert hero.turns_lost == 0
    boy_state = game_with(["boy", "oligarch"])
    boy = boy_state.heroes[0]
    boy.bonus["speed"] = -5
    squeeze_through(boy_state, boy)
    assert boy.turns_lost == 0


def test_a_zombie_walks_to_a_hero_and_strikes_for_its_damage():
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    far = max(tile.floor_cells(), key=lambda c: abs(c[0] - hero.pos[2]) + abs(c[1] - hero.pos[3]))
    piece = spawn(state, "zombie", (*hero.pos[:2], *far), awake=True)
    hp = hero.hp
    for _ in range(4):
        monster_act(state, MonsterAct(uid=piece.uid), None)
    assert hp - hero.hp >= DATA.monsters["zombie"].stats.melee
    assert any(m.startswith("zombie:") for m in hero.met)


def test_venomous_creatures_spare_the_ecologist_and_bite_once():
    state = game_with(["ecologist", "oligarch"])
    state = arena(DATA, players=2, decide=lambda s, a: None)
    for hero in state.heroes:
        hero.pos = state.heroes[0].pos
        hero.antidotes = 0
    eco = next((h for h in state.heroes if h.character == "ecologist"), None)
    piece = spawn(state, "venomous", state.heroes[0].pos, awake=True)
    before = {h.seat: h.hp for h in state.heroes}
    monster_act(state, MonsterAct(uid=piece.uid), None)
    bitten = [h for h in state.heroes if h.hp < before[h.seat]]
    assert len(bitten) == 1 and bitten[0] is not eco
    assert not piece.alive


def test_acid_burns_every_hero_on_the_scarabs_tile():
    state = arena(DATA, players=2)
    for hero in state.heroes:
        hero.pos = state.heroes[0].pos
    spawn(state, "scarab", state.heroes[0].pos, awake=True)
    before = [h.hp for h in state.heroes]
    acid(state, Acid(), None)
    burn = DATA.monsters["scarab"].stats.acid
    assert [h.hp for h in state.heroes] == [b - burn for b in before]


def test_the_artifact_falls_with_its_dead_carrier_and_wins_with_friends():
    state = arena(DATA, players=3)
    carrier, friend, other = state.heroes
    tile = state.tile_of(carrier.pos)
    tile.features.append({"uid": "fa", "type": "artifact", "cell": list(carrier.pos[2:])})
    pick_up_artifact(state, carrier)
    assert carrier.artifact and state.artifact_taken
    death(state, Death(seat=carrier.seat, cause="test"), None)
    assert any(f["type"] == "artifact" for f in tile.features)
    pick_up_artifact(state, friend)
    friend.pos = tuple(state.hatch)
    other.pos = tuple(state.hatch)
    state.set_relation(friend.seat, other.seat, 1)
    do_leave(state, friend, Action.of("leave"))
    assert state.is_terminal and state.winners == sorted([friend.seat, other.seat])
    assert state.returns[friend.seat] == 1.0 and state.returns[carrier.seat] == 0.0


def test_a_door_lever_opens_the_nearest_locked_door():
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    locked = next(t.id for t in DATA.tokens.values() if t.type == "door" and t.hidden.get("locked"))
    door_lever = next(t.id for t in DATA.tokens.values()
                      if t.type == "lever" and t.hidden.get("effect") == "door")
    door = {"uid": "fd", "type": "door", "card": locked, "cell": list(tile.floor_cells()[0])}
    tile.features += [door, {"uid": "fl", "type": "lever", "card": door_lever, "cell": None}]
    state.actions_left = 2
    state.refresh()
    assert Action.of("lever", how="pull") in state.legal_actions()
    state._apply(Action.of("lever", how="pull"))
    assert door.get("open")


def test_team_play_splits_the_tile_pile():
    def two_teams(state, actions):
        if actions and actions[0].kind == "team":
            return actions[state.current_player % 2]
        return None

    state = arena(DATA, players=4, teams=True, decide=two_teams)
    colours = {h.team for h in state.heroes}
    assert len(colours) == 2
    piles = {c: sum(state.pools[f"tiles:{c}"].values()) for c in colours}
    assert abs(piles[min(colours)] - piles[max(colours)]) <= 1
    assert sum(state.pools.get("tiles", {}).values()) == 0
    one = arena(DATA, players=3, teams=True, decide=lambda s, a: a[0] if a and
                a[0].kind == "team" else None)
    assert {h.team for h in one.heroes} == {""}


def test_loans_are_repaid_in_treasures_and_usury_grows():
    from engine.games.catacombs.data import Reward
    from engine.games.catacombs.relationships import interest, lend, loan_terms, loans

    state = arena(DATA, players=3)
    borrower, lender, other = state.heroes
    per, forgive, slide, banknotes = loan_terms(state)
    lender.banknotes = borrower.banknotes = 2
    state.set_relation(borrower.seat, lender.seat, 0)
    lend(state, borrower, lender)
    assert (borrower.banknotes, lender.banknotes, borrower.debt) == (3, 1, per)
    assert not borrower.usury
    borrower.treasures = lender.treasures = 0
    state.gain(borrower, Reward(treasures=per + 1), "test")
    state.advance()
    assert (borrower.treasures, lender.treasures, borrower.debt) == (1, per, 0)
    state.set_relation(other.seat, lender.seat, -1)
    lend(state, other, lender)
    assert other.usury and state.relation(other.seat, lender.seat) == -1 + slide
    interest(state, other)
    assert other.debt == per + banknotes * per
    loans(state, lender)
    assert other.debt == 0 and other.lender == -1
    assert forgive >= 0


def test_floor_hatch_opens_a_new_labyrinth_and_its_pair_leads_back():
    from engine.games.catacombs.labyrinths import LABYRINTH_STRIDE

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    token = next(t for t in DATA.tokens.values() if t.type == "floor-hatch")
    hatch_cell = list(hero.pos[2:])
    tile.features.append({"uid": "fh", "type": "floor-hatch", "card": token.id,
                          "cell": hatch_cell, "mark": token.mark})
    state.actions_left = 2
    state.refresh()
    state.apply(Action.of("descend", via="fh"))
    while state.current_player != 0 or state.queue:
        state.apply(state.sample_chance() if state.is_chance_node else state.legal_actions()[0])
    assert hero.pos[0] == LABYRINTH_STRIDE
    below = state.tile_of(hero.pos)
    assert below.labyrinth == 1 and below.visited
    ceiling = next(f for f in below.features if f["type"] == "ceiling-hatch")
    assert ceiling["mark"] == token.mark and ceiling["cell"] == list(hero.pos[2:])
    state.actions_left = 1
    state.refresh()
    climb = [a for a in state.legal_actions() if a.kind == "climb"]
    assert climb and climb[0].get("to") == ",".join(str(v) for v in (*tile.slot, *hatch_cell))


def test_exploring_past_the_table_edge_lays_the_cliff():
    from engine.games.catacombs.data import TABLE_EXTENT
    from engine.games.catacombs.exploration import start_exploring

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    start_exploring(state, hero, (TABLE_EXTENT, 0), "east")
    cliff = state.tiles[f"{TABLE_EXTENT + 1},0"]
    assert DATA.tiles[cliff.tile].type == "cliff"
    assert any(f["type"] == "cliff" for f in cliff.features)
    assert cliff.exits["west"]


def test_a_seized_hero_walks_into_the_nearest_trap_and_is_possessed():
    from engine.games.catacombs.monsters import seized

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    nxt = next(n for n, _ in state.board.steps(hero.pos) if n[:2] == hero.pos[:2])
    cutter = next(t.id for t in DATA.traps.values() if t.deadly)
    tile.traps.append([cutter, nxt[2], nxt[3]])
    state.refresh()
    ghost = spawn(state, "ghost", hero.pos, awake=True)
    set_stat(state, hero, "speed", 1)
    seized(state, hero, ghost.uid)
    assert hero.pos == nxt and not hero.alive
    assert hero.cause == "possessed by a ghost" and not ghost.alive


def test_a_seized_hero_without_a_trap_is_drawn_towards_the_ghost():
    from engine.games.catacombs.monsters import seized

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    tile.traps.clear()
    state.refresh()
    far = max(tile.floor_cells(), key=lambda c: abs(c[0] - hero.pos[2]) + abs(c[1] - hero.pos[3]))
    ghost = spawn(state, "ghost", (*hero.pos[:2], *far), awake=True)
    before = abs(far[0] - hero.pos[2]) + abs(far[1] - hero.pos[3])
    seized(state, hero, ghost.uid)
    after = abs(far[0] - hero.pos[2]) + abs(far[1] - hero.pos[3])
    assert hero.alive and after == before - 1


def test_a_hurt_scarab_burrows_heals_and_comes_up_nearer():
    from engine.games.catacombs.monsters import underground

    state = arena(DATA, players=6)
    hero = state.heroes[0]
    scarab = DATA.monsters["scarab"]
    piece = spawn(state, "scarab", hero.pos, awake=True)
    full = piece.hp
    piece.hp -= 3
    piece.hurt = True
    assert underground(state, piece, scarab)
    turns = scarab.special_values["burrow-retreat"]["turns"]
    assert piece.under == turns and not piece.on_map
    heal = scarab.special_values["regenerate"]["health"]
    for _ in range(turns):
        assert underground(state, piece, scarab)
    assert piece.on_map and piece.hp == min(full, full - 3 + heal * turns)
    assert piece.pos[:2] == hero.pos[:2]


def test_spells_heal_their_caster_and_intrigues_hurt_another_hero():
    state = arena(DATA, players=2)
    hero, other = state.heroes[state.seat], state.heroes[1 - state.seat]
    heal = next(c for c in DATA.cards.values()
                if DATA.decks[c.deck].type == "spell" and c.outcome.health > 0)
    harm = next(c for c in DATA.cards.values()
                if DATA.decks[c.deck].type == "intrigue" and c.outcome.health < 0)
    hero.spells = [heal.id, harm.id]
    hero.hp = 1
    other.hp = other.max_hp = 10
    state.actions_left = 2
    state.refresh()
    state.apply(Action.of("cast", card=heal.id))
    assert hero.hp == min(hero.max_hp, 1 + heal.outcome.health)
    state.apply(Action.of("intrigue", card=harm.id, target=other.seat))
    assert other.hp == 10 + harm.outcome.health and hero.spells == []


def test_a_run_up_through_the_cutter_dies_on_matching_parity():
    from engine.games.catacombs.traps import run_up_second

    cutter = next(t.id for t in DATA.traps.values() if t.jumpable)
    check = next(DATA.checks[k].id for k in DATA.traps[cutter].checks if DATA.checks[k].parity)
    for first, second, survives in ((1, 2, True), (2, 4, False)):
        state = arena(DATA, players=1)
        hero = state.heroes[0]
        set_stat(state, hero, "luck", 0)
        target = ",".join(str(v) for v in hero.pos)
        step = RunUpSecond(dice="d6", seat=0, check=check, to=target, first=first,
                           rerolled=False)
        run_up_second(state, step, second)
        assert hero.alive == survives


def test_bandits_loot_the_dead_and_give_it_back_to_their_killer():
    from engine.games.catacombs.monsters import kill_piece, loot

    state = arena(DATA, players=2)
    dead, killer = state.heroes
    thrift = DATA.characters[dead.character].thrift
    dead.treasures, dead.items = thrift + 4, ["torch"] if "torch" in DATA.items else []
    items = list(dead.items)
    death(state, Death(seat=dead.seat, cause="test"), None)
    assert dead.treasures == thrift
    bandit = spawn(state, "bandit", dead.pos, awake=True)
    loot(state, bandit, DATA.monsters["bandit"])
    assert bandit.loot["treasures"] == 4
    before = killer.treasures
    kill_piece(state, bandit, killer, "test")
    assert killer.treasures - before >= 4 and all(i in killer.items for i in items)


def test_worn_items_count_once_per_slot_and_accessory():
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    accessory = next(i for i in DATA.items.values() if i.slot == "accessory" and i.stats)
    stat, bonus = next(iter(accessory.stats.items()))
    hero.items = []
    base = state.stat(hero, stat)
    hero.items = [accessory.id, accessory.id]
    limit = DATA.equipment_rule.same_accessories_worn
    assert state.stat(hero, stat) == base + bonus * min(2, limit)


def test_bridges_are_built_from_junk_and_wear_out():
    from engine.games.catacombs.crevices import bridge_limit, jumps

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    nxt = [n for n, _ in state.board.steps(hero.pos) if n[:2] == hero.pos[:2]]
    target = next(n for n in nxt if tile.floor(2 * n[2] - hero.pos[2], 2 * n[3] - hero.pos[3]))
    crevice = {"uid": "fc", "type": "crevice", "orientation": "horizontal", "depth": "deep",
               "width": 9, "cells": [list(target[2:])], "cell": list(target[2:])}
    tile.features.append(crevice)
    hero.junk = 5
    state.actions_left = 2
    state.refresh()
    assert jumps(state, hero)
    state.apply(Action.of("build-bridge", crevice="fc"))
    state.apply(Action.of("build-bridge", crevice="fc"))
    assert crevice["bridge"] == 2 and hero.junk == 3 and bridge_limit(state) >= 2
    land = next(a for a in state.legal_actions() if a.kind == "cross-bridge")
    state.actions_left = 1
    state.apply(land)
    assert crevice["bridge"] == 1 and hero.pos != target


def test_dead_players_control_the_monsters():
    from engine.games.catacombs.controlled import revive, take_control
    from engine.games.catacombs.monsters import kill_piece
    from engine.games.catacombs.pathfinding import matrix_cell

    state = arena(DATA, players=2)
    state.monster_players = True
    alive, dead = state.heroes
    zombie = DATA.monsters["zombie"]
    piece = spawn(state, "zombie", alive.pos, awake=True)
    take_control(state)
    assert not piece.controlled
    death(state, Death(seat=dead.seat, cause="test"), None)
    take_control(state)
    assert piece.controlled and piece.hp == zombie.controlled.health
    door = matrix_cell(state, piece, "door")
    assert door.effect == DATA.matrix[("zombie", "door")].controlled.effect
    alive.treasures = 0
    kill_piece(state, piece, alive, "test")
    assert alive.treasures == zombie.controlled_rewards[0].treasures
    revive(state, Revive(dice="d6", uid=piece.uid), max(zombie.revive))
    assert piece.alive and piece.hp == zombie.controlled.health


def test_a_hostile_hero_can_shove_another_onto_spikes():
    state = arena(DATA, players=2)
    hero, victim = state.heroes[state.seat], state.heroes[1 - state.seat]
    tile = state.tile_of(hero.pos)
    nxt = next(n for n, _ in state.board.steps(hero.pos) if n[:2] == hero.pos[:2])
    spikes = next(t for t in DATA.traps.values() if t.health < 0 and not t.deadly)
    tile.traps.append([spikes.id, nxt[2], nxt[3]])
    victim.pos = hero.pos
    victim.hp = victim.max_hp = 20
    state.actions_left = 2
    state.set_relation(hero.seat, victim.seat, 0)
    state.refresh()
    assert not [a for a in state.legal_actions() if a.kind == "push"]
    state.set_relation(hero.seat, victim.seat, -1)
    state.refresh()
    push = next(a for a in state.legal_actions() if a.kind == "push")
    state.apply(push)
    assert victim.pos == nxt and victim.hp == 20 + spikes.health
    assert state.relation(hero.seat, victim.seat) == -2


def test_ghosts_leave_when_only_the_cultist_survives():
    from engine.games.catacombs.monsters import last_survivor

    state = game_with(["cultist", "oligarch"])
    state = arena(DATA, players=2)
    cultist = next((h for h in state.heroes if h.character == "cultist"), state.heroes[0])
    cultist.character = "cultist"
    other = next(h for h in state.heroes if h is not cultist)
    ghost = spawn(state, "ghost", cultist.pos, awake=True)
    last_survivor(state)
    assert ghost.alive
    death(state, Death(seat=other.seat, cause="test"), None)
    last_survivor(state)
    assert not ghost.alive


def test_the_seeds_worked_examples():
    """Attention 4 with a +1 cache and a rolled 4 makes 6; luck 3 and a 6 on the luck die takes
    the top row; a 1-wide crevice needs a 3-cell jump, more than speed 2 gives."""
    from engine.games.catacombs.crevices import jump_length, jump_needed
    from engine.games.catacombs.search import attention_add, jackpot_faces, treasure_luck

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    table = DATA.tables["treasure-table"]
    set_stat(state, hero, "attention", 4)
    assert 4 + 1 + attention_add(state, hero, table) == 6
    set_stat(state, hero, "luck", 3)
    hero.treasures = 0
    faces = sorted(jackpot_faces(state, hero, table))
    assert faces == [6]
    step = TreasureLuck(dice="d6", faces=tuple(faces), seat=0, table=table.id, bonus=1,
                        why="example")
    treasure_luck(state, step, 6)
    assert hero.treasures == table.top_row.reward.treasures
    jump = DATA.check("crevice-horizontal", "jump")
    set_stat(state, hero, "speed", 2)
    set_stat(state, hero, "dexterity", 0)
    assert jump_needed(jump, {"width": 1}) == 3 > jump_length(state, hero, jump)


def test_venomous_creatures_crawl_through_walls():
    from engine.games.catacombs.pathfinding import find_path

    state = arena(DATA, players=1)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    floor = tile.floor_cells()
    start = max(floor, key=lambda c: abs(c[0] - hero.pos[2]) + abs(c[1] - hero.pos[3]))
    spider = spawn(state, "venomous", (*hero.pos[:2], *start), awake=True)
    zombie = spawn(state, "zombie", (*hero.pos[:2], *start), awake=True)
    crawl = find_path(state, spider, {hero.pos})
    walk = find_path(state, zombie, {hero.pos})
    manhattan = abs(start[0] - hero.pos[2]) + abs(start[1] - hero.pos[3])
    assert len(crawl) == manhattan - 1
    assert len(walk) >= len(crawl)


def test_a_door_opened_with_a_key_can_be_locked_again_one_forced_is_gone():
    locked = next(t.id for t in DATA.tokens.values() if t.type == "door" and t.hidden.get("locked")
                  and t.hidden.get("behind") == "nothing")
    for means, stays in (("key", True), ("strength", False)):
        state = arena(DATA, players=1)
        hero = state.heroes[0]
        tile = state.tile_of(hero.pos)
        nxt = next(n for n, _ in state.board.steps(hero.pos) if n[:2] == hero.pos[:2])
        door = {"uid": "fd", "type": "door", "card": locked, "cell": list(nxt[2:]),
                "known_locked": True}
        tile.features.append(door)
        set_stat(state, hero, "strength", 9 if means == "strength" else 0)
        hero.items = ["key"] if means == "key" else []
        state.actions_left = 2
        state.refresh()
        state.apply(Action.of("door", how="force", door="fd"))
        assert (door in tile.features) == stays
        if stays:
            state.apply(Action.of("lock", door="fd"))
            assert not door["open"] and door["known_locked"]


def test_in_team_play_intrigues_hit_only_the_rival_team():
    from engine.games.catacombs.cards import intrigue_targets

    state = arena(DATA, players=3)
    a, b, c = state.heroes
    a.team, b.team, c.team = "blue", "blue", "red"
    assert intrigue_targets(state, a) == [c]
    a.team = b.team = c.team = ""
    assert intrigue_targets(state, a) == [b, c]


def test_a_hired_bandit_becomes_a_mercenary_card():
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    assert sum(state.pools.get("mercenary", {}).values()) > 0
    hire = DATA.check("bandit", "hire")
    hero.character = next(c.id for c in DATA.characters.values() if c.hire_limit > 0)
    for t in hire.requires:
        set_stat(state, hero, t.stat, t.min)
    hero.treasures = hire.cost_treasures
    bandit = spawn(state, "bandit", hero.pos, awake=True)
    state.actions_left = 2
    state.refresh()
    state.apply(Action.of("bargain", target=bandit.uid, how="hire"))
    while state.is_chance_node:
        state.apply(state.sample_chance())
    assert not bandit.alive and hero.treasures == 0
    assert any(DATA.cards[c].attack for c in hero.spells if c in DATA.cards)


def test_the_demons_doom_knowledge_is_drawn_where_it_appears():
    from engine.games.catacombs.ending import pick_up_belongings

    state = arena(DATA, players=4)
    hero = state.heroes[0]
    spawn(state, "demon", hero.pos, awake=True)
    state.advance()
    state.refresh()
    while state.is_chance_node:
        state.apply(state.sample_chance())
    tile = state.tile_of(hero.pos)
    assert any(f["type"] == "knowledge" for f in tile.features)
    before = hero.secret_knowledge
    pick_up_belongings(state, hero)
    assert hero.secret_knowledge == before + 1
