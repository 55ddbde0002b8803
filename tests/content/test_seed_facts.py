"""Every numeric fact of the seed, asserted against `relic export model --pack catacombs`.

Each row is (entity id, dotted field, expected value), taken straight from the seed text
(../shared/seeds/000_10b135a0354bee1f.txt). Digits in a path index lists, or name mapping keys
such as `6` in `health_by_players.6`.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli import main

ROOT = Path(__file__).resolve().parents[2]

FACTS: list[tuple[str, str, Any]] = [
    # ----- zombie: speed 2 (3), health 2 (3), damage 1 (2), kit 8, 4/6/8, melee, rewards 1/2
    ("zombie", "stats.speed", 2),
    ("zombie", "controlled.speed", 3),
    ("zombie", "stats.health", 2),
    ("zombie", "controlled.health", 3),
    ("zombie", "stats.damage.melee", 1),
    ("zombie", "controlled.damage.melee", 2),
    ("zombie", "kit", 8),
    ("zombie", "by_players.1-3", 4),
    ("zombie", "by_players.4-6", 6),
    ("zombie", "by_players.7-8", 8),
    ("zombie", "min_players", 1),
    ("zombie", "attack", ["melee"]),
    ("zombie", "respawn.per_lair", 2),
    ("zombie", "respawn.revive", [5, 6]),
    ("zombie", "rewards.uncontrolled.0.treasures", 1),
    ("zombie", "rewards.controlled.0.treasures", 2),
    ("zombie-revive", "roll.success", [5, 6]),
    # ----- venomous: speed 1 (2), health 1 (1), poison -1, kit 9 (3 each), 5/7/9
    ("venomous", "stats.speed", 1),
    ("venomous", "controlled.speed", 2),
    ("venomous", "stats.health", 1),
    ("venomous", "controlled.health", 1),
    ("venomous", "stats.damage.poison", 1),
    ("venomous", "removed_after_attack", True),
    ("venomous", "kit", 9),
    ("venomous", "species.0.kit", 3),
    ("venomous", "species.1.kit", 3),
    ("venomous", "species.2.kit", 3),
    ("venomous", "by_players.1-3", 5),
    ("venomous", "by_players.4-6", 7),
    ("venomous", "by_players.7-8", 9),
    ("venomous", "min_players", 1),
    ("venomous", "attack", ["melee"]),
    ("venomous", "respawn.per_lair", 3),
    ("venomous", "rewards.uncontrolled.0.antidotes", 1),
    ("venomous", "rewards.controlled.0.antidotes", 1),
    ("venomous", "rewards.controlled.0.treasures", 1),
    ("venomous", "never_attacks", ["ecologist"]),
    ("venomous-shoot", "roll.success", [5, 6]),
    ("venomous-melee-unarmed", "roll.success", [5, 6]),
    ("venomous-melee-armed", "roll.success", [3, 4, 5, 6]),
    ("venomous-melee-armed", "modifiers.0.requires.0", {"stat": "dexterity", "min": 3}),
    ("venomous-melee-armed", "modifiers.0.add", 1),
    ("venomous-shake-off", "roll.success", [4, 5, 6]),
    ("venomous-shake-off", "modifiers.0.requires.0", {"stat": "dexterity", "min": 4}),
    ("venomous-shake-off", "modifiers.0.add", 1),
    # ----- bandit: speed 3 (4), health 3 (4), damage 2 (3), kit 4, 2/3/4
    ("bandit", "stats.speed", 3),
    ("bandit", "controlled.speed", 4),
    ("bandit", "stats.health", 3),
    ("bandit", "controlled.health", 4),
    ("bandit", "stats.damage.melee", 2),
    ("bandit", "stats.damage.ranged", 2),
    ("bandit", "controlled.damage.melee", 3),
    ("bandit", "controlled.damage.ranged", 3),
    ("bandit", "kit", 4),
    ("bandit", "by_players.1-3", 2),
    ("bandit", "by_players.4-6", 3),
    ("bandit", "by_players.7-8", 4),
    ("bandit", "min_players", 1),
    ("bandit", "attack", ["melee", "ranged"]),
    ("bandit", "rewards.uncontrolled.0.item_cards", 1),
    ("bandit", "rewards.uncontrolled.1.treasures", 3),
    ("bandit", "rewards.controlled.0", {"item_cards": 1, "treasures": 3}),
    ("bandit", "respawn.from_open_areas", True),
    ("bandit-buy-off", "requires.0", {"stat": "communication", "min": 4}),
    ("bandit-buy-off", "cost.treasures", 3),
    ("bandit-hire", "requires.0", {"stat": "communication", "min": 5}),
    ("bandit-hire", "cost.treasures", 5),
    # ----- ghost: speed 3 (4), kit 3, from 2 players, 1/2/3, resist 5-6 / 3-4 / 1-2, luck 3 +1
    ("ghost", "stats.speed", 3),
    ("ghost", "controlled.speed", 4),
    ("ghost", "kit", 3),
    ("ghost", "min_players", 2),
    ("ghost", "by_players.1", 0),
    ("ghost", "by_players.2-4", 1),
    ("ghost", "by_players.5-6", 2),
    ("ghost", "by_players.7-8", 3),
    ("ghost", "attack", ["melee", "ranged"]),
    ("ghost", "killed_by", ["secret-knowledge-deck", "weakening-spell"]),
    ("ghost", "never_attacks", ["cultist"]),
    ("ghost", "respawn.per_lair", 1),
    ("ghost", "rewards.uncontrolled.0.spells", 1),
    ("ghost", "rewards.uncontrolled.1.secret_knowledge", 1),
    ("ghost", "rewards.controlled.0", {"spells": 2, "intrigues": 1}),
    ("ghost", "rewards.controlled.1.stat_increase.0", {"stat": "knowledge", "amount": 1}),
    ("ghost-resist", "results.0", {"roll": "5-6", "result": "resists"}),
    ("ghost-resist", "results.1.roll", "3-4"),
    ("ghost-resist", "results.1.result", "held"),
    ("ghost-resist", "results.1.outcome.turns_lost", 1),
    ("ghost-resist", "results.2.roll", "1-2"),
    ("ghost-resist", "results.2.result", "seized"),
    ("ghost-resist", "modifiers.0.requires.0", {"stat": "luck", "min": 3}),
    ("ghost-resist", "modifiers.0.add", 1),
    ("weakening-spell", "weakening", True),
    # ----- demon: speed 3 (3), health 4 (4), ranged 3, melee 4, 1, from 4 players
    ("demon", "stats.speed", 3),
    ("demon", "controlled.speed", 3),
    ("demon", "stats.health", 4),
    ("demon", "controlled.health", 4),
    ("demon", "stats.damage.ranged", 3),
    ("demon", "stats.damage.melee", 4),
    ("demon", "kit", 1),
    ("demon", "min_players", 4),
    ("demon", "shield", True),
    ("demon", "rewards.uncontrolled.0", {"treasures": 5, "spells": 2}),
    ("demon", "rewards.uncontrolled.1.secret_knowledge", 3),
    ("demon", "rewards.controlled.0.stat_increase.0", {"stat": "luck", "amount": 1}),
    ("demon", "rewards.controlled.0.intrigues", 2),
    ("demon", "rewards.controlled.1.unique_magic_items", 1),
    # ----- scarab: speed 2 (2), health 15/18/20 at 6/7/8, acid 1 (2), melee 5, 1, from 6
    ("scarab", "stats.speed", 2),
    ("scarab", "controlled.speed", 2),
    ("scarab", "health_by_players.6", 15),
    ("scarab", "health_by_players.7", 18),
    ("scarab", "health_by_players.8", 20),
    ("scarab", "stats.damage.acid", 1),
    ("scarab", "controlled.damage.acid", 2),
    ("scarab", "stats.damage.melee", 5),
    ("scarab", "kit", 1),
    ("scarab", "min_players", 6),
    ("scarab", "special.1.turns", 1),
    ("scarab", "special.2.tiles", 1),
    ("scarab", "special.3.health", 1),
    ("scarab", "rewards.uncontrolled.0.treasures", 10),
    ("scarab", "rewards.uncontrolled.0.stat_increase.0", {"stat": "strength", "amount": 1}),
    ("scarab", "rewards.controlled.0.treasures", 15),
    ("scarab", "rewards.controlled.0.stat_increase.0", {"stat": "any", "amount": 1}),
    # ----- treasure table: d6 + cache, 2-3 ... 12+, attention 3 +1, luck 3-4: 6, luck 5: 5-6
    ("treasure-table", "dice", "d6"),
    ("treasure-table", "range", "2-12+"),
    ("treasure-table", "rows.0", {"roll": "2-3", "result": {"treasures": 2}}),
    ("treasure-table", "rows.1", {"roll": "4-5", "result": {"treasures": 3, "common_items": 1}}),
    ("treasure-table", "rows.2", {"roll": "6-7", "result": {"treasures": 4, "common_items": 2}}),
    (
        "treasure-table",
        "rows.3",
        {"roll": "8-9", "result": {"treasures": 5, "common_items": 2, "magic_items": 1}},
    ),
    ("treasure-table", "rows.4.roll", "10-11"),
    ("treasure-table", "rows.4.result.treasures", 8),
    ("treasure-table", "rows.4.result.secret_knowledge", 1),
    ("treasure-table", "rows.4.result.items", ["amulet-of-perfection"]),
    (
        "treasure-table",
        "rows.5",
        {"roll": "12+", "result": {"treasures": 10, "secret_knowledge": 3}},
    ),
    ("treasure-table", "modifiers.0.stat", "attention"),
    ("treasure-table", "modifiers.0.steps.0", {"min": 3, "add": 1}),
    ("treasure-table", "modifiers.1.stat", "luck"),
    ("treasure-table", "modifiers.1.steps.0", {"min": 3, "success": [6]}),
    ("treasure-table", "modifiers.1.steps.1", {"min": 5, "success": [5, 6]}),
    ("cache-plus-1", "hidden.bonus", 1),
    ("cache-plus-2", "hidden.bonus", 2),
    ("cache-plus-5", "hidden.bonus", 5),
    # ----- sarcophagus: 1-2 empty, 3-4 monster, 5-6 treasure, luck 4 reroll, attention 3 seal
    ("sarcophagus-table", "dice", "d6"),
    ("sarcophagus-table", "rows.0.roll", "1-2"),
    ("sarcophagus-table", "rows.0.outcome", "empty"),
    ("sarcophagus-table", "rows.1.roll", "3-4"),
    ("sarcophagus-table", "rows.1.outcome", "monster"),
    ("sarcophagus-table", "rows.1.monster", "zombie"),
    ("sarcophagus-table", "rows.2.roll", "5-6"),
    ("sarcophagus-table", "rows.2.outcome", "treasure"),
    ("sarcophagus-table", "modifiers.0.steps.0.min", 4),
    ("sarcophagus-table", "modifiers.0.effect", "reroll-pick-best"),
    ("sarcophagus-table", "modifiers.1.steps.0.min", 3),
    ("sarcophagus-table", "modifiers.1.effect", "seal"),
    ("sarcophagus-sealed-open", "roll.success", [6]),
    ("sarcophagus-sealed-open", "modifiers.0.requires.0", {"stat": "luck", "min": 5}),
    ("sarcophagus-sealed-open", "modifiers.0.success", [5, 6]),
    # ----- statues: study attention 2, move strength 5 + dexterity 4 (2 actions), mechanism 7
    ("statue-study", "requires.0", {"stat": "attention", "min": 2}),
    ("statue-study", "actions", 1),
    ("statue-break", "actions", 1),
    ("statue-break", "forbidden_for", "relic-keeper"),
    ("statue-break", "on_success.relic_keepers", -1),
    ("statue-move", "requires.0", {"stat": "strength", "min": 5}),
    ("statue-move", "requires.1", {"stat": "dexterity", "min": 4}),
    ("statue-move", "actions", 2),
    ("statue-move", "on_success.relic_keepers", 1),
    ("statue-mechanism", "requires.0", {"stat": "knowledge", "min": 7}),
    ("statue-mechanism", "actions", 1),
    ("statue-mechanism", "needs", ["statue-study"]),
    # ----- doors
    ("locked-door-force", "requires.0", {"stat": "strength", "min": 5}),
    ("locked-door-force", "items", ["lockpick", "dynamite", "key"]),
    ("door-study", "requires.0", {"stat": "attention", "min": 2}),
    # ----- crevices
    ("crevice-vertical-pass", "requires.0", {"stat": "speed", "min": 3}),
    ("crevice-vertical-pass", "requires.1", {"stat": "dexterity", "min": 3}),
    ("crevice-vertical-pass", "actions", 1),
    ("crevice-vertical-pass", "on_failure.turns_lost", 1),
    ("crevice-jump", "cells_add", 2),
    ("crevice-jump", "single_action", True),
    ("crevice-jump", "modifiers.0.requires.0", {"stat": "dexterity", "min": 3}),
    ("crevice-jump", "modifiers.0.cells", 1),
    ("crevice-jump", "modifiers.1.requires.0", {"stat": "luck", "min": 4}),
    ("crevice-jump", "modifiers.1.success", [5, 6]),
    ("bridge-cross", "roll.success", [4, 5, 6]),
    ("bridge-cross", "modifiers.0.requires.0", {"stat": "dexterity", "min": 2}),
    ("bridge-cross", "modifiers.0.success", [3, 4, 5, 6]),
    ("helping-hand", "requires.0", {"stat": "strength", "min": 3}),
    ("helping-hand", "roll.success", [4, 5, 6]),
    (
        "helping-hand",
        "modifiers.0.requires",
        [{"stat": "strength", "min": 3}, {"stat": "dexterity", "min": 4}],
    ),
    ("helping-hand", "modifiers.0.success", [2, 3, 4, 5, 6]),
    ("water-swim", "actions", 1),
    ("water-dive", "requires.0", {"stat": "strength", "min": 5}),
    ("water-dive-far", "requires.0", {"stat": "strength", "min": 6}),
    ("shallow-fall", "on_success.health", -2),
    ("shallow-fall", "on_success.speed_set", 1),
    ("deep-fall", "on_success.dies", True),
    ("spiked-fall", "on_success.dies", True),
    # ----- shelters and levers
    ("shelter-hide", "actions", 1),
    ("shelter-hide", "turns", 3),
    ("shelter-leave", "actions", 1),
    ("shelter-force-out", "requires.0", {"stat": "attention", "min": 5}),
    ("lever-study", "requires.0", {"stat": "attention", "min": 5}),
    ("lever-door", "hidden.effect", "door"),
    ("lever-floor-spikes", "hidden.effect", "floor-spikes"),
    ("lever-cutter", "hidden.effect", "cutter"),
    ("lever-hidden-passage", "hidden.effect", "hidden-passage"),
    # ----- open traps
    ("web", "speed", -2),
    ("web", "min_cells_per_action", 1),
    ("web", "neutralized_by", ["machete", "torch"]),
    ("web", "stops", ["drone"]),
    ("floor-spikes", "health", -5),
    ("floor-spikes", "jumpable", False),
    ("cutter", "jump.0", {"distance": 0, "cells": 2}),
    ("cutter", "jump.1", {"distance": 1, "cells": 3}),
    ("cutter", "deadly", True),
    ("cutter-run-up", "roll.parity", True),
    ("cutter-run-up", "modifiers.0.requires.0", {"stat": "luck", "min": 5}),
    ("cutter-run-up", "modifiers.0.reroll", True),
    ("poison-darts", "poison_per_stop", 1),
    ("poison-darts-stop", "requires.0", {"stat": "dexterity", "min": 4}),
    ("poison-darts-stop", "roll.success", [5, 6]),
    ("carnivorous-plant-pass", "roll.success", [5, 6]),
    ("carnivorous-plant-pass", "modifiers.0.requires.0", {"stat": "knowledge", "min": 4}),
    ("carnivorous-plant-pass", "modifiers.0.success", [4, 5, 6]),
    ("carnivorous-plant-pass", "modifiers.1.items", ["machete"]),
    ("carnivorous-plant-pass", "modifiers.1.add", 1),
    # ----- monster × obstacle, as the seed says
    (
        "obstacle-matrix",
        "rows.0.cells.door",
        {"effect": "blocked", "controlled": {"effect": "pass"}},
    ),
    ("obstacle-matrix", "rows.0.cells.crevice-horizontal.effect", "dies"),
    ("obstacle-matrix", "rows.0.cells.cutter", {"effect": "dies"}),
    ("obstacle-matrix", "rows.1.cells.web", {"effect": "pass"}),
    ("obstacle-matrix", "rows.1.cells.water", {"effect": "blocked"}),
    ("obstacle-matrix", "rows.4.cells.crevice-horizontal", {"effect": "pass", "max_width": 1}),
    ("obstacle-matrix", "rows.4.cells.cutter", {"effect": "blocked"}),
    ("obstacle-matrix", "rows.4.cells.poison-darts.effect", "dies"),
    ("obstacle-matrix", "rows.5.cells.web", {"effect": "pass"}),
    ("obstacle-matrix", "rows.6.cells.crevice-horizontal", {"effect": "blocked"}),
    ("obstacle-matrix", "rows.7.cells.floor-spikes", {"effect": "loses-health", "health": 1}),
    ("obstacle-matrix", "rows.7.cells.cutter", {"effect": "loses-health", "health": 2}),
    ("obstacle-matrix", "rows.8.cells.floor-spikes", {"effect": "pass"}),
    # ----- setup: shop, loans, usury, first turn, actions, free sympathy
    ("shop", "common_per_character", 3),
    ("shop", "magic_per_character", 2),
    ("shop", "all_unique", True),
    ("shop", "all_mercenaries", True),
    ("loan", "treasures_per_banknote", 2),
    ("usury", "banknotes_per_turn", 1),
    ("usury", "relationship_change", -1),
    ("first-turn", "actions", 1),
    ("first-turn", "allowed_actions", ["move"]),
    ("actions-per-turn", "actions", 2),
    ("free-sympathy", "requires.0", {"stat": "communication", "min": 4}),
    ("rifle", "hands", 2),
    ("rifle", "backpack", 2),
    ("equipment", "slots", ["head", "body", "hands", "legs"]),
    # ----- characters
    ("boy", "start.banknotes", 1),
    ("boy", "abilities.0.effect", "steal-banknotes-at-station"),
    ("boy", "abilities.0.amount", 1),
    ("boy", "abilities.0.unnoticed", True),
    ("boy", "abilities.1.effect", "pass-vertical-crevice-free"),
    ("professor", "stats.attention", 4),
    ("professor", "stats.speed", 2),
    ("treasure-hunter", "stats.luck", 3),
    ("oligarch", "attitudes.archaeologist", "antipathy"),
    ("archaeologist", "attitudes.oligarch", "antipathy"),
    ("archaeologist", "attitudes.journalist", "sympathy"),
    ("journalist", "attitudes.oligarch", "neutral"),
    ("oligarch-archaeologist", "start", "antipathy"),
    ("oligarch-journalist", "start", "neutral"),
    ("archaeologist-journalist", "start", "sympathy"),
    ("ecologist", "abilities.0.monsters", ["venomous"]),
    ("cultist", "abilities.0.monsters", ["ghost"]),
]


@pytest.fixture(scope="module")
def exported() -> dict[str, dict[str, Any]]:
    """The model as `relic export model --pack catacombs` prints it, entities by id."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["export", "model", "--pack", "catacombs", "--content", str(ROOT / "content")])
    assert code == 0
    plain = json.loads(out.getvalue())
    return {e["id"]: e for e in plain["entities"]}


