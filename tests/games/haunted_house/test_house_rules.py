"""The rules of the haunted house, each played through the public state API."""

from __future__ import annotations

from house_support import chance, dealt, end_turn, explore, game, start_scenario

from engine.core.api import Action
from engine.core.game import TURN_BOUND

BEAST = -1


def _attacks(state) -> list[Action]:
    return [a for a in state.legal_actions() if a.kind == "attack"]


def _tasks(state) -> list[Action]:
    return [a for a in state.legal_actions() if a.kind == "task"]


def test_no_attack_before_the_scenario_begins() -> None:
    state = dealt(["gleb-orlov", "vera-lanskaya", "ida-marsh"])  # all in the front hall
    assert _attacks(state) == []
    start_scenario(state, "beast-under-the-roof", finder=0)
    assert _attacks(state)  # the traitor may attack the heroes now


def test_attacks_only_with_traits_the_defender_has_and_one_weapon_at_most() -> None:
    state = dealt(["gleb-orlov", "vera-lanskaya", "ida-marsh"])
    end_turn(state)
    explore(state, "n", "box-room", card="sacrificial-dagger")
    end_turn(state)
    end_turn(state)
    start_scenario(state, "beast-under-the-roof", finder=0)  # Gleb, in the front hall
    end_turn(state)
    end_turn(state)  # the werewolf stays by Gleb
    state.apply(Action.of("move", to="front-hall"))
    attacks = _attacks(state)
    # The werewolf has no mind: no Knowledge attack on it; Gleb (an explorer) has every trait.
    assert Action.of("attack", target=BEAST, trait="might", weapon="") in attacks
    assert Action.of("attack", target=0, trait="knowledge",
                     weapon="sacrificial-dagger") in attacks
    assert not [a for a in attacks if a.get("target") == BEAST and a.get("trait") == "knowledge"]
    assert all([k for k, _ in a.args].count("weapon") == 1 for a in attacks)


def test_the_shade_is_attacked_only_with_the_scenario_s_trait() -> None:
    state = dealt(["vera-lanskaya", "gleb-orlov", "ida-marsh"])
    start_scenario(state, "shade-in-the-mirrors", finder=0)
    assert state.traitor == 1  # Gleb has the lowest Sanity
    assert state.monster["room"] == "cellar-stairfoot"
    state.apply(Action.of("move", to="cellar-stairfoot"))
    on_shade = {a.get("trait") for a in _attacks(state) if a.get("target") == BEAST}
    assert on_shade == {"sanity"}  # no body to strike; the heroes' special allows Sanity


def test_weapons_attack_but_never_defend_and_a_tie_does_nothing() -> None:
    state = dealt(["vera-lanskaya", "gleb-orlov", "ida-marsh"])
    explore(state, "w", "scullery", card="spear")
    for _ in range(3):
        end_turn(state)
    state.apply(Action.of("move", to="front-hall"))
    start_scenario(state, "beast-under-the-roof", finder=1)
    state.apply(Action.of("attack", target=1, trait="might", weapon="spear"))
    assert state.queue[0]["n"] == 4 + 2  # Vera's Might 4 and the spear's 2 extra dice
    assert state.queue[1]["n"] == 5  # Gleb defends with his Might alone
    before = [dict(s.marks) for s in state.seats]
    chance(state, total=5)
    chance(state, total=5)
    assert [dict(s.marks) for s in state.seats] == before
    assert _attacks(state) == []  # one attack a turn


def test_no_death_before_the_scenario_but_the_death_mark_kills_after() -> None:
    state = dealt(["timofey-ruchkin", "gleb-orlov", "ida-marsh"])
    explore(state, "n", "winter-garden")
    chance(state, card="cold-embrace")  # a Sanity roll; 0-2 gives 2 mental damage
    chance(state, total=1)
    assert state.queue[0]["fn"] == "damage" and state.queue[0]["n"] == 2  # a die a point
    chance(state, total=4)
    state.apply(Action.of("split", sanity=0, knowledge=4))  # Knowledge is on its 3rd mark
    assert state.seats[0].alive and state.seats[0].marks["knowledge"] == 1
    for _ in range(3):
        end_turn(state)
    state.apply(Action.of("move", to="front-hall"))
    start_scenario(state, "beast-under-the-roof", finder=1)
    state.apply(Action.of("attack", target=1, trait="might", weapon=""))
    chance(state, total=0)
    chance(state, total=4)
    state.apply(Action.of("split", might=4, speed=0))
    assert not state.seats[0].alive and state.seats[0].marks["might"] == 0


