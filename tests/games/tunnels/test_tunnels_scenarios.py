"""Both scenarios end as the seed says, and the tokens move as its special rules say."""

from __future__ import annotations

from tunnels_support import FREEDOM, GLITTER, act, finish, game, position, start, steps

from engine.games.tunnels.view import demon_view


def loot_holder(state):
    return next(t.holder for t in state.tokens if t.value == "loot")


# ----- All that glitters ----------------------------------------------------------------------


def test_the_mortal_player_chooses_the_loot_and_every_warrior_carries_a_token():
    state = game().new_initial_state(2, 3, {"scenario": GLITTER})
    assert state.current_player == 0
    assert [str(a) for a in state.legal_actions()] == [
        "give-loot(warrior=sergeant)", "give-loot(warrior=scout)",
        "give-loot(warrior=strongman)", "give-loot(warrior=sapper)"]
    act(state, "give-loot", warrior="scout")
    assert sorted(t.holder for t in state.tokens) == ["sapper", "scout", "sergeant", "strongman"]
    assert loot_holder(state) == "scout"
    assert [t.value for t in state.tokens].count("decoy") == 3


def test_the_loot_reaching_the_exit_wins_at_once():
    state = position(GLITTER, warriors={"sergeant": "G2", "scout": "A3"}, demon="A5")
    act(state, "activate", piece="sergeant")
    act(state, "step", to="G1")
    assert state.is_terminal
    assert state.winners == [0] and state.ended_by == "loot-escaped"
    assert state.returns == [1.0, 0.0]


def test_a_decoy_reaching_the_exit_is_shown_and_leaves_the_game():
    state = position(GLITTER, warriors={"sergeant": "A3", "scout": "G2"}, demon="A5")
    act(state, "activate", piece="scout")
    act(state, "step", to="G1")
    assert not state.is_terminal
    assert state.carried("scout") is None
    assert sum(1 for t in state.tokens if t.gone) == 1 + 2  # two dead warriors' tokens unused
    assert demon_view(state).warriors[1].carries is False
    assert state.stats["decoys-revealed"] == 1


def test_a_dead_carrier_drops_its_token_unrevealed():
    state = position(GLITTER, warriors={"sergeant": "B1", "scout": "B1"}, troglodytes=("A1",),
                     demon="F5", moving="demon", damage={"sergeant": 3})
    act(state, "activate", piece="troglodyte-1")
    act(state, "step", to="B1")
    act(state, "attack", target="sergeant")
    act(state, "hits", n=1)
    assert not state.warrior("sergeant").alive
    b1 = state.board.at("B1")
    assert [t.value for t in state.ground(b1)] == ["loot"]
    view = demon_view(state)
    assert view.ground == ((b1, 1),)
    assert view.loot_cell is None and view.loot_holder is None  # the value stays hidden
    assert not any("loot" in line for line in state.events if not line.startswith("[mortal"))


def test_a_warrior_swaps_its_token_for_one_on_the_ground_at_the_start_or_end_of_its_move():
    state = position(GLITTER, warriors={"scout": "B1", "strongman": "A3"}, demon="F5",
                     loot=None, ground=(("loot", "B1"),))
    act(state, "activate", piece="scout")
    moves = [str(a) for a in state.legal_actions()]
    assert "take(token=loot)" in moves  # at the start of the move
    act(state, "step", to="C1")
    assert "take(token=loot)" not in [str(a) for a in state.legal_actions()]
    act(state, "step", to="B1")
    act(state, "stop")
    act(state, "take", token="loot")  # at the end of the move
    assert state.carried("scout").value == "loot"
    b1 = state.board.at("B1")
    assert [t.value for t in state.ground(b1)] == ["decoy"]
    assert "take(token=decoy)" not in [str(a) for a in state.legal_actions()]  # once


def test_warriors_in_one_square_swap_tokens_in_the_initiative_phase():
    state = start(GLITTER)  # the squad in the pentagram room, the loot with the sergeant
    act(state, "initiative", mortal=5, demon=2)
    assert state.phase == "swaps"
    before = demon_view(state).warriors
    swaps = [str(a) for a in state.legal_actions()]
    assert "swap(a=sergeant,b=scout)" in swaps and "swap(a=scout,b=strongman)" not in swaps
    act(state, "swap", a="sergeant", b="scout")
    assert loot_holder(state) == "scout"
    assert demon_view(state).warriors == before  # the demon sees the same four carriers
    assert not any(a.kind == "swap" and "scout" in (a.get("a"), a.get("b"))
                   for a in state.legal_actions())
    act(state, "end-swaps")
    assert state.phase == "movement" and state.current_player == 0


