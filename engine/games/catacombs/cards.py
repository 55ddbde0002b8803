"""Cards in hand: casting spells on oneself and playing intrigues against another hero."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.checks_util import apply_outcome
from engine.games.catacombs.doors import monster_doors, open_monster_door
from engine.games.catacombs.registry import actions_of, handles, rule
from engine.games.catacombs.state import CatacombsState, Hero


def _deck_type(state: CatacombsState, card_id: str) -> str:
    card = state.data.cards.get(card_id)
    deck = state.data.decks.get(card.deck) if card is not None else None
    return deck.type if deck is not None else ""


@actions_of
def card_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or state.round == 1:
        return []
    out = []
    for card_id in sorted(set(hero.spells)):
        card = state.data.cards.get(card_id)
        if card is not None and card.opens_monster_door:
            out.extend(door_intrigues(state, card_id))
            continue
        if card is None or not card.has_outcome:
            continue
        kind = _deck_type(state, card_id)
        if kind == "spell":
            out.append(Action.of("cast", card=card_id))
        elif kind == "intrigue":
            for other in intrigue_targets(state, hero):
                out.append(Action.of("intrigue", card=card_id, target=other.seat))
    return out


@rule("doors.intrigue", "engine.intrigue-door")
def door_intrigues(state: CatacombsState, card_id: str) -> list[Action]:
    """An intrigue that opens a door with a monster behind it: one choice per such door still
    shut on the table."""
    return [
        Action.of("intrigue", card=card_id, door=door["uid"]) for _, door in monster_doors(state)
    ]


@rule("teams.intrigues")
def intrigue_targets(state: CatacombsState, hero: Hero) -> list[Hero]:
    """In team play intrigues go against the rival team; otherwise against anyone else."""
    others = [h for h in state.heroes if h.seat != hero.seat and h.active]
    if hero.team:
        return [h for h in others if h.team and h.team != hero.team]
    return others


@actions_of
def defect_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    if not hero.active or not hero.team or state.round == 1:
        return []
    colours = sorted({h.team for h in state.heroes if h.team})
    return [Action.of("defect", team=c) for c in colours if c != hero.team]


@handles("defect")
@rule("teams.defect")
def do_defect(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A hero may go over to the other team (engine assumption: one action)."""
    hero.team = action.get("team")
    state.log(f"{hero.character} goes over to the {hero.team} team")
    return 1


@handles("cast")
@rule("cards.spells", "engine.cards-in-hand")
def do_cast(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A spell with an outcome is cast on its owner (one action) and discarded."""
    card = state.data.cards[action.get("card")]
    hero.spells.remove(card.id)
    state.discard(card.id)
    state.log(f"{hero.character} casts {card.id}")
    apply_outcome(state, hero, card.outcome, f"spell {card.id}")
    return 1


@handles("intrigue")
@rule("cards.intrigues")
def do_intrigue(state: CatacombsState, hero: Hero, action: Action) -> int:
    """An intrigue card with an outcome is played on another hero (one action), then
    discarded."""
    card = state.data.cards[action.get("card")]
    state.discard(card.id)
    if action.get("door") is not None:
        hero.spells.remove(card.id)
        state.log(f"{hero.character} plays {card.id}")
        open_monster_door(state, action.get("door"), hero)
        return 1
    target = state.heroes[int(action.get("target"))]
    hero.spells.remove(card.id)
    state.log(f"{hero.character} plays {card.id} on {target.character}")
    apply_outcome(state, target, card.outcome, f"intrigue {card.id} by {hero.character}")
    return 1
