"""A turn: the master's three dice, handing out the numbers (exploration, treasure, monster),
painting the shape, the attack, and what the heroes do at the end of the turn."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.core.api import Action, Outcome
from engine.core.game import TURN_BOUND
from engine.games.dice_dungeon.chests import guarded, locked, unlock, unlock_options
from engine.games.dice_dungeon.grid import legal_placements, placement_at
from engine.games.dice_dungeon.heroes import abilities_of, can_level_up, heal, level_up, spend
from engine.games.dice_dungeon.registry import auto, chance, decision, resolves, rule
from engine.games.dice_dungeon.rolls import decode, encode, multisets
from engine.games.dice_dungeon.state import DungeonState

TURN_STEPS = ("explore", "treasure-number", "monster-number", "attack", "end-turn",
              "finish-turn")


@auto("begin-turn")
@rule("level-end.when", "level-end.turns")
def begin_turn(state: DungeonState, step: dict[str, Any]) -> None:
    if state.round >= state.max_rounds:
        state.ended_by = TURN_BOUND
        state.queue.clear()
        state.log(f"the simulation's turn bound ({state.max_rounds} turns) is reached")
        return
    if state.turn >= state.adventure.max_turns:
        state.push({"step": "end-level"})
        return
    state.turn += 1
    state.round += 1
    state.attacked = False
    state.dice, state.assigned = [], {}
    state.log(f"turn {state.turn} of {state.adventure.max_turns}")
    state.push({"step": "turn-roll"}, {"step": "assign"})


@chance("turn-roll")
@rule("turn.roll")
def turn_roll_outcomes(state: DungeonState, step: dict[str, Any]) -> list[Outcome]:
    """The master rolls three dice; which die is which does not matter, only the numbers."""
    dice = state.data.rules.turn_dice
    return list(_roll_outcomes(dice.count, dice.sides))


@lru_cache(maxsize=8)
def _roll_outcomes(count: int, sides: int) -> tuple[Outcome, ...]:
    return tuple(Outcome(Action.of("roll", dice=encode(faces)), p)
                 for faces, p in multisets(count, sides))


@resolves("turn-roll")
def apply_turn_roll(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    state.dice = decode(str(action.get("dice")))
    state.log(f"the master rolls {', '.join(map(str, state.dice))}")


@decision("assign")
@rule("turn.assign")
def assign_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    """Every way to hand the three numbers to exploration, treasure and a monster, and the
    abilities that change the master's dice first."""
    out = [Action.of("assign", explore=e, treasure=t, monster=m)
           for e, t, m in sorted(set(itertools.permutations(state.dice)))]
    sides = state.data.rules.turn_dice.sides
    for i, _, ability in abilities_of(state, "turn-roll"):
        for face in sorted(set(state.dice)):
            if ability.adjust:
                out += [Action.of("ability", hero=i, ability=ability.id, die=face, to=to)
                        for to in (face - ability.adjust, face + ability.adjust)
                        if 1 <= to <= sides]
            if ability.reroll == "turn-die":
                out.append(Action.of("ability", hero=i, ability=ability.id, die=face))
    return out


