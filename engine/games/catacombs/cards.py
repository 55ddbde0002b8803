"""Cards in hand: casting spells on oneself and playing intrigues against another hero."""

from __future__ import annotations

from engine.core.api import Action
from engine.core.rules import rule
from engine.games.catacombs.checks_util import apply_outcome
from engine.games.catacombs.registry import actions_of, handles
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
        if card is None or not card.has_outcome:
            continue
        kind = _deck_type(state, card_id)
        if kind == "spell":
            out.append(Action.of("cast", card=card_id))
        elif kind == "intrigue":
            for other in state.heroes:
                if other.seat != hero.seat and other.active:
                    out.append(Action.of("intrigue", card=card_id, target=other.seat))
    return out


@handles("cast")
@rule("cards.spells", "engine.cards-in-hand")
def do_cast(state: CatacombsState, hero: Hero, action: Action) -> int:
    """A spell with an outcome is cast on its owner (one action) and discarded."""
    card = state.data.cards[action.get("card")]
    hero.spells.remove(card.id)
    state.log(f"{hero.character} casts {card.id}")
    apply_outcome(state, hero, card.outcome, f"spell {card.id}")
    return 1


@handles("intrigue")
@rule("cards.intrigues")
def do_intrigue(state: CatacombsState, hero: Hero, action: Action) -> int:
    """An intrigue card with an outcome is played on another hero (one action), then
    discarded."""
    card = state.data.cards[action.get("card")]
    target = state.heroes[int(action.get("target"))]
    hero.spells.remove(card.id)
    state.log(f"{hero.character} plays {card.id} on {target.character}")
    apply_outcome(state, target, card.outcome, f"intrigue {card.id} by {hero.character}")
    return 1
