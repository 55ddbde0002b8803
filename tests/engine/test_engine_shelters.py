"""Shelters against controlled monsters and hostile heroes, surprise attacks, dynamite, and the
intrigue that opens a door with a monster behind it (canonical content)."""

from __future__ import annotations

from engine_support import arena, canonical_plain

from engine.core.api import Action
from engine.games.catacombs.combat import _venomous_check, weapons
from engine.games.catacombs.data import from_plain
from engine.games.catacombs.monsters import spawn
from engine.games.catacombs.relationships import hostile

DATA = from_plain(canonical_plain())
HIDE = DATA.check("shelter", "hide")
BLAST = DATA.check("shelter", "break")
SURPRISE = sum(m.add for m in HIDE.modifiers)
assert SURPRISE >= 1, "the shelter-hide check carries the surprise-attack bonus"


def _hidden_next_to(monster: str, players: int = 1, controlled: bool = False):
    """A hero hiding in a shelter on their tile, an awake monster on the same cell."""
    state = arena(DATA, players=players)
    hero = state.heroes[0]
    state.tile_of(hero.pos).features.append({"uid": "fs", "type": "shelter", "cell": None})
    piece = spawn(state, monster, hero.pos, awake=True)
    piece.hp = 100
    piece.controlled = controlled
    hero.hidden = HIDE.turns
    state.seat = 0
    state.actions_left = 2
    state.refresh()
    return state, hero, piece


def _make_hostile(state, a, b) -> None:
    state.set_relation(a.seat, b.seat, -99)
    assert hostile(state, a, b)


def test_a_hidden_hero_attacks_from_the_shelter_with_the_surprise_bonus():
    state, hero, piece = _hidden_next_to("zombie")
    attack = Action.of("attack", target=piece.uid, ranged=False)
    assert attack in state.legal_actions()
    blow = state.stat(hero, "strength") + weapons(state, hero)[0]
    state.apply(attack)
    print("surprise blow", 100 - piece.hp, "plain blow", blow)
    assert piece.hp == 100 - blow - SURPRISE
    assert hero.hidden == 0


def test_no_surprise_bonus_against_a_controlled_monster():
    state, hero, piece = _hidden_next_to("zombie", controlled=True)
    blow = state.stat(hero, "strength") + weapons(state, hero)[0]
    attack = Action.of("attack", target=piece.uid, ranged=False)
    assert attack in state.legal_actions()
    state.apply(attack)
    assert piece.hp == 100 - blow
    assert hero.hidden == 0


def test_an_attack_out_in_the_open_has_no_surprise_bonus():
    state, hero, piece = _hidden_next_to("zombie")
    hero.hidden = 0
    state.refresh()
    blow = state.stat(hero, "strength") + weapons(state, hero)[0]
    state.apply(Action.of("attack", target=piece.uid, ranged=False))
    assert piece.hp == 100 - blow


def test_the_surprise_bonus_adds_to_an_attack_roll():
    state, hero, piece = _hidden_next_to("venomous")
    check = _venomous_check(state, piece, False, armed=weapons(state, hero)[0] > 0)
    assert check is not None and check.dice is not None
    top = check.dice.sides
    misses = [v for v in range(1, top + 1) if v not in check.success]
    near_miss = next(v for v in reversed(misses) if min(v + SURPRISE, top) in check.success)
    state.apply(Action.of("attack", target=piece.uid, ranged=False))
    assert state.is_chance_node and state.queue[0].surprise == SURPRISE
    state.apply(Action.of("roll", value=near_miss))
    print("die", near_miss, "hits with the surprise bonus:", not piece.alive)
    assert not piece.alive


def test_a_controlled_monster_on_the_tile_blocks_the_shelter():
    state, hero, piece = _hidden_next_to("zombie", controlled=True)
    other = spawn(state, "zombie", hero.pos, awake=True)
    state.refresh()
    kinds = [(a.kind, a.get("how"), a.get("target")) for a in state.legal_actions()]
    assert ("shelter", "leave", None) not in kinds
    assert ("attack", None, piece.uid) in kinds
    assert ("attack", None, other.uid) not in kinds
    piece.alive = False
    state.refresh()
    kinds = [(a.kind, a.get("how"), a.get("target")) for a in state.legal_actions()]
    assert ("shelter", "leave", None) in kinds
    assert ("attack", None, other.uid) in kinds


def test_a_hostile_hero_on_the_tile_blocks_the_shelter_a_neutral_one_does_not():
    state = arena(DATA, players=2)
    hider, other = state.heroes
    other.pos = hider.pos
    hider.hidden = HIDE.turns
    state.seat = hider.seat
    state.actions_left = 2
    state.refresh()
    leave = Action.of("shelter", how="leave")
    assert not hostile(state, hider, other)
    assert leave in state.legal_actions()
    _make_hostile(state, hider, other)
    state.refresh()
    assert leave not in state.legal_actions()
    other.pos = None
    other.out = True
    state.refresh()
    assert leave in state.legal_actions()


