"""Helpers for the haunted-house tests: the game built from the real pack, and small drivers that
play chosen chance outcomes and decisions through the public state API (`apply`)."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.api import Action
from engine.games.haunted_house.game import HauntedHouseGame
from engine.games.haunted_house.scenario import begin
from engine.games.haunted_house.state import HouseState
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "content" / "haunted-house"


@cache
def _plain() -> dict[str, Any]:
    return load_model(PACK).to_plain()


def plain() -> dict[str, Any]:
    """A fresh copy of the pack's plain model (tests may change it)."""
    return copy.deepcopy(_plain())


@cache
def game() -> HauntedHouseGame:
    return HauntedHouseGame.from_model(_plain())


def entity(model: dict[str, Any], ident: str) -> dict[str, Any]:
    return next(e for e in model["entities"] if e["id"] == ident)


def dealt(explorers: list[str], seed: int = 0, g: HauntedHouseGame | None = None) -> HouseState:
    """A new game whose seats are dealt these explorers (the deal's chance outcomes chosen)."""
    g = g or game()
    state = g.new_initial_state(len(explorers), seed)
    for name in explorers:
        state.apply(Action.of("draw", card=name))
    assert state.current_player == 0 and state.round == 1
    return state


def chance(state: HouseState, **outcome: Any) -> None:
    """Apply the chance outcome with these arguments (it must be one of the offered ones)."""
    assert state.is_chance_node, state.summary()
    kind = "roll" if "total" in outcome else "draw"
    state.apply(Action.of(kind, **outcome))


def explore(state: HouseState, door: str, tile: str, doors: str | None = None,
            card: str | None = None) -> None:
    """The seat on turn opens `door` and discovers `tile` (turned to `doors` when asked); the
    card its symbol draws is `card`."""
    state.apply(Action.of("explore", door=door))
    chance(state, card=tile)
    if state.queue and state.queue[0].get("fn") == "rotate":
        state.apply(Action.of("rotate", doors=doors or state.queue[0]["turns"][0]))
    if card is not None:
        chance(state, card=card)


def end_turn(state: HouseState) -> None:
    """End the turn of the seat on turn (and the monster's turn that may follow)."""
    state.apply(Action.of("end"))


def start_scenario(state: HouseState, scenario: str, finder: int) -> None:
    """Begin a scenario now, as a successful dread roll would (the engine's own `begin`)."""
    begin(state, scenario, finder)
    state.advance()


def seat_of(state: HouseState, explorer: str) -> int:
    return next(s.seat for s in state.seats if s.explorer == explorer)
