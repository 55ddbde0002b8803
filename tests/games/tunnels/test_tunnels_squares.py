"""Every special square as the seed has it, played through the engine's public API."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tunnels_support import FREEDOM, GLITTER, act, finish, game, position, steps

from engine.core.api import Action


def hit(state, n):
    """Resolve the pending attack roll with `n` hits."""
    assert state.is_chance_node
    return act(state, "hits", n=n)


# ----- the hungry tunnels -------------------------------------------------------------------


def test_a_hit_in_the_hungry_tunnels_kills_two_troglodytes():
    # C1 is the vault's hungry tunnels; the sergeant stands there with two troglodytes.
    state = position(GLITTER, warriors={"sergeant": "C1"}, troglodytes=("C1", "C1"),
                     demon="F5")
    act(state, "activate", piece="sergeant")
    act(state, "stop")
    act(state, "attack", target="troglodyte-1")
    hit(state, 1)
    assert [m.key for m in state.monsters] == ["demon"]
    assert state.stats["hungry-tunnels:damage doubled"] == 1


def test_the_same_hit_on_an_ordinary_square_kills_one():
    state = position(GLITTER, warriors={"sergeant": "B1"}, troglodytes=("B1", "B1"),
                     demon="F5")
    act(state, "activate", piece="sergeant")
    act(state, "stop")
    act(state, "attack", target="troglodyte-1")
    hit(state, 1)
    assert [m.key for m in state.monsters] == ["demon", "troglodyte-2"]


def test_a_grenade_in_the_hungry_tunnels_is_not_doubled():
    # Thrown from B1 into C1: each troglodyte takes one damage (one dies each), the Demon one
    # wound token, not two.
    state = position(GLITTER, warriors={"sergeant": "B1"}, troglodytes=("C1",), demon="C1")
    act(state, "activate", piece="sergeant")
    act(state, "stop")
    act(state, "grenade", at="C1")
    outcomes = {str(o.action): o.probability for o in state.chance_outcomes()}
    assert outcomes == {"blast(goes_off=True)": Fraction(5, 6),
                        "blast(goes_off=False)": Fraction(1, 6)}
    act(state, "blast", goes_off=True)
    assert [m.key for m in state.monsters] == ["demon"]
    assert state.demon.wounds == 1
    assert state.stats["hungry-tunnels:grenade not doubled"] == 2
    assert state.warrior("sergeant").grenades == 0


def test_the_demon_hit_in_the_hungry_tunnels_takes_two_wound_tokens():
    state = position(GLITTER, warriors={"strongman": "C1"}, demon="C1")
    act(state, "activate", piece="strongman")
    act(state, "stop")
    act(state, "attack", target="demon")
    hit(state, 1)
    assert state.demon.wounds == 2


def test_a_warrior_hit_in_the_hungry_tunnels_fills_two_damage_fields():
    state = position(GLITTER, warriors={"strongman": "C1"}, troglodytes=("B1",), demon="F5",
                     moving="demon")
    act(state, "activate", piece="troglodyte-1")
    act(state, "step", to="C1")
    act(state, "attack", target="strongman")
    hit(state, 1)
    assert state.warrior("strongman").damage == 2


def test_a_curse_in_the_hungry_tunnels_is_doubled_too():
    state = position(GLITTER, warriors={"scout": "C1", "sergeant": "A3"}, demon="F5")
    raw = state.to_dict()
    raw["queue"] = [{"t": "decide", "what": "curse", "seat": 1}]
    state = game().state_from_dict(raw)
    assert state.current_player == 1
    act(state, "curse", warrior="scout")
    assert state.warrior("scout").damage == 2


# ----- the narrow tunnel, the pentagram room, the exit: capacity per side -----------------


def test_the_narrow_tunnel_holds_one_warrior_of_each_side():
    # E2 is the vault's narrow tunnel.
    state = position(GLITTER, warriors={"sergeant": "E2", "scout": "D2"},
                     troglodytes=("F2", "F2"), demon="F5")
    act(state, "activate", piece="scout")
    assert "E2" not in steps(state)
    state = position(GLITTER, warriors={"sergeant": "E2", "scout": "D2"},
                     troglodytes=("F2", "F2"), demon="F5", moving="demon")
    act(state, "activate", piece="troglodyte-1")
    assert "E2" in steps(state)
    act(state, "step", to="E2")
    finish(state)
    act(state, "activate", piece="troglodyte-2")
    assert "E2" not in steps(state)


def test_an_ordinary_square_holds_three_of_each_side():
    state = position(GLITTER, warriors={"sergeant": "B1", "scout": "B1", "strongman": "B1",
                                        "sapper": "A1"}, demon="F5")
    act(state, "activate", piece="sapper")
    assert "B1" not in steps(state)
    assert steps(state) == ["A2"]


@pytest.mark.parametrize(("scenario", "square"), [(GLITTER, "A3"), (GLITTER, "G1"),
                                                  (FREEDOM, "F3")])
def test_the_pentagram_room_and_the_exit_hold_five_of_each_side(scenario, square):
    # Vault: A3 pentagram room, G1 exit; warrens: F3 pentagram room. Four troglodytes stand
    # there; the Demon next door may join as the fifth, a sixth figure may not.
    board = position(scenario).board
    near = board.label(board.neighbours[board.at(square)][0])
    state = position(scenario, warriors={"sergeant": "B5" if scenario == GLITTER else "A3"},
                     troglodytes=(square,) * 4 + (near,), demon=near, moving="demon")
    act(state, "activate", piece="demon")
    assert square in steps(state)
    act(state, "step", to=square)
    finish(state)
    act(state, "activate", piece="troglodyte-5")
    assert square not in steps(state)


# ----- the flooded tunnel ---------------------------------------------------------------------


def test_the_flooded_tunnel_stops_a_move_at_once():
    # C3 is the vault's flooded tunnel; the scout has MOV 4 and stops after two steps.
    state = position(GLITTER, warriors={"scout": "A3"}, demon="F5")
    act(state, "activate", piece="scout")
    act(state, "step", to="B3")
    act(state, "step", to="C3")
    assert state.act.stage == "end"
    assert steps(state) == []
    assert "stop" not in [a.kind for a in state.legal_actions()]


def test_leaving_the_flooded_tunnel_takes_the_whole_mov():
    state = position(GLITTER, warriors={"scout": "C3"}, demon="F5")
    act(state, "activate", piece="scout")
    assert steps(state) == ["B3", "C2", "C4"]
    act(state, "step", to="C2")
    assert state.act.mov == 0
    assert steps(state) == []
    assert state.act.stage == "end"


def test_the_flooded_tunnel_stops_the_demon_side_too():
    state = position(GLITTER, warriors={"scout": "A5"}, troglodytes=("B3",), demon="F5",
                     moving="demon")
    act(state, "activate", piece="troglodyte-1")
    act(state, "step", to="C3")
    assert state.act.stage == "end"


# ----- the booby-trapped tunnel ---------------------------------------------------------------


def booby_entry(face=None):
    """The scout (MOV 4) steps from F2 into F1, the vault's booby-trapped tunnel."""
    state = position(GLITTER, warriors={"scout": "F2", "sergeant": "F2"}, demon="A5",
                     troglodytes=("A1",))
    act(state, "activate", piece="scout")
    act(state, "step", to="F1")
    assert state.is_chance_node
    if face is not None:
        act(state, "booby", roll=face)
    return state


