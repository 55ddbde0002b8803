"""Seed 001 (special tunnel squares): its numbers and rules, read from the resolved model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from packdata import entities, fact, plain

PACK = "tunnels"

SEED_FACTS = [
    # Not all that glitters: one token on each of the 4 warriors, the player's choice.
    ("mortal", "warriors.0.warrior", "mortal-warrior"),
    ("mortal", "warriors.0.count", 4),
    ("all-that-glitters", "warriors", 4),
    ("all-that-glitters", "tokens_per_warrior", 1),
    ("all-that-glitters", "player_choice", True),
    ("all-that-glitters", "swaps.0", {"phase": "initiative", "between": "warriors-in-square"}),
    ("all-that-glitters", "swaps.1.phase", "movement-start"),
    ("all-that-glitters", "swaps.2.phase", "movement-end"),
    ("all-that-glitters", "on_carrier_death", "drop-hidden"),
    ("treasure-loot", "hidden_side", "loot"),
    # To freedom: the loot reaching a stash wins for the mortal player.
    ("stash", "exit_to_surface", True),
    ("to-freedom", "victory.side", "mortal"),
    ("to-freedom", "victory.carrying", "treasure-loot"),
    ("to-freedom", "victory.reaches", "stash"),
    ("to-freedom", "victory.ends_game", True),
    # Special squares.
    ("special-squares", "applies_on", "step-in"),
    ("special-squares", "capacity_per_side", 3),
    ("stash", "scenario_defined", True),
    ("hungry-tunnels", "trigger.when", "damaged"),
    ("hungry-tunnels", "damage_multiplier", 2),
    ("hungry-tunnels", "multiplier_ignores", ["grenade"]),
    ("troglodyte", "damage_taken_as", "killed"),
    ("demon", "damage_taken_as", "wound-token"),
    ("demon", "marker", "wound"),
    ("mortal-warrior", "damage_taken_as", "damage-marker"),
    ("mortal-warrior", "marker", "damage"),
    ("narrow-tunnel", "capacity_per_side", 1),
    ("flooded-tunnel", "trigger.when", "enter"),
    ("flooded-tunnel", "ends_movement", True),
    ("flooded-tunnel", "leave_cost", "all-mov"),
    ("booby-trapped-tunnel", "trigger", {"when": "first-entry", "who": "mortal"}),
    ("booby-trapped-tunnel", "roll", "booby-trap-table"),
    ("booby-trapped-tunnel", "roller", "demon-player"),
    ("booby-trap-table", "dice", "d6"),
    ("booby-trap-table", "rows.0.roll", "1"),
    ("booby-trap-table", "rows.0.effect", "none"),
    ("booby-trap-table", "rows.1.roll", "2-3"),
    ("booby-trap-table", "rows.1.effect", "damage"),
    ("booby-trap-table", "rows.1.amount", 1),
    ("booby-trap-table", "rows.2.roll", "4"),
    ("booby-trap-table", "rows.2.effect", "end-movement"),
    ("booby-trap-table", "rows.3.roll", "5"),
    ("booby-trap-table", "rows.3.warrior", "troglodyte"),
    ("booby-trap-table", "rows.4.roll", "6"),
    ("booby-trap-table", "rows.4.amount", 2),
    ("demonic-mechanism", "trigger", {"when": "first-entry", "who": "mortal"}),
    (
        "demonic-mechanism",
        "extra_dice",
        {"die": "fate-die", "count": 1, "phase": "threat", "side": "demon-player"},
    ),
    ("pentagram-room", "capacity_per_side", 5),
    ("exit", "capacity_per_side", 5),
    ("lair", "may_place", {"warrior": "troglodyte", "side": "demon-player"}),
]


@pytest.mark.parametrize(("entity_id", "dotted", "expected"), SEED_FACTS)
def test_seed_fact(entity_id: str, dotted: str, expected: object) -> None:
    assert fact(PACK, entity_id, dotted) == expected


def test_the_seed_names_nine_special_squares() -> None:
    squares = {e["id"] for e in plain(PACK)["entities"] if e["kind"] == "square"} - {"tunnel"}
    assert squares == {
        "stash",
        "hungry-tunnels",
        "narrow-tunnel",
        "flooded-tunnel",
        "booby-trapped-tunnel",
        "demonic-mechanism",
        "pentagram-room",
        "exit",
        "lair",
    }
    assert set(fact(PACK, "special-squares", "squares")) == squares


def test_one_loot_token_per_squad_and_one_token_per_warrior() -> None:
    by_id = entities(PACK)
    treasure = [e for e in by_id.values() if e["kind"] == "marker" and "hidden_side" in e]
    assert sum(e["count"] for e in treasure if e["hidden_side"] == "loot") == 1
    assert sum(e["count"] for e in treasure) == 4 * fact(
        PACK, "all-that-glitters", "tokens_per_warrior"
    )


def test_capacities_other_than_three_are_the_seeds_exceptions() -> None:
    capacities = {
        e["id"]: e["capacity_per_side"]
        for e in plain(PACK)["entities"]
        if e["kind"] == "square" and "capacity_per_side" in e
    }
    assert capacities == {"narrow-tunnel": 1, "pentagram-room": 5, "exit": 5}


def test_booby_trap_damage_only_on_the_damage_rows() -> None:
    rows = fact(PACK, "booby-trap-table", "rows")
    assert [r.get("amount") for r in rows] == [None, 1, None, None, 2]


# The base game the seed leaves out: every designed value is marked provisional with a reason.
DESIGNED = {
    "vault-board": "", "warrens-board": "", "tunnel": "", "sergeant": "", "scout": "",
    "strongman": "", "sapper": "", "initiative-phase": "", "movement-phase": "",
    "threat-phase": "", "demon-banished": "", "squad-lost": "", "time-runs-out": "",
    "round-marker": "", "plain-die": "",
    "troglodyte": ["count", "mov", "attack"],
    "demon": ["mov", "attack", "wounds"],
    "grenade": ["count", "throw"],
    "fate-die": ["count", "sides", "symbols"],
    "wound": ["count"], "damage": ["count"], "treasure-decoy": ["count"],
    "mortal": ["cards"],
    "all-that-glitters": ["victory", "scenario"],
    "to-freedom": ["scenario"],
    "player-aid": ["count"],
}


@pytest.mark.parametrize("entity_id", sorted(DESIGNED))
def test_every_designed_value_is_provisional(entity_id: str) -> None:
    marks = entities(PACK)[entity_id].get("provisional")
    assert marks, f"{entity_id} carries no provisional reason"
    fields = DESIGNED[entity_id]
    if fields == "":
        assert isinstance(marks, str) and marks
    else:
        assert isinstance(marks, dict) and set(fields) <= set(marks)


RULES = Path(__file__).resolve().parents[2] / "content" / PACK / "rules"
CHAPTERS = sorted(RULES.glob("*/*.md"))


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_rulebook_prose_types_no_number(chapter: Path) -> None:
    """Every number of the rules comes from a data reference (list numbering aside)."""
    for number, line in enumerate(chapter.read_text(encoding="utf-8").splitlines(), 1):
        prose = re.sub(r"\{\{.*?\}\}", "", line)
        prose = re.sub(r"^\s*\d+\.\s", "", prose)
        prose = re.sub(r"\{#[a-z0-9-]+\}", "", prose)
        assert not re.search(r"\d", prose), f"{chapter.name}:{number}: {line}"


def test_both_languages_have_the_same_chapters_and_sections() -> None:
    def sections(lang: str) -> list[tuple[str, list[str]]]:
        return [(p.name, re.findall(r"\{#([a-z0-9-]+)\}", p.read_text(encoding="utf-8")))
                for p in sorted((RULES / lang).glob("*.md"))]

    assert sections("ru") == sections("en")
