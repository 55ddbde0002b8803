"""Trait tracks: gains and losses move a clip by steps; damage is split by the player; death
comes on the death mark (after the scenario has begun)."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.haunted_house.machine import options, resolves
from engine.games.haunted_house.registry import rule
from engine.games.haunted_house.state import TOKEN, HouseState


def track(state: HouseState, seat: int, trait: str):
    return state.data.explorers[state.seats[seat].explorer].tracks[trait]


@rule("house.gain")
def gain(state: HouseState, seat: int, trait: str, steps: int, up_to_start: bool = False) -> None:
    """Move the clip `steps` marks up, never past the top (nor the start, for healing)."""
    s = state.seats[seat]
    t = track(state, seat, trait)
    cap = t.start if up_to_start else t.top
    before = s.marks[trait]
    s.marks[trait] = max(before, min(before + steps, cap))
    if s.marks[trait] != before:
        state.log(f"{state.who(seat)}'s {trait} clip goes up {_marks(s.marks[trait] - before)} "
                  f"({t.value(before)} -> {t.value(s.marks[trait])})")


def _marks(n: int) -> str:
    """A clip's move in marks, as the rulebook counts it: a track may print one value on two
    marks, so a move of one mark can leave the value as it was."""
    return f"{n} mark{'' if n == 1 else 's'}"


@rule("damage.physical", "damage.mental", "combat-example.split")
def lower(state: HouseState, seat: int, trait: str, steps: int, cause: str) -> None:
    """Move the clip `steps` marks down. Before the scenario it stops on the lowest mark; after,
    the death mark kills."""
    s = state.seats[seat]
    if steps <= 0 or not s.alive:
        return
    t = track(state, seat, trait)
    floor = 0 if state.scenario or state.data.rules.death_before_scenario else 1
    before = s.marks[trait]
    s.marks[trait] = max(floor, before - steps)
    if s.marks[trait] == before:  # on the lowest mark before the scenario: no death yet
        state.log(f"{state.who(seat)}'s {trait} clip stays on its lowest mark "
                  f"({t.value(before)}): nobody dies before the scenario")
        return
    state.log(f"{state.who(seat)}'s {trait} clip goes down {_marks(before - s.marks[trait])} "
              f"({t.value(before)} -> "
              f"{t.value(s.marks[trait]) if s.marks[trait] else 'the death mark'})")
    if s.marks[trait] == 0:
        die(state, seat, cause)


@rule("house.death")
def die(state: HouseState, seat: int, cause: str) -> None:
    """The explorer dies: their items stay in the room, their companions leave."""
    s = state.seats[seat]
    s.alive = False
    s.cause = cause
    kept = [i for i in s.items if state.item(i).category != "companion"]
    gone = [i for i in s.items if state.item(i).category == "companion"]
    state.floor_items.setdefault(s.room, []).extend(kept)
    s.items = []
    state.log(f"{state.who(seat)} dies ({cause}) in the {state.room_name(s.room)}"
              + (f"; {', '.join(state.item_name(i) for i in kept)} left on the floor" if kept
                 else "")
              + (f"; {', '.join(state.item_name(i) for i in gone)} runs off" if gone else ""))


def take_damage(state: HouseState, seat: int, damage_type: str, steps: int, cause: str) -> None:
    """Queue the victim's choice of how to split `steps` between the two traits of the type."""
    if steps <= 0 or not state.seats[seat].alive:
        return
    state.push({"t": "decide", "fn": "split", "seat": seat, "type": damage_type,
                "steps": steps, "cause": cause})


@options("split")
@rule("damage.groups")
def split_options(state: HouseState, frame: dict) -> list[Action]:
    """Every split of the steps between the type's two traits (first trait most first)."""
    first, second = state.data.rules.groups[frame["type"]]
    steps = int(frame["steps"])
    return [Action.of("split", **{first: steps - j, second: j}) for j in range(steps + 1)]


@resolves("split")
def resolve_split(state: HouseState, frame: dict, action: Action) -> None:
    seat = int(frame["seat"])
    for trait in state.data.rules.groups[frame["type"]]:
        lower(state, seat, trait, int(action.get(trait, 0)), frame["cause"])


def carried_tokens(state: HouseState, seat: int, role: str) -> list[str]:
    return [i for i in state.seats[seat].items if i.startswith(f"{TOKEN}{role}:")]