def test_the_booby_trap_rolls_a_plain_die_on_the_first_entry():
    state = booby_entry()
    outcomes = state.chance_outcomes()
    assert [o.action.get("roll") for o in outcomes] == [1, 2, 3, 4, 5, 6]
    assert {o.probability for o in outcomes} == {outcomes[0].probability}
    assert outcomes[0].probability * 6 == 1


def test_booby_trap_1_does_nothing():
    state = booby_entry(1)
    assert state.warrior("scout").damage == 0
    assert state.act.stage == "move" and steps(state)  # the move goes on


@pytest.mark.parametrize("face", [2, 3])
def test_booby_trap_2_or_3_deals_one_damage(face):
    state = booby_entry(face)
    assert state.warrior("scout").damage == 1
    assert state.act.stage == "move"


def test_booby_trap_4_ends_the_move():
    state = booby_entry(4)
    assert state.warrior("scout").damage == 0
    assert state.act.stage == "end" and steps(state) == []


def test_booby_trap_5_puts_a_troglodyte_in_the_square():
    state = booby_entry(5)
    f1 = state.board.at("F1")
    assert [m.kind for m in state.monsters if m.cell == f1] == ["troglodyte"]
    assert state.act.stage == "end"  # an enemy in the square stops the move


def test_booby_trap_6_deals_two_damage():
    state = booby_entry(6)
    assert state.warrior("scout").damage == 2


