"""Setting up a game and each level: heroes, the setup roll, room orders and monsters that act
before play."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from engine.core.api import Action, Outcome
from engine.games.dice_dungeon.data import Dungeon
from engine.games.dice_dungeon.registry import auto, chance, decision, resolves, rule
from engine.games.dice_dungeon.state import ChestSheet, DungeonState, Hero, MonsterSheet


def new_game(data: Dungeon, players: int, seed: int, levels: list[str], max_rounds: int
             ) -> DungeonState:
    state = DungeonState(data, players, seed, levels, max_rounds)
    state.push({"step": "level-start"})
    state.advance()
    return state


@rule("setup.order", "setup.example")
def room_order(first: int, rooms: int) -> list[int]:
    """The rooms in order from `first`, going back to room 1 after the last."""
    return [(first - 1 + i) % rooms + 1 for i in range(rooms)]


@rule("setup.roll")
def setup_outcomes(faces: int) -> list[tuple[tuple[int, int, int], Fraction]]:
    """The setup roll, repeated until the three dice differ: each ordered triple of different
    numbers is equally likely."""
    triples = [t for t in itertools.product(range(1, faces + 1), repeat=3) if len(set(t)) == 3]
    return [(t, Fraction(1, len(triples))) for t in triples]


@rule("overview.new-hero")
def new_heroes_this_level(state: DungeonState) -> bool:
    """New heroes are chosen on every level of a campaign but the ones the rules name, and
    always when there are no heroes yet."""
    number = state.level + 1
    kept = number in state.data.rules.new_hero_except_levels and len(state.levels) > 1
    return not (kept and state.heroes)


@auto("level-start")
@rule("overview.party")
def level_start(state: DungeonState, step: dict[str, Any]) -> None:
    adventure = state.adventure
    state.log(f"level {state.level + 1} — {adventure.name}")
    steps: list[dict[str, Any]] = []
    if new_heroes_this_level(state):
        size = state.data.rules.party_size(state.players)
        state.heroes = [Hero(seat=i % state.players) for i in range(size)]
        steps += [{"step": "pick-class", "hero": i, "seat": h.seat}
                  for i, h in enumerate(state.heroes)]
    else:
        fresh_sheet(state)
    steps += [{"step": "setup-roll"}, {"step": "begin-level"}]
    state.push(*steps)


@rule("heroes.carry-over")
def fresh_sheet(state: DungeonState) -> None:
    """Heroes kept for the next level start it with full health and ability points; a hero
    dead for good stays dead."""
    r = state.data.rules
    for hero in state.heroes:
        gone = not state.alive(hero) and hero.level >= r.extra_levels
        hero.spent = 0
        hero.wounds = state.max_health(hero) if gone else 0
        note = " (dead for good)" if gone else ""
        state.log(f"the {state.hero_class(hero).name} goes on at level {hero.level}{note}")


@decision("pick-class")
@rule("overview.one-per-class")
def class_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    taken = {h.cls for h in state.heroes if h.cls}
    return [Action.of("pick-class", hero_class=c.id) for c in state.data.classes
            if c.id not in taken]


@resolves("pick-class")
def pick_class(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    hero = state.heroes[int(step["hero"])]
    hero.cls = str(action.get("hero_class"))
    state.log(f"seat {hero.seat} takes the {state.hero_class(hero).name}")


@chance("setup-roll")
def setup_roll_outcomes(state: DungeonState, step: dict[str, Any]) -> list[Outcome]:
    faces = state.data.rules.setup_dice.sides
    return [Outcome(Action.of("setup", monster=m, treasure=t, gold=g), p)
            for (m, t, g), p in setup_outcomes(faces)]


@resolves("setup-roll")
@rule("setup.meaning", "setup.order")
def apply_setup_roll(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    rooms = state.data.rules.rooms
    first_monster, first_chest = int(action.get("monster")), int(action.get("treasure"))
    state.monster_rooms = room_order(first_monster, rooms)
    state.chest_rooms = room_order(first_chest, rooms)
    state.gold = int(action.get("gold")) + int(state.carry.pop("gold", 0))
    state.log(f"setup roll {first_monster}, {first_chest}, {action.get('gold')} — monsters in "
              f"rooms {''.join(map(str, state.monster_rooms))}, chests in rooms "
              f"{''.join(map(str, state.chest_rooms))}, {state.gold} gold")


@auto("begin-level")
def begin_level(state: DungeonState, step: dict[str, Any]) -> None:
    adventure = state.adventure
    state.turn = 0
    state.painted = set()
    state.monsters = [MonsterSheet() for _ in adventure.monsters]
    state.chests = [ChestSheet() for _ in adventure.chests]
    state.open_doors = []
    state.items = {}
    item = state.carry.pop("item", None)
    if item:
        state.items[item] = 1
        state.log(f"the bonus of the last level — a {state.data.items[item].name}")
    before_game(state)
    state.push({"step": "begin-turn"})


@rule("monsters.abilities", "engine.before-game")
def before_game(state: DungeonState) -> None:
    """Monster abilities that act before play fill their boxes now."""
    for index, monster in enumerate(state.adventure.monsters):
        for ability in monster.abilities:
            if ability.when != "before-game":
                continue
            targets = [index] if ability.effect == "upgrade" else [
                i for i in range(len(state.monsters)) if i != index]
            for target in targets:
                filled = fill_boxes(state, target, ability.track, ability.boxes)
                if filled:
                    state.log(f"before play the {monster.name} fills {filled} "
                              f"{ability.track} box(es) of the {state.monster(target).name}")


def fill_boxes(state: DungeonState, index: int, track: str, boxes: int) -> int:
    """Fill up to `boxes` boxes of a track (no more than it has); the number filled."""
    sheet, monster = state.monsters[index], state.monster(index)
    room = len(monster.track(track)) - (sheet.health_boxes if track == "health"
                                        else sheet.attack_boxes)
    n = max(0, min(boxes, room))
    if track == "health":
        sheet.health_boxes += n
    else:
        sheet.attack_boxes += n
    return n
