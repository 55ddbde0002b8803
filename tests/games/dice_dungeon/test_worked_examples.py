"""The seed's two worked examples, played through the engine's public API with the seed's
numbers: the setup orders 123456 and 345612, and the fight against the spider."""

from __future__ import annotations

from fractions import Fraction

from dd_support import finish_turn, game, path_to, place, play, roll, start

from engine.core.api import Action
from engine.games.dice_dungeon.combat import attack_result, damage_dealt


def test_setup_with_monster_one_and_treasure_three_gives_123456_and_345612() -> None:
    state = start(2, "spider-caves", ["guardian", "assassin"], monster=1, treasure=3, gold=5)
    assert state.monster_rooms == [1, 2, 3, 4, 5, 6]
    assert state.chest_rooms == [3, 4, 5, 6, 1, 2]
    assert state.gold == 5
    assert any("monsters in rooms 123456, chests in rooms 345612" in e for e in state.events)


def test_the_setup_roll_is_repeated_until_the_dice_differ() -> None:
    state = game().new_initial_state(1, 3, {"adventure": "spider-caves"})
    for cls in ("mage", "ranger"):
        play(state, Action.of("pick-class", hero_class=cls))
    outcomes = state.chance_outcomes()
    triples = [(o.action.get("monster"), o.action.get("treasure"), o.action.get("gold"))
               for o in outcomes]
    assert len(triples) == 6 * 5 * 4 and all(len(set(t)) == 3 for t in triples)
    assert {o.probability for o in outcomes} == {Fraction(1, 120)}
    assert Action.of("setup", monster=2, treasure=2, gold=5) not in state.legal_actions()


def _spider_fight_position():
    """Spider Caves, the Guardian and the Assassin; the sheet shows one magic sword and two
    magic shields; dominoes are painted up to the spider's door (the monster numbers go to the
    cave rat, so the spider keeps its 6 health and 4 attack)."""
    state = start(2, "spider-caves", ["guardian", "assassin"], monster=1, treasure=3, gold=5)
    raw = state.to_dict()
    raw["items"] = {"magic-sword": 1, "magic-shield": 2}
    state = game().state_from_dict(raw)
    spider = state.adventure.monsters.index(
        next(m for m in state.adventure.monsters if m.id == "spider"))
    room = state.adventure.grid.room(state.room_of_monster(spider))
    moves = path_to(state, room.doorstep, 2)
    for i, move in enumerate(moves):
        roll(state, 2, 3, 1)
        play(state, Action.of("assign", explore=2, treasure=3, monster=1))
        place(state, move)
        if i < len(moves) - 1:
            finish_turn(state)
    while state.queue[0]["step"] == "upgrade":
        play(state, state.legal_actions()[0])
    return state, spider


def test_the_spider_fight() -> None:
    state, spider = _spider_fight_position()
    assert state.monster_value(spider, "health") == 6
    assert state.monster_value(spider, "attack") == 4
    play(state, Action.of("attack", monster=spider))
    play(state, Action.of("fight-roll", dice="2-4"))  # two heroes: (2 + 4) / 2 = 3
    assert attack_result(state) == 3 + 1  # the magic sword
    guardian = next(i for i, h in enumerate(state.heroes) if h.cls == "guardian")
    assassin = next(i for i, h in enumerate(state.heroes) if h.cls == "assassin")
    play(state, Action.of("ability", hero=guardian, ability="crush"))
    assert attack_result(state) == 6
    assert damage_dealt(state) == 2  # attack 4 less two magic shields
    play(state, Action.of("strike"))
    assert state.monsters[spider].defeated
    assert [e for e in state.events if e.startswith("attack 6 against health 6")]
    # the players give one wound to the Guardian and one to the Assassin
    assert state.queue[0] == {"step": "wound", "left": 2, "source": "spider"}
    play(state, Action.of("wound", hero=guardian))
    play(state, Action.of("wound", hero=assassin))
    assert [state.health(state.heroes[i]) for i in (guardian, assassin)] == [2, 2]
    assert state.tally.damage_taken == 2


def test_without_crush_the_spider_holds_and_still_hits() -> None:
    state, spider = _spider_fight_position()
    play(state, Action.of("attack", monster=spider))
    play(state, Action.of("fight-roll", dice="2-4"))
    play(state, Action.of("strike"))
    assert not state.monsters[spider].defeated
    assert state.queue[0]["step"] == "wound" and state.queue[0]["left"] == 2
