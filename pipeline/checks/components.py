"""Component counts suffice for every supported player count.

- monsters: for every player count, the copies in play (`by_players`) never exceed the box (`kit`),
  the box never exceeds the printed copies (`count`), species add up to the kit, and no copies
  appear below `min_players`;
- the shop: each deck a shop rule lays out per character holds enough cards for the most players,
  after the characters' starting items are taken out; decks laid out whole are not empty;
- relationships: one title per pair of characters, n·(n−1)/2 in all, each starting at one of the
  pair's attitudes; every character has an attitude towards every other one;
- tiles: the tokens and cards their icons call for exist in sufficient number, and the event deck
  holds a card for every tile placed after the first (every new tile draws an event);
- token pools: banknotes, health and antidotes for every character's start (and the health board
  of monsters whose health depends on the player count), a team marker of each colour per player;
  a pool the pack has no token for at all is not checked.

Every part is skipped when the pack has none of the kinds it concerns, or when the pack replaces
their schemas with its own (the check knows the shapes of the project's kinds only).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations

from pipeline.diagnostics import Diagnostic, error
from pipeline.model import Entity, Model
from pipeline.resolve import parse_range
from pipeline.schemas import CATALOGUE, catalogue_for

DEFAULT_PLAYERS = (1, 8)
# Shop rule field -> (deck field, what is laid out per character).
PER_CHARACTER = {"common_per_character": "common", "magic_per_character": "magic"}
WHOLE_DECKS = {"all_unique": "unique", "all_mercenaries": "mercenaries"}
# Tile icon -> the token type that is laid out for it.
ICON_TOKENS = {
    "cache": "cache",
    "looted": "looted",
    "crevice": "crevice",
    "shelter": "shelter",
    "statue": "statue",
    "door": "door",
    "sarcophagus": "sarcophagus",
    "lever": "lever",
    "floor-hatch": "floor-hatch",
    "ceiling-hatch": "ceiling-hatch",
    "artifact": "artifact",
}
# Tile icon -> the deck type a card is drawn from.
ICON_DECKS = {"monster": "monster", "trap": "hidden-trap", "stash": "stash"}


def project_kinds(model: Model) -> set[str]:
    """Kinds whose schema in this pack is the project's own (not replaced by the pack)."""
    ours = CATALOGUE.documents
    theirs = catalogue_for(model.pack.root).documents
    return {
        rel.removeprefix("kinds/").removesuffix(".json")
        for rel, doc in ours.items()
        if rel.startswith("kinds/") and theirs.get(rel) == doc
    }


def player_counts(model: Model) -> range:
    players = model.pack.data.get("players") or {}
    low = int(players.get("min", DEFAULT_PLAYERS[0]))
    high = int(players.get("max", DEFAULT_PLAYERS[1]))
    return range(low, high + 1)


def copies_at(by_players: Mapping[str, int], players: int) -> tuple[str, int] | None:
    """The `by_players` entry (key, copies) whose range holds `players`, if any."""
    for key, copies in by_players.items():
        interval = parse_range(str(key))
        if interval is None:
            continue
        if interval.low <= players and (interval.high is None or players <= interval.high):
            return str(key), int(copies)
    return None


# ----- monsters --------------------------------------------------------------------------------


def check_monster(monster: Entity, counts: range) -> Iterator[Diagnostic]:
    kit = monster.get("kit")
    if kit is None:
        return
    if kit > monster.count:
        yield error(
            "monster-kit-exceeds-count",
            f"monster '{monster.id}' has {kit} in the box but only {monster.count} printed copies",
            monster.locate("kit"),
            "raise `count` to at least the kit",
        )
    species = monster.get("species") or ()
    if species and sum(int(s.get("kit", 0)) for s in species) != kit:
        total = sum(int(s.get("kit", 0)) for s in species)
        yield error(
            "monster-species-kit",
            f"the species of '{monster.id}' add up to {total}, but its kit is {kit}",
            monster.locate("species"),
        )
    by_players = monster.get("by_players") or {}
    min_players = int(monster.get("min_players", 1))
    reported: set[tuple[str, str]] = set()
    for players in counts:
        found = copies_at(by_players, players)
        if found is None:
            continue
        key, copies = found
        if copies > kit and (key, "kit") not in reported:
            reported.add((key, "kit"))
            yield error(
                "monster-kit-short",
                f"{key} players put {copies} '{monster.id}' in play, but the box holds {kit}",
                monster.locate(f"by_players.{key}"),
                f"lower by_players '{key}' or raise the kit to {copies}",
            )
        if players < min_players and copies > 0 and (key, "min") not in reported:
            reported.add((key, "min"))
            yield error(
                "monster-below-min-players",
                f"'{monster.id}' appears from {min_players} players, yet by_players '{key}' "
                f"puts {copies} in play at {players}",
                monster.locate(f"by_players.{key}"),
            )


