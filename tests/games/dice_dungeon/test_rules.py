"""The rules of a turn, of chests, monsters, fights, heroes and the end of a level, each played
through the public API from a chosen position."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from dd_support import finish_turn, game, play, roll, start

from engine.core.api import Action
from engine.games.dice_dungeon.combat import attack_options, damage_dealt, reachable
from engine.games.dice_dungeon.ending import chest_stars, score
from engine.games.dice_dungeon.heroes import level_cost
from engine.games.dice_dungeon.monsters import upgradable_tracks
from engine.games.dice_dungeon.state import DungeonState


def edit(state: DungeonState, change: Callable[[dict], None]) -> DungeonState:
    """A position changed on the sheet (to_dict, edit, state_from_dict)."""
    raw = state.to_dict()
    change(raw)
    return game().state_from_dict(raw)


def caves(classes=("guardian", "assassin")) -> DungeonState:
    return start(len(classes), "spider-caves", list(classes), monster=1, treasure=3, gold=4)


def index_of(state: DungeonState, monster: str) -> int:
    return [m.id for m in state.adventure.monsters].index(monster)


def numbers(state: DungeonState, track: str = "health") -> None:
    """Let the assigned numbers act: paint the first legal placement, upgrade `track`."""
    while state.queue[0]["step"] in ("place", "upgrade"):
        options = state.legal_actions()
        wanted = Action.of("upgrade", track=track)
        play(state, wanted if wanted in options else options[0])


def to_end_of_turn(state: DungeonState) -> None:
    if state.queue[0]["step"] == "choose-attack":
        play(state, Action.of("pass"))
    assert state.queue[0]["step"] == "end-turn"


# ----- the turn ----------------------------------------------------------------------------------

def test_the_turn_roll_is_three_dice_and_the_numbers_go_out_in_any_order() -> None:
    state = caves()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 56 and sum(o.probability for o in outcomes) == 1
    assert next(o.probability for o in outcomes if o.action.get("dice") == "2-2-5") == \
        Fraction(3, 216)
    roll(state, 2, 2, 5)
    assigns = [a for a in state.legal_actions() if a.kind == "assign"]
    assert sorted((a.get("explore"), a.get("treasure"), a.get("monster")) for a in assigns) == [
        (2, 2, 5), (2, 5, 2), (5, 2, 2)]


def test_a_one_given_to_exploration_is_rolled_again_until_it_changes() -> None:
    state = caves()
    roll(state, 1, 3, 4)
    play(state, Action.of("assign", explore=1, treasure=3, monster=4))
    outcomes = state.chance_outcomes()
    assert [o.action.get("value") for o in outcomes] == [2, 3, 4, 5, 6]
    assert {o.probability for o in outcomes} == {Fraction(1, 5)}
    play(state, Action.of("face", value=6))
    assert state.assigned["explore"] == 6
    assert all(a.kind == "place" for a in state.legal_actions())


def test_a_treasure_number_fills_the_next_box_of_that_chest() -> None:
    state = caves()
    roll(state, 2, 3, 6)
    play(state, Action.of("assign", explore=2, treasure=3, monster=6))
    numbers(state)
    assert state.chests[2].boxes == 1 and state.chest_rooms[2] == 5
    assert "the chest in room 5 fills box 1" in "\n".join(state.events)


def test_an_opened_chest_takes_no_more_numbers() -> None:
    state = edit(caves(), lambda raw: raw["chests"][2].update(opened=True, boxes=2))
    roll(state, 2, 3, 6)
    play(state, Action.of("assign", explore=2, treasure=3, monster=6))
    numbers(state)
    assert state.chests[2].boxes == 2
    assert any("already open; the number is lost" in e for e in state.events)


# ----- monsters ----------------------------------------------------------------------------------

def test_health_and_attack_boxes_never_differ_by_more_than_two() -> None:
    state = caves()
    rat = index_of(state, "cave-rat")
    assert upgradable_tracks(state, rat) == ["health", "attack"]
    state.monsters[rat].health_boxes = 2
    assert upgradable_tracks(state, rat) == ["attack"]
    state.monsters[rat].attack_boxes = 3  # the whole attack track
    state.monsters[rat].health_boxes = 5
    assert upgradable_tracks(state, rat) == []


def test_starting_values_may_differ_by_more_than_two() -> None:
    spider = caves().adventure.monsters[index_of(caves(), "spider")]
    assert spider.health - spider.attack == 2
    troll = next(m for m in game().data.adventure("dragons-lair").monsters if m.id == "dragon")
    assert troll.health - troll.attack > 2


def test_a_monster_that_acts_before_play_fills_its_box_at_setup() -> None:
    state = caves()
    troll = index_of(state, "cave-troll")
    assert state.monsters[troll].health_boxes == 1
    assert any("before play the Cave troll fills 1 health box" in e for e in state.events)


def test_the_swarm_fills_two_boxes_per_number() -> None:
    state = caves()
    swarm = index_of(state, "bat-swarm")
    roll(state, 2, 3, swarm + 1)
    play(state, Action.of("assign", explore=2, treasure=3, monster=swarm + 1))
    numbers(state, "attack")
    assert state.monsters[swarm].attack_boxes == 2


def test_a_number_on_a_beaten_monster_collects_its_chest_and_is_lost() -> None:
    def beaten(raw: dict) -> None:
        raw["monsters"][2]["defeated"] = True  # the bat swarm, in room 3
        raw["chests"][0]["boxes"] = 2  # chest 1 stands in room 3: a shield, then 2 gold
    state = edit(caves(), beaten)
    roll(state, 2, 4, 3)
    play(state, Action.of("assign", explore=2, treasure=4, monster=3))
    numbers(state)
    assert state.queue[0] == {"step": "open-chest", "chest": 0, "why": "number"}
    gold = state.gold
    play(state, Action.of("open"))
    assert state.chests[0].opened and state.gold == gold + 2 and state.has("magic-shield") == 1
    assert state.tally.numbers_lost == 1
    assert state.monsters[2].health_boxes == 0


# ----- fights ------------------------------------------------------------------------------------

def _at_door(state: DungeonState, monster: str) -> DungeonState:
    index = index_of(state, monster)
    room = state.adventure.grid.room(state.room_of_monster(index))
    return edit(state, lambda raw: raw["painted"].append(list(room.doorstep)))


def _to_attack(state: DungeonState) -> None:
    roll(state, 2, 2, 2)
    play(state, Action.of("assign", explore=2, treasure=2, monster=2))
    numbers(state)


def test_a_locked_door_needs_the_burglar_or_a_lockpick() -> None:
    locked_room = 6  # the Spider Caves' locked door; monster 6 (the queen) sits there
    queen = index_of(caves(), "spider-queen")
    assert caves().room_of_monster(queen) == locked_room
    state = _at_door(caves(), "spider-queen")
    _to_attack(state)
    assert not [a for a in state.legal_actions() if a.get("monster") == queen]
    state = _at_door(caves(("guardian", "burglar")), "spider-queen")
    _to_attack(state)
    burglar = next(i for i, h in enumerate(state.heroes) if h.cls == "burglar")
    assert Action.of("attack", monster=queen, hero=burglar) in state.legal_actions()
    play(state, Action.of("attack", monster=queen, hero=burglar))
    assert locked_room in state.open_doors
    assert state.ability_points(state.heroes[burglar]) == 2


def test_a_boss_needs_its_keys() -> None:
    state = start(2, "sunken-crypt", ["guardian", "burglar"], monster=1, treasure=3, gold=4)
    lich = state.adventure.boss
    room = state.adventure.grid.room(state.room_of_monster(lich))
    state = edit(state, lambda raw: raw["painted"].append(list(room.doorstep)))
    assert not reachable(state, lich)
    state.items["bone-key"] = 1
    assert reachable(state, lich)


def test_shields_stop_one_damage_each_one_per_living_hero() -> None:
    state = _at_door(caves(), "spider")
    spider = index_of(state, "spider")
    state.items["magic-shield"] = 3
    _to_attack(state)
    play(state, Action.of("attack", monster=spider))
    play(state, Action.of("fight-roll", dice="1-1"))
    assert damage_dealt(state) == 4 - 2  # two heroes hold two of the three shields
    state.heroes[1].wounds = 3  # one hero dead: one shield counts
    assert damage_dealt(state) == 4 - 1


def test_each_ability_once_per_fight_and_rerolls_cost_gold() -> None:
    state = _at_door(caves(), "spider")
    spider = index_of(state, "spider")
    _to_attack(state)
    play(state, Action.of("attack", monster=spider))
    play(state, Action.of("fight-roll", dice="1-5"))
    crush = Action.of("ability", hero=0, ability="crush")
    assert crush in state.legal_actions()
    play(state, crush)
    assert crush not in state.legal_actions()
    gold = state.gold
    play(state, Action.of("reroll", die=1))
    assert state.gold == gold - 1 and state.is_chance_node
    play(state, Action.of("face", value=6))
    assert state.fight is not None and state.fight["dice"] == [5, 6]


def test_no_reroll_without_gold() -> None:
    state = edit(_at_door(caves(), "spider"), lambda raw: raw.update(gold=0))
    _to_attack(state)
    play(state, Action.of("attack", monster=index_of(state, "spider")))
    play(state, Action.of("fight-roll", dice="1-5"))
    assert not [a for a in state.legal_actions() if a.kind == "reroll"]


def test_only_reachable_monsters_can_be_attacked() -> None:
    state = caves()
    _to_attack(state)
    assert all(reachable(state, int(a.get("monster"))) for a in attack_options(state, {})
               if a.kind == "attack")


# ----- heroes ------------------------------------------------------------------------------------

def test_levels_cost_five_plus_the_level_and_revive_the_dead() -> None:
    state = edit(caves(), lambda raw: raw.update(gold=30))
    hero = state.heroes[0]
    assert [level_cost(state, hero)] == [6]
    hero.wounds = 3  # dead
    assert not state.alive(hero)
    _to_attack(state)
    to_end_of_turn(state)
    play(state, Action.of("level-up", hero=0))
    assert state.alive(hero) and state.health(hero) == 1 and state.ability_points(hero) == 4
    assert state.gold == 24
    play(state, Action.of("level-up", hero=0))
    play(state, Action.of("level-up", hero=0))
    assert hero.level == 3 and state.gold == 24 - 7 - 8
    assert Action.of("level-up", hero=0) not in state.legal_actions()


def test_a_hero_dead_at_the_last_level_is_dead_for_good() -> None:
    state = edit(caves(), lambda raw: raw["heroes"][0].update(level=3, wounds=6))
    state = edit(state, lambda raw: raw.update(gold=30))
    _to_attack(state)
    to_end_of_turn(state)
    assert Action.of("level-up", hero=0) not in state.legal_actions()


# ----- chests and the end ------------------------------------------------------------------------

def test_a_trap_goes_off_unless_disarmed() -> None:
    def ready(raw: dict) -> None:
        raw["monsters"][3]["defeated"] = True  # the troll's room 4 holds chest 2 (trapped)
        raw["chests"][1]["boxes"] = 1
    for classes, hurt in ((("guardian", "assassin"), True), (("guardian", "burglar"), False)):
        state = edit(caves(classes), ready)
        assert state.adventure.chests[1].trapped and state.chest_rooms[1] == 4
        roll(state, 2, 5, 4)
        play(state, Action.of("assign", explore=2, treasure=5, monster=4))
        numbers(state)
        if not hurt:
            play(state, Action.of("disarm", hero=1))
        play(state, Action.of("open"))
        damage = state.tally.damage_taken
        if state.queue and state.queue[0]["step"] == "wound":
            play(state, Action.of("wound", hero=0))
            damage = state.tally.damage_taken
        assert (damage > 0) == hurt


def test_locked_chests_score_nothing_at_the_end() -> None:
    def ready(raw: dict) -> None:
        for m in raw["monsters"]:
            m["defeated"] = True
        for c in raw["chests"]:
            c["boxes"] = 5
    state = edit(caves(), ready)
    locked = [j for j, c in enumerate(state.adventure.chests) if c.locked]
    everything = sum(b.points for c in state.adventure.chests for b in c.boxes)
    locked_stars = sum(b.points for j in locked for b in state.adventure.chests[j].boxes)
    assert locked and chest_stars(state) == everything - locked_stars
    state.chests[locked[0]].unlocked = True
    assert chest_stars(state) == everything


def test_the_level_ends_when_every_monster_is_beaten() -> None:
    state = edit(caves(), lambda raw: [m.update(defeated=True) for m in raw["monsters"]])
    _to_attack(state)
    finish_turn(state)
    assert state.is_terminal and state.ended_by == "won"
    assert state.results[0]["beaten"] == 6
    points = score(state)
    assert points["monsters"] == 6 * 5 and points["boss"] == 10


def test_the_level_is_lost_when_no_hero_is_left() -> None:
    state = edit(caves(), lambda raw: [h.update(wounds=3) for h in raw["heroes"]])
    _to_attack(state)
    finish_turn(state)
    assert state.is_terminal and state.ended_by == "wiped"


def test_a_campaign_keeps_the_heroes_on_the_fourth_level() -> None:
    state = game().new_initial_state(2, 4, {"campaign": True})
    assert state.levels == [a.id for a in game().data.adventures]
    raw = state.to_dict()
    assert [s["step"] for s in raw["queue"]][:2] == ["pick-class", "pick-class"]
    raw.update(level=3, heroes=[{"seat": 0, "cls": "mage", "level": 2, "wounds": 1, "spent": 2,
                                 "deaths": 0},
                                {"seat": 1, "cls": "cleric", "level": 3, "wounds": 6,
                                 "spent": 0, "deaths": 1}],
               queue=[{"step": "level-start"}])
    state = game().state_from_dict(raw)
    state.advance()
    assert state.queue[0]["step"] == "setup-roll"  # no new heroes on the fourth level
    mage, cleric = state.heroes
    assert (mage.level, state.health(mage), state.ability_points(mage)) == (2, 5, 5)
    assert not state.alive(cleric)  # dead for good at level 3
