"""Carrying items: picking up, dropping, handing over, using gear; companions follow."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.haunted_house.machine import actions_of, handles
from engine.games.haunted_house.registry import rule
from engine.games.haunted_house.state import EXPLORER, HouseState
from engine.games.haunted_house.traits import gain


def acting(state: HouseState) -> int | None:
    seat = int(state.turn["seat"])
    if state.turn["phase"] != EXPLORER or not state.seats[seat].alive:
        return None
    return seat


@actions_of(5)
def pick_up_actions(state: HouseState) -> list[Action]:
    seat = acting(state)
    if seat is None:
        return []
    here = state.floor_items.get(state.seats[seat].room, [])
    return [Action.of("pick-up", item=i) for i in sorted(set(here))
            if i not in state.turn["dropped"]]


@handles("pick-up")
@rule("house.handling")
def do_pick_up(state: HouseState, action: Action) -> None:
    """Picking up an item in the room costs nothing (not one dropped this turn)."""
    seat = int(state.turn["seat"])
    item = str(action.get("item"))
    state.floor_items[state.seats[seat].room].remove(item)
    state.seats[seat].items.append(item)
    state.log(f"{state.who(seat)} picks up the {state.item_name(item)}")


@actions_of(50)
def use_actions(state: HouseState) -> list[Action]:
    seat = acting(state)
    if seat is None:
        return []
    return [Action.of("use", item=i) for i in sorted(set(state.seats[seat].items))
            if state.item(i).use]


@handles("use")
@rule("house.gear")
def do_use(state: HouseState, action: Action) -> None:
    """Discard a one-use card for its gains (not above the starting values, if it says so)."""
    seat = int(state.turn["seat"])
    item = state.item(str(action.get("item")))
    state.seats[seat].items.remove(item.id)
    state.log(f"{state.who(seat)} uses the {item.name}")
    for e in item.use:
        gain(state, seat, e.trait, e.steps, up_to_start=item.up_to_start)


@actions_of(60)
def give_actions(state: HouseState) -> list[Action]:
    seat = acting(state)
    if seat is None or state.turn["gave"] >= state.data.rules.gives_per_turn:
        return []
    s = state.seats[seat]
    mates = [o for o in state.in_room(s.room) if o != seat]
    return [Action.of("give", item=i, to=o) for i in sorted(set(s.items))
            if state.item(i).transferable for o in mates]


@handles("give")
@rule("item-tokens.default", "companions.list")
def do_give(state: HouseState, action: Action) -> None:
    """Hand a transferable item to an explorer in the room (once a turn). Companions follow the
    explorer they watch and never change hands."""
    seat, other, item = int(state.turn["seat"]), int(action.get("to")), str(action.get("item"))
    state.turn["gave"] += 1
    state.seats[seat].items.remove(item)
    state.seats[other].items.append(item)
    state.log(f"{state.who(seat)} hands the {state.item_name(item)} to {state.who(other)}")


@actions_of(70)
def drop_actions(state: HouseState) -> list[Action]:
    seat = acting(state)
    if seat is None:
        return []
    return [Action.of("drop", item=i) for i in sorted(set(state.seats[seat].items))
            if state.item(i).transferable]


@handles("drop")
def do_drop(state: HouseState, action: Action) -> None:
    seat, item = int(state.turn["seat"]), str(action.get("item"))
    state.seats[seat].items.remove(item)
    state.floor_items.setdefault(state.seats[seat].room, []).append(item)
    state.turn["dropped"].append(item)
    state.log(f"{state.who(seat)} drops the {state.item_name(item)}")


@rule("companions.no-traits")
def movement_bonus(state: HouseState, seat: int) -> int:
    """Extra rooms of movement from the items carried (the dog). Companions have no traits, so
    nobody can attack them: they are items, not combatants."""
    return sum(state.item(i).movement for i in state.seats[seat].items)
