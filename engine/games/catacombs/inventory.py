"""Re-arranging and trading: a hero packs a worn item or wears a packed one, takes an item
(it goes on when it fits, else into the backpack), and items change hands between characters,
on the same tile during play or at the station after the shop.

What is worn and what is packed follows `equipment.py`; `state.arrangement(hero)` is a hero's.
"""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.equipment import (
    Arrangement,
    arrange,
    backpack_limited,
    fits,
    still_packed,
    without,
)
from engine.games.catacombs.registry import actions_of, handles, options, rule, task
from engine.games.catacombs.state import CatacombsState, Hero
from engine.games.catacombs.steps import Station, TradeOffer


def arranged(
    state: CatacombsState, hero: Hero, items: tuple[str, ...], packed: tuple[str, ...]
) -> Arrangement:
    """How the hero's character would wear and pack these items (a trial arrangement)."""
    return arrange(state.data, state._stats_cache, hero.character, items, packed,
                   state.porter_room(hero))


def room_for(state: CatacombsState, hero: Hero, item_id: str, losing: str | None = None) -> bool:
    """The hero can take the item (giving up `losing`): it goes on, or the backpack holds it
    (or the hero's backpack, already over its room, holds no more than before)."""
    if not backpack_limited(state.data, state._stats_cache):
        return True
    before = state.arrangement(hero)
    items, packed = tuple(hero.items), tuple(hero.packed)
    if losing is None and item_id not in packed and fits(
        state.data, hero.character, list(before.worn), item_id
    ):
        return True  # taken last, it goes on: the backpack holds what it held
    if losing is not None:
        items, packed = without(items, packed, losing)
    after = arranged(state, hero, (*items, item_id), packed)
    return not after.overfull or after.used <= before.used


@rule("setup.wear-or-pack", "shop.wear-or-pack")
def take(state: CatacombsState, hero: Hero, item_id: str) -> None:
    """A bought, starting or traded item goes on when it fits, otherwise into the backpack."""
    hero.packed = list(still_packed(hero.items, hero.packed))
    hero.items.append(item_id)
    where = "packs" if item_id in state.arrangement(hero).packed else "wears"
    state.log(f"{hero.character} {where} {item_id}")


def hand_over(hero: Hero, item_id: str) -> None:
    """The item leaves the hero (a packed copy first)."""
    items, packed = without(tuple(hero.items), tuple(hero.packed), item_id)
    hero.items[:] = items
    hero.packed = list(packed)


# ----- re-arranging -----------------------------------------------------------------------------
def rearrange_options(state: CatacombsState, hero: Hero) -> list[Action]:
    """`pack` a worn item or `wear` a packed one, where the result keeps the backpack's room."""
    key = ("rearrange", hero.character, tuple(hero.items), tuple(hero.packed))
    found = state._stats_cache.get(key)
    if found is None:
        found = state._stats_cache[key] = _rearrange_options(state, hero)
    return found


def _rearrange_options(state: CatacombsState, hero: Hero) -> list[Action]:
    now = state.arrangement(hero)
    out = []
    for item_id in sorted(set(now.worn)):
        after = arranged(state, hero, tuple(hero.items), (*hero.packed, item_id))
        if after.worn.count(item_id) < now.worn.count(item_id) and not after.overfull:
            out.append(Action.of("pack", item=item_id))
    for item_id in sorted(set(now.packed)):
        items, packed = _worn_first(hero, item_id)
        after = arranged(state, hero, items, packed)
        gained = after.worn.count(item_id) > now.worn.count(item_id)
        if gained and (not after.overfull or after.used <= now.used):
            out.append(Action.of("wear", item=item_id))
    return out