def test_a_stash_is_no_way_out_in_all_that_glitters():
    state = position(GLITTER, warriors={"sergeant": "G4"}, demon="A5")
    act(state, "activate", piece="sergeant")
    act(state, "step", to="G3")
    assert not state.is_terminal


# ----- To freedom -------------------------------------------------------------------------------


def test_the_loot_starts_face_up_in_the_pentagram_room():
    state = game().new_initial_state(2, 4, {"scenario": FREEDOM})
    assert state.is_chance_node  # no loot to hand out: the first initiative roll
    f3 = state.board.at("F3")
    assert [(t.value, t.cell) for t in state.tokens] == [("loot", f3)]
    assert demon_view(state).loot_cell == f3


def test_the_loot_reaching_a_stash_wins_at_once():
    # A1 and G5 are the warrens' stashes.
    state = position(FREEDOM, warriors={"sergeant": "A2", "scout": "A3"}, demon="F3")
    act(state, "activate", piece="sergeant")
    act(state, "step", to="A1")
    assert state.is_terminal and state.winners == [0] and state.ended_by == "loot-escaped"


def test_a_warrior_without_the_loot_on_a_stash_wins_nothing():
    state = position(FREEDOM, warriors={"sergeant": "A2", "scout": "A3"}, demon="F3",
                     loot="scout")
    act(state, "activate", piece="sergeant")
    act(state, "step", to="A1")
    assert not state.is_terminal


def test_the_exit_is_no_way_out_in_to_freedom():
    state = position(FREEDOM, warriors={"sergeant": "B3"}, demon="F3")
    act(state, "activate", piece="sergeant")
    act(state, "step", to="A3")
    assert not state.is_terminal


def test_the_loot_is_picked_up_and_carried_out():
    state = position(FREEDOM, warriors={"scout": "F2"}, demon="A5", loot=None,
                     ground=(("loot", "G3"),))
    act(state, "activate", piece="scout")
    assert "G3" not in steps(state)  # not next to F2
    act(state, "step", to="G2")
    act(state, "step", to="G3")
    act(state, "stop")
    act(state, "take", token="loot")
    assert demon_view(state).loot_holder == "scout"
    finish(state)


# ----- the base game's ends ---------------------------------------------------------------------


def test_slaying_the_demon_wins_for_the_mortal_player():
    state = position(GLITTER, warriors={"strongman": "B1"}, demon="B1")
    raw = state.to_dict()
    raw["monsters"][0]["wounds"] = state.data.demon.wounds - 1
    state = game().state_from_dict(raw)
    act(state, "activate", piece="strongman")
    act(state, "stop")
    act(state, "attack", target="demon")
    act(state, "hits", n=1)
    assert state.is_terminal and state.winners == [0] and state.ended_by == "demon-banished"


def test_the_last_warrior_dying_wins_for_the_demon_player():
    state = position(GLITTER, warriors={"scout": "B1"}, demon="B1", moving="demon",
                     damage={"scout": 2})
    act(state, "activate", piece="demon")
    act(state, "stop")
    act(state, "attack", target="scout")
    act(state, "hits", n=1)
    assert state.is_terminal and state.winners == [1] and state.ended_by == "squad-lost"


def test_time_runs_out_after_the_last_round():
    last = game().data.rounds
    state = position(GLITTER, warriors={"sergeant": "A3"}, demon="F5", round_=last)
    while not state.is_terminal:
        legal = state.legal_actions()
        if state.is_chance_node:
            state.apply(state.chance_outcomes()[0].action)  # no troglodytes, no curses
        elif state.phase == "movement":
            state.apply(next(a for a in legal if a.kind in ("activate", "stop", "done")))
        else:
            state.apply(legal[0])
    assert state.winners == [1] and state.ended_by == "time-runs-out"
    assert state.round == last
