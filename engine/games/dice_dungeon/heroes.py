"""Heroes: wounds and death, ability points, levels bought for gold, revival and healing."""

from __future__ import annotations

from typing import Any

from engine.core.api import Action
from engine.games.dice_dungeon.data import Ability
from engine.games.dice_dungeon.registry import decision, resolves, rule
from engine.games.dice_dungeon.state import DungeonState, Hero


@rule("heroes.death")
def wound(state: DungeonState, hero: Hero, amount: int = 1) -> int:
    """Shade `amount` health boxes; a hero with none left dies. Returns the damage taken."""
    taken = min(amount, state.health(hero))
    if taken <= 0:
        return 0
    hero.wounds += taken
    state.tally.damage_taken += taken
    state.log(f"the {state.hero_class(hero).name} takes {taken} damage ({state.health(hero)} "
              "health left)")
    if not state.alive(hero):
        hero.deaths += 1
        state.tally.deaths += 1
        if hero.level >= state.data.rules.extra_levels:
            state.tally.lost_for_good += 1
            state.log(f"the {state.hero_class(hero).name} dies for good (level "
                      f"{hero.level} reached)")
        else:
            state.log(f"the {state.hero_class(hero).name} dies")
    return taken


@rule("heroes.ability-use")
def can_use(state: DungeonState, hero: Hero, ability: Ability) -> bool:
    """A living hero may use an ability while its cost in ability points remains (free ones
    cost nothing)."""
    return state.alive(hero) and state.ability_points(hero) >= ability.cost


def spend(state: DungeonState, hero: Hero, ability: Ability) -> None:
    hero.spent += ability.cost


def abilities_of(state: DungeonState, use: str) -> list[tuple[int, Hero, Ability]]:
    """(hero index, hero, ability) for every usable ability of the living heroes for `use`."""
    return [(i, h, a) for i, h in enumerate(state.heroes) if h.cls
            for a in state.hero_class(h).abilities if a.use == use and can_use(state, h, a)]


@rule("heroes.level-cost")
def level_cost(state: DungeonState, hero: Hero) -> int:
    """5 plus the number of the level bought."""
    return state.data.rules.level_cost_base + hero.level + 1


@rule("heroes.revive")
def can_level_up(state: DungeonState, hero: Hero) -> bool:
    """Any hero below the last level may buy one, dead or alive (a dead hero who already
    reached the last level is dead for good)."""
    return (bool(hero.cls) and hero.level < state.data.rules.extra_levels
            and state.gold >= level_cost(state, hero))


@rule("heroes.per-level", "heroes.level-cost", "heroes.revive")
def level_up(state: DungeonState, hero: Hero) -> None:
    """Pay for the next level: one more health box and one more ability box, so a dead hero
    comes back with 1 health."""
    cost = level_cost(state, hero)
    was_dead = not state.alive(hero)
    state.gold -= cost
    hero.level += 1
    state.tally.levels_bought += 1
    name = state.hero_class(hero).name
    state.log(f"the {name} reaches level {hero.level} for {cost} gold"
              + (" and comes back to life" if was_dead else "")
              + f" ({state.health(hero)} health, {state.ability_points(hero)} ability points)")


def heal(state: DungeonState, hero: Hero, amount: int) -> int:
    healed = min(amount, hero.wounds)
    hero.wounds -= healed
    return healed


@rule("attack.monster-damage", "attack.damage-to")
def deal_damage(state: DungeonState, amount: int, source: str) -> None:
    """Damage the players split among the living heroes, one point at a time; with one living
    hero there is nothing to choose, and damage beyond the last health is lost."""
    living = state.living()
    if amount <= 0 or not living:
        return
    if len(living) == 1:
        wound(state, living[0], amount)
        return
    state.push({"step": "wound", "left": amount, "source": source})


@decision("wound")
def wound_options(state: DungeonState, step: dict[str, Any]) -> list[Action]:
    return [Action.of("wound", hero=i) for i, h in enumerate(state.heroes) if state.alive(h)]


@resolves("wound")
def take_wound(state: DungeonState, step: dict[str, Any], action: Action) -> None:
    hero = state.heroes[int(action.get("hero"))]
    wound(state, hero, 1)
    deal_damage(state, int(step["left"]) - 1, str(step["source"]))