# ----- the shop --------------------------------------------------------------------------------


def deck_sizes(model: Model) -> Counter[str]:
    sizes: Counter[str] = Counter()
    for e in model.entities:
        deck = e.get("deck")
        if isinstance(deck, str):
            sizes[deck] += e.count
    return sizes


def starting_cards(model: Model) -> Counter[str]:
    """Cards per deck that characters take from the pool at setup."""
    taken: Counter[str] = Counter()
    for character in model.of_kind("character"):
        for field in ("start.items", "start.spells"):
            for card_id in character.get(field) or ():
                card = model.by_id.get(card_id)
                if card is not None and isinstance(card.get("deck"), str):
                    taken[card.get("deck")] += 1
    return taken


def check_shop(model: Model, rule: Entity, most: int) -> Iterator[Diagnostic]:
    decks = rule.get("decks") or {}
    sizes, taken = deck_sizes(model), starting_cards(model)
    for field, role in PER_CHARACTER.items():
        per = rule.get(field)
        deck_id = decks.get(role)
        if per is None or deck_id is None or deck_id not in model.by_id:
            continue
        needed, available = per * most, sizes[deck_id] - taken[deck_id]
        if available < needed:
            yield error(
                "shop-deck-short",
                f"the shop lays out {per} '{deck_id}' cards per character: {most} players need "
                f"{needed}, the deck holds {sizes[deck_id]}"
                + (f" ({taken[deck_id]} taken by starting characters)" if taken[deck_id] else ""),
                model.locate(deck_id),
                f"add {needed - available} card(s) to '{deck_id}' (see rule '{rule.id}')",
            )
    for field, role in WHOLE_DECKS.items():
        deck_id = decks.get(role)
        if rule.get(field) and deck_id in model.by_id and sizes[deck_id] == 0:
            yield error(
                "shop-deck-empty",
                f"the shop lays out the whole '{deck_id}' deck, but it holds no cards",
                model.locate(deck_id),
            )


# ----- relationships ---------------------------------------------------------------------------


def check_attitudes(characters: tuple[Entity, ...]) -> Iterator[Diagnostic]:
    ids = {c.id for c in characters}
    for c in characters:
        attitudes = c.get("attitudes")
        if attitudes is None:
            continue
        for other in sorted(ids - {c.id} - set(attitudes)):
            yield error(
                "attitude-missing",
                f"character '{c.id}' has no attitude towards '{other}'",
                c.locate("attitudes"),
            )
        for other in attitudes:
            if other not in ids or other == c.id:
                yield error(
                    "attitude-unknown-character",
                    f"character '{c.id}' has an attitude towards '{other}', which is not "
                    "another character of this pack",
                    c.locate(f"attitudes.{other}"),
                )


def check_relationships(model: Model) -> Iterator[Diagnostic]:
    characters = model.of_kind("character")
    titles = model.of_kind("relationship")
    yield from check_attitudes(characters)
    if not titles:
        return
    by_id = {c.id: c for c in characters}
    seen: dict[frozenset[str], Entity] = {}
    for title in titles:
        a, b = title.get("a"), title.get("b")
        pair = frozenset((a, b))
        if a == b:
            yield error(
                "relationship-self",
                f"title '{title.id}' pairs '{a}' with itself",
                title.locate("b"),
            )
            continue
        if pair in seen:
            yield error(
                "relationship-duplicate",
                f"title '{title.id}' repeats the pair {a}–{b} of '{seen[pair].id}'",
                title.span,
            )
            continue
        seen[pair] = title
        yield from check_start(title, by_id)
    expected = len(characters) * (len(characters) - 1) // 2
    for a, b in combinations(sorted(by_id), 2):
        if frozenset((a, b)) not in seen:
            yield error(
                "relationship-missing",
                f"no relationship title for the pair {a}–{b}: {len(characters)} characters need "
                f"{expected} titles, the pack has {len(seen)}",
                by_id[a].span,
                f"add a relationship with a: {a} and b: {b}",
            )


def check_start(title: Entity, characters: Mapping[str, Entity]) -> Iterator[Diagnostic]:
    a, b, start = characters.get(title.get("a")), characters.get(title.get("b")), title.get("start")
    if a is None or b is None or start is None:
        return
    options = {x for x in (a.get(f"attitudes.{b.id}"), b.get(f"attitudes.{a.id}")) if x}
    if options and start not in options:
        yield error(
            "relationship-start",
            f"title '{title.id}' starts at {start}, but the boards say "
            + " / ".join(sorted(options)),
            title.locate("start"),
        )


# ----- tiles -----------------------------------------------------------------------------------


