"""Hired mercenaries' help beyond fighting (their cards' `ability`): the bodyguard takes blows
meant for the employer, the porter carries gear (`CatacombsState.porter_room`), the guide lends
a stat in checks on some subjects, and the former bandit wants its pay every turn. How they
fight is `combat.weapons`."""

from __future__ import annotations

from collections.abc import Mapping

from engine.games.catacombs.data import Check
from engine.games.catacombs.registry import rule
from engine.games.catacombs.state import CatacombsState, Hero


def mercenaries_with(state: CatacombsState, hero: Hero, effect: str) -> list[str]:
    """The hero's hired mercenary cards with this ability effect."""
    out = []
    for card_id in hero.spells:
        card = state.data.cards.get(card_id)
        if card is not None and card.ability is not None and card.ability.effect == effect:
            out.append(card_id)
    return out


@rule("table.bodyguard")
def take_blow(state: CatacombsState, hero: Hero, damage: int, cause: str, death: str) -> None:
    """A blow or a shot at the hero (a monster's or another hero's): a hired bodyguard takes it
    instead, whole, until the damage it has taken reaches its health; then it falls and its
    card is discarded."""
    if damage <= 0 or not hero.alive:
        return
    guards = mercenaries_with(state, hero, "bodyguard")
    if not guards:
        state.hurt(hero, damage, cause, death)
        return
    card = state.data.cards[guards[0]]
    hero.guard_wounds += damage
    state.log(f"the {card.id} takes the blow meant for {hero.character} ({cause})")
    if hero.guard_wounds >= card.health:
        hero.spells.remove(card.id)
        hero.guard_wounds = 0
        state.log(f"the {card.id} of {hero.character} falls")


@rule("table.guide")
def guided_stats(state: CatacombsState, hero: Hero, check: Check) -> Mapping[str, int]:
    """The hero's stats for this check: a hired guide lends its stat (at least its amount) in
    checks on the subjects its card names."""
    stats = state.stats(hero)
    for card_id in mercenaries_with(state, hero, "guide"):
        ability = state.data.cards[card_id].ability
        if check.subject in ability.subjects and stats.get(ability.stat, 0) < ability.amount:
            stats[ability.stat] = ability.amount
    return stats


@rule("table.former-bandit")
def upkeep(state: CatacombsState, hero: Hero) -> None:
    """At the start of the employer's turn, from the second round on, each mercenary with an
    upkeep is paid its treasures; one the employer cannot pay leaves, its card going back to
    the mercenary deck."""
    if state.round < 2:
        return
    for card_id in mercenaries_with(state, hero, "upkeep"):
        cost = state.data.cards[card_id].ability.amount
        if hero.treasures >= cost:
            hero.treasures -= cost
            state.log(f"{hero.character} pays the {card_id} {cost} treasure(s)")
            continue
        hero.spells.remove(card_id)
        pool = state.pools.setdefault("mercenary", {})
        pool[card_id] = pool.get(card_id, 0) + 1
        state.log(f"the {card_id} of {hero.character} goes unpaid and leaves")
