"""Engine test helpers (imported by name; the fixtures live in conftest.py): the canonical
catacombs model (via the pipeline, in tests only) and a tiny hand-written model for API tests
that must not depend on the content's details."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN = os.environ.get("RELIC_REGEN_GOLDEN") == "1"

_CANONICAL: dict[str, Any] | None = None


def canonical_plain() -> dict[str, Any]:
    global _CANONICAL
    if _CANONICAL is None:
        from pipeline.stages import load_model

        _CANONICAL = load_model(ROOT / "content" / "catacombs").to_plain()
    return copy.deepcopy(_CANONICAL)




def _text(en: str) -> dict[str, str]:
    return {"ru": en, "en": en}


def tiny_plain() -> dict[str, Any]:
    """Two characters, a corridor of tiles, one zombie, a cache and the treasure table."""
    corridor = {
        "kind": "tile", "type": "labyrinth", "grid": {"cols": 3, "rows": 3},
        "layout": ["#.#", "...", "#.#"],
        "exits": {"north": [1], "south": [1], "east": [1], "west": [1]},
    }
    return {
        "pack": {"id": "tiny", "title": _text("Tiny"), "languages": ["ru", "en"],
                 "ruleset": "catacombs", "players": {"min": 1, "max": 2}},
        "entities": [
            {"id": "runner", "kind": "character", "count": 1, "name": _text("Runner"),
             "health": 5, "thrift": 0, "weapon_limit": 1, "hire_limit": 0,
             "stats": {"speed": 3, "strength": 2, "dexterity": 3, "knowledge": 1, "luck": 1,
                       "communication": 4, "attention": 3},
             "start": {"banknotes": 0}, "attitudes": {"thinker": "sympathy"}},
            {"id": "thinker", "kind": "character", "count": 1, "name": _text("Thinker"),
             "health": 4, "thrift": 0, "weapon_limit": 1, "hire_limit": 0,
             "stats": {"speed": 2, "strength": 1, "dexterity": 1, "knowledge": 5, "luck": 5,
                       "communication": 2, "attention": 1},
             "start": {"banknotes": 0}, "attitudes": {"runner": "neutral"}},
            {**corridor, "id": "hall-a", "count": 2, "name": _text("Hall A"),
             "icons": [{"icon": "cache", "cell": [1, 1]}]},
            {**corridor, "id": "hall-b", "count": 2, "name": _text("Hall B"),
             "icons": [{"icon": "monster", "cell": [1, 1]}]},
            {"id": "sanctum", "kind": "tile", "count": 1, "name": _text("Sanctum"),
             "type": "final", "grid": {"cols": 3, "rows": 3}, "layout": ["...", "...", "..."],
             "exits": {"north": [1], "south": [1], "east": [1], "west": [1]},
             "icons": [{"icon": "artifact", "cell": [1, 1]}]},
            {"id": "cache-plus-2", "kind": "token", "count": 3, "type": "cache",
             "name": _text("Cache"), "hidden": {"bonus": 2}, "table": "treasure-table"},
            {"id": "monster-deck", "kind": "deck", "count": 1, "name": _text("Monsters"),
             "cards": "monster", "type": "monster"},
            {"id": "zombie", "kind": "monster", "count": 2, "deck": "monster-deck",
             "name": _text("Zombie"), "stats": {"speed": 2, "health": 2,
                                                 "damage": {"melee": 1}},
             "kit": 2, "by_players": {"1-2": 2}, "min_players": 1, "attack": ["melee"],
             "rewards": {"uncontrolled": [{"treasures": 1}]}},
            {"id": "treasure-table", "kind": "table", "count": 1, "name": _text("Treasure"),
             "dice": "d6", "bonus": "cache", "range": "2-8+",
             "rows": [{"roll": "2-4", "result": {"treasures": 1}},
                      {"roll": "5-7", "result": {"treasures": 3}},
                      {"roll": "8+", "result": {"treasures": 6}}],
             "modifiers": [{"id": "attention-bonus", "stat": "attention",
                            "effect": "add-to-roll", "steps": [{"min": 3, "add": 1}]},
                           {"id": "luck-jackpot", "stat": "luck", "effect": "jackpot",
                            "steps": [{"min": 5, "success": [5, 6]}]}]},
            {"id": "turn", "kind": "rule", "count": 1, "name": _text("Turn"),
             "phase": "turn", "actions": 2, "allowed_actions": ["move"]},
            {"id": "first-turn", "kind": "rule", "count": 1, "name": _text("First turn"),
             "phase": "first-turn", "actions": 1},
        ],
    }



def arena(data, players: int = 2, seed: int = 1, teams: bool = False, decide=None):
    """A state in the second round with no pending steps (setup and the first turn played)."""
    from engine.games.catacombs import CatacombsGame

    state = CatacombsGame.from_model(data).new_initial_state(players, seed, {"teams": teams})
    while state.round < 2 or state.queue:
        if state.is_chance_node:
            state.apply(state.sample_chance())
            continue
        actions = state.legal_actions()
        if decide is not None and decide(state, actions) is not None:
            state.apply(decide(state, actions))
            continue
        done = [a for a in actions if a.kind in ("done", "pass")]
        state.apply(done[0] if done else actions[0])
    return state


def set_stat(state, hero, stat: str, value: int) -> None:
    hero.items = []
    hero.spells = []
    base = state.data.characters[hero.character].stats.get(stat, 0)
    hero.bonus[stat] = value - base
    assert state.stat(hero, stat) == value
