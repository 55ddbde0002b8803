"""The seed's worked examples, played through the engine's public API with the seed's numbers."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from house_support import chance, dealt, end_turn, entity, explore, plain, start_scenario

from engine.core.api import Action, IllegalActionError

BEAST = -1  # the monster, as an attack target


def _fight_example() -> dict:
    return entity(plain(), "combat-example")


def test_a_trait_roll_with_4_sanity_rolls_4_dice() -> None:
    """An explorer with Sanity 4 who must make a Sanity roll rolls 4 dice and adds the pips."""
    ex = entity(plain(), "trait-roll-example")
    state = dealt(["vera-lanskaya", "gleb-orlov", "ida-marsh"])
    assert state.value(0, ex["trait"]) == ex["value"] == 4
    explore(state, "n", "winter-garden")
    chance(state, card="whispers-in-the-walls")  # the event calls for a Sanity roll
    assert state.is_chance_node and state.queue[0]["n"] == ex["dice"] == 4
    faces = entity(plain(), "house-die")["faces"]
    brute: dict[int, Fraction] = {}
    for roll in itertools.product(faces, repeat=4):
        brute[sum(roll)] = brute.get(sum(roll), Fraction(0)) + Fraction(1, 6 ** 4)
    assert {o.action.get("total"): o.probability for o in state.chance_outcomes()} == brute


def _beast_at_vera_s_turn() -> object:
    """Gleb finds the waking omen and turns traitor; the werewolf appears beside him in the
    front hall, where Vera and Ida stand; it is Vera's turn."""
    state = dealt(["gleb-orlov", "vera-lanskaya", "ida-marsh"])
    start_scenario(state, "beast-under-the-roof", finder=0)
    assert state.traitor == 0 and state.monster["room"] == "front-hall"
    end_turn(state)  # Gleb's turn
    assert state.turn["phase"] == "monster"
    end_turn(state)  # the werewolf's turn
    assert state.turn == {**state.turn, "seat": 1, "phase": "explorer"}
    return state


def test_six_against_five_deals_one_physical_damage() -> None:
    ex = entity(plain(), "attack-example")
    state = _beast_at_vera_s_turn()
    state.apply(Action.of("attack", target=0, trait="might", weapon=""))
    chance(state, total=ex["roll"])
    chance(state, total=ex["opponent_roll"])
    # The traitor (the defender) splits 1 physical damage between Might and Speed.
    assert state.current_player == 0
    assert state.legal_actions() == [Action.of("split", might=1, speed=0),
                                     Action.of("split", might=0, speed=1)]
    assert ex["damage"] == 1 and ex["damage_type"] == "physical"


def test_the_fight_example_leaves_might_3_and_speed_4() -> None:
    """Vera (Might 4) attacks the werewolf: 4 dice for 5 against 8 for the werewolf. She takes 3
    physical damage, lowers Might by 2 (it becomes 3) and Speed by 1 (it stays 4)."""
    ex = _fight_example()
    state = _beast_at_vera_s_turn()
    vera = 1
    assert state.seats[vera].explorer == ex["explorer"] == "vera-lanskaya"
    assert state.value(vera, "might") == ex["value"] == 4
    assert state.value(vera, "speed") == 4
    state.apply(Action.of("attack", target=BEAST, trait="might", weapon=""))
    assert state.queue[0]["n"] == ex["dice"] == 4
    chance(state, total=ex["roll"])  # 5
    chance(state, total=ex["opponent_roll"])  # the traitor rolls 8 for the werewolf
    assert state.current_player == vera
    assert len(state.legal_actions()) == ex["damage"] + 1 == 4  # 3 physical damage to split
    might, speed = ex["losses"]
    state.apply(Action.of("split", might=might["amount"], speed=speed["amount"]))
    assert state.value(vera, "might") == might["after"] == 3
    assert state.value(vera, "speed") == speed["after"] == 4
    assert state.seats[vera].alive  # wounded, but still alive


def test_the_vault_cannot_be_tried_twice_in_one_turn() -> None:
    ex = entity(plain(), "vault-example")
    state = dealt(["vera-lanskaya", "gleb-orlov", "ida-marsh"])
    state.apply(Action.of("move", to="cellar-stairfoot"))
    explore(state, "n", "vault", card="axe")
    try_vault = Action.of("room", room=ex["room"])
    assert try_vault in state.legal_actions()
    state.apply(try_vault)
    assert state.queue[0]["trait"] == ex["trait"] and state.queue[0]["n"] == 4
    chance(state, total=2)  # Knowledge 6+ needed: a failure
    assert ex["tries_per_turn"] == 1
    assert try_vault not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="room"):
        state.clone().apply(try_vault)
    for _ in range(3):  # Vera, Gleb and Ida end their turns; Vera's next turn comes
        end_turn(state)
    assert state.turn["seat"] == 0 and try_vault in state.legal_actions()


