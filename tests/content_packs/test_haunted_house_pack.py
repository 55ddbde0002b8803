"""Seed 004 (the haunted house): its numbers and rules, read from the resolved model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from packdata import entities, fact, plain

PACK = "haunted-house"

SEED_FACTS = [
    # Item tokens.
    ("item-token", "scenario_defined", True),
    ("item-token", "transferable", True),
    ("item-token", "droppable", True),
    ("item-token", "stealable", True),
    # Weapons.
    ("weapons", "items", ["axe", "blood-dagger", "revolver", "spear", "sacrificial-dagger"]),
    ("weapons", "for_defence", False),
    ("weapons", "weapons_per_attack", 1),
    ("weapons", "carry_limit", None),
    ("weapons", "weapon_required", False),
    ("axe", "attack_only", True),
    ("revolver", "ranged", True),
    # Companions and precedence.
    ("companions", "items", ["dog", "girl", "madman"]),
    ("dog", "has_traits", False),
    ("girl", "follows_owner", True),
    ("madman", "has_traits", False),
    ("card-precedence", "precedence", "card-over-rulebook"),
    # Dice.
    ("dice-rolls", "rolls_per_turn", None),
    ("dice-rolls", "same_check_per_turn", 1),
    ("dice-rolls", "result", "pip-sum"),
    # Damage.
    ("physical-damage", "lowers", ["might", "speed"]),
    ("physical-damage", "dice_per_damage", 1),
    ("mental-damage", "lowers", ["sanity", "knowledge"]),
    ("mental-damage", "dice_per_damage", 1),
    ("might", "group", "physical"),
    ("speed", "group", "physical"),
    ("knowledge", "group", "mental"),
    ("sanity", "group", "mental"),
    # Trait rolls and tasks.
    ("trait-roll", "dice_equal_trait", True),
    ("trait-roll", "target_from", "check-description"),
    ("trait-roll", "attack_is_trait_roll", False),
    ("trait-roll-example", "trait", "sanity"),
    ("trait-roll-example", "value", 4),
    ("trait-roll-example", "dice", 4),
    ("tasks", "task_rolls_per_turn", 1),
    # Attack.
    ("attack", "after_scenario_start", True),
    ("attack", "attacks_per_turn", 1),
    ("attack", "reach", "same-room"),
    ("attack", "trait", "might"),
    ("attack", "defender_same_trait", True),
    ("attack", "damage", "difference"),
    ("attack", "tie", "no-damage"),
    ("attack", "needs_trait", True),
    ("attack", "alternatives", ["steal"]),
    ("attack", "scenario_action_same_turn", True),
    ("attack-example", "roll", 6),
    ("attack-example", "opponent_roll", 5),
    ("attack-example", "damage", 1),
    ("attack-example", "damage_type", "physical"),
    ("stunned", "defeated_monster", "stunned"),
    ("stunned", "stunned_defends", True),
    ("stunned", "stunned_deals_damage", False),
    ("stunned", "stunned_attackable", True),
    # Special attacks.
    ("ranged-attack", "reach", "line-of-fire"),
    ("ranged-attack", "line_of_fire", "straight-through-open-doorways"),
    ("ranged-attack", "loser_damaged", False),
    ("ranged-attack", "monsters_may_use", True),
    ("steal", "min_damage", 2),
    ("steal", "damage_type", "physical"),
    ("steal", "items_taken", 1),
    ("steal", "only_transferable", True),
    ("steal", "not_ranged", True),
    # The fight example.
    ("combat-example", "trait", "might"),
    ("combat-example", "value", 4),
    ("combat-example", "dice", 4),
    ("combat-example", "roll", 5),
    ("combat-example", "opponent_roll", 8),
    ("combat-example", "damage", 3),
    ("combat-example", "damage_type", "physical"),
    ("combat-example", "losses.0", {"trait": "might", "amount": 2, "after": 3}),
    ("combat-example", "losses.1", {"trait": "speed", "amount": 1, "after": 4}),
    # The vault: the same check is tried once a turn.
    ("vault-example", "room", "vault"),
    ("vault-example", "tries_per_turn", 1),
]


@pytest.mark.parametrize(("entity_id", "dotted", "expected"), SEED_FACTS)
def test_seed_fact(entity_id: str, dotted: str, expected: object) -> None:
    assert fact(PACK, entity_id, dotted) == expected


def _of_kind(kind: str) -> list[dict]:
    return [e for e in plain(PACK)["entities"] if e["kind"] == kind]


def test_the_die_shows_zero_one_or_two_pips() -> None:
    assert set(fact(PACK, "house-die", "faces")) == {0, 1, 2}


def test_weapons_and_companions_match_their_categories() -> None:
    items = _of_kind("house-item")
    weapons = {e["id"] for e in items if e["category"] == "weapon"}
    companions = {e["id"] for e in items if e["category"] == "companion"}
    assert weapons == set(fact(PACK, "weapons", "items"))
    assert companions == set(fact(PACK, "companions", "items"))
    assert all(e.get("attack_only") for e in items if e["category"] == "weapon")
    assert [e["id"] for e in items if e.get("ranged")] == fact(PACK, "ranged-attack", "items")


def test_damage_lowers_the_traits_of_its_own_group() -> None:
    by_id = entities(PACK)
    for rule in ("physical-damage", "mental-damage"):
        group = by_id[rule]["damage_type"]
        assert {by_id[t]["group"] for t in by_id[rule]["lowers"]} == {group}
    assert len(_of_kind("trait")) == 4


def test_attack_examples_follow_the_difference_rule() -> None:
    by_id = entities(PACK)
    for example_id in ("attack-example", "combat-example"):
        ex = by_id[example_id]
        margin = ex["roll"] - ex["opponent_roll"]
        assert ex["winner"] == ("attacker" if margin > 0 else "defender")
        assert ex["damage"] == abs(margin)
        assert ex["damage_type"] == by_id[ex["trait"]]["group"]


def test_fight_example_splits_the_damage_over_physical_traits() -> None:
    by_id = entities(PACK)
    ex = by_id["combat-example"]
    assert ex["dice"] == ex["value"]
    assert sum(loss["amount"] for loss in ex["losses"]) == ex["damage"]
    assert {loss["trait"] for loss in ex["losses"]} <= set(fact(PACK, "physical-damage", "lowers"))


def test_trait_roll_example_rolls_the_trait_value() -> None:
    assert fact(PACK, "trait-roll-example", "dice") == fact(PACK, "trait-roll-example", "value")


def test_explorers_have_four_tracks_of_eight_marks_over_a_death_mark() -> None:
    explorers = _of_kind("explorer")
    assert len(explorers) >= plain(PACK)["pack"]["players"]["max"]
    for e in explorers:
        assert set(e["traits"]) == {t["id"] for t in _of_kind("trait")}
        for track in e["traits"].values():
            assert len(track["track"]) == 8 and track["track"] == sorted(track["track"])
            assert 1 <= track["start"] <= 8


def test_the_fight_example_reads_off_its_explorer_s_tracks() -> None:
    ex = entities(PACK)["combat-example"]
    tracks = entities(PACK)[ex["explorer"]]["traits"]
    might = tracks["might"]
    assert might["track"][might["start"] - 1] == ex["value"]
    for loss in ex["losses"]:
        t = tracks[loss["trait"]]
        assert t["track"][t["start"] - 1 - loss["amount"]] == loss["after"]


def test_the_house_has_three_floors_each_with_a_landing_and_tiles() -> None:
    rooms = _of_kind("room")
    for floor in ("ground", "upper", "basement"):
        assert len([r for r in rooms if r.get("start") == floor]) == 1
        assert any(floor in r["floors"] and not r.get("start") for r in rooms)
    assert all(r["doorways"] for r in rooms)
    vault = entities(PACK)["vault"]
    assert vault["effect"]["when"] == "action"


def test_scenarios_have_monsters_missing_traits_and_omens_that_wake_them() -> None:
    scenarios = _of_kind("scenario")
    assert len(scenarios) >= 2
    monsters = entities(PACK)
    missing = [set(monsters[s["monster"]]["traits"]) ^ {"might", "speed", "knowledge", "sanity"}
               for s in scenarios]
    assert all(missing)
    omen_scenarios = {o["scenario"] for o in _of_kind("omen")}
    assert omen_scenarios == {s["id"] for s in scenarios}
    for s in scenarios:
        for side in s["sides"].values():
            assert side["task"]["traits"] and side["wins"]


# ----- the rulebook -----------------------------------------------------------------------------

RULES = Path(__file__).resolve().parents[2] / "content" / PACK / "rules"
REF = re.compile(r"\{\{.*?\}\}|\{#[a-z0-9-]+\}")
LIST_MARK = re.compile(r"^\s*\d+\.\s")
SECTION = re.compile(r"\{#([a-z0-9-]+)\}")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_number_is_typed_in_the_rulebook(lang: str) -> None:
    """Every number of the rules comes from a data reference (list numbering aside)."""
    for path in sorted((RULES / lang).glob("*.md")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            bare = LIST_MARK.sub("", REF.sub("", line))
            assert not re.search(r"\d", bare), f"{path.name}:{n}: a typed number: {line!r}"


def test_the_translation_has_every_chapter_and_section() -> None:
    def sections(lang: str) -> dict[str, list[str]]:
        return {p.name: SECTION.findall(p.read_text(encoding="utf-8"))
                for p in sorted((RULES / lang).glob("*.md"))}

    assert sections("en") == sections("ru")


def test_the_rulebook_prints_every_provisional_rule_where_players_read_it() -> None:
    """Each pack rule of our own design is cited by the chapter that explains it."""
    text = " ".join(p.read_text(encoding="utf-8") for p in (RULES / "ru").glob("*.md"))
    for decision in ("setup-rule", "turn-rule", "exploration-rule", "dread-rule", "death-rule",
                     "monster-turn-rule", "handling-rule", "gain-rule", "die-faces", "die-count",
                     "weapon-effects", "companion-effects", "scenarios", "house-tiles",
                     "explorers", "omens", "monsters", "events", "vault"):
        assert f'decision("{decision}")' in text, decision
