"""Items worn or packed (hands, clothing slots, accessories, the backpack), re-arranging them,
and trading between characters, on the canonical content."""

from __future__ import annotations

import copy
import json

from engine_support import arena, canonical_plain

from engine.core.api import Action
from engine.games.catacombs import CatacombsGame
from engine.games.catacombs.data import from_plain
from engine.games.catacombs.equipment import hands_of
from engine.games.catacombs.inventory import room_for, take
from engine.games.catacombs.state import CatacombsState
from engine.games.catacombs.steps import Shop, Station, TradeOffer

PLAIN = canonical_plain()
DATA = from_plain(PLAIN)


def hero_of(state, character: str):
    return next(h for h in state.heroes if h.character == character)


def game_with(characters: list[str], data=DATA):
    state = CatacombsGame.from_model(data).new_initial_state(len(characters), 5, {})
    for name in characters:
        state.apply(Action.of("draw", card=name))
    return state


def carrying(state, hero, items: list[str], packed: tuple[str, ...] = ()) -> None:
    hero.items = list(items)
    hero.packed = list(packed)
    state.refresh()


def on_turn(state, hero, actions: int = 2) -> None:
    """Make it the hero's turn in the second round with `actions` actions left."""
    state.seat = hero.seat
    state.actions_left = actions
    state.refresh()


def with_backpack(compartments: int):
    """The canonical content with a backpack size on the equipment rule."""
    plain = copy.deepcopy(PLAIN)
    for e in plain["entities"]:
        if e["kind"] == "rule" and "same_accessories_worn" in e:
            e["backpack_compartments"] = compartments
    return from_plain(plain)


# ----- worn or packed ---------------------------------------------------------------------------
def test_a_character_has_the_rifles_two_hands():
    state = arena(DATA)
    assert hands_of(state.data) == DATA.items["rifle"].hands == 2


def test_starting_items_go_on_when_they_fit_else_into_the_backpack():
    state = game_with(["oligarch", "journalist"])
    oligarch, journalist = state.heroes
    assert state.worn(oligarch) == ("pistol",)
    # the energy drink has neither a slot nor hands: packed, its speed bonus does not count
    assert state.arrangement(journalist).packed == ("energy-drink",)
    base = DATA.characters["journalist"].stats["speed"]
    assert state.stat(journalist, "speed") == base


def test_a_rifle_does_not_fit_beside_a_pistol_and_wearing_it_packs_the_pistol():
    state = arena(DATA)
    hero = state.heroes[0]
    carrying(state, hero, ["pistol", "rifle"])
    assert state.arrangement(hero).worn == ("pistol",)
    assert state.arrangement(hero).packed == ("rifle",)
    on_turn(state, hero)
    assert Action.of("wear", item="rifle") in state.legal_actions()
    state.apply(Action.of("wear", item="rifle"))
    assert state.arrangement(hero).worn == ("rifle",)
    assert state.arrangement(hero).packed == ("pistol",)
    assert state.actions_left == 1


def test_a_second_item_for_a_clothing_slot_is_packed_and_gives_no_bonus():
    state = arena(DATA)
    hero = state.heroes[0]
    stats = DATA.characters[hero.character].stats
    carrying(state, hero, ["climbing-boots", "boots-of-swiftness"])
    assert state.stat(hero, "dexterity") == stats["dexterity"] + 1
    assert state.stat(hero, "speed") == stats["speed"]
    on_turn(state, hero)
    state.apply(Action.of("wear", item="boots-of-swiftness"))
    assert state.stat(hero, "dexterity") == stats["dexterity"]
    assert state.stat(hero, "speed") == stats["speed"] + 1


def test_only_one_of_identical_accessories_is_worn():
    state = arena(DATA)
    hero = state.heroes[0]
    luck = DATA.characters[hero.character].stats["luck"]
    carrying(state, hero, ["ring-of-fortune", "ring-of-fortune"])
    assert state.stat(hero, "luck") == luck + DATA.items["ring-of-fortune"].stats["luck"]
    assert state.arrangement(hero).packed == ("ring-of-fortune",)