def _worn_first(hero: Hero, item_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Items and packing choices once the item is put on: it leads the order, unpacked."""
    items = list(hero.items)
    items.remove(item_id)
    packed = list(hero.packed)
    if item_id in packed:
        packed.remove(item_id)
    return (item_id, *items), tuple(packed)


@rule("engine.rearrange")
def rearrange(state: CatacombsState, hero: Hero, action: Action) -> None:
    """Pack a worn item (what it kept off may go on) or wear a packed one (what is in its way,
    same slot or the hands it needs, goes into the backpack)."""
    item_id = action.get("item")
    hero.packed = list(still_packed(hero.items, hero.packed))
    if action.kind == "pack":
        hero.packed.append(item_id)
    else:
        items, packed = _worn_first(hero, item_id)
        hero.items[:] = items
        hero.packed = list(packed)
    state.log(f"{hero.character} {action.kind}s {item_id}")


@actions_of
def inventory_actions(state: CatacombsState, hero: Hero) -> list[Action]:
    """From the second round: re-arranging, and offers to the heroes on the same tile."""
    if not hero.items or state.round == 1 or not hero.active or hero.hidden:
        return []
    out = list(rearrange_options(state, hero))
    partners = [h for h in state.heroes_on(hero.pos[:2]) if h.seat != hero.seat and not h.hidden]
    for partner in partners:
        out.extend(offers(state, hero, partner))
    return out


@handles("pack")
@handles("wear")
def do_rearrange(state: CatacombsState, hero: Hero, action: Action) -> int:
    rearrange(state, hero, action)
    return 1


# ----- trading between characters ---------------------------------------------------------------
def offers(state: CatacombsState, hero: Hero, partner: Hero) -> list[Action]:
    """Give an item, sell it at its shop price, or swap it for one of the partner's."""
    key = (
        "offers",
        hero.character,
        tuple(hero.items),
        tuple(hero.packed),
        partner.seat,
        partner.character,
        tuple(partner.items),
        tuple(partner.packed),
        partner.banknotes,
    )
    found = state._stats_cache.get(key)
    if found is None:
        found = state._stats_cache[key] = _offers(state, hero, partner)
    return found


def _offers(state: CatacombsState, hero: Hero, partner: Hero) -> list[Action]:
    out = []
    theirs = sorted({i for i in partner.items if i in state.data.items})
    for item_id in sorted({i for i in hero.items if i in state.data.items}):
        if room_for(state, partner, item_id):
            out.append(Action.of("offer", deal="give", item=item_id, to=partner.seat))
            price = state.data.items[item_id].price
            if 0 < price <= partner.banknotes:
                out.append(Action.of("offer", deal="sell", item=item_id, to=partner.seat))
        for other in theirs:
            if other == item_id:
                continue
            if room_for(state, partner, item_id, other) and room_for(state, hero, other, item_id):
                out.append(
                    Action.of("offer", deal="swap", item=item_id, to=partner.seat, take=other)
                )
    return out


@rule("shop.trade", "engine.trade")
def offer(state: CatacombsState, hero: Hero, action: Action) -> None:
    """The hero offers a deal; the partner accepts or declines it."""
    state.push(
        TradeOffer(
            seat=int(action.get("to")),
            by=hero.seat,
            deal=action.get("deal"),
            item=action.get("item"),
            take=action.get("take"),
        )
    )
    state.log(f"{hero.character} offers to {action.get('deal')} {action.get('item')}")


@handles("offer")
def do_offer(state: CatacombsState, hero: Hero, action: Action) -> int:
    offer(state, hero, action)
    return 1


@options(TradeOffer)
def answer_options(state: CatacombsState, t: TradeOffer) -> list[Action]:
    return [Action.of("answer", accept=False), Action.of("answer", accept=True)]


@task(TradeOffer)
def answer(state: CatacombsState, t: TradeOffer, action: Action) -> None:
    """An accepted deal changes hands: the item (and the price or the swapped item)."""
    seller, buyer = state.heroes[t.by], state.heroes[t.seat]
    if action.get("accept"):
        deal(state, seller, buyer, t.deal, t.item, t.take)
    else:
        state.log(f"{buyer.character} declines")


def deal(
    state: CatacombsState, seller: Hero, buyer: Hero, kind: str, item_id: str, wanted: str | None
) -> None:
    """The item goes to the buyer; a sale pays its shop price, a swap hands `wanted` back."""
    state.log(f"{seller.character} and {buyer.character} {kind} {item_id}")
    hand_over(seller, item_id)
    if kind == "sell":
        price = state.data.items[item_id].price
        buyer.banknotes -= price
        seller.banknotes += price
    if kind == "swap" and wanted is not None:
        hand_over(buyer, wanted)
        take(state, seller, wanted)
    take(state, buyer, item_id)


# ----- at the station, after the shop -----------------------------------------------------------
@options(Station)
def station_options(state: CatacombsState, t: Station) -> list[Action]:
    """Before setting off: `done`, re-arranging (free) and one offer to any other character."""
    hero = state.heroes[t.seat]
    out = [Action.of("done")]
    if not hero.items:
        return out
    out.extend(rearrange_options(state, hero))
    for partner in state.heroes:
        if partner.seat != hero.seat and partner.alive:
            out.extend(offers(state, hero, partner))
    return out


@task(Station)
@rule("setup.wear-or-pack", "shop.wear-or-pack")
def station(state: CatacombsState, t: Station, action: Action) -> None:
    """Re-arranging keeps the hero at the counter; an offer is the hero's last deal there."""
    hero = state.heroes[t.seat]
    if action.kind in ("pack", "wear"):
        rearrange(state, hero, action)
        state.push(Station(seat=hero.seat))
    elif action.kind == "offer":
        offer(state, hero, action)