def test_the_booby_trap_rolls_only_on_a_mortals_first_entry():
    state = booby_entry(1)
    act(state, "step", to="G1")  # on to the exit (a decoy is turned up there)
    finish(state)
    act(state, "activate", piece="sergeant")
    act(state, "step", to="F1")
    assert not state.is_chance_node
    assert state.stats.get("booby-trapped-tunnel:rolled 1: nothing") == 1


def test_a_troglodyte_does_not_spring_the_booby_trap():
    state = position(GLITTER, warriors={"scout": "E2"}, troglodytes=("F2",), demon="A5",
                     moving="demon")
    act(state, "activate", piece="troglodyte-1")
    act(state, "step", to="F1")
    assert not state.is_chance_node
    assert state.triggered == []


# ----- the demonic mechanism -----------------------------------------------------------------


def fate_dice_rolled(state):
    head = state.queue[0]
    assert head["what"] == "fate"
    return head["dice"]


def end_movement(state):
    """Let every figure of both sides pass until the threat phase's roll."""
    while not (state.is_chance_node and state.queue[0]["what"] == "fate"):
        legal = state.legal_actions()
        if state.is_chance_node:
            state.apply(state.chance_outcomes()[0].action)
        elif any(a.kind == "activate" for a in legal):
            state.apply(legal[0])
        else:
            state.apply(next(a for a in legal if a.kind in ("stop", "done")))
    return state


def test_the_demonic_mechanism_adds_one_fate_die_once():
    # D4 is the vault's demonic mechanism.
    state = position(GLITTER, warriors={"sergeant": "C4", "scout": "C4"}, demon="G5")
    act(state, "activate", piece="sergeant")
    act(state, "step", to="D4")
    finish(state)
    act(state, "activate", piece="scout")
    act(state, "step", to="D4")  # a second entry: nothing more
    finish(state)
    end_movement(state)
    base = state.data.fate_dice
    assert fate_dice_rolled(state) == base + 1
    act(state, "fate", troglodytes=0, curses=0)
    # The next round: the mechanism has done its work.
    while not state.is_chance_node or state.queue[0]["what"] != "initiative":
        state.apply(state.legal_actions()[0])
    act(state, "initiative", mortal=6, demon=1)
    if state.phase == "swaps":
        act(state, "end-swaps")
    end_movement(state)
    assert fate_dice_rolled(state) == base


def test_the_demon_entering_the_mechanism_adds_nothing():
    state = position(GLITTER, warriors={"sergeant": "A3"}, demon="E4", moving="demon")
    act(state, "activate", piece="demon")
    act(state, "step", to="D4")
    finish(state)
    end_movement(state)
    assert fate_dice_rolled(state) == state.data.fate_dice


# ----- the lair and the stashes ---------------------------------------------------------------


def placement_cells(state):
    raw = state.to_dict()
    raw["queue"] = [{"t": "decide", "what": "place", "seat": 1}]
    return sorted(a.get("at") for a in game().state_from_dict(raw).legal_actions())


def test_the_demon_may_always_place_a_troglodyte_in_a_lair():
    # A1 is a lair of the vault: it takes a troglodyte though the sergeant stands in it, while
    # the ordinary B1 next to him does not.
    state = position(GLITTER, warriors={"sergeant": "A1"}, demon="F5")
    cells = placement_cells(state)
    assert "A1" in cells
    assert "B1" not in cells and "A2" not in cells
    assert "D4" in cells  # far from the squad


def test_a_stash_does_nothing_in_all_that_glitters():
    # A5 is a stash of the vault; the loot carrier stepping there wins nothing.
    state = position(GLITTER, warriors={"sergeant": "A4"}, demon="F5")
    act(state, "activate", piece="sergeant")
    act(state, "step", to="A5")
    assert not state.is_terminal
    assert state.stats["stash:entered, no effect"] == 1


def test_actions_are_offered_in_a_fixed_order():
    state = position(GLITTER, warriors={"sergeant": "D2"}, demon="F5")
    act(state, "activate", piece="sergeant")
    first = [str(a) for a in state.legal_actions()]
    again = [str(a) for a in game().state_from_dict(state.to_dict()).legal_actions()]
    assert first == again == ["step(to=D1)", "step(to=C2)", "step(to=E2)", "stop"]
    assert Action.of("step", to="D3") not in state.legal_actions()  # rock
