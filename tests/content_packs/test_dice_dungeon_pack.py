"""Seed 002 (the cooperative dice dungeon): its numbers and rules, read from the resolved model."""

from __future__ import annotations

import pytest
from packdata import entities, fact, plain

PACK = "dice-dungeon"

SEED_FACTS = [
    # Overview.
    ("levels", "monster_rooms", 6),
    ("levels", "bosses", 1),
    ("levels", "heroes_per_class", 1),
    ("levels", "new_hero_except_levels", [4]),
    ("adventure-sheet", "monster_rooms", 6),
    # Setting up a level.
    ("level-setup", "roller", "master"),
    ("level-setup", "dice", "3d6"),
    ("level-setup", "distinct", True),
    ("level-setup", "uses", ["monster-room", "treasure-room", "gold"]),
    ("level-setup", "rooms", 6),
    ("level-setup", "wraps", True),
    ("level-setup", "examples.0.first", 1),
    ("level-setup", "examples.0.order", [1, 2, 3, 4, 5, 6]),
    ("level-setup", "examples.1.first", 3),
    ("level-setup", "examples.1.order", [3, 4, 5, 6, 1, 2]),
    # A turn.
    ("turn", "roller", "master"),
    ("turn", "dice", "3d6"),
    ("turn", "uses", ["exploration", "treasure", "monster-upgrade"]),
    ("turn", "ordered", False),
    ("turn", "locked_door_ability", "unlock"),
    ("unlock", "opens.0", "locked-door"),
    ("turn", "defeated_monster_number_lost", True),
    # Exploration.
    ("exploration", "start_from", "start"),
    ("exploration", "max_shared_edges", 1),
    ("exploration", "min_shared_edges", 1),
    ("exploration", "corner_contact", False),
    ("exploration", "rotations", [90, 180]),
    ("exploration", "unpainted", ["obstacle", "tomb", "start"]),
    ("exploration-table", "dice", "d6"),
    ("exploration-table", "rows.0.roll", "1"),
    ("exploration-table", "rows.0.reroll", True),
    # Treasure.
    ("treasure", "upgrade_step", 1),
    ("treasure", "reward_when", "monster-defeated"),
    ("treasure", "unlock_when", "monster-defeated"),
    ("treasure", "opened_chest_final", True),
    ("trapped-chest", "trapped", True),
    ("locked-chest", "locked", True),
    # Monsters.
    ("monster-upgrades", "upgrades", ["health", "attack"]),
    ("monster-upgrades", "fill", "left-to-right"),
    ("monster-upgrades", "max_track_gap", 2),
    ("monster-upgrades", "ability_timing", ["heroes-turn", "before-game"]),
    ("boss", "boss_access", "items"),
    ("boss", "boss_reward", "unique-treasure"),
    # Attack.
    ("attack", "dice_per_hero", "d6"),
    ("attack", "combine", "mean-round-up"),
    ("attack", "magic_weapon_bonus", 1),
    ("attack", "win_when", "at-least-health"),
    ("attack", "simultaneous", True),
    ("attack", "shield_reduction", 1),
    ("attack", "shields_per_hero", 1),
    ("attack", "max_shield_reduction", 4),
    ("attack", "reroll_cost", 1),
    ("attack", "gold_shared", True),
    ("attack", "attacks_per_turn", 1),
    # The fight example.
    ("spider", "attack", 4),
    ("spider", "health", 6),
    ("spider-fight", "dice_result", 3),
    ("spider-fight", "magic_weapons", 1),
    ("spider-fight", "abilities.0", {"hero": "guardian", "ability": "crush"}),
    ("crush", "attack_bonus", 2),
    ("spider-fight", "attack_result", 6),
    ("spider-fight", "defeated", True),
    ("spider-fight", "magic_shields", 2),
    ("spider-fight", "damage_taken", 2),
    ("spider-fight", "wounds.1", {"hero": "assassin", "damage": 1}),
    # Heroes.
    ("heroes", "start", {"health": 3, "ability_points": 3}),
    ("heroes", "extra_levels", 3),
    ("heroes", "per_level", {"health": 1, "ability_points": 1}),
    ("heroes", "dies_at_zero_health", True),
    ("heroes", "uses_per_fight", 1),
    ("heroes", "uses_outside_fight", "while-points-remain"),
    ("heroes", "level_cost_base", 5),
    ("heroes", "level_up_when", "end-of-turn"),
    ("heroes", "revive_by_level", True),
    # End of a level.
    ("level-end", "ends_when", ["all-monsters-defeated", "turn-limit"]),
    ("level-end", "max_turns", 35),
    ("level-end", "bonus_above", 100),
]


@pytest.mark.parametrize(("entity_id", "dotted", "expected"), SEED_FACTS)
def test_seed_fact(entity_id: str, dotted: str, expected: object) -> None:
    assert fact(PACK, entity_id, dotted) == expected


