"""Chests: upgraded box by box by treasure numbers, unlocked and disarmed, opened once for the
rewards under their filled boxes."""

from __future__ import annotations

from typing import Any

from engine.core.api import Action
from engine.games.dice_dungeon.data import Chest
from engine.games.dice_dungeon.heroes import abilities_of, deal_damage, spend
from engine.games.dice_dungeon.registry import auto, decision, resolves, rule
from engine.games.dice_dungeon.state import DungeonState

LOCKPICK, KEY = "lockpick", "key"


def chest_of(state: DungeonState, index: int) -> Chest:
    return state.adventure.chests[index]


def guarded(state: DungeonState, index: int) -> bool:
    """The chest's room still has its monster."""
    return not state.monsters[state.monster_in_room(state.chest_rooms[index])].defeated


def stars(state: DungeonState, index: int) -> int:
    chest = chest_of(state, index)
    return sum(b.points for b in chest.boxes[:state.chests[index].boxes])


def locked(state: DungeonState, index: int) -> bool:
    return chest_of(state, index).locked and not state.chests[index].unlocked


@auto("treasure-number")
@rule("treasure.upgrade", "treasure.opened")
def treasure_number(state: DungeonState, step: dict[str, Any]) -> None:
    """Fill the next box of the chest with that number, unless it is open or full."""
    index = state.assigned["treasure"] - 1
    chest, sheet = chest_of(state, index), state.chests[index]
    room = state.chest_rooms[index]
    if sheet.opened:
        state.tally.numbers_lost += 1
        state.log(f"treasure number {index + 1} — the chest in room {room} is already open; "
                  "the number is lost")
        return
    if sheet.boxes >= len(chest.boxes):
        state.tally.numbers_lost += 1
        state.log(f"treasure number {index + 1} — the chest in room {room} is full; the number "
                  "is lost")
        return
    sheet.boxes += 1
    state.log(f"treasure number {index + 1} — the chest in room {room} fills box {sheet.boxes} "
              f"({describe(state, chest.boxes[sheet.boxes - 1])})")


def describe(state: DungeonState, reward: Any) -> str:
    if reward.gold:
        return f"{reward.gold} gold"
    if reward.points:
        return f"{reward.points} stars"
    return state.data.items[reward.item].name if reward.item in state.data.items else "nothing"


@rule("treasure.reward", "treasure.unlock-when")
def begin_opening(state: DungeonState, index: int, why: str) -> None:
    """The heroes go for a chest whose monster is beaten: unlock it, deal with its trap, open it
    (or leave it closed to upgrade it further)."""
    sheet = state.chests[index]
    room = state.chest_rooms[index]
    if sheet.opened:
        state.log(f"the chest in room {room} is already open")
        return
    if guarded(state, index):
        return
    if not sheet.boxes:
        state.log(f"the chest in room {room} is still empty")
        return
    if locked(state, index) and not unlock_options(state, index):
        state.log(f"the chest in room {room} is locked and nobody can open it")
        return
    state.push({"step": "open-chest", "chest": index, "why": why})


def unlock_options(state: DungeonState, index: int) -> list[Action]:
    out = [Action.of("unlock", chest=index, hero=i)
           for i, _, a in abilities_of(state, "lock") if "locked-chest" in a.opens]
    if state.count_type(LOCKPICK):
        out.append(Action.of("unlock", chest=index, item=LOCKPICK))
    return out


@decision("open-chest")
@rule("treasure.locked", "treasure.trap")
def opening_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    index = int(step["chest"])
    if locked(state, index):
        return [*unlock_options(state, index), Action.of("leave")]
    out = []
    if chest_of(state, index).trapped and not state.chests[index].disarmed:
        out += [Action.of("disarm", hero=i) for i, _, a in abilities_of(state, "trap")
                if a.disarms]
    return [*out, Action.of("open"), Action.of("leave")]


@resolves("open-chest")
def resolve_opening(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    index = int(step["chest"])
    room = state.chest_rooms[index]
    if action.kind == "leave":
        state.log(f"the heroes leave the chest in room {room} closed")
    elif action.kind == "unlock":
        unlock(state, action)
        state.push(dict(step))
    elif action.kind == "disarm":
        hero = state.heroes[int(action.get("hero"))]
        ability = next(a for a in state.hero_class(hero).abilities if a.disarms)
        spend(state, hero, ability)
        state.chests[index].disarmed = True
        state.log(f"the {state.hero_class(hero).name} disarms the trap of the chest in room "
                  f"{room}")
        state.push(dict(step))
    else:
        open_chest(state, index)


@rule("treasure.locked", "treasure.unlock-when")
def unlock(state: DungeonState, action: Action) -> None:
    """Unlock a chest with the lock-opening ability or a lockpick (which breaks)."""
    index = int(action.get("chest"))
    room = state.chest_rooms[index]
    if action.get("item"):
        use_lockpick(state)
        who = "a lockpick"
    else:
        hero = state.heroes[int(action.get("hero"))]
        ability = next(a for a in state.hero_class(hero).abilities if "locked-chest" in a.opens)
        spend(state, hero, ability)
        who = f"the {state.hero_class(hero).name}"
    state.chests[index].unlocked = True
    state.log(f"{who} unlocks the chest in room {room}")


def use_lockpick(state: DungeonState) -> None:
    for ident, n in sorted(state.items.items()):
        if n and state.data.items[ident].type == LOCKPICK:
            state.items[ident] -= 1
            return


@rule("treasure.reward", "treasure.opened", "treasure.trap")
def open_chest(state: DungeonState, index: int) -> None:
    """Take every reward under the filled boxes; the chest is then final. An armed trap goes
    off."""
    chest, sheet = chest_of(state, index), state.chests[index]
    sheet.opened = True
    got = [describe(state, b) for b in chest.boxes[:sheet.boxes]]
    for reward in chest.boxes[:sheet.boxes]:
        state.gold += reward.gold
        if reward.item:
            state.items[reward.item] = state.items.get(reward.item, 0) + 1
    state.log(f"the chest in room {state.chest_rooms[index]} is opened — "
              + (", ".join(got) if got else "it is empty"))
    if chest.trapped and not sheet.disarmed:
        spring_trap(state, chest)


def spring_trap(state: DungeonState, chest: Chest) -> None:
    lost = min(state.gold, chest.trap_gold)
    state.gold -= lost
    state.log("the trap goes off — " + ", ".join(
        part for part in (f"{chest.trap_damage} damage" if chest.trap_damage else "",
                          f"{lost} gold lost" if chest.trap_gold else "") if part))
    deal_damage(state, chest.trap_damage, "trap")
