"""Setup: draw piles, drawing the characters, relationship titles, the shop, teams, the start."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import place, turn_cell
from engine.games.catacombs.data import Catacombs
from engine.games.catacombs.exploration import lay_out_icons
from engine.games.catacombs.inventory import room_for, take
from engine.games.catacombs.registry import options, rule, task
from engine.games.catacombs.relationships import lend, loan_terms
from engine.games.catacombs.state import PHASE_PLAY, PHASE_SETUP, PHASE_SHOP, CatacombsState
from engine.games.catacombs.steps import (
    AssignCharacter,
    BeginPlay,
    FirstTile,
    NextPhase,
    OpenShop,
    SetUpRelationships,
    Shop,
    Shopping,
    Start,
    Station,
    TeamChoice,
    Teams,
    ToCounter,
)
from engine.games.catacombs.turn import begin_turn

ATTITUDE_LEVEL = {"sympathy": 1, "neutral": 0, "antipathy": -1}


def deck_pool(data: Catacombs, deck_type: str) -> dict[str, int]:
    deck = data.deck_of_type(deck_type)
    if deck is None:
        return {}
    return {card: data.copies(card) for card in data.cards_in(deck.id)}


@rule(
    "zombie.kit",
    "zombie.any-players",
    "venomous.kit",
    "venomous.any-players",
    "bandit.kit",
    "bandit.any-players",
    "ghost.kit",
    "ghost.min-players",
    "demon.count",
    "scarab.count",
    "monsters.seven",
    "zombie.by-players",
    "venomous.by-players",
    "bandit.by-players",
    "ghost.by-players",
    "ghost.solo",
    "demon.min-players",
    "scarab.min-players",
)
def monster_pool(data: Catacombs, players: int) -> dict[str, int]:
    """The monster deck for this many players: each kind's count for the player count."""
    return {
        m.id: min(m.count_for(players), m.kit)
        for m in sorted(data.monsters.values(), key=lambda m: m.id)
        if m.count_for(players) > 0
    }


def token_pools(data: Catacombs) -> dict[str, dict[str, int]]:
    pools: dict[str, dict[str, int]] = {}
    for token in sorted(data.tokens.values(), key=lambda t: t.id):
        name = f"token:{token.type}"
        if token.type == "crevice":
            name = f"token:crevice-{token.orientation or 'horizontal'}"
        pools.setdefault(name, {})[token.id] = token.count
    return pools


def build_pools(data: Catacombs, players: int) -> dict[str, dict[str, int]]:
    pools = {
        "character": {c: 1 for c in sorted(data.characters)},
        "tiles": {t.id: t.count for t in data.tiles.values() if t.type == "labyrinth"},
        "final": {t.id: t.count for t in data.tiles.values() if t.type == "final"},
        "monster": monster_pool(data, players),
    }
    for kind in (
        "event",
        "stash",
        "hidden-trap",
        "common-item",
        "unique-item",
        "magic-item",
        "mercenary",
        "spell",
        "secret-knowledge",
        "intrigue",
    ):
        pools[kind] = deck_pool(data, kind)
    pools.update(token_pools(data))
    pools["counter"] = {}
    return pools


def new_game(
    data: Catacombs,
    players: int,
    seed: int,
    max_rounds: int,
    teams: bool = False,
    monster_players: bool = False,
) -> CatacombsState:
    state = CatacombsState(data, players, seed, max_rounds)
    state.team_play = teams
    state.monster_players = monster_players
    state.pools = build_pools(data, players)
    state.phase = PHASE_SETUP
    for seat in range(players):
        state.push(AssignCharacter(pool="character", seat=seat), front=False)
    state.push(SetUpRelationships(), front=False)
    state.push(OpenShop(), front=False)
    state.advance()
    return state


@task(AssignCharacter)
@rule("setup.draw-board", "setup.starting-kit", "boy.banknote", "story.hunters")
def assign_character(state: CatacombsState, t: AssignCharacter, card: str) -> None:
    """Each hero draws a character board face down and takes its starting kit."""
    hero = state.heroes[t.seat]
    ch = state.data.characters[card]
    hero.character = card
    state.log(f"seat {hero.seat} draws {card}")
    hero.hp = hero.max_hp = ch.health
    hero.banknotes = ch.banknotes
    hero.items, hero.packed = [], []
    for item_id in ch.start_items:
        take(state, hero, item_id)
    hero.antidotes = ch.antidotes
    hero.secret_knowledge = ch.secret_knowledge
    hero.spells = list(ch.spells)