def test_room_orders_follow_the_wrapping_rule() -> None:
    rooms = fact(PACK, "level-setup", "rooms")
    for example in fact(PACK, "level-setup", "examples"):
        first = example["first"]
        assert example["order"] == [(first - 1 + i) % rooms + 1 for i in range(rooms)]


def test_the_fight_example_follows_the_attack_rule() -> None:
    by_id = entities(PACK)
    fight, rule = by_id["spider-fight"], by_id["attack"]
    monster = by_id[fight["monster"]]
    bonus = sum(by_id[a["ability"]].get("attack_bonus", 0) for a in fight["abilities"])
    result = fight["dice_result"] + fight["magic_weapons"] * rule["magic_weapon_bonus"] + bonus
    assert result == fight["attack_result"]
    assert (result >= monster["health"]) == fight["defeated"]
    blocked = min(fight["magic_shields"] * rule["shield_reduction"], rule["max_shield_reduction"])
    assert fight["damage_taken"] == max(0, monster["attack"] - blocked)
    assert sum(w["damage"] for w in fight["wounds"]) == fight["damage_taken"]


def test_shields_cap_matches_one_shield_per_hero_and_four_heroes() -> None:
    cap = fact(PACK, "attack", "max_shield_reduction")
    per_hero = fact(PACK, "attack", "shields_per_hero") * fact(PACK, "attack", "shield_reduction")
    assert cap == per_hero * fact(PACK, "adventure-sheet", "hero_rows")
    assert plain(PACK)["pack"]["players"]["max"] == fact(PACK, "adventure-sheet", "hero_rows")


def test_hero_boxes_hold_the_start_and_every_level() -> None:
    start, levels = fact(PACK, "heroes", "start"), fact(PACK, "heroes", "extra_levels")
    per_level = fact(PACK, "heroes", "per_level")
    sheet = entities(PACK)["adventure-sheet"]
    assert sheet["health_boxes"] == start["health"] + levels * per_level["health"]
    assert sheet["ability_boxes"] == start["ability_points"] + levels * per_level["ability_points"]
    assert sheet["level_boxes"] == levels


def test_every_exploration_number_but_one_has_a_connected_shape() -> None:
    by_id = entities(PACK)
    rows = {row["roll"]: row for row in fact(PACK, "exploration-table", "rows")}
    assert set(rows) == {"1", "2", "3", "4", "5", "6"}
    for roll in "23456":
        cells = [tuple(c) for c in by_id[rows[roll]["result"]]["cells"]]
        assert len(set(cells)) == len(cells)
        assert _connected(set(cells))


def _connected(cells: set[tuple[int, int]]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return seen == cells


def test_adventures_have_what_a_level_needs() -> None:
    by_id = entities(PACK)
    adventures = [by_id[a] for a in fact(PACK, "levels", "adventures")]
    assert len(adventures) >= 3
    assert [a["number"] for a in adventures] == list(range(1, len(adventures) + 1))
    before_play = keyed = 0
    for adventure in adventures:
        rows = adventure["map"]
        marks = "".join(rows)
        assert {"S", "#", "T"} <= set(marks)
        assert sorted(r["room"] for r in adventure["rooms"]) == [1, 2, 3, 4, 5, 6]
        assert any(r.get("locked") for r in adventure["rooms"])
        assert len(adventure["monsters"]) == 6 and len(adventure["chests"]) == 6
        assert adventure["boss"] in adventure["monsters"]
        assert adventure["max_turns"] >= fact(PACK, "level-end", "max_turns")
        assert adventure["scoring"] and adventure["bonus"]
        monsters = [by_id[m] for m in adventure["monsters"]]
        assert all(m["health_track"] and m["attack_track"] for m in monsters)
        before_play += any(a["when"] == "before-game" for m in monsters
                           for a in m.get("abilities", ()))
        keyed += bool(adventure.get("boss_keys")) and bool(adventure.get("unique_treasure"))
        for chest in adventure["chests"]:
            kind = by_id[chest["chest"]]
            assert bool(kind.get("trapped")) == ("trap" in chest)
            assert len(chest["boxes"]) == fact(PACK, "treasure", "box_count")
    assert before_play == len(adventures) and keyed >= 1


def test_hero_classes_and_their_abilities() -> None:
    by_id = entities(PACK)
    classes = [by_id[c] for c in fact(PACK, "levels", "classes")]
    assert len(classes) >= 6
    abilities = [by_id[a] for c in classes for a in c["abilities"]]
    assert all("cost" in a for a in abilities)
    assert any(a["cost"] == 0 for a in abilities)
    assert "crush" in by_id["guardian"]["abilities"]
    assert any("locked-door" in a.get("opens", ()) for a in abilities)
    assert any(a.get("damage_reduction") for a in abilities)
    assert fact(PACK, "levels", "new_hero_except_levels") == [4]
    assert len(fact(PACK, "levels", "adventures")) == 4  # a four-level campaign
