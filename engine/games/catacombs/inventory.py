"""Carrying and trading: what a hero wears or holds (its bonuses count) and what lies packed in
the backpack (no bonus), re-arranging the two, and items changing hands between characters.

A hero's `items` are everything carried; `packed` are the items the player chose to keep in the
backpack. The rest are worn in the order they were taken: each goes on when it fits (its clothing
slot free, identical accessories within the count, enough free hands and the weapon limit),
otherwise it goes into the backpack. Wearing an item moves it to the front of that order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.core.api import Action
from engine.games.catacombs.data import Item
from engine.games.catacombs.registry import actions_of, handles, options, rule, task
from engine.games.catacombs.state import CatacombsState, Hero


@dataclass(frozen=True)
class Arrangement:
    """Where a hero's items are: worn (or held) and packed; the backpack's room and its use."""

    worn: tuple[str, ...]
    packed: tuple[str, ...]
    room: int | None
    used: int

    @property
    def overfull(self) -> bool:
        return self.room is not None and self.used > self.room


# ----- the equipment rule -----------------------------------------------------------------------
def equipment_value(state: CatacombsState, key: str, default: object) -> object:
    """A value of the equipment rule (the one with `same_accessories_worn`)."""
    entry = state.data.rule_with("same_accessories_worn")
    return entry.raw.get(key, default) if entry is not None else default


@rule("engine.hands")
def hands_of(state: CatacombsState) -> int | None:
    """A character's hands: the equipment rule's `hero_hands`, else as many as the items that
    rule names take at most (the rifle: "2 hands"); no limit when the content names neither."""
    hands = equipment_value(state, "hero_hands", None)
    if hands is None:
        named = [state.data.items[i].hands for i in equipment_value(state, "items", ()) or ()]
        hands = max(named, default=None)
    return None if hands is None else int(hands)  # type: ignore[call-overload]


@rule("engine.backpack")
def backpack_room(state: CatacombsState, worn: list[str]) -> int | None:
    """Compartments of the backpack: a worn backpack item's own size, else the equipment rule's
    (no limit when the content gives none)."""
    sizes = [backpack_size(state.data.items[w]) for w in worn]
    room = max(sizes, default=0) or equipment_value(state, "backpack_compartments", None)
    return None if room is None else int(room)  # type: ignore[call-overload]


def clothing_slots(state: CatacombsState) -> tuple[str, ...]:
    return tuple(equipment_value(state, "slots", ()))  # type: ignore[arg-type]


def same_accessories_worn(state: CatacombsState) -> int:
    return int(equipment_value(state, "same_accessories_worn", 1))  # type: ignore[arg-type]


def compartments(item: Item) -> int:
    """Backpack compartments the item takes (`backpack` in the content)."""
    return item.backpack


def backpack_size(item: Item) -> int:
    """Compartments of a worn item that is itself a backpack (`backpack_size`), else 0."""
    return item.backpack_size


def is_weapon(item: Item) -> bool:
    return bool(item.melee or item.ranged)


# ----- worn or packed ---------------------------------------------------------------------------
@rule("shop.rifle", "shop.clothing-slots", "shop.accessories")
def fits(state: CatacombsState, character: str, worn: list[str], item_id: str) -> bool:
    """The item can go on beside those worn: clothing in a free slot, an accessory within the
    identical count, anything held within the hero's hands (a rifle takes 2) and weapon limit.
    An item with neither a slot nor hands is only ever packed."""
    item = state.data.items.get(item_id)
    if item is None:
        return False
    if item.slot in clothing_slots(state):
        return all(state.data.items[w].slot != item.slot for w in worn)
    if item.slot == "accessory":
        return worn.count(item_id) < same_accessories_worn(state)
    if item.hands <= 0:
        return False
    held = [state.data.items[w] for w in worn if state.data.items[w].slot == "none"]
    hands = hands_of(state)
    if hands is not None and sum(h.hands for h in held) + item.hands > hands:
        return False
    limit = state.data.characters[character].weapon_limit if character else 0
    return not (is_weapon(item) and limit and sum(map(is_weapon, held)) >= limit)


@rule("engine.arrange")
def arrange(
    state: CatacombsState, character: str, items: tuple[str, ...], packed: tuple[str, ...]
) -> Arrangement:
    """Worn and packed items: the chosen ones packed, the others worn in order while they fit."""
    key = ("arrangement", character, items, packed)
    found = state._stats_cache.get(key)
    if found is not None:
        return found
    chosen = Counter(packed)
    worn: list[str] = []
    in_pack: list[str] = []
    for item_id in items:
        if chosen[item_id] > 0:
            chosen[item_id] -= 1
            in_pack.append(item_id)
        elif fits(state, character, worn, item_id):
            worn.append(item_id)
        else:
            in_pack.append(item_id)
    room = backpack_room(state, worn)
    used = sum(compartments(state.data.items[p]) for p in in_pack if p in state.data.items)
    found = state._stats_cache[key] = Arrangement(tuple(worn), tuple(in_pack), room, used)
    return found


def arrangement(state: CatacombsState, hero: Hero) -> Arrangement:
    return arrange(state, hero.character, tuple(hero.items), tuple(hero.packed))


def worn_items(state: CatacombsState, hero: Hero) -> tuple[str, ...]:
    """What the hero wears or holds: the items whose bonuses count."""
    if not hero.items:
        return ()
    return arrangement(state, hero).worn


def room_for(state: CatacombsState, hero: Hero, item_id: str, losing: str | None = None) -> bool:
    """The hero can take the item (giving up `losing`): it goes on, or the backpack holds it
    (or the hero's backpack, already over its room, holds no more than before)."""
    if not backpack_limited(state):
        return True
    before = arrangement(state, hero)
    items, packed = tuple(hero.items), tuple(hero.packed)
    if losing is None and item_id not in packed and fits(
        state, hero.character, list(before.worn), item_id
    ):
        return True  # taken last, it goes on: the backpack holds what it held
    if losing is not None:
        items, packed = without(items, packed, losing)
    after = arrange(state, hero.character, (*items, item_id), packed)
    return not after.overfull or after.used <= before.used


def backpack_limited(state: CatacombsState) -> bool:
    """The content gives the backpack a size (the rule's or a backpack item's)."""
    found = state._stats_cache.get("backpack-limited")
    if found is None:
        sized = any(backpack_size(i) for i in state.data.items.values())
        found = sized or equipment_value(state, "backpack_compartments", None) is not None
        state._stats_cache["backpack-limited"] = found
    return found


def without(
    items: tuple[str, ...], packed: tuple[str, ...], item_id: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Items and packing choices once one copy of the item has left (a packed copy first)."""
    rest = list(items)
    rest.remove(item_id)
    chosen = list(packed)
    if item_id in chosen:
        chosen.remove(item_id)
    return tuple(rest), still_packed(rest, chosen)


def still_packed(items: list[str], packed: list[str]) -> tuple[str, ...]:
    """The packing choices that still name an item carried (items used up or dropped elsewhere
    leave stale choices behind)."""
    left = Counter(items)
    kept = []
    for p in packed:
        if left[p] > 0:
            left[p] -= 1
            kept.append(p)
    return tuple(kept)


@rule("setup.wear-or-pack", "shop.wear-or-pack")
def take(state: CatacombsState, hero: Hero, item_id: str) -> None:
    """A bought, starting or traded item goes on when it fits, otherwise into the backpack."""
    hero.packed = list(still_packed(hero.items, hero.packed))
    hero.items.append(item_id)
    where = "packs" if item_id in arrangement(state, hero).packed else "wears"
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
    now = arrangement(state, hero)
    out = []
    for item_id in sorted(set(now.worn)):
        after = arrange(state, hero.character, tuple(hero.items), (*hero.packed, item_id))
        if after.worn.count(item_id) < now.worn.count(item_id) and not after.overfull:
            out.append(Action.of("pack", item=item_id))
    for item_id in sorted(set(now.packed)):
        items, packed = _worn_first(hero, item_id)
        after = arrange(state, hero.character, items, packed)
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
        "decide",
        "trade-offer",
        seat=int(action.get("to")),
        by=hero.seat,
        deal=action.get("deal"),
        item=action.get("item"),
        take=action.get("take"),
    )
    state.log(f"{hero.character} offers to {action.get('deal')} {action.get('item')}")


@handles("offer")
def do_offer(state: CatacombsState, hero: Hero, action: Action) -> int:
    offer(state, hero, action)
    return 1


@options("trade-offer")
def answer_options(state: CatacombsState, t: dict) -> list[Action]:
    return [Action.of("answer", accept=False), Action.of("answer", accept=True)]


@task("trade-offer")
def answer(state: CatacombsState, t: dict, action: Action) -> None:
    """An accepted deal changes hands: the item (and the price or the swapped item)."""
    seller, buyer = state.heroes[t["by"]], state.heroes[t["seat"]]
    if action.get("accept"):
        deal(state, seller, buyer, t["deal"], t["item"], t.get("take"))
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
@options("station")
def station_options(state: CatacombsState, t: dict) -> list[Action]:
    """Before setting off: `done`, re-arranging (free) and one offer to any other character."""
    hero = state.heroes[t["seat"]]
    out = [Action.of("done")]
    if not hero.items:
        return out
    out.extend(rearrange_options(state, hero))
    for partner in state.heroes:
        if partner.seat != hero.seat and partner.alive:
            out.extend(offers(state, hero, partner))
    return out


@task("station")
@rule("setup.wear-or-pack", "shop.wear-or-pack")
def station(state: CatacombsState, t: dict, action: Action) -> None:
    """Re-arranging keeps the hero at the counter; an offer is the hero's last deal there."""
    hero = state.heroes[t["seat"]]
    if action.kind in ("pack", "wear"):
        rearrange(state, hero, action)
        state.push("decide", "station", seat=hero.seat)
    elif action.kind == "offer":
        offer(state, hero, action)