@resolves("assign")
@rule("engine.turn-order")
def apply_assign(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    if action.kind == "ability":
        use_roll_ability(state, action)
        return
    state.assigned = {"explore": int(action.get("explore")),
                      "treasure": int(action.get("treasure")),
                      "monster": int(action.get("monster"))}
    a = state.assigned
    state.log(f"exploration {a['explore']}, treasure {a['treasure']}, monster {a['monster']}")
    steps = [{"step": s} for s in TURN_STEPS]
    if a["explore"] in state.data.rules.reroll_faces:
        steps.insert(0, {"step": "explore-reroll"})
    state.push(*steps)


def use_roll_ability(state: DungeonState, action: Action) -> None:
    hero = state.heroes[int(action.get("hero"))]
    ability = next(a for a in state.hero_class(hero).abilities if a.id == action.get("ability"))
    spend(state, hero, ability)
    face = int(action.get("die"))
    name = state.hero_class(hero).name
    if ability.adjust:
        to = int(action.get("to"))
        state.dice.remove(face)
        state.dice = sorted([*state.dice, to])
        state.log(f"the {name} uses {ability.name} — the {face} becomes a {to}")
        state.push({"step": "assign"})
    else:
        state.log(f"the {name} uses {ability.name} on the {face}")
        state.push({"step": "turn-reroll", "die": face}, {"step": "assign"})


@chance("turn-reroll")
def turn_reroll_outcomes(state: DungeonState, step: dict[str, Any]) -> list[Outcome]:
    sides = state.data.rules.turn_dice.sides
    return [Outcome(Action.of("face", value=v), Fraction(1, sides)) for v in range(1, sides + 1)]


@resolves("turn-reroll")
def apply_turn_reroll(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    state.dice.remove(int(step["die"]))
    state.dice = sorted([*state.dice, int(action.get("value"))])
    state.log(f"the {step['die']} is rolled again — {action.get('value')}")


@chance("explore-reroll")
@rule("exploration.one")
def explore_reroll_outcomes(state: DungeonState, step: dict[str, Any]) -> list[Outcome]:
    """A 1 given to exploration is rolled again until it is not a 1: each other face is equally
    likely."""
    sides = state.data.rules.turn_dice.sides
    faces = [f for f in range(1, sides + 1) if f not in state.data.rules.reroll_faces]
    return [Outcome(Action.of("face", value=f), Fraction(1, len(faces))) for f in faces]


@resolves("explore-reroll")
def apply_explore_reroll(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    state.assigned["explore"] = int(action.get("value"))
    state.log(f"the exploration 1 is rolled again until it changes — {action.get('value')}")


@auto("explore")
@rule("exploration.shape", "exploration.must-paint")
def explore(state: DungeonState, step: dict[str, Any]) -> None:
    """The exploration number's shape is painted where the players choose; if it fits nowhere
    the number is lost."""
    shape = state.data.shapes[state.assigned["explore"]]
    if legal_placements(state.adventure.grid, state.painted, shape, state.data.rules):
        state.push({"step": "place"})
    else:
        state.tally.numbers_lost += 1
        state.log(f"exploration {shape.face} — the shape fits nowhere; the number is lost")


@decision("place")
def place_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    shape = state.data.shapes[state.assigned["explore"]]
    return [Action.of("place", x=p.x, y=p.y, turn=p.turn)
            for p in legal_placements(state.adventure.grid, state.painted, shape,
                                      state.data.rules)]


@resolves("place")
def apply_place(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    shape = state.data.shapes[state.assigned["explore"]]
    placement = placement_at(shape, state.data.rules, int(action.get("x")), int(action.get("y")),
                             int(action.get("turn")))
    assert placement is not None
    state.painted |= set(placement.cells)
    state.log(f"exploration {shape.face} — paints {placement.describe()}"
              + (f" (turned {placement.turn} degrees)" if placement.turn else ""))


# ----- the end of the turn ----------------------------------------------------------------------


@decision("end-turn")
@rule("heroes.level-cost", "heroes.ability-use", "heroes.levels-per-turn", "engine.end-of-turn")
def end_turn_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    """Buy levels, heal, drink potions, unlock the chests of beaten monsters; then end."""
    out = [Action.of("level-up", hero=i) for i, h in enumerate(state.heroes)
           if can_level_up(state, h)]
    wounded = [j for j, h in enumerate(state.heroes) if state.alive(h) and h.wounds]
    for i, _, ability in abilities_of(state, "outside"):
        if ability.heal:
            out += [Action.of("ability", hero=i, ability=ability.id, target=j) for j in wounded]
    for ident in sorted(state.items):
        item = state.data.items.get(ident)
        if item and item.type == "potion" and state.items[ident]:
            out += [Action.of("potion", item=ident, target=j) for j in wounded]
    for index, sheet in enumerate(state.chests):
        if not sheet.opened and not guarded(state, index) and locked(state, index):
            out += unlock_options(state, index)
    return [*out, Action.of("done")]


@resolves("end-turn")
def apply_end_turn(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    if action.kind == "done":
        return
    if action.kind == "level-up":
        level_up(state, state.heroes[int(action.get("hero"))])
    elif action.kind == "unlock":
        unlock(state, action)
    elif action.kind == "potion":
        target = state.heroes[int(action.get("target"))]
        item = state.data.items[str(action.get("item"))]
        state.items[item.id] -= 1
        healed = heal(state, target, item.heal)
        state.log(f"the {state.hero_class(target).name} drinks the {item.name} — +{healed} "
                  f"health ({state.health(target)})")
    else:
        hero = state.heroes[int(action.get("hero"))]
        target = state.heroes[int(action.get("target"))]
        ability = next(a for a in state.hero_class(hero).abilities
                       if a.id == action.get("ability"))
        spend(state, hero, ability)
        healed = heal(state, target, ability.heal)
        state.log(f"the {state.hero_class(hero).name} uses {ability.name} on the "
                  f"{state.hero_class(target).name} — +{healed} health ({state.health(target)})")
    state.push({"step": "end-turn"})


@auto("finish-turn")
@rule("level-end.when")
def finish_turn(state: DungeonState, step: dict[str, Any]) -> None:
    """The level ends when every monster is beaten, the turns run out, or no hero is alive."""
    if all(m.defeated for m in state.monsters) or not state.living() \
            or state.turn >= state.adventure.max_turns:
        state.push({"step": "end-level"})
    else:
        state.push({"step": "begin-turn"})