def test_a_dead_explorer_leaves_items_and_the_companions_leave() -> None:
    state = dealt(["timofey-ruchkin", "gleb-orlov", "ida-marsh"])
    explore(state, "w", "scullery", card="dog")
    for _ in range(3):
        end_turn(state)
    assert state.turn["moves"] == state.value(0, "speed") + 1  # the dog: a room more
    state.apply(Action.of("move", to="front-hall"))
    explore(state, "n", "box-room", card="axe")
    start_scenario(state, "beast-under-the-roof", finder=0)  # Timofey turns traitor
    end_turn(state)
    end_turn(state)  # the werewolf stays
    state.apply(Action.of("move", to="box-room"))
    state.apply(Action.of("attack", target=0, trait="might", weapon=""))
    chance(state, total=8)
    chance(state, total=0)
    assert state.legal_actions() == [Action.of("inflict"), Action.of("steal", item="axe")]
    state.apply(Action.of("inflict"))
    state.apply(Action.of("split", might=8, speed=0))
    assert not state.seats[0].alive
    assert state.floor_items["box-room"] == ["axe"]
    assert any("Dog runs off" in e for e in state.events)


def test_discovering_a_room_ends_the_movement_and_draws_a_tile_fitting_the_floor() -> None:
    state = dealt(["vera-lanskaya", "gleb-orlov", "ida-marsh"])
    state.apply(Action.of("move", to="upper-stairhead"))
    state.apply(Action.of("explore", door="e"))
    tiles = {o.action.get("card") for o in state.chance_outcomes()}
    assert tiles == {r for r, room in game().data.rooms.items()
                     if "upper" in room.floors and not room.start}
    assert len({o.probability for o in state.chance_outcomes()}) == 1
    chance(state, card="long-corridor")  # doorways n and s: only one way to lay it east
    assert state.rooms["long-corridor"][3] == "ew" and state.turn["moves"] == 0
    assert [a.kind for a in state.legal_actions()] == ["end"]


def test_a_new_tile_is_turned_so_a_doorway_faces_the_explorer() -> None:
    state = dealt(["vera-lanskaya", "gleb-orlov", "ida-marsh"])
    state.apply(Action.of("explore", door="e"))
    chance(state, card="library")  # doorways s and w as printed
    assert [a.get("doors") for a in state.legal_actions()] == ["sw", "nw"]
    state.apply(Action.of("rotate", doors="nw"))
    assert state.rooms["library"][3] == "nw"


def test_the_dread_roll_uses_a_die_per_omen_and_wakes_the_omen_s_scenario() -> None:
    state = dealt(["vera-lanskaya", "gleb-orlov", "ida-marsh"])
    explore(state, "n", "portrait-hall", card="torn-collar")
    assert state.queue[0]["fn"] == "dread" and state.queue[0]["n"] == 1
    chance(state, total=0)
    end_turn(state)
    explore(state, "e", "smoking-room", card="claw-marks")
    assert state.queue[0]["n"] == 2
    chance(state, total=4)  # 5+ is needed
    assert not state.scenario
    end_turn(state)
    explore(state, "w", "laundry", card="wax-doll")
    assert state.queue[0]["n"] == 3
    chance(state, total=5)
    assert state.scenario == "shade-in-the-mirrors" and state.started == 1
    assert state.finder == 2


def test_one_task_roll_a_turn_and_only_in_the_task_s_room() -> None:
    state = dealt(["gleb-orlov", "vera-lanskaya", "ida-marsh"])
    end_turn(state)
    explore(state, "n", "long-corridor")
    end_turn(state)
    end_turn(state)
    end_turn(state)
    explore(state, "n", "kitchen", doors="nes")  # a room with fire, north of the corridor
    end_turn(state)
    end_turn(state)
    start_scenario(state, "beast-under-the-roof", finder=0)
    end_turn(state)
    end_turn(state)
    assert state.turn["seat"] == 1 and state.seats[1].room == "kitchen"
    assert _tasks(state) == [Action.of("task", trait="knowledge"),
                             Action.of("task", trait="might")]
    state.apply(Action.of("task", trait="knowledge"))
    chance(state, total=1)
    assert _tasks(state) == []  # not Might after Knowledge in the same turn
    end_turn(state)
    assert state.seats[2].room == "front-hall" and _tasks(state) == []  # no fire here


def test_silver_kills_the_werewolf_and_the_heroes_win() -> None:
    state = dealt(["gleb-orlov", "vera-lanskaya", "ida-marsh"])
    explore(state, "e", "kitchen")
    start_scenario(state, "beast-under-the-roof", finder=0)  # the werewolf in the kitchen
    end_turn(state)
    end_turn(state)
    state.apply(Action.of("move", to="kitchen"))
    state.apply(Action.of("task", trait="knowledge"))
    chance(state, total=4)  # three players: one success casts the silver
    assert "token:silver:1" in state.seats[1].items
    state.apply(Action.of("attack", target=BEAST, trait="might", weapon=""))
    chance(state, total=6)
    chance(state, total=2)
    assert state.is_terminal and state.monster["killed"]
    assert state.winners == [1, 2] and state.ended_by == "heroes-kill-monster"


def test_the_turn_bound_ends_the_game_without_a_winner() -> None:
    state = game().new_initial_state(3, 5, {"max_rounds": 2})
    while not state.is_terminal:
        state.apply(state.sample_chance() if state.is_chance_node else Action.of("end"))
    assert state.ended_by == TURN_BOUND and state.winners == [] and state.round == 2
