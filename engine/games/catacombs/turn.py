"""The turn: two actions (the first turn a single move), lost turns, the round and its bound."""

from __future__ import annotations

from engine.core.api import Action
from engine.games.catacombs.board import parse_slot
from engine.games.catacombs.ending import check_end
from engine.games.catacombs.labyrinths import open_descents
from engine.games.catacombs.mercenaries import upkeep
from engine.games.catacombs.registry import actions_of, handles, rule, task
from engine.games.catacombs.relationships import interest
from engine.games.catacombs.shelters import blocked
from engine.games.catacombs.state import PHASE_OVER, CatacombsState, Hero
from engine.games.catacombs.steps import EndTurn, MonsterPhase, NewRound

DEFAULT_ACTIONS = 2
DEFAULT_FIRST_TURN_ACTIONS = 1


def actions_per_turn(state: CatacombsState) -> int:
    entry = state.data.turn_rule
    return entry.actions if entry is not None and entry.actions is not None else DEFAULT_ACTIONS


def first_turn_actions(state: CatacombsState) -> int:
    entry = state.data.first_turn_rule
    if entry is None or entry.actions is None:
        return DEFAULT_FIRST_TURN_ACTIONS
    return entry.actions


def first_round(state: CatacombsState) -> bool:
    return state.round == 1


@rule("engine.flood")
def drown(state: CatacombsState, hero: Hero) -> bool:
    """A hero whose labyrinth is flooded loses the flood's health at the start of each turn
    (until they climb out through a ceiling hatch). False when the hero died."""
    flood = flooded(state, hero)
    if flood:
        state.hurt(hero, flood, "drowned in a flooded labyrinth")
    return hero.alive


@rule("table.rising-water")
def recede_floods(state: CatacombsState) -> None:
    """Provisional: the water stays up the card's `lasts_turns` rounds, then falls again and
    the labyrinth may be entered safely (a flood for good closed the labyrinth for good)."""
    for labyrinth, flood in sorted(state.floods.items()):
        if len(flood) > 2 and flood[2] and state.round >= flood[2]:
            del state.floods[labyrinth]
            state.log(f"the water in labyrinth {labyrinth} falls again")


def _flood(state: CatacombsState, hero: Hero) -> list[int] | None:
    """The flood of the hero's labyrinth ([first flooded round, health a turn]), if any."""
    if not state.floods or hero.pos is None:
        return None
    return state.floods.get(str(state.tile_of(hero.pos).labyrinth))


def flooded(state: CatacombsState, hero: Hero) -> int:
    """The health a turn costs in the hero's labyrinth while it is under water, else 0."""
    flood = _flood(state, hero)
    return flood[1] if flood and state.round >= flood[0] else 0


def flooding(state: CatacombsState, hero: Hero) -> bool:
    """The hero's labyrinth is flooding or flooded."""
    return _flood(state, hero) is not None


@rule("shelters.three-turns", "engine.shelter-suffocation")
def come_out_or_suffocate(state: CatacombsState, hero: Hero) -> bool:
    """A hiding hero's turns in the shelter run down; when they are over the hero comes out,
    unless the shelter is blocked: then the hero suffocates. False when the hero died."""
    trapped = blocked(state, hero)
    hero.hidden -= 1
    if hero.hidden > 0:
        return True
    if trapped:
        state.kill(hero, "suffocated in a blocked shelter")
        return False
    state.log(f"{hero.character} must leave the shelter")
    return True


@rule("turn.actions", "first-turn.one-action")
def begin_turn(state: CatacombsState) -> None:
    """A hero's turn starts: two actions (one move on the first turn), unless turns are lost."""
    hero = state.heroes[state.seat]
    state.actions_left = 0
    hero.ambush = -1
    if not hero.active:
        return
    if hero.turns_lost > 0:
        hero.turns_lost -= 1
        state.log(f"{hero.character} skips this turn")
        return
    if not drown(state, hero):
        return
    if hero.hidden > 0 and not come_out_or_suffocate(state, hero):
        return
    interest(state, hero)
    upkeep(state, hero)
    if first_round(state):
        state.actions_left = first_turn_actions(state)
        return
    ability = state.data.characters[hero.character].ability("extra-action")
    extra = (ability.amount or 1) if ability is not None else 0
    state.actions_left = actions_per_turn(state) + extra


@task(EndTurn)
@rule("engine.turn-order")
def end_turn(state: CatacombsState, t: EndTurn, _: object) -> None:
    """Play passes to the next seat; after the last seat the monsters move, then a new round."""
    if state.phase == PHASE_OVER:
        return
    state.seat += 1
    if state.seat >= state.players:
        state.seat = 0
        state.push(MonsterPhase(), front=False)
        state.push(NewRound(), front=False)
        return
    begin_turn(state)


@task(NewRound)
@rule("engine.turn-bound")
def new_round(state: CatacombsState, t: NewRound, _: object) -> None:
    count_idle_round(state)
    state.round += 1
    if state.round > state.max_rounds:
        state.phase = PHASE_OVER
        state.ended_by = "turn-bound"
        state.log(f"the turn bound of {state.max_rounds} rounds is reached")
        return
    recede_floods(state)
    check_end(state)
    if state.phase != PHASE_OVER and labyrinth_closed(state):
        state.phase = PHASE_OVER
        state.ended_by = "labyrinth-closed"
        state.log("no open edge is left and the artifact is not in play: the expedition fails")
    if state.phase != PHASE_OVER:
        begin_turn(state)


def count_idle_round(state: CatacombsState) -> None:
    """For the simulation report: rounds in a row in which no hero did anything but pass (a
    stall), and the longest such run."""
    state.idle_rounds = 0 if state.acted else state.idle_rounds + 1
    state.longest_idle = max(state.longest_idle, state.idle_rounds)
    state.acted = False


@rule("engine.labyrinth-closed")
def labyrinth_closed(state: CatacombsState) -> bool:
    """Engine assumption: when no tile edge opens onto an empty place, tiles remain and the
    final tile is not laid, the game cannot be won and ends without a winner."""
    if state.artifact_taken or any(
        state.data.tiles[t.tile].type == "final" for t in state.tiles.values()
    ):
        return False
    board = state.board
    if open_descents(state):
        return False
    return not any(board.tile_sides_open(parse_slot(key)) for key in state.tiles)


@actions_of
def pass_action(state: CatacombsState, hero: Hero) -> list[Action]:
    return [Action.of("pass")] if hero.active and state.actions_left > 0 else []


@handles("pass")
def do_pass(state: CatacombsState, hero: Hero, action: Action) -> int:
    """The hero ends the turn early."""
    return state.actions_left
