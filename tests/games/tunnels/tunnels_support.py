"""Helpers for the tunnels' tests: the game built from the pack, and positions set up through
the public API (a state's plain dict, edited, read back with `state_from_dict`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from engine.core.api import Action
from engine.games.tunnels.game import TunnelsGame
from engine.games.tunnels.state import TunnelsState
from pipeline.stages import load_model

ROOT = Path(__file__).resolve().parents[3]
GLITTER, FREEDOM = "all-that-glitters", "to-freedom"


@cache
def plain() -> dict[str, Any]:
    return load_model(ROOT / "content" / "tunnels").to_plain()


@cache
def game() -> TunnelsGame:
    return TunnelsGame.from_model(plain())


def start(scenario: str, seed: int = 0) -> TunnelsState:
    """A new game of the scenario; in All that glitters the sergeant is given the loot."""
    state = game().new_initial_state(2, seed, {"scenario": scenario})
    if scenario == GLITTER:
        state.apply(Action.of("give-loot", warrior="sergeant"))
    return state


def position(scenario: str, *, warriors: dict[str, str] | None = None,
             dead: tuple[str, ...] = (), troglodytes: tuple[str, ...] = (),
             demon: str | None = None, moving: str = "mortal", damage: dict[str, int] | None
             = None, ground: tuple[tuple[str, str], ...] = (), loot: str | None = "sergeant",
             round_: int = 1) -> TunnelsState:
    """A movement-phase position: warriors on the named squares (the others dead), the Demon
    and troglodytes where given, nothing activated yet, `moving` on turn."""
    state = start(scenario)
    while state.is_chance_node:  # the first initiative roll
        state.apply(Action.of("initiative", mortal=6, demon=1))
    raw = state.to_dict()
    board = state.board
    placed = warriors or {}
    for w in raw["warriors"]:
        if w["card"] in placed:
            w["cell"] = board.at(placed[w["card"]])
        else:
            w["alive"] = w["card"] not in dead and not placed
        if damage and w["card"] in damage:
            w["damage"] = damage[w["card"]]
    monsters = []
    if demon is not None:
        monsters.append({"key": "demon", "kind": "demon", "cell": board.at(demon), "wounds": 0})
    for i, label in enumerate(troglodytes):
        monsters.append({"key": f"troglodyte-{i + 1}", "kind": "troglodyte",
                         "cell": board.at(label), "wounds": 0})
    raw["monsters"] = monsters
    raw["next_uid"] = len(troglodytes) + 1
    alive = [w["card"] for w in raw["warriors"] if w["alive"]]
    decoys = len(raw["tokens"]) - 1
    tokens = [{"id": i, "value": "loot" if i == 0 else "decoy", "holder": None, "cell": None,
               "gone": False} for i in range(decoys + 1)]
    free = list(tokens)
    if loot in alive:
        free.pop(0)["holder"] = loot
    for card in [c for c in alive if c != loot]:
        spare = next((t for t in free if t["value"] == "decoy"), None)
        if spare is None:
            break
        free.remove(spare)
        spare["holder"] = card
    for value, label in ground:
        token = next(t for t in free if t["value"] == value)
        free.remove(token)
        token["cell"] = board.at(label)
    for token in tokens:
        token["gone"] = token["holder"] is None and token["cell"] is None
    raw["tokens"] = tokens
    raw["phase"] = "movement"
    raw["queue"] = []
    raw["act"] = None
    raw["activated"] = []
    raw["sides_moved"] = 0
    raw["moving"] = raw["first"] = 0 if moving == "mortal" else 1
    raw["round"] = round_
    return game().state_from_dict(raw)


def kinds(state: TunnelsState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def steps(state: TunnelsState) -> list[str]:
    return sorted(a.get("to") for a in state.legal_actions() if a.kind == "step")


def act(state: TunnelsState, kind: str, **args: Any) -> TunnelsState:
    state.apply(Action.of(kind, **args))
    return state


def finish(state: TunnelsState) -> TunnelsState:
    """End the moving figure's activation: stop if it may still move, then done."""
    if state.act is not None and state.act.stage == "move":
        act(state, "stop")
    return act(state, "done")