def test_packing_a_worn_item_costs_an_action_and_drops_its_bonus():
    state = arena(DATA)
    hero = state.heroes[0]
    strength = DATA.characters[hero.character].stats["strength"]
    carrying(state, hero, ["work-gloves"])
    assert state.stat(hero, "strength") == strength + 1
    on_turn(state, hero)
    state.apply(Action.of("pack", item="work-gloves"))
    assert state.stat(hero, "strength") == strength
    assert hero.packed == ["work-gloves"]
    assert state.actions_left == 1


def test_held_weapons_stay_within_the_weapon_limit():
    state = game_with(["journalist", "oligarch"])
    journalist = state.heroes[0]
    assert DATA.characters["journalist"].weapon_limit == 1
    carrying(state, journalist, ["knife", "pistol"])
    assert state.arrangement(journalist).worn == ("knife",)
    oligarch = state.heroes[1]
    assert DATA.characters["oligarch"].weapon_limit == 2
    carrying(state, oligarch, ["knife", "pistol"])
    assert state.arrangement(oligarch).worn == ("knife", "pistol")


def test_no_re_arranging_on_the_first_turn():
    state = CatacombsGame.from_model(DATA).new_initial_state(2, 3, {})
    while state.round < 1 or state.is_chance_node or state.queue:
        actions = state.legal_actions()
        if state.is_chance_node:
            state.apply(state.sample_chance())
        else:
            state.apply(next((a for a in actions if a.kind == "done"), actions[0]))
    hero = state.heroes[state.seat]
    carrying(state, hero, ["pistol", "rifle"])
    assert state.round == 1
    assert not {"wear", "pack", "offer"} & {a.kind for a in state.legal_actions()}


def test_a_full_backpack_refuses_what_cannot_be_worn():
    data = with_backpack(2)
    state = arena(data)
    hero = state.heroes[0]
    carrying(state, hero, ["pistol", "torch", "rifle"])
    assert state.arrangement(hero).packed == ("rifle",)
    assert state.arrangement(hero).used == state.arrangement(hero).room == 2
    assert not room_for(state, hero, "lantern")  # no free hand, no compartment
    assert room_for(state, hero, "pith-helmet")  # the head is free
    on_turn(state, hero)
    # packing the torch would overfill the backpack
    assert Action.of("pack", item="torch") not in state.legal_actions()


def test_the_shop_offers_no_item_without_room_for_it():
    data = with_backpack(2)
    state = game_with(["oligarch", "boy"], data)
    while state.is_chance_node:
        state.apply(state.sample_chance())
    assert state.queue[0] == Shop(seat=0)
    oligarch = state.heroes[0]
    carrying(state, oligarch, ["pistol", "torch", "rifle"])
    state.pools["counter"]["lantern"] = 1
    state.pools["counter"]["pith-helmet"] = 1
    buys = {a.get("item") for a in state.legal_actions() if a.kind == "buy"}
    assert "pith-helmet" in buys
    assert "lantern" not in buys


def test_a_bought_item_goes_on_or_into_the_backpack():
    state = game_with(["oligarch", "boy"])
    while state.is_chance_node:
        state.apply(state.sample_chance())
    oligarch = state.heroes[0]
    state.pools["counter"]["rifle"] = 1
    before = oligarch.banknotes
    state.apply(Action.of("buy", item="rifle"))
    assert oligarch.banknotes == before - DATA.items["rifle"].price
    assert state.arrangement(oligarch).worn == ("pistol",)
    assert state.arrangement(oligarch).packed == ("rifle",)


# ----- at the station ---------------------------------------------------------------------------
def to_the_station(state):
    while not (state.queue and isinstance(state.queue[0], Station)):
        if state.is_chance_node:
            state.apply(state.sample_chance())
        else:
            state.apply(Action.of("done"))
    return state


def test_at_the_station_re_arranging_is_free_and_one_offer_ends_the_turn_there():
    state = to_the_station(game_with(["oligarch", "cultist"]))
    oligarch, cultist = state.heroes
    assert state.current_player == 0
    carrying(state, oligarch, ["pistol", "rifle"])
    state.apply(Action.of("wear", item="rifle"))
    assert state.worn(oligarch) == ("rifle",)
    assert isinstance(state.queue[0], Station) and state.current_player == 0
    offer = Action.of("offer", deal="give", item="pistol", to=1)
    assert offer in state.legal_actions()
    state.apply(offer)
    assert isinstance(state.queue[0], TradeOffer) and state.current_player == 1
    state.apply(Action.of("answer", accept=True))
    assert oligarch.items == ["rifle"]
    assert "pistol" in cultist.items
    # the oligarch's time at the station is over: the cultist's own turn there comes next
    assert isinstance(state.queue[0], Station) and state.current_player == 1


