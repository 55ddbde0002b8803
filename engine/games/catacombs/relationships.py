"""Relationships: the sliders between heroes, how they change and what they do."""

from __future__ import annotations

from engine.core.api import Action
from engine.core.rules import PARTIAL, rule
from engine.games.catacombs.checks_util import may_try
from engine.games.catacombs.registry import actions_of, handles
from engine.games.catacombs.state import CatacombsState, Hero


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


def _step(state: CatacombsState) -> int:
    check = state.data.check("relationship", "improve")
    for rid in sorted(state.data.rules):
        raw = state.data.rules[rid].raw
        if "relationship_change" in raw and check is not None and check.id in raw.get("see", ()):
            return int(raw["relationship_change"])
    return 1


@actions_of
def befriend_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1:
        return []
    check = state.data.check("relationship", "improve")
    if not may_try(state, hero, check) or hero.treasures < check.cost_treasures:
        return []
    top = _top(state)
    return [
        Action.of("befriend", seat=other.seat)
        for other in state.heroes_on(hero.pos[:2])
        if other.seat != hero.seat and state.relation(hero.seat, other.seat) < top
    ]


def _top(state: CatacombsState) -> int:
    entry = state.data.rule_with("scale")
    return int(entry.raw["scale"].get("max", 1)) if entry else 1


@handles("befriend")
@rule("setup.communication-free-sympathy", "station.sliders-move")
def do_befriend(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Communication 4+ raises the slider with a hero on the same tile for free."""
    check = state.data.check("relationship", "improve")
    other = int(action.get("seat"))
    hero.treasures -= check.cost_treasures
    state.set_relation(hero.seat, other, state.relation(hero.seat, other) + _step(state))
    state.log(f"{hero.character} befriends {state.heroes[other].character}")
    return check.actions


@rule(
    "loan.lend", "loan.repay", "usury.terms", status=PARTIAL, note="loans and usury are not played"
)
def loans() -> None:
    """Not implemented: lending, repaying, forgiving and usury."""
