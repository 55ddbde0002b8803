"""Attacking a monster: which ones can be reached, the heroes' dice, rerolls for gold, abilities
once per fight, the result against the monster's health and its damage at the same time."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.core.api import Action, Outcome
from engine.games.dice_dungeon.chests import LOCKPICK, begin_opening, use_lockpick
from engine.games.dice_dungeon.heroes import abilities_of, deal_damage, spend
from engine.games.dice_dungeon.registry import auto, chance, decision, resolves, rule
from engine.games.dice_dungeon.rolls import decode, encode, multisets
from engine.games.dice_dungeon.state import DungeonState

WEAPON, SHIELD = "magic-weapon", "magic-shield"


@rule("turn.attack", "monsters.boss")
def reachable(state: DungeonState, index: int) -> bool:
    """A living monster whose door borders a painted square; a boss also needs its keys."""
    if state.monsters[index].defeated:
        return False
    room = state.adventure.grid.room(state.room_of_monster(index))
    if room.doorstep not in state.painted:
        return False
    if state.adventure.boss == index:
        return all(state.has(key) for key in state.adventure.boss_keys)
    return True


def door_closed(state: DungeonState, index: int) -> bool:
    room = state.adventure.grid.room(state.room_of_monster(index))
    return room.locked and room.number not in state.open_doors


@rule("turn.locked-door")
def door_openers(state: DungeonState, index: int) -> list[dict[str, Any]]:
    """How a locked door can be opened: a hero's lock-opening ability or a lockpick."""
    out: list[dict[str, Any]] = [{"hero": i} for i, _, a in abilities_of(state, "lock")
                                 if "locked-door" in a.opens]
    if state.count_type(LOCKPICK):
        out.append({"item": LOCKPICK})
    return out


@auto("attack")
def attack_step(state: DungeonState, step: dict[str, Any]) -> None:
    if state.living() and attack_options(state, step)[:-1]:
        state.push({"step": "choose-attack"})


@decision("choose-attack")
@rule("turn.attack", "turn.locked-door")
def attack_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    out = []
    for index in range(len(state.monsters)):
        if not reachable(state, index):
            continue
        if door_closed(state, index):
            out += [Action.of("attack", monster=index, **opener)
                    for opener in door_openers(state, index)]
        else:
            out.append(Action.of("attack", monster=index))
    return [*out, Action.of("pass")]


