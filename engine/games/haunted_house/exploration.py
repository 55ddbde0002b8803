"""Moving through the house, discovering rooms, and what the rooms, events and items do."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.haunted_house.checks import apply_effects, dice_for, may_try, trait_roll
from engine.games.haunted_house.data import DIRS
from engine.games.haunted_house.house import OPPOSITE, orientations
from engine.games.haunted_house.machine import actions_of, handles, options, resolves, step
from engine.games.haunted_house.registry import rule
from engine.games.haunted_house.state import EXPLORER, HouseState


def on_turn(state: HouseState) -> int | None:
    """The seat whose explorer acts now (None in a monster's turn or for a dead explorer)."""
    seat = int(state.turn["seat"])
    if state.turn["phase"] != EXPLORER or not state.seats[seat].alive:
        return None
    return seat



def tile_left(state: HouseState, floor: str) -> bool:
    """Whether the stack still holds a tile that may lie on this floor."""
    return any(floor in state.data.rooms[r].floors for r in state.pile)


@actions_of(10)
def move_actions(state: HouseState) -> list[Action]:
    seat = on_turn(state)
    if seat is None or state.turn["moves"] < state.data.rules.move_cost:
        return []
    here = state.seats[seat].room
    out = [Action.of("move", to=r) for r in state.layout.neighbours(here)]
    edges = state.layout.open_edges(here)
    if edges and tile_left(state, state.rooms[here][0]):
        out += [Action.of("explore", door=d) for d in DIRS if d in edges]
    return out


@handles("move")
@rule("house.move", "companions.list")
def do_move(state: HouseState, action: Action) -> None:
    """One step through an open doorway or along the stairs costs one room of movement."""
    seat = int(state.turn["seat"])
    state.turn["moves"] -= state.data.rules.move_cost
    state.seats[seat].room = room = str(action.get("to"))
    state.log(f"{state.who(seat)} moves to the {state.room_name(room)}")
    enter(state, seat, room)


@handles("explore")
@rule("house.discover")
def do_explore(state: HouseState, action: Action) -> None:
    """Step through a doorway with no room beyond: draw a tile that may lie on this floor
    (each fitting tile equally likely); discovering ends the explorer's movement."""
    seat = int(state.turn["seat"])
    here, d = state.seats[seat].room, str(action.get("door"))
    floor, x, y = state.layout.beyond(here, d)
    state.turn["moves"] = 0
    state.push({"t": "draw", "fn": "room", "deck": "rooms", "seat": seat, "floor": floor,
                "x": x, "y": y, "need": OPPOSITE[d]})


@resolves("room")
def resolve_room_draw(state: HouseState, frame: dict, action: Action) -> None:
    room = str(action.get("card"))
    state.pile.remove(room)
    turns = orientations(state.data.rooms[room].doorways, frame["need"])
    if len(turns) == 1:
        place(state, frame, room, turns[0])
    else:
        state.push({**frame, "t": "decide", "fn": "rotate", "room": room, "turns": turns})


@options("rotate")
def rotate_options(state: HouseState, frame: dict) -> list[Action]:
    return [Action.of("rotate", doors=doors) for doors in frame["turns"]]


@resolves("rotate")
def resolve_rotate(state: HouseState, frame: dict, action: Action) -> None:
    place(state, frame, frame["room"], str(action.get("doors")))


@rule("house.discover")
def place(state: HouseState, frame: dict, room: str, doors: str) -> None:
    """Lay the tile, step in, draw the card its symbol shows, then the room's entry effect."""
    seat = int(frame["seat"])
    state.rooms[room] = [frame["floor"], int(frame["x"]), int(frame["y"]), doors]
    state.touch()
    state.seats[seat].room = room
    state.log(f"{state.who(seat)} discovers the {state.room_name(room)} ({frame['floor']} "
              f"floor, doorways {doors})")
    symbol = state.data.rooms[room].symbol
    frames = []
    if symbol == "event" and (state.decks["events"] or state.discards):
        frames.append({"t": "do", "fn": "event", "seat": seat})
    elif symbol == "item" and state.decks["items"]:
        frames.append({"t": "draw", "fn": "item", "deck": "items", "seat": seat})
    elif symbol == "omen" and state.decks["omens"]:
        frames.append({"t": "draw", "fn": "omen", "deck": "omens", "seat": seat})
    frames.append({"t": "do", "fn": "enter", "seat": seat, "room": room})
    state.push(*frames)


@step("enter")
def enter_step(state: HouseState, frame: dict) -> None:
    enter(state, int(frame["seat"]), frame["room"])


@rule("house.room-effects")
def enter(state: HouseState, seat: int, room: str) -> None:
    """A room's entry effect: its check (once a turn) or its effects."""
    effect = state.data.rooms[room].effect
    if effect is None or effect.when != "enter" or not state.seats[seat].alive:
        return
    run_room_effect(state, seat, room)


def run_room_effect(state: HouseState, seat: int, room: str) -> None:
    effect = state.data.rooms[room].effect
    assert effect is not None
    name = state.room_name(room)
    if effect.check is None:
        apply_effects(state, seat, effect.effects, name)
    elif may_try(state, seat, f"room:{room}"):
        trait_roll(state, seat, f"room:{room}", effect.check.trait, effect.check.target,
                   effect.success, effect.failure, name, room)


def room_usable(state: HouseState, seat: int, room: str) -> bool:
    effect = state.data.rooms[room].effect
    return (effect is not None and effect.when == "action" and room not in state.spent_rooms
            and room not in state.seats[seat].spent and may_try(state, seat, f"room:{room}"))


@actions_of(30)
def room_actions(state: HouseState) -> list[Action]:
    seat = on_turn(state)
    if seat is None:
        return []
    room = state.seats[seat].room
    return [Action.of("room", room=room)] if room_usable(state, seat, room) else []


@handles("room")
@rule("dice.same-check", "house.room-effects")
def do_room(state: HouseState, action: Action) -> None:
    """Try the room's check (the vault, the library…): once a turn, and not once spent."""
    seat = int(state.turn["seat"])
    run_room_effect(state, seat, str(action.get("room")))


# ----- cards ------------------------------------------------------------------------------------


@step("event")
def event_step(state: HouseState, frame: dict) -> None:
    if not state.decks["events"]:
        state.decks["events"] = sorted(state.discards)
        state.discards = []
        state.log("the event discards are shuffled into a new deck")
    state.push({"t": "draw", "fn": "event", "deck": "events", "seat": frame["seat"]})


@resolves("event")
@rule("house.events", "card-precedence.card-wins")
def resolve_event(state: HouseState, frame: dict, action: Action) -> None:
    """An event: its trait roll with a band of effects for every total, or its effects."""
    seat, card = int(frame["seat"]), str(action.get("card"))
    state.decks["events"].remove(card)
    state.discards.append(card)
    event = state.data.events[card]
    state.log(f"{state.who(seat)} draws the event {event.name}")
    if event.trait is None:
        apply_effects(state, seat, event.effects, event.name)
    else:
        state.push({"t": "roll", "fn": "event-roll", "n": dice_for(state, seat, event.trait),
                    "seat": seat, "event": card})


@resolves("event-roll")
def resolve_event_roll(state: HouseState, frame: dict, action: Action) -> None:
    seat, total = int(frame["seat"]), int(action.get("total"))
    event = state.data.events[frame["event"]]
    band = event.band(total)
    state.log(f"{state.who(seat)} rolls {frame['n']} dice for {event.trait} and gets {total}")
    if band is not None:
        apply_effects(state, seat, band.effects, event.name)


@resolves("item")
@rule("house.items-drawn")
def resolve_item(state: HouseState, frame: dict, action: Action) -> None:
    """An item card goes to the explorer who drew it."""
    seat, card = int(frame["seat"]), str(action.get("card"))
    state.decks["items"].remove(card)
    state.seats[seat].items.append(card)
    state.log(f"{state.who(seat)} finds the {state.item_name(card)}")