def value_at(data: Any, dotted: str) -> Any:
    value = data
    for part in dotted.split("."):
        if isinstance(value, Mapping):
            assert part in value, f"no key '{part}' in {sorted(value)}"
            value = value[part]
        else:
            assert isinstance(value, list), f"cannot index {value!r} with '{part}'"
            value = value[int(part)]
    return value


def test_the_table_covers_at_least_sixty_facts() -> None:
    assert len(FACTS) >= 60
    assert len({(e, f) for e, f, _ in FACTS}) == len(FACTS), "a fact is listed twice"


@pytest.mark.parametrize(
    ("entity", "field", "expected"), FACTS, ids=[f"{e}.{f}" for e, f, _ in FACTS]
)
def test_seed_fact(
    exported: dict[str, dict[str, Any]], entity: str, field: str, expected: Any
) -> None:
    assert entity in exported, f"no entity '{entity}' in the exported model"
    assert value_at(exported[entity], field) == expected


def test_eight_characters_and_seven_monsters(exported: dict[str, dict[str, Any]]) -> None:
    kinds: dict[str, set[str]] = {}
    for e in exported.values():
        kinds.setdefault(e["kind"], set()).add(e["id"])
    assert kinds["character"] == {
        "oligarch",
        "archaeologist",
        "journalist",
        "boy",
        "professor",
        "treasure-hunter",
        "ecologist",
        "cultist",
    }
    assert kinds["monster"] == {
        "zombie",
        "venomous",
        "bandit",
        "ghost",
        "demon",
        "scarab",
        "vampire",
    }
    assert len(kinds["relationship"]) == 28