@resolves("choose-attack")
def choose_attack(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    if action.kind == "pass":
        state.log("the heroes attack nobody this turn")
        return
    index = int(action.get("monster"))
    room = state.room_of_monster(index)
    if door_closed(state, index):
        if action.get("item"):
            use_lockpick(state)
            state.log(f"a lockpick opens the locked door of room {room}")
        else:
            hero = state.heroes[int(action.get("hero"))]
            ability = next(a for a in state.hero_class(hero).abilities
                           if "locked-door" in a.opens)
            spend(state, hero, ability)
            state.log(f"the {state.hero_class(hero).name} opens the locked door of room {room}")
        state.open_doors.append(room)
    state.attacked = True
    state.tally.fights += 1
    state.fight = {"monster": index, "dice": [], "used": [], "bonus": 0, "reduction": 0}
    monster = state.monster(index)
    state.log(f"the heroes attack the {monster.name} in room {room} (health "
              f"{state.monster_value(index, 'health')}, attack "
              f"{state.monster_value(index, 'attack')})")
    state.push({"step": "fight-roll"}, {"step": "fight"})


@chance("fight-roll")
@rule("attack.roll")
def fight_roll_outcomes(state: DungeonState, step: dict[str, Any]) -> list[Outcome]:
    """Every player with a living hero rolls a die."""
    die = state.data.rules.fight_die
    return [Outcome(Action.of("fight-roll", dice=encode(faces)), p)
            for faces, p in multisets(len(state.living()) * die.count, die.sides)]


@resolves("fight-roll")
def apply_fight_roll(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    assert state.fight is not None
    state.fight["dice"] = decode(str(action.get("dice")))
    state.log(f"the heroes roll {', '.join(map(str, state.fight['dice']))}")


@rule("attack.reroll")
def reroll_price(state: DungeonState) -> int | None:
    """Gold per reroll from the shared purse (None when this monster allows none)."""
    assert state.fight is not None
    monster = state.monster(int(state.fight["monster"]))
    if monster.has("no-rerolls"):
        return None
    return monster.amount("reroll-cost") if monster.has("reroll-cost") \
        else state.data.rules.reroll_cost


@rule("heroes.ability-use")
def fight_abilities(state: DungeonState) -> list[tuple[int, Any]]:
    """(hero index, ability) usable now: each once per fight, while its points remain."""
    assert state.fight is not None
    if state.monster(int(state.fight["monster"])).has("no-abilities"):
        return []
    used = state.fight["used"]
    limit = state.data.rules.uses_per_fight
    return [(i, a) for i, _, a in abilities_of(state, "fight")
            if used.count(f"{i}:{a.id}") < limit]


@decision("fight")
@rule("engine.fight-steps")
def fight_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    assert state.fight is not None
    faces = sorted(set(state.fight["dice"]))
    out = [Action.of("strike")]
    price = reroll_price(state)
    if price is not None and state.gold >= price:
        out += [Action.of("reroll", die=f) for f in faces]
    for i, ability in fight_abilities(state):
        if ability.reroll == "fight-die":
            out += [Action.of("ability", hero=i, ability=ability.id, die=f) for f in faces]
        else:
            out.append(Action.of("ability", hero=i, ability=ability.id))
    return out


@resolves("fight")
def resolve_fight_option(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    fight = state.fight
    assert fight is not None
    if action.kind == "strike":
        strike(state)
        return
    if action.kind == "reroll":
        price = reroll_price(state)
        assert price is not None
        state.gold -= price
        state.tally.rerolls += 1
        state.log(f"the heroes pay {price} gold to reroll a {action.get('die')}")
        state.push({"step": "fight-reroll", "die": int(action.get("die"))}, {"step": "fight"})
        return
    hero = state.heroes[int(action.get("hero"))]
    ability = next(a for a in state.hero_class(hero).abilities if a.id == action.get("ability"))
    spend(state, hero, ability)
    fight["used"].append(f"{action.get('hero')}:{ability.id}")
    fight["bonus"] += ability.attack_bonus
    fight["reduction"] += ability.damage_reduction
    state.log(f"the {state.hero_class(hero).name} uses {ability.name}")
    if ability.reroll == "fight-die":
        state.push({"step": "fight-reroll", "die": int(action.get("die"))}, {"step": "fight"})
    else:
        state.push({"step": "fight"})


@chance("fight-reroll")
def fight_reroll_outcomes(state: DungeonState, step: dict[str, Any]) -> list[Outcome]:
    sides = state.data.rules.fight_die.sides
    return [Outcome(Action.of("face", value=v), Fraction(1, sides)) for v in range(1, sides + 1)]


@resolves("fight-reroll")
def apply_fight_reroll(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    assert state.fight is not None
    dice = state.fight["dice"]
    dice.remove(int(step["die"]))
    dice.append(int(action.get("value")))
    dice.sort()
    state.log(f"the {step['die']} is rolled again — {action.get('value')}")


@rule("attack.roll", "attack.weapons")
def attack_result(state: DungeonState) -> int:
    """The dice total divided by the living heroes, rounded up, plus magic weapons and the
    abilities used."""
    fight = state.fight
    assert fight is not None
    dice, heroes = fight["dice"], max(1, len(state.living()))
    monster = state.monster(int(fight["monster"]))
    weapons = 0 if monster.has("ignore-weapons") else \
        state.count_type(WEAPON) * state.data.rules.weapon_bonus
    return -(-sum(dice) // heroes) + weapons + int(fight["bonus"])


@rule("attack.shields", "attack.reduction-abilities", "attack.shields-count")
def damage_dealt(state: DungeonState) -> int:
    """The monster's attack (plus any extra of its own) less one per magic shield (one per
    living hero, at most the cap) and the abilities that reduce damage."""
    fight = state.fight
    assert fight is not None
    r = state.data.rules
    index = int(fight["monster"])
    monster = state.monster(index)
    shields = 0
    if not monster.has("ignore-shields"):
        held = min(state.count_type(SHIELD), len(state.living()) * r.shields_per_hero)
        shields = min(held * r.shield_reduction, r.max_shield_reduction)
    attack = state.monster_value(index, "attack") + monster.amount("extra-damage")
    return max(0, attack - shields - int(fight["reduction"]))


@rule("attack.win", "attack.monster-damage", "attack.example")
def strike(state: DungeonState) -> None:
    """Both sides hit at once: the monster falls if the result reaches its health, and its
    damage is split among the heroes either way."""
    fight = state.fight
    assert fight is not None
    index = int(fight["monster"])
    monster = state.monster(index)
    total, health = attack_result(state), state.monster_value(index, "health")
    damage = damage_dealt(state)
    won = total >= health
    state.log(f"attack {total} against health {health} — the {monster.name} "
              + ("falls" if won else "holds") + f"; it deals {damage} damage")
    state.fight = None
    if damage and monster.has("steal-gold") and state.gold:
        stolen = min(state.gold, monster.amount("steal-gold"))
        state.gold -= stolen
        state.log(f"the {monster.name} runs off with {stolen} gold")
    if won:
        defeat(state, index)
    deal_damage(state, damage, monster.id)


@rule("monsters.boss", "treasure.reward", "treasure.open-after-victory")
def defeat(state: DungeonState, index: int) -> None:
    """A beaten monster leaves what it carries; the boss gives up the unique treasure. The
    players may open the room's chest at once."""
    monster = state.monster(index)
    state.monsters[index].defeated = True
    state.tally.fights_won += 1
    for item in (monster.drops,
                 state.adventure.unique_treasure if state.adventure.boss == index else None):
        if item:
            state.items[item] = state.items.get(item, 0) + 1
            state.log(f"the {monster.name} leaves the {state.data.items[item].name}")
    begin_opening(state, state.chest_in_room(state.room_of_monster(index)), "victory")
