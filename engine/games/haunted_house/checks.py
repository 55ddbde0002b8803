"""Trait rolls (checks) and the effects of cards and rooms."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.api import Action
from engine.games.haunted_house.data import Effect
from engine.games.haunted_house.machine import resolves, step
from engine.games.haunted_house.registry import rule
from engine.games.haunted_house.state import HouseState
from engine.games.haunted_house.traits import gain, lower, take_damage


@rule("house.dice-in-box")
def capped(state: HouseState, dice: int) -> int:
    """No roll uses more dice than the box holds."""
    return max(0, min(dice, state.data.rules.dice_in_box))


@rule("trait-rolls.dice")
def dice_for(state: HouseState, seat: int, trait: str) -> int:
    """A trait roll (or a task roll) with a trait: its current value plus the extra dice of the
    items the explorer carries for that trait."""
    extra = sum(state.item(i).bonus[1] for i in state.seats[seat].items
                if state.item(i).bonus and state.item(i).bonus[0] == trait)
    return capped(state, state.value(seat, trait) + extra)


def tried_key(seat: int, check_id: str) -> str:
    return f"{seat}:{check_id}"


@rule("dice.same-check")
def may_try(state: HouseState, seat: int, check_id: str) -> bool:
    """The same check may be tried only once a turn (a second try of the vault is refused)."""
    tries = state.turn["tried"].count(tried_key(seat, check_id))
    return tries < state.data.rules.same_check_per_turn


@rule("trait-rolls.target", "trait-rolls.example", "dice.count-pips", "dice.no-limit")
def trait_roll(state: HouseState, seat: int, check_id: str, trait: str, target: int,
               success: Iterable[Effect] = (), failure: Iterable[Effect] = (),
               cause: str = "", room: str = "") -> None:
    """Queue a trait roll: dice equal to the trait's value; a total of `target` or more
    succeeds. Rolls in a turn are not limited, only repeats of the same check."""
    state.turn["tried"].append(tried_key(seat, check_id))
    state.push({"t": "roll", "fn": "check", "n": dice_for(state, seat, trait), "seat": seat,
                "check": check_id, "trait": trait, "target": target,
                "success": [e.to_json() for e in success],
                "failure": [e.to_json() for e in failure], "cause": cause, "room": room})


@resolves("check")
def resolve_check(state: HouseState, frame: dict, action: Action) -> None:
    seat, total, target = int(frame["seat"]), int(action.get("total")), int(frame["target"])
    ok = total >= target
    state.log(f"{state.who(seat)} rolls {frame['n']} dice for {frame['trait']} "
              f"({frame['cause'] or frame['check']}) and gets {total} against {target}+ — "
              + ("success" if ok else "failure"))
    if ok and frame.get("room"):
        spend_room(state, seat, frame["room"])
    effects = frame["success"] if ok else frame["failure"]
    apply_effects(state, seat, [Effect.from_json(e) for e in effects], frame["cause"])


@rule("house.room-spent")
def spend_room(state: HouseState, seat: int, room: str) -> None:
    """A success may spend the room's effect, for everybody or for this explorer."""
    after = state.data.rooms[room].effect.after_success
    if after == "spent":
        state.spent_rooms.append(room)
    elif after == "spent-for-explorer":
        state.seats[seat].spent.append(room)


def apply_effects(state: HouseState, seat: int, effects: Iterable[Effect], cause: str) -> None:
    """Queue effects in order (a damage roll comes before the effects after it)."""
    state.push(*[{"t": "do", "fn": "effect", "seat": seat, "effect": e.to_json(),
                  "cause": cause} for e in effects])


@step("effect")
@rule("damage.more")
def do_effect(state: HouseState, frame: dict) -> None:
    """Gain or lose steps now; damage rolls one die a point and the pips are the steps lost;
    draw item cards; or end the explorer's movement."""
    seat, e = int(frame["seat"]), Effect.from_json(frame["effect"])
    if not state.seats[seat].alive:
        return
    if e.type == "gain":
        gain(state, seat, e.trait, e.steps)
    elif e.type == "lose":
        lower(state, seat, e.trait, e.steps, frame["cause"])
    elif e.type == "damage":
        state.push({"t": "roll", "fn": "damage", "n": capped(state, e.dice), "seat": seat,
                    "type": e.damage_type, "cause": frame["cause"]})
    elif e.type == "draw-item":
        cards = min(e.cards, len(state.decks["items"]))
        state.push(*[{"t": "draw", "fn": "item", "deck": "items", "seat": seat}] * cards)
    elif e.type == "end-move" and int(state.turn["seat"]) == seat:
        state.turn["moves"] = 0
        state.log(f"{state.who(seat)}'s movement ends")


@resolves("damage")
@rule("damage.physical", "damage.mental")
def resolve_damage_roll(state: HouseState, frame: dict, action: Action) -> None:
    """N points of damage: N dice; the pips are the steps to lose."""
    seat, total = int(frame["seat"]), int(action.get("total"))
    state.log(f"{state.who(seat)} rolls {frame['n']} dice for {frame['type']} damage and gets "
              f"{total} step(s) to lose")
    take_damage(state, seat, frame["type"], total, frame["cause"])