@task(SetUpRelationships)
@rule(
    "station.titles",
    "boy.theft",
    "station.example-sliders",
    "station.oligarch-archaeologist",
    "station.archaeologist-journalist",
    "station.journalist-oligarch",
)
def setup_relationships(state: CatacombsState, t: SetUpRelationships, _: object) -> None:
    """One title per pair in play, its slider at the pair's starting attitude."""
    for a in state.heroes:
        for b in state.heroes:
            if a.seat < b.seat:
                key = tuple(sorted((a.character, b.character)))
                start = state.data.relationships.get(key)  # type: ignore[arg-type]
                if start is None:
                    start = _from_boards(state.data, a.character, b.character)
                state.set_relation(a.seat, b.seat, ATTITUDE_LEVEL.get(start, 0))
    steal = [
        h
        for h in state.heroes
        if state.data.characters[h.character].has("steal-banknotes-at-station")
    ]
    for thief in steal:
        amount = (
            state.data.characters[thief.character].ability("steal-banknotes-at-station").amount or 1
        )
        for other in state.heroes:
            if other.seat != thief.seat and other.banknotes >= amount:
                other.banknotes -= amount
                thief.banknotes += amount
        state.log(f"{thief.character} steals banknotes at the station unnoticed")


def _from_boards(data: Catacombs, a: str, b: str) -> str:
    """Engine assumption: without a title entity, the boards' attitudes decide the pair."""
    ta = data.characters[a].attitudes.get(b, "neutral")
    tb = data.characters[b].attitudes.get(a, "neutral")
    if ta == tb:
        return ta
    if "neutral" in (ta, tb):
        return ta if tb == "neutral" else tb
    return "neutral"


@task(OpenShop)
@rule("shop.unique", "shop.common", "shop.magic", "shop.mercenaries")
def open_shop(state: CatacombsState, t: OpenShop, _: object) -> None:
    """Lay out the counter: every unique item, common and magic items per character, mercenaries."""
    shop = state.data.shop_rule
    common = ((shop.common_per_character or 0) if shop else 0) * state.players
    magic = ((shop.magic_per_character or 0) if shop else 0) * state.players
    counter = state.pools["counter"]
    for kind in ("unique-item", "mercenary"):
        for card, n in state.pools.get(kind, {}).items():
            counter[card] = counter.get(card, 0) + n
        state.pools[kind] = {}
    for pool, n in (("common-item", common), ("magic-item", magic)):
        for _ in range(min(n, sum(state.pools.get(pool, {}).values()))):
            state.push(ToCounter(pool=pool), front=False)
    state.push(Shopping(), front=False)
    state.phase = PHASE_SHOP


@task(ToCounter)
def to_counter(state: CatacombsState, t: ToCounter, card: str) -> None:
    state.pools["counter"][card] = state.pools["counter"].get(card, 0) + 1


@task(Shopping)
def shopping(state: CatacombsState, t: Shopping, _: object) -> None:
    """Each character shops in turn, then each may re-arrange and trade at the station."""
    for seat in range(state.players):
        state.push(Shop(seat=seat), front=False)
    for seat in range(state.players):
        state.push(Station(seat=seat), front=False)
    state.push(Teams(), front=False)
    state.push(Start(), front=False)


def price(state: CatacombsState, card: str) -> int | None:
    item = state.data.items.get(card)
    if item is not None:
        return item.price
    c = state.data.cards.get(card)
    return None if c is None else c.price


def mercenaries(state: CatacombsState, hero) -> list[str]:
    return [c for c in hero.spells if c in state.data.cards and state.data.cards[c].attack]


@options(Shop)
def shop_options(state: CatacombsState, t: Shop) -> list[Action]:
    hero = state.heroes[t.seat]
    out = [Action.of("done")]
    if loan_terms(state)[0]:
        for lender in state.heroes:
            free = hero.lender in (-1, lender.seat)
            if lender.seat != hero.seat and lender.banknotes > 0 and free:
                out.append(Action.of("borrow", lender=lender.seat))
    hire_limit = state.data.characters[hero.character].hire_limit
    for card, n in sorted(state.pools["counter"].items()):
        p = price(state, card)
        if n <= 0 or p is None or not 0 < p <= hero.banknotes:
            continue
        if (card in state.data.items and room_for(state, hero, card)) or (
            card in state.data.cards and len(mercenaries(state, hero)) < hire_limit
        ):
            out.append(Action.of("buy", item=card))
    return out