# ----- trading in the catacombs -----------------------------------------------------------------
def two_on_a_tile():
    state = arena(DATA)
    a, b = state.heroes
    b.pos = a.pos
    carrying(state, a, ["pistol"])
    carrying(state, b, ["torch"])
    a.banknotes, b.banknotes = 0, 10
    on_turn(state, a)
    return state, a, b


def test_a_sale_at_the_shop_price_the_buyer_accepts():
    state, a, b = two_on_a_tile()
    price = DATA.items["pistol"].price
    state.apply(Action.of("offer", deal="sell", item="pistol", to=b.seat))
    assert state.current_player == b.seat
    assert state.legal_actions() == [
        Action.of("answer", accept=False),
        Action.of("answer", accept=True),
    ]
    state.apply(Action.of("answer", accept=True))
    assert a.items == [] and "pistol" in b.items
    assert (a.banknotes, b.banknotes) == (price, 10 - price)
    assert state.actions_left == 1 and state.current_player == a.seat


def test_a_declined_offer_changes_nothing_but_spends_the_action():
    state, a, b = two_on_a_tile()
    state.apply(Action.of("offer", deal="sell", item="pistol", to=b.seat))
    state.apply(Action.of("answer", accept=False))
    assert a.items == ["pistol"] and b.items == ["torch"]
    assert (a.banknotes, b.banknotes) == (0, 10)
    assert state.actions_left == 1


def test_a_swap_exchanges_the_two_items():
    state, a, b = two_on_a_tile()
    state.apply(Action.of("offer", deal="swap", item="pistol", to=b.seat, take="torch"))
    state.apply(Action.of("answer", accept=True))
    assert a.items == ["torch"] and b.items == ["pistol"]
    assert state.worn(a) == ("torch",) and state.worn(b) == ("pistol",)


def test_no_sale_to_a_hero_without_the_price_nor_to_one_on_another_tile():
    state, _a, b = two_on_a_tile()
    b.banknotes = DATA.items["pistol"].price - 1
    state.refresh()
    deals = {(x.get("deal"), x.get("item")) for x in state.legal_actions() if x.kind == "offer"}
    assert ("give", "pistol") in deals and ("sell", "pistol") not in deals
    b.pos = (b.pos[0] + 5, b.pos[1], b.pos[2], b.pos[3])
    state.refresh()
    assert not [x for x in state.legal_actions() if x.kind == "offer"]


def test_packing_choices_survive_a_round_trip():
    state = arena(DATA)
    hero = state.heroes[0]
    carrying(state, hero, ["pistol", "work-gloves"], packed=("work-gloves",))
    raw = json.loads(json.dumps(state.to_dict()))
    again = CatacombsState.from_dict(DATA, raw)
    assert again == state
    assert again.heroes[0].packed == ["work-gloves"]
    assert again.worn(again.heroes[0]) == ("pistol",)


def test_a_packing_choice_for_an_item_used_up_elsewhere_does_not_pack_a_new_copy():
    state = arena(DATA)
    hero = state.heroes[0]
    carrying(state, hero, ["pistol", "torch"], packed=("torch",))
    hero.items.remove("torch")  # e.g. dropped with a dead hero's belongings
    take(state, hero, "torch")
    assert hero.packed == []
    assert state.worn(hero) == ("pistol", "torch")


def test_the_counter_sells_for_banknotes_only():
    state = game_with(["oligarch", "boy"])
    while state.is_chance_node:
        state.apply(state.sample_chance())
    oligarch = state.heroes[0]
    oligarch.banknotes = 0
    oligarch.treasures = 20
    carrying(state, oligarch, ["pistol", "rifle", "lantern"])
    assert not [a for a in state.legal_actions() if a.kind == "buy"]
    oligarch.banknotes = DATA.items["torch"].price
    state.pools["counter"]["torch"] = 1
    state.refresh()
    assert Action.of("buy", item="torch") in state.legal_actions()