def check_icons(model: Model, most: int) -> Iterator[Diagnostic]:
    icons: Counter[str] = Counter()
    first: dict[str, Entity] = {}
    for tile in model.of_kind("tile"):
        for icon in tile.get("icons") or ():
            name = icon.get("icon")
            icons[name] += tile.count
            first.setdefault(name, tile)
    tokens: Counter[str] = Counter()
    for token in model.of_kind("token"):
        tokens[token.get("type")] += token.count
    deck_types = {d.id: d.get("type") for d in model.of_kind("deck")}
    cards: Counter[str] = Counter()
    for e in model.entities:
        if e.get("deck") in deck_types:
            cards[deck_types[e.get("deck")]] += monster_copies(e, most)
    for name, needed in sorted(icons.items()):
        if name in ICON_TOKENS and model.of_kind("token"):
            have, what = tokens[ICON_TOKENS[name]], f"'{ICON_TOKENS[name]}' tokens"
        elif name in ICON_DECKS and deck_types:
            have, what = cards[ICON_DECKS[name]], f"cards in the {ICON_DECKS[name]} deck"
        else:
            continue
        if have < needed:
            yield error(
                "icon-components-short",
                f"tiles show {needed} '{name}' icon(s), but the pack has {have} {what}",
                first[name].span,
            )


def check_events(model: Model) -> Iterator[Diagnostic]:
    placed = sum(t.count for t in model.of_kind("tile") if t.get("type") in ("labyrinth", "final"))
    for deck in model.of_kind("deck"):
        if deck.get("type") != "event" or placed < 2:
            continue
        cards = sum(e.count for e in model.entities if e.get("deck") == deck.id)
        if cards < placed - 1:
            yield error(
                "event-deck-short",
                f"{placed} tiles draw {placed - 1} event cards (the first tile draws none), "
                f"but '{deck.id}' holds {cards}",
                deck.span,
                f"add {placed - 1 - cards} event card(s)",
            )


def pool(model: Model, token_type: str) -> tuple[int, Entity | None]:
    """Units in the pool of a token type (count × face value) and its first token."""
    tokens = [t for t in model.of_kind("token") if t.get("type") == token_type]
    return sum(t.count * int(t.get("value", 1)) for t in tokens), (tokens[0] if tokens else None)


def pool_needs(model: Model) -> dict[str, int]:
    characters = model.of_kind("character")
    boards = [
        max(m.get("health_by_players").values())
        for m in model.of_kind("monster")
        if m.get("health_by_players")
    ]
    return {
        "banknote": sum(int(c.get("start.banknotes", 0)) for c in characters),
        "antidote": sum(int(c.get("start.antidotes", 0)) for c in characters),
        "health": sum(int(c.get("health", 0)) for c in characters) + sum(boards),
    }


def check_pools(model: Model, most: int) -> Iterator[Diagnostic]:
    if not model.of_kind("token"):
        return
    for token_type, needed in pool_needs(model).items():
        have, first = pool(model, token_type)
        if first is not None and have < needed:  # no such token at all: the pack keeps it otherwise
            yield error(
                "pool-tokens-short",
                f"the game needs {needed} {token_type} token(s) at setup, the pack has {have}",
                first.span,
            )
    for colour in {t.get("team") for t in model.of_kind("token") if t.get("team")}:
        markers = [t for t in model.of_kind("token") if t.get("team") == colour]
        if sum(t.count for t in markers) < most:
            yield error(
                "pool-tokens-short",
                f"{most} players may all pick {colour}, but there are "
                f"{sum(t.count for t in markers)} {colour} team markers",
                markers[0].span,
            )


def monster_copies(e: Entity, players: int) -> int:
    """Cards of an entity in play at `players` (monsters by player count, else all copies)."""
    by_players = e.get("by_players")
    if e.kind == "monster" and by_players:
        found = copies_at(by_players, players)
        return found[1] if found else 0
    return e.count


# ----- the plug-in -----------------------------------------------------------------------------


def check(model: Model) -> Iterable[Diagnostic]:
    kinds = project_kinds(model)
    counts = player_counts(model)
    most = counts[-1] if counts else DEFAULT_PLAYERS[1]
    out: list[Diagnostic] = []
    if "monster" in kinds:
        for monster in model.of_kind("monster"):
            out += check_monster(monster, counts)
    if {"rule", "deck"} <= kinds:
        for rule in model.of_kind("rule"):
            out += check_shop(model, rule, most)
    if {"character", "relationship"} <= kinds:
        out += check_relationships(model)
    if {"tile", "token", "deck"} <= kinds:
        out += check_icons(model, most)
        out += check_events(model)
    if {"token", "character", "monster"} <= kinds:
        out += check_pools(model, most)
    return out
