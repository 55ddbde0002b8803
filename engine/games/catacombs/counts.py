"""The box holds enough for every supported player count (part of `relic check`).

- monsters: the box (`kit`) never exceeds the printed copies, species add up to the kit, the
  copies in play for a player count (`by_players`) never exceed the kit, none appear below
  `min_players`, every count from `min_players` up has its copies (and its health where health
  depends on the players);
- the shop: each deck laid out per character holds enough for the most players once the
  characters' starting cards are taken out; decks laid out whole are not empty;
- relationships: every character has an attitude towards every other one; one title per pair,
  n·(n−1)/2 in all, each starting at one of the pair's attitudes;
- tiles: the tokens and cards their icons call for, and an event card for every tile laid after
  the first;
- token pools: banknotes, antidotes and health for every character's start (and the health
  boards of monsters whose health depends on the players); a team marker of each colour for
  every player.

Each finding names the entity and field to fix, so `relic check` points at that line.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from engine.core.game import Finding
from engine.games.catacombs.data import Catacombs, Monster

# Tile icon -> the token type laid out for it, or the deck type a card is drawn from.
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
ICON_DECKS = {"monster": "monster", "trap": "hidden-trap", "stash": "stash"}
# Shop rule field -> the role of the deck it lays out per character; decks laid out whole.
PER_CHARACTER = {"common_per_character": "common", "magic_per_character": "magic"}
WHOLE_DECKS = {"all_unique": "unique", "all_mercenaries": "mercenaries"}


def check_all(data: Catacombs, players: range) -> list[Finding]:
    most = players.stop - 1
    out = check_characters(data, most)
    for monster in sorted(data.monsters.values(), key=lambda m: m.id):
        out += check_monster(monster, players)
    return (out + check_shop(data, most) + check_relationships(data) + check_icons(data, most)
            + check_events(data) + check_pools(data, most))


def check_characters(data: Catacombs, most: int) -> list[Finding]:
    if len(data.characters) >= most:
        return []
    return [Finding("too-few-characters", f"{len(data.characters)} characters for up to {most} "
                    "players", sorted(data.characters)[0] if data.characters else None)]


# ----- monsters --------------------------------------------------------------------------------


def check_monster(m: Monster, players: range) -> list[Finding]:
    out = []
    if m.kit > m.count:
        out.append(Finding("kit-exceeds-count", f"monster {m.id} has {m.kit} in the box but "
                           f"only {m.count} printed copies", m.id, "kit",
                           hint="raise `count` to at least the kit"))
    if m.species and sum(k for _, k in m.species) != m.kit:
        out.append(Finding("species-kit-mismatch", f"monster {m.id}: its species add up to "
                           f"{sum(k for _, k in m.species)}, the kit says {m.kit}", m.id,
                           "species"))
    for span, n in m.by_players:
        if n > m.kit:
            out.append(Finding("count-over-kit", f"monster {m.id}: {n} copies for {span} "
                               f"players but only {m.kit} in the kit", m.id, f"by_players.{span}",
                               hint=f"lower by_players '{span}' or raise the kit to {n}"))
        below = [p for p in players if p in span and p < m.min_players]
        if n > 0 and below:
            out.append(Finding("count-below-min-players", f"monster {m.id} appears from "
                               f"{m.min_players} players, yet by_players '{span}' puts {n} in "
                               f"play at {below[0]}", m.id, f"by_players.{span}"))
    for p in players:
        if p >= m.min_players and m.by_players and not any(p in s for s, _ in m.by_players):
            out.append(Finding("count-missing", f"monster {m.id}: no count for {p} players",
                               m.id, "by_players"))
        elif (m.stats.health is None and m.health_by_players and p >= m.min_players
              and m.count_for(p) and m.health_for(p) is None):
            out.append(Finding("health-missing", f"monster {m.id}: no health for {p} players",
                               m.id, "health_by_players"))
    return out


# ----- the shop --------------------------------------------------------------------------------


def deck_sizes(data: Catacombs) -> Counter[str]:
    sizes: Counter[str] = Counter()
    for deck in data.decks:
        sizes[deck] = sum(data.copies(c) for c in data.cards_in(deck))
    return sizes


def starting_cards(data: Catacombs) -> Counter[str]:
    """Cards per deck that the characters take out of the pool at setup."""
    taken: Counter[str] = Counter()
    decks = {**{c.id: c.deck for c in data.cards.values()},
             **{i.id: i.deck for i in data.items.values()}}
    for character in data.characters.values():
        for card_id in (*character.start_items, *character.spells):
            if card_id in decks:
                taken[decks[card_id]] += 1
    return taken


def check_shop(data: Catacombs, most: int) -> list[Finding]:
    shop = data.shop_rule
    if shop is None:
        return []
    sizes, taken = deck_sizes(data), starting_cards(data)
    out = []
    decks = shop.decks or {}
    for field, role in PER_CHARACTER.items():
        per, deck = getattr(shop, field), decks.get(role)
        if not per or deck not in data.decks:
            continue
        needed, available = per * most, sizes[deck] - taken[deck]
        if available < needed:
            took = f" ({taken[deck]} taken by starting characters)" if taken[deck] else ""
            out.append(Finding("deck-too-small", f"the shop lays out {per} '{deck}' cards per "
                               f"character: {most} players need {needed}, the deck holds "
                               f"{sizes[deck]}{took}", deck,
                               hint=f"add {needed - available} card(s) to '{deck}' (see rule "
                               f"'{shop.id}')"))
    for field, role in WHOLE_DECKS.items():
        deck = decks.get(role)
        if getattr(shop, field) and deck in data.decks and sizes[deck] == 0:
            out.append(Finding("deck-empty", f"the shop lays out the whole '{deck}' deck, but "
                               "it holds no cards", deck))
    return out


# ----- relationships ---------------------------------------------------------------------------


def check_relationships(data: Catacombs) -> list[Finding]:
    out = check_attitudes(data)
    if not data.titles:
        return out
    seen: dict[frozenset[str], str] = {}
    for title in data.titles:
        pair = frozenset((title.a, title.b))
        if title.a == title.b:
            out.append(Finding("relationship-self", f"title '{title.id}' pairs '{title.a}' with "
                               "itself", title.id, "b"))
            continue
        if pair in seen:
            out.append(Finding("relationship-duplicate", f"title '{title.id}' repeats the pair "
                               f"{title.a}–{title.b} of '{seen[pair]}'", title.id))
            continue
        seen[pair] = title.id
        options = {x for x in (data.characters[title.a].attitudes.get(title.b),
                               data.characters[title.b].attitudes.get(title.a))
                   if x} if {title.a, title.b} <= set(data.characters) else set()
        if options and title.start not in options:
            out.append(Finding("relationship-start", f"title '{title.id}' starts at "
                               f"{title.start}, but the boards say {' / '.join(sorted(options))}",
                               title.id, "start"))
    n = len(data.characters)
    for a, b in combinations(sorted(data.characters), 2):
        if frozenset((a, b)) not in seen:
            out.append(Finding("relationship-missing", f"no relationship title for the pair "
                               f"{a}–{b}: {n} characters need {n * (n - 1) // 2} titles, the "
                               f"pack has {len(seen)}", a,
                               hint=f"add a relationship with a: {a} and b: {b}"))
    return out


def check_attitudes(data: Catacombs) -> list[Finding]:
    out = []
    ids = set(data.characters)
    for c in sorted(data.characters.values(), key=lambda c: c.id):
        for other in sorted(ids - {c.id} - set(c.attitudes)):
            out.append(Finding("attitude-missing", f"character '{c.id}' has no attitude towards "
                               f"'{other}'", c.id, "attitudes"))
        for other in c.attitudes:
            if other not in ids or other == c.id:
                out.append(Finding("attitude-unknown-character", f"character '{c.id}' has an "
                                   f"attitude towards '{other}', which is not another character "
                                   "of this pack", c.id, f"attitudes.{other}"))
    return out


# ----- tiles -----------------------------------------------------------------------------------


def check_icons(data: Catacombs, most: int) -> list[Finding]:
    """Every icon of the tile set finds its token or card even when every tile is laid (a
    warning: the last icons stay empty, which the game survives)."""
    icons: Counter[str] = Counter()
    first: dict[str, str] = {}
    for tile in sorted(data.tiles.values(), key=lambda t: t.id):
        for icon, _, _ in tile.icons:
            icons[icon] += tile.count
            first.setdefault(icon, tile.id)
    out = []
    for icon, needed in sorted(icons.items()):
        if icon in ICON_TOKENS and data.tokens:
            tokens = data.tokens_of(ICON_TOKENS[icon])
            have, what = sum(t.count for t in tokens), f"'{ICON_TOKENS[icon]}' tokens"
            where = (sorted(t.id for t in tokens)[0], "count") if tokens else (first[icon], "")
        elif icon in ICON_DECKS and data.decks:
            deck = data.deck_of_type(ICON_DECKS[icon])
            have = _cards_in_play(data, ICON_DECKS[icon], most)
            what = f"cards in the {ICON_DECKS[icon]} deck"
            where = (deck.id, "") if deck else (first[icon], "")
        else:
            continue
        if have < needed:
            out.append(Finding("count-short", f"the tiles show {needed} '{icon}' icon(s), but "
                               f"the pack has {have} {what}: the last ones stay empty", *where,
                               severity="warning"))
    return out


def _cards_in_play(data: Catacombs, deck_type: str, most: int) -> int:
    deck = data.deck_of_type(deck_type)
    if deck is None:
        return 0
    if deck_type == "monster":
        return sum(m.count_for(most) for m in data.monsters.values())
    return sum(data.copies(c) for c in data.cards_in(deck.id))


def check_events(data: Catacombs) -> list[Finding]:
    events = data.deck_of_type("event")
    laid = sum(t.count for t in data.tiles.values() if t.type in ("labyrinth", "final")) - 1
    if events is None or laid < 1:
        return []
    have = sum(data.copies(c) for c in data.cards_in(events.id))
    if have >= laid:
        return []
    return [Finding("count-short", f"{laid + 1} tiles draw {laid} event cards (the first tile "
                    f"draws none), but '{events.id}' holds {have}", events.id,
                    hint=f"add {laid - have} event card(s)", severity="warning")]


# ----- token pools -----------------------------------------------------------------------------


def pool_needs(data: Catacombs) -> dict[str, int]:
    characters = data.characters.values()
    boards = [max(hp for _, hp in m.health_by_players) for m in data.monsters.values()
              if m.health_by_players]
    return {
        "banknote": sum(c.banknotes for c in characters),
        "antidote": sum(c.antidotes for c in characters),
        "health": sum(c.health for c in characters) + sum(boards),
    }


def check_pools(data: Catacombs, most: int) -> list[Finding]:
    if not data.tokens:
        return []
    out = []
    for token_type, needed in pool_needs(data).items():
        tokens = sorted(data.tokens_of(token_type), key=lambda t: t.id)
        have = sum(t.count * t.value for t in tokens)
        if tokens and have < needed:  # no such token at all: the pack counts it otherwise
            out.append(Finding("pool-short", f"the game needs {needed} {token_type} token(s) at "
                               f"setup, the pack has {have}", tokens[0].id, "count"))
    for colour in sorted({t.team for t in data.tokens.values() if t.team}):
        markers = sorted((t for t in data.tokens.values() if t.team == colour),
                         key=lambda t: t.id)
        if sum(t.count for t in markers) < most:
            out.append(Finding("pool-short", f"{most} players may all pick {colour}, but there "
                               f"are {sum(t.count for t in markers)} {colour} team markers",
                               markers[0].id, "count"))
    return out