# ----- ranged attacks, stealing, stunned monsters ------------------------------------------------


def _shootout() -> object:
    """Round 1: Gleb finds an axe in the scullery, Vera a revolver in the box room north of the
    front hall. Round 2: Gleb walks back to the front hall and turns traitor there; the
    werewolf appears beside him and Ida. It is Vera's turn, in the box room."""
    state = dealt(["gleb-orlov", "vera-lanskaya", "ida-marsh"])
    explore(state, "w", "scullery", card="axe")
    end_turn(state)
    explore(state, "n", "box-room", card="revolver")
    end_turn(state)
    end_turn(state)  # Ida
    state.apply(Action.of("move", to="front-hall"))
    start_scenario(state, "beast-under-the-roof", finder=0)
    end_turn(state)  # Gleb
    end_turn(state)  # the werewolf
    assert state.turn["seat"] == 1 and state.seats[1].room == "box-room"
    return state


def test_a_ranged_attack_goes_along_the_line_of_fire() -> None:
    state = _shootout()
    attacks = [a for a in state.legal_actions() if a.kind == "attack"]
    # Not in the same room: only the revolver reaches, through the open doorways.
    assert attacks == [Action.of("attack", target=BEAST, trait="speed", weapon="revolver"),
                       Action.of("attack", target=0, trait="speed", weapon="revolver")]


def test_the_loser_of_a_ranged_attack_takes_no_damage() -> None:
    state = _shootout()
    before = dict(state.seats[1].marks)
    state.apply(Action.of("attack", target=0, trait="speed", weapon="revolver"))
    assert state.queue[0]["n"] == 5  # Speed 4 and the revolver's extra die
    chance(state, total=1)
    chance(state, total=7)
    assert state.seats[1].marks == before
    assert not state.queue and state.current_player == 1


def test_a_ranged_attack_cannot_steal() -> None:
    state = _shootout()
    state.apply(Action.of("attack", target=0, trait="speed", weapon="revolver"))
    chance(state, total=7)
    chance(state, total=2)
    # 5 physical damage and Gleb carries an axe, but a shot steals nothing.
    assert "axe" in state.seats[0].items
    assert state.queue[0]["fn"] == "split" and state.queue[0]["seat"] == 0
    assert all(a.kind == "split" for a in state.legal_actions())


def test_a_melee_attack_of_two_or_more_physical_damage_may_steal_instead() -> None:
    state = _shootout()
    end_turn(state)  # Vera
    assert state.turn["seat"] == 2 and state.seats[2].room == "front-hall"
    state.apply(Action.of("attack", target=0, trait="might", weapon=""))
    chance(state, total=6)
    chance(state, total=4)
    assert state.current_player == 2
    assert state.legal_actions() == [Action.of("inflict"), Action.of("steal", item="axe")]
    before = dict(state.seats[0].marks)
    state.apply(Action.of("steal", item="axe"))
    assert "axe" in state.seats[2].items and "axe" not in state.seats[0].items
    assert state.seats[0].marks == before  # instead of the damage


def test_one_point_short_of_two_cannot_steal() -> None:
    state = _shootout()
    end_turn(state)
    state.apply(Action.of("attack", target=0, trait="might", weapon=""))
    chance(state, total=5)
    chance(state, total=4)
    assert [a.kind for a in state.legal_actions()] == ["split", "split"]


def test_a_beaten_monster_is_stunned_and_a_stunned_monster_deals_no_damage() -> None:
    state = _shootout()
    state.apply(Action.of("attack", target=BEAST, trait="speed", weapon="revolver"))
    chance(state, total=6)
    chance(state, total=3)
    assert state.monster["stunned"] == 1 and not state.monster["killed"]
    end_turn(state)  # Vera
    ida = 2
    before = dict(state.seats[ida].marks)
    state.apply(Action.of("attack", target=BEAST, trait="might", weapon=""))
    chance(state, total=1)
    chance(state, total=9)  # the stunned werewolf wins the roll but deals no damage
    assert state.seats[ida].marks == before and not state.queue
    end_turn(state)  # Ida
    end_turn(state)  # Gleb: the stunned werewolf misses its turn and recovers
    assert state.turn["seat"] == 1 and state.turn["phase"] == "explorer"
    assert state.monster["stunned"] == 0
    assert any("misses its turn and recovers" in e for e in state.events)
