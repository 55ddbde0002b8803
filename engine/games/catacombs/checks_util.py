"""Resolving content checks: who may try, the success faces with modifiers, the outcomes (health,
poison, lost turns, speed, death, and how the relic keepers take it)."""

from __future__ import annotations

from engine.games.catacombs.data import Check, Outcome
from engine.games.catacombs.mercenaries import guided_stats
from engine.games.catacombs.registry import rule
from engine.games.catacombs.state import CatacombsState, Hero


@rule("setup.dexterity", "setup.knowledge", "setup.luck")
def may_try(state: CatacombsState, hero: Hero, check: Check | None) -> bool:
    """The hero meets the check's thresholds (or holds one of its items) and is not forbidden."""
    if check is None:
        return False
    character = state.data.characters[hero.character]
    if "relic-keeper" in check.forbidden_for and character.relic_keeper:
        return False
    if check.requires and check.allowed(guided_stats(state, hero, check)):
        return True
    if check.items and set(check.items) & set(hero.items):
        return True
    return not check.requires and not check.items


@rule("setup.dexterity", "setup.knowledge", "setup.luck")
def success_faces(state: CatacombsState, hero: Hero, check: Check) -> tuple[frozenset[int], int]:
    """The faces that succeed and the number added to the die, after the hero's modifiers: the
    stats act through the checks that name them (dexterity for jumps and darts, knowledge for
    the plant, mechanisms and riddles, luck for treasure and run-ups)."""
    faces = check.success
    add = 0
    for m in check.active_modifiers(guided_stats(state, hero, check), tuple(hero.items)):
        if m.success is not None:
            faces = m.success
        add += m.add
    return faces, add


def passes(state: CatacombsState, hero: Hero, check: Check, die: int) -> bool:
    faces, add = success_faces(state, hero, check)
    top = check.dice.sides if check.dice else 6
    return min(die + add, top) in faces


def result_band(check: Check, total: int):
    for band in check.results:
        if total in band.roll:
            return band
    return None


def apply_outcome(state: CatacombsState, hero: Hero, outcome: Outcome, cause: str) -> None:
    """Health, poison, lost turns, speed and death from an outcome block."""
    if outcome.dies:
        state.kill(hero, cause)
        return
    if outcome.health < 0:
        state.hurt(hero, -outcome.health, cause)
    elif outcome.health > 0:
        hero.hp = min(hero.max_hp, hero.hp + outcome.health)
    for _ in range(outcome.poison):
        poison(state, hero, cause)
    if not hero.alive:
        return
    if outcome.turns_lost:
        hero.turns_lost += outcome.turns_lost
        state.log(f"{hero.character} loses {outcome.turns_lost} turn(s) ({cause})")
    if outcome.speed_set is not None:
        hero.speed_set = outcome.speed_set
    if outcome.relic_keepers:
        relic_keepers_react(state, hero, outcome.relic_keepers)


@rule("statues.keepers-antipathy", "statues.keepers-sympathy")
def relic_keepers_react(state: CatacombsState, hero: Hero, delta: int) -> None:
    """Every relic keeper in play (not of a rival team) changes its slider with the hero."""
    for other in state.heroes:
        if other.seat == hero.seat or not other.alive or not other.character:
            continue
        if not state.data.characters[other.character].relic_keeper:
            continue
        if hero.team and other.team and hero.team != other.team:
            continue
        state.set_relation(hero.seat, other.seat, state.relation(hero.seat, other.seat) + delta)
        state.log(
            f"{other.character} now feels {state.relation(hero.seat, other.seat)} "
            f"towards {hero.character}"
        )


@rule("engine.poison")
def poison(state: CatacombsState, hero: Hero, cause: str) -> None:
    """One poisoning: an antidote held cures it at once, otherwise it costs 1 health."""
    if hero.antidotes > 0:
        hero.antidotes -= 1
        state.log(f"{hero.character} is poisoned ({cause}) and drinks an antidote")
        return
    state.hurt(hero, 1, f"poisoned by {cause}", f"poison ({cause})")

