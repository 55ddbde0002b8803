"""What a hero wears or holds (its bonuses count) and what lies packed in the backpack (no
bonus), from the equipment rule and the items' slots, hands and compartments.

A hero's `items` are everything carried; `packed` are the items the player chose to keep in the
backpack. The rest are worn in the order they were taken: each goes on when it fits (its clothing
slot free, identical accessories within the count, enough free hands and the weapon limit),
otherwise it goes into the backpack. Wearing an item moves it to the front of that order.

Everything here reads only the content (`Catacombs`); answers are kept in the cache the caller
passes (the state's `_stats_cache`). Re-arranging and trading are in `inventory.py`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.games.catacombs.data import Catacombs, Item
from engine.games.catacombs.registry import rule


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
@rule("engine.hands")
def hands_of(data: Catacombs) -> int | None:
    """A character's hands: the equipment rule's `hero_hands`, else as many as the items that
    rule names take at most (the rifle: "2 hands"); no limit when the content names neither."""
    rule_ = data.equipment_rule
    if rule_ is not None and rule_.hero_hands is not None:
        return rule_.hero_hands
    named = [data.items[i].hands for i in (rule_.items if rule_ is not None else ())]
    return max(named, default=None)


@rule("engine.backpack")
def backpack_room(data: Catacombs, worn: list[str]) -> int | None:
    """Compartments of the backpack: a worn backpack item's own size, else the equipment rule's
    (no limit when the content gives none)."""
    sizes = [backpack_size(data.items[w]) for w in worn]
    return max(sizes, default=0) or usual_backpack(data)


def usual_backpack(data: Catacombs) -> int | None:
    """The equipment rule's `backpack_compartments` (None when it gives none)."""
    rule_ = data.equipment_rule
    return rule_.backpack_compartments if rule_ is not None else None


def clothing_slots(data: Catacombs) -> tuple[str, ...]:
    rule_ = data.equipment_rule
    return (rule_.slots or ()) if rule_ is not None else ()


def same_accessories_worn(data: Catacombs) -> int:
    rule_ = data.equipment_rule
    if rule_ is None or rule_.same_accessories_worn is None:
        return 1
    return rule_.same_accessories_worn


def compartments(item: Item) -> int:
    """Backpack compartments the item takes (`backpack` in the content)."""
    return item.backpack


def backpack_size(item: Item) -> int:
    """Compartments of a worn item that is itself a backpack (`backpack_size`), else 0."""
    return item.backpack_size


def is_weapon(item: Item) -> bool:
    return bool(item.melee or item.ranged)


def backpack_limited(data: Catacombs, cache: dict[Any, Any]) -> bool:
    """The content gives the backpack a size (the rule's or a backpack item's)."""
    found = cache.get("backpack-limited")
    if found is None:
        sized = any(backpack_size(i) for i in data.items.values())
        found = sized or usual_backpack(data) is not None
        cache["backpack-limited"] = found
    return found


# ----- worn or packed ---------------------------------------------------------------------------
@rule("shop.rifle", "shop.clothing-slots", "shop.accessories")
def fits(data: Catacombs, character: str, worn: list[str], item_id: str) -> bool:
    """The item can go on beside those worn: clothing in a free slot, an accessory within the
    identical count, anything held within the hero's hands (a rifle takes 2) and weapon limit.
    An item with neither a slot nor hands is only ever packed."""
    item = data.items.get(item_id)
    if item is None:
        return False
    if item.slot in clothing_slots(data):
        return all(data.items[w].slot != item.slot for w in worn)
    if item.slot == "accessory":
        return worn.count(item_id) < same_accessories_worn(data)
    if item.hands <= 0:
        return False
    held = [data.items[w] for w in worn if data.items[w].slot == "none"]
    hands = hands_of(data)
    if hands is not None and sum(h.hands for h in held) + item.hands > hands:
        return False
    limit = data.characters[character].weapon_limit if character else 0
    return not (is_weapon(item) and limit and sum(map(is_weapon, held)) >= limit)


@rule("engine.arrange")
def arrange(
    data: Catacombs,
    cache: dict[Any, Any],
    character: str,
    items: tuple[str, ...],
    packed: tuple[str, ...],
    extra_room: int = 0,
) -> Arrangement:
    """Worn and packed items: the chosen ones packed, the others worn in order while they fit;
    `extra_room` compartments are carried besides the backpack (a porter's)."""
    key = ("arrangement", character, items, packed, extra_room)
    found = cache.get(key)
    if found is not None:
        return found
    chosen = Counter(packed)
    worn: list[str] = []
    in_pack: list[str] = []
    for item_id in items:
        if chosen[item_id] > 0:
            chosen[item_id] -= 1
            in_pack.append(item_id)
        elif fits(data, character, worn, item_id):
            worn.append(item_id)
        else:
            in_pack.append(item_id)
    room = backpack_room(data, worn)
    if room is not None:
        room += extra_room
    used = sum(compartments(data.items[p]) for p in in_pack if p in data.items)
    found = cache[key] = Arrangement(tuple(worn), tuple(in_pack), room, used)
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
