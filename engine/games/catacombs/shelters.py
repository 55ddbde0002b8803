"""Shelters: hiding from monsters for a limited number of turns."""

from __future__ import annotations

from engine.core.api import Action
from engine.core.rules import PARTIAL, rule
from engine.games.catacombs.checks_util import may_try
from engine.games.catacombs.registry import actions_of, handles
from engine.games.catacombs.state import CatacombsState, Hero


@rule("shelters.empty")
def shelter_here(state: CatacombsState, hero: Hero) -> bool:
    from engine.games.catacombs.sarcophagi import hide_in_sarcophagus

    tile = state.tile_of(hero.pos)
    return any(f["type"] == "shelter" for f in tile.features) or hide_in_sarcophagus(state, hero)


@actions_of
def shelter_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1:
        return []
    if hero.hidden:
        leave = state.data.check("shelter", "leave")
        return [Action.of("shelter", how="leave")] if may_try(state, hero, leave) else []
    hide = state.data.check("shelter", "hide")
    if shelter_here(state, hero) and may_try(state, hero, hide):
        return [Action.of("shelter", how="hide")]
    return []


@handles("shelter")
@rule("shelters.hide", "shelters.three-turns")
def do_shelter(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Hiding costs an action and lasts the check's turns; monsters walk past hidden heroes."""
    how = action.get("how")
    check = state.data.check("shelter", how)
    if how == "hide":
        hero.hidden = check.turns or 1
        state.log(f"{hero.character} hides in a shelter")
    else:
        hero.hidden = 0
        state.log(f"{hero.character} leaves the shelter")
    return check.actions


@actions_of
def force_out_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """An attentive hero forces a hostile hero out of a shelter on the same tile."""
    if not hero.active or hero.hidden or state.round == 1:
        return []
    from engine.games.catacombs.relationships import hostile

    check = state.data.check("shelter", "force-out")
    if not may_try(state, hero, check):
        return []
    return [
        Action.of("force-out", seat=other.seat)
        for other in state.heroes_on(hero.pos[:2])
        if other is not hero and other.hidden and hostile(state, hero, other)
    ]


@handles("force-out")
@rule("shelters.force-out")
def do_force_out(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Attention 5+ forces a hostile hero out of hiding (one action; no surprise bonus)."""
    other = state.heroes[int(action.get("seat"))]
    other.hidden = 0
    state.log(f"{hero.character} forces {other.character} out of the shelter")
    return 1


@rule("shelters.surprise", status=PARTIAL, note="the surprise-attack bonus has no number")
def surprise_attack() -> None:
    """Not implemented: the seed gives attacks from a shelter a bonus without a number."""
