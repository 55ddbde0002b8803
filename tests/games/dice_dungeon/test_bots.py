"""The heuristic bot's choices in chosen positions: it tries a fight that kills nobody rather
than waiting while the monster grows, and it does not throw a hero away on a long shot."""

from __future__ import annotations

from dd_support import play, roll, start

from engine.core.api import Action
from engine.games.dice_dungeon.bots import HeuristicBot, Planner
from engine.games.dice_dungeon.state import DungeonState


def _at_the_spider(wounds: tuple[int, int]) -> tuple[DungeonState, int]:
    """Cleric and Burglar (no attack bonus), no gold, the spider's doorstep painted, the
    party at the choice of a fight."""
    state = start(2, "spider-caves", ["cleric", "burglar"], monster=1, treasure=3, gold=2)
    spider = [m.id for m in state.adventure.monsters].index("spider")
    room = state.adventure.grid.room(state.room_of_monster(spider))
    state.painted.add(room.doorstep)
    state.gold = 0
    for hero, taken in zip(state.heroes, wounds, strict=True):
        hero.wounds = taken
    roll(state, 2, 2, 2)
    play(state, Action.of("assign", explore=2, treasure=2, monster=2))  # not the spider
    while state.queue[0]["step"] in ("place", "upgrade"):
        play(state, state.legal_actions()[0])
    assert state.queue[0]["step"] == "choose-attack"
    return state, spider


def test_a_long_shot_that_kills_nobody_is_tried_rather_than_waited_on() -> None:
    state, spider = _at_the_spider((0, 0))
    plan = Planner(state)
    assert 0 < plan.win_chance(spider) < 0.2  # health 6 against two bare dice
    assert plan.attack_value(spider) < 0  # the fight does not pay on its own
    assert plan.deaths(plan.expected_damage(spider)) == 0
    assert HeuristicBot(1).choose(state) == Action.of("attack", monster=spider)


def test_a_long_shot_that_would_kill_a_hero_is_passed() -> None:
    state, spider = _at_the_spider((2, 1))
    plan = Planner(state)
    assert plan.deaths(plan.expected_damage(spider)) >= 1
    assert HeuristicBot(1).choose(state) == Action.of("pass")
