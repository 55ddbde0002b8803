"""Setup, the order of turns, ending a turn, the monster's turn and the turn bound."""

from __future__ import annotations

from engine.core.api import Action
from engine.core.game import TURN_BOUND
from engine.games.haunted_house.data import House
from engine.games.haunted_house.exploration import run_room_effect
from engine.games.haunted_house.items import movement_bonus
from engine.games.haunted_house.machine import actions_of, handles, resolves, step
from engine.games.haunted_house.registry import rule
from engine.games.haunted_house.scenario import house_closed
from engine.games.haunted_house.state import (
    EXPLORER,
    MONSTER,
    OVER,
    PLAY,
    HouseState,
    marks_at_start,
    new_turn,
)


@rule("house.setup")
def new_game(data: House, players: int, seed: int, max_rounds: int) -> HouseState:
    """The landings on the table, the other tiles in a stack, the decks shuffled; each seat is
    dealt an explorer at random (chance), then the first seat plays."""
    state = HouseState(data, players, seed, max_rounds)
    for room in data.rules.landings:
        r = data.rooms[room]
        state.rooms[room] = [r.start, 0, 0, "".join(d for d in "nesw" if d in r.doorways)]
    state.pile = sorted(r for r in data.rooms if r not in state.rooms)
    state.decks = {"events": sorted(data.events), "items": data.deck_items(),
                   "omens": sorted(data.omens), "explorers": sorted(data.explorers)}
    state.queue = [{"t": "draw", "fn": "deal", "deck": "explorers", "seat": s}
                   for s in range(players)] + [{"t": "do", "fn": "begin-play"}]
    state.log(f"{players} players; the landings are laid and {len(state.pile)} room tiles "
              "are stacked")
    state.advance()
    return state


@resolves("deal")
def resolve_deal(state: HouseState, frame: dict, action: Action) -> None:
    seat, explorer = int(frame["seat"]), str(action.get("card"))
    state.decks["explorers"].remove(explorer)
    s = state.seats[seat]
    s.explorer, s.marks, s.room = explorer, marks_at_start(state.data, explorer), \
        state.data.rules.start_room
    state.log(f"seat {seat} plays {state.who(seat)}")


@step("begin-play")
def begin_play(state: HouseState, frame: dict) -> None:
    state.phase, state.round = PLAY, 1
    start_turn(state, 0, EXPLORER)


@rule("house.turn")
def start_turn(state: HouseState, seat: int, phase: str) -> None:
    """An explorer moves up to their current Speed (plus companions); a monster its movement."""
    if phase == MONSTER:
        moves = state.data.monsters[state.monster["id"]].movement
        state.log(f"the {state.data.monsters[state.monster['id']].name}'s turn")
    else:
        moves = state.value(seat, state.data.rules.movement_trait) + movement_bonus(state, seat)
        state.log(f"round {state.round}: {state.who(seat)}'s turn "
                  f"({moves} move{'' if moves == 1 else 's'})")
    state.turn = new_turn(seat, phase, moves)


@actions_of(90)
def end_actions(state: HouseState) -> list[Action]:
    return [Action.of("end")]


@handles("end")
@rule("house.end-turn-effects")
def do_end(state: HouseState, action: Action) -> None:
    """Ending an explorer's turn in a room with an end-of-turn effect triggers it."""
    seat = int(state.turn["seat"])
    state.push({"t": "do", "fn": "next"})
    if state.turn["phase"] == EXPLORER and state.seats[seat].alive:
        effect = state.data.rooms[state.seats[seat].room].effect
        if effect is not None and effect.when == "end-turn":
            run_room_effect(state, seat, state.seats[seat].room)


@step("next")
@rule("house.monster-turn")
def next_turn(state: HouseState, frame: dict) -> None:
    """After the traitor's own turn comes the monster's (a stunned monster misses it and
    recovers); then the next seat with a living explorer (or the traitor's monster)."""
    seat, phase = int(state.turn["seat"]), state.turn["phase"]
    if phase == EXPLORER and seat == state.traitor and monster_acts(state):
        start_turn(state, seat, MONSTER)
        return
    prev = seat
    for step_ in range(1, state.players + 1):
        nxt = (seat + step_) % state.players
        if nxt <= prev and not new_round(state):
            return
        prev = nxt
        if state.seats[nxt].alive:
            start_turn(state, nxt, EXPLORER)
            return
        if nxt == state.traitor and monster_acts(state):
            start_turn(state, nxt, MONSTER)
            return


def monster_acts(state: HouseState) -> bool:
    """Whether the monster takes a turn now (a stunned one recovers instead)."""
    if not state.monster or state.monster.get("killed"):
        return False
    if int(state.monster["stunned"]) > 0:
        state.monster["stunned"] = int(state.monster["stunned"]) - 1
        name = state.data.monsters[state.monster["id"]].name
        state.log(f"the stunned {name} misses its turn" +
                  (" and recovers" if not state.monster["stunned"] else ""))
        return False
    return True


@rule("house.turn-bound")
def new_round(state: HouseState) -> bool:
    """A new round; past the turn bound the game stops without a winner. False if stopped."""
    state.round += 1
    if state.round > state.max_rounds:
        state.phase, state.ended_by = OVER, TURN_BOUND
        state.round = state.max_rounds
        state.log(f"the turn bound ({state.max_rounds} rounds) is reached")
        return False
    house_closed(state)
    return state.phase != OVER


# ----- the monster's turn -----------------------------------------------------------------------


@actions_of(11)
def monster_move_actions(state: HouseState) -> list[Action]:
    if state.turn["phase"] != MONSTER or state.turn["moves"] < state.data.rules.move_cost:
        return []
    return [Action.of("monster-move", to=r)
            for r in state.layout.neighbours(state.monster["room"])]


@handles("monster-move")
def do_monster_move(state: HouseState, action: Action) -> None:
    state.turn["moves"] -= state.data.rules.move_cost
    state.monster["room"] = room = str(action.get("to"))
    state.log(f"the {state.data.monsters[state.monster['id']].name} moves to the "
              f"{state.room_name(room)}")