@task(Shop)
@rule("shop.money")
def shop(state: CatacombsState, t: Shop, action: Action) -> None:
    """Buy one card at a time from the counter, for banknotes only (nothing is bartered at the
    counter); an item goes on when it fits, else into the backpack (`inventory.take`), and one
    with room for it in neither is not for sale to this hero; `done` leaves the shop."""
    if action.kind == "done":
        return
    hero = state.heroes[t.seat]
    if action.kind == "borrow":
        lend(state, hero, state.heroes[int(action.get("lender"))])
        state.push(Shop(seat=hero.seat))
        return
    card = action.get("item")
    hero.banknotes -= price(state, card) or 0
    state.pools["counter"][card] -= 1
    state.log(f"{hero.character} buys {card}")
    if card in state.data.items:
        take(state, hero, card)
    else:
        hero.spells.append(card)
    state.push(Shop(seat=hero.seat))


def team_colours(state: CatacombsState) -> list[str]:
    entry = state.data.teams_rule
    return list(entry.teams or ()) if entry else []


@task(Teams)
@rule("teams.draft", "teams.one-or-two")
def teams(state: CatacombsState, t: Teams, _: object) -> None:
    """In team play each player in turn takes a team marker; if all take the same colour there
    are no teams. Otherwise everyone plays as one group (engine.one-group)."""
    colours = team_colours(state)
    if not state.team_play or len(colours) < 2:
        return
    for seat in range(state.players):
        state.push(TeamChoice(seat=seat))


@options(TeamChoice)
def team_options(state: CatacombsState, t: TeamChoice) -> list[Action]:
    return [Action.of("team", colour=c) for c in team_colours(state)]


@task(TeamChoice)
def take_team(state: CatacombsState, t: TeamChoice, action: Action) -> None:
    hero = state.heroes[t.seat]
    hero.team = action.get("colour")
    state.log(f"{hero.character} joins the {hero.team} team")


@rule("teams.split-tiles")
def split_tiles(state: CatacombsState) -> None:
    """With two teams the tile pile is split in two (copies dealt alternately, engine
    assumption); each team draws from its own pile. One colour for all means no teams."""
    colours = sorted({h.team for h in state.heroes if h.team})
    if len(colours) < 2:
        for hero in state.heroes:
            hero.team = ""
        return
    piles: dict[str, dict[str, int]] = {c: {} for c in colours}
    deal = 0
    for tile_id in sorted(state.pools["tiles"]):
        for _ in range(state.pools["tiles"][tile_id]):
            colour = colours[deal % len(colours)]
            piles[colour][tile_id] = piles[colour].get(tile_id, 0) + 1
            deal += 1
    state.pools["tiles"] = {}
    for colour, pile in piles.items():
        state.pools[f"tiles:{colour}"] = pile
    state.log("the tile pile is split between the teams")


@task(Start)
@rule("start.first-tile", "start.first-move")
def start(state: CatacombsState, t: Start, _: object) -> None:
    """The first tile is drawn and laid; the ceiling hatch goes in its centre. Unsold
    mercenaries go back to their deck (hired bandits draw from it)."""
    counter = state.pools["counter"]
    for card in sorted(counter):
        if card in state.data.cards and state.data.cards[card].attack and counter[card]:
            pool = state.pools.setdefault("mercenary", {})
            pool[card] = pool.get(card, 0) + counter[card]
            counter[card] = 0
    state.push(FirstTile(pool="tiles"))


@task(FirstTile)
def first_tile(state: CatacombsState, t: FirstTile, card: str) -> None:
    tile = state.data.tiles[card]
    placed = place(tile, (0, 0), 0)
    placed.visited = True
    state.tiles["0,0"] = placed
    state.touch_layout()
    c, r = placed.center()
    state.hatch = [0, 0, c, r]
    placed.features.append({"uid": f"f{state.uid()}", "type": "ceiling-hatch", "cell": [c, r]})
    for hero in state.heroes:
        hero.pos = (0, 0, c, r)
    lay_out_icons(state, placed, tile, 0, event=False)
    state.log(f"the first tile {card} is laid; the heroes climb down the ceiling hatch")
    state.push(BeginPlay(), front=False)


@task(BeginPlay)
def begin_play(state: CatacombsState, t: BeginPlay, _: object) -> None:
    split_tiles(state)
    state.phase = PHASE_PLAY
    state.round = 1
    state.seat = 0
    begin_turn(state)


@task(NextPhase)
def next_phase(state: CatacombsState, t: NextPhase, _: object) -> None:
    """Only reached if a setup queue ran dry without starting play."""
    if state.phase in (PHASE_SETUP, PHASE_SHOP):
        state.push(Start())


__all__ = ["new_game", "turn_cell"]