def _dynamite_scene(hostile_pair: bool = True, dynamite: bool = True):
    state = arena(DATA, players=2)
    bomber, hider = state.heroes
    tile = state.tile_of(bomber.pos)
    tile.features.append({"uid": "fs", "type": "shelter", "cell": None})
    hider.pos = bomber.pos
    hider.hidden = HIDE.turns
    hider.hp = hider.max_hp = 10
    bomber.items = list(BLAST.items) if dynamite else []
    if hostile_pair:
        _make_hostile(state, bomber, hider)
    state.seat = bomber.seat
    state.actions_left = 2
    state.refresh()
    return state, bomber, hider, tile


def test_dynamite_blows_up_a_shelter_and_throws_the_hider_out():
    state, bomber, hider, tile = _dynamite_scene()
    assert BLAST.items and "shelter" in DATA.items[BLAST.items[0]].opens
    blow_up = Action.of("blow-up", seat=hider.seat)
    assert blow_up in state.legal_actions()
    before = hider.hp
    state.apply(blow_up)
    print("hider health", before, "->", hider.hp)
    assert hider.hidden == 0
    assert BLAST.on_success.health < 0
    assert hider.alive and hider.hp == before + BLAST.on_success.health
    assert not any(f["type"] == "shelter" for f in tile.features)
    assert not set(BLAST.items) & set(bomber.items)


def test_no_blast_without_dynamite_or_against_a_friend():
    state, *_ = _dynamite_scene(dynamite=False)
    assert not [a for a in state.legal_actions() if a.kind == "blow-up"]
    state, *_ = _dynamite_scene(hostile_pair=False)
    assert not [a for a in state.legal_actions() if a.kind == "blow-up"]


def _door_token(behind: str) -> str:
    return next(
        t.id
        for t in DATA.tokens.values()
        if t.type == "door" and t.hidden.get("behind") == behind and t.hidden.get("locked")
    )


def test_the_intrigue_opens_a_door_with_a_monster_and_the_monster_comes_out():
    state = arena(DATA, players=2)
    hero = state.heroes[0]
    tile = state.tile_of(hero.pos)
    cells = tile.floor_cells()
    monster_door = {"uid": "fm", "type": "door", "card": _door_token("monster"),
                    "cell": list(cells[0])}
    empty_door = {"uid": "fe", "type": "door", "card": _door_token("nothing"),
                  "cell": list(cells[-1])}
    tile.features += [monster_door, empty_door]
    [card] = [c.id for c in DATA.cards.values() if c.opens_monster_door]
    assert DATA.decks[DATA.cards[card].deck].type == "intrigue"
    hero.spells = [card]
    state.seat = hero.seat
    state.actions_left = 2
    state.touch_layout("passage")
    state.refresh()
    plays = [a for a in state.legal_actions() if a.kind == "intrigue"]
    assert plays == [Action.of("intrigue", card=card, door="fm")]
    before = len(state.pieces)
    state.apply(plays[0])
    assert monster_door["open"] and monster_door["sprung"]
    assert not empty_door.get("open")
    assert card not in hero.spells
    assert state.is_chance_node and state.queue[0].pool == "monster"
    state.apply(state.sample_chance())
    door_cell = (hero.pos[0], hero.pos[1], *cells[0])
    newcomer = state.pieces[before:]
    print("came out:", [(p.monster, p.pos) for p in newcomer])
    assert len(newcomer) == 1 and newcomer[0].awake
    assert any(e.endswith(f"appears at {door_cell}") for e in state.events)
    state.refresh()
    assert not [a for a in state.legal_actions() if a.kind == "intrigue" and a.get("door")]


def test_when_the_shelter_time_is_over_a_blocked_hero_suffocates_a_free_one_comes_out():
    from engine.games.catacombs.turn import begin_turn

    for blocking, alive in ((False, True), (True, False)):  # a controlled monster blocks
        state, hero, _ = _hidden_next_to("zombie", controlled=blocking)
        hero.hidden = 1  # the last turn in the shelter
        begin_turn(state)
        assert hero.alive == alive
        assert hero.hidden == 0
        assert hero.cause == ("" if alive else "suffocated in a blocked shelter")
    state, hero, _ = _hidden_next_to("zombie", controlled=True)
    hero.hidden = HIDE.turns
    begin_turn(state)
    assert hero.alive and hero.hidden == HIDE.turns - 1  # time left: no harm yet
