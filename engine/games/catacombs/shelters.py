"""Shelters: hiding from monsters for a limited number of turns."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.checks_util import apply_outcome, may_try
from engine.games.catacombs.registry import actions_of, handles, rule
from engine.games.catacombs.relationships import hostile
from engine.games.catacombs.sarcophagi import hide_in_sarcophagus
from engine.games.catacombs.state import CatacombsState, Hero, Piece


@rule("shelters.empty")
def shelter_here(state: CatacombsState, hero: Hero) -> bool:
    tile = state.tile_of(hero.pos)
    return any(f["type"] == "shelter" for f in tile.features) or hide_in_sarcophagus(state, hero)


@actions_of
def shelter_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1:
        return []
    if hero.hidden:
        leave = state.data.check("shelter", "leave")
        if blocked(state, hero) or not may_try(state, hero, leave):
            return []
        return [Action.of("shelter", how="leave")]
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
    foes = hidden_foes(state, hero)
    if not foes or not may_try(state, hero, state.data.check("shelter", "force-out")):
        return []
    return [Action.of("force-out", seat=other.seat) for other in foes]


def hidden_foes(state: CatacombsState, hero: Hero) -> list[Hero]:
    """Hostile heroes hiding in a shelter on the hero's tile."""
    return [
        other
        for other in state.heroes_on(hero.pos[:2])
        if other is not hero and other.hidden and _hostile(state, hero, other)
    ]


@handles("force-out")
@rule("shelters.force-out")
def do_force_out(state: CatacombsState, hero: Hero, action: Action) -> int:
    """Attention 5+ forces a hostile hero out of hiding (one action); the forcer's blows at that
    hero for the rest of the turn carry the surprise-attack bonus (table.hero-fights)."""
    other = state.heroes[int(action.get("seat"))]
    other.hidden = 0
    hero.ambush = other.seat
    state.log(f"{hero.character} forces {other.character} out of the shelter")
    return 1


def _hostile(state: CatacombsState, a: Hero, b: Hero) -> bool:
    return hostile(state, a, b)


def blocking_pieces(state: CatacombsState, hero: Hero) -> list[Piece]:
    """Controlled monsters on the hidden hero's tile."""
    slot = hero.pos[:2]
    return [p for p in state.pieces if p.controlled and p.on_map and p.pos[:2] == slot]


@rule("shelters.controlled", "engine.shelter-block")
def blocked(state: CatacombsState, hero: Hero) -> bool:
    """A controlled monster or a hostile character on the hidden hero's tile blocks the
    shelter: they cannot attack the hero, but the hero cannot come out while they stay (only
    an attack on a blocking monster breaks out, without the surprise-attack bonus)."""
    if not hero.hidden:
        return False
    if blocking_pieces(state, hero):
        return True
    return any(
        other is not hero and not other.hidden and _hostile(state, other, hero)
        for other in state.heroes_on(hero.pos[:2])
    )


@rule("shelters.surprise", "shelters.controlled", "engine.surprise-attack")
def surprise_bonus(state: CatacombsState, hero: Hero, piece: Piece) -> int:
    """From a shelter a hero attacks with the surprise-attack bonus (the shelter-hide
    check's modifiers); controlled monsters are ready for it and get none."""
    if not hero.hidden or piece.controlled:
        return 0
    return shelter_bonus(state, hero)


def shelter_bonus(state: CatacombsState, hero: Hero) -> int:
    """The surprise-attack bonus: the shelter-hide check's modifiers for this hero."""
    hide = state.data.check("shelter", "hide")
    if hide is None:
        return 0
    return sum(m.add for m in hide.active_modifiers(state.stats(hero), tuple(hero.items)))


@actions_of
def blow_up_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """A hero holding dynamite may blow up a shelter on their tile where a hostile hero hides."""
    if not hero.active or hero.hidden or not hero.items or state.round == 1:
        return []
    blast = state.data.check("shelter", "break")
    if blast is None or not set(blast.items) & set(hero.items):
        return []
    return [Action.of("blow-up", seat=other.seat) for other in hidden_foes(state, hero)]


@handles("blow-up")
@rule("shelters.dynamite", "engine.shelter-dynamite")
def do_blow_up(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A shelter cannot be shot through, but dynamite blows it up: everyone hiding on the
    tile is thrown out and suffers the check's outcome, the shelter token is removed and the
    dynamite used up."""
    blast = state.data.check("shelter", "break")
    dynamite = next(i for i in blast.items if i in hero.items)
    if state.data.items[dynamite].single_use:
        hero.items.remove(dynamite)
    target = state.heroes[int(action.get("seat"))]
    state.log(f"{hero.character} blows up the shelter of {target.character}")
    if blast.on_success.removed:
        _remove_shelter(state, target)
    for other in state.heroes_on(target.pos[:2]):
        if other.hidden:
            other.hidden = 0
            apply_outcome(state, other, blast.on_success, f"dynamite by {hero.character}")
    return blast.actions


def _remove_shelter(state: CatacombsState, hero: Hero) -> None:
    features = state.tile_of(hero.pos).features
    shelter = next((f for f in features if f["type"] == "shelter"), None)
    if shelter is not None:
        features.remove(shelter)
