"""The heuristic bot plays like a person: it never passes while some action brings it nearer a
goal, and it avoids the blunders a person would not make."""

from __future__ import annotations

from engine_support import arena, canonical_plain, set_stat

from engine.core.api import Action
from engine.games.catacombs.board import neighbour_slot, place, slot_key, tile_laid
from engine.games.catacombs.bots import HeuristicBot
from engine.games.catacombs.data import from_plain

DATA = from_plain(canonical_plain())
SIDES = ("north", "east", "south", "west")


def _lay_beside(state, hero):
    """A crossing tile laid beside the hero's tile where an exit opens; returns its slot and
    the side it lies on."""
    home = state.tile_of(hero.pos)
    here = (home.slot[0], home.slot[1])
    side = next(s for s in SIDES if home.exits[s]
                and state.board.tile_at(neighbour_slot(here, s)) is None)
    slot = neighbour_slot(here, side)
    cross = next(t for t in DATA.tiles.values() if t.id == "tile-cross-1")
    state.tiles[slot_key(slot)] = place(cross, slot, 0)
    tile_laid(state, slot)
    return slot, side


def _on_turn(state, hero) -> None:
    state.seat, state.actions_left = hero.seat, 2
    state.refresh()


def test_it_does_not_walk_onto_a_face_down_trap_at_low_health_while_it_has_another_way():
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    slot, _ = _lay_beside(state, hero)
    state.tiles[slot_key(slot)].features.append(
        {"uid": "t1", "type": "trap", "card": "hidden-spikes", "cell": None})
    hero.hp = 2
    _on_turn(state, hero)
    bot = HeuristicBot(3)
    for _ in range(5):
        action = bot.choose(state)
        to = action.get("to")
        assert to is None or tuple(int(v) for v in to.split(","))[:2] != slot


def test_it_does_not_open_a_door_it_has_studied_and_knows_hides_a_trap():
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    nxt = next(n for n, side in state.board.steps(hero.pos) if side is None)
    state.tile_of(hero.pos).features.append(
        {"uid": "d1", "type": "door", "cell": [nxt[2], nxt[3]], "card": "door-trap"})
    hero.studied.append("d1")
    state.touch_layout("passage")
    _on_turn(state, hero)
    assert Action.of("door", how="open", door="d1") in state.legal_actions()
    bot = HeuristicBot(3)
    assert all(bot.choose(state) != Action.of("door", how="open", door="d1") for _ in range(5))


def test_it_batters_a_locked_door_in_the_way_instead_of_passing():
    state = arena(DATA, players=1)
    hero = state.heroes[0]
    set_stat(state, hero, "strength", 1)
    slot, side = _lay_beside(state, hero)
    state.tiles[slot_key(slot)].features.append(
        {"uid": "c1", "type": "cache", "card": "cache-plus-1", "cell": None})
    state.pools["tiles"], state.pools["final"] = {}, {}
    home = state.tile_of(hero.pos)
    home.features = [f for f in home.features if f["type"] == "ceiling-hatch"]
    exit_cell = home.edge_cell(side, home.exits[side][0])
    door = {"uid": "d1", "type": "door", "cell": list(exit_cell), "card": "locked-door-clear",
            "known_locked": True}
    home.features.append(door)
    hero.pos = next(n for n, s in state.board.steps((*hero.pos[:2], *exit_cell)) if s is None)
    state.touch_layout("passage")
    _on_turn(state, hero)
    bot, chosen = HeuristicBot(3), []
    while len(chosen) < 2 and not state.is_chance_node:
        chosen.append(bot.choose(state))
        state.apply(chosen[-1])
    assert Action.of("door", how="batter", door="d1") in chosen  # it may study the door first
    assert Action.of("pass") not in chosen
