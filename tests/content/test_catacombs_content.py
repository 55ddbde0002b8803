"""The catacombs pack as a whole: clean check, playable tiles, reachable thresholds, schemas."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from pipeline.cli import main
from pipeline.model import Entity, Model
from pipeline.stages import analyze, load_model

ROOT = Path(__file__).resolve().parents[2]
CATACOMBS = ROOT / "content" / "catacombs"
SCHEMAS = ROOT / "schemas"
RULE_ICONS = {
    "monster", "cache", "looted", "trap", "stash",
    "crevice", "shelter", "statue", "door", "sarcophagus",
}  # fmt: skip


@pytest.fixture(scope="module")
def model() -> Model:
    return load_model(CATACOMBS)


# ----- a clean check -----------------------------------------------------------------------


def test_relic_check_strict_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """The acceptance command: `relic check --strict content/catacombs` exits 0, no warnings."""
    code = main(["check", "--strict", str(CATACOMBS)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.strip().endswith("0 error(s), 0 warning(s)")


def test_unused_entities_are_only_printable_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = analyze(CATACOMBS)
    assert result.model is not None
    unused = {
        result.model.by_id[d.message.split("'")[1]].kind
        for d in result.diagnostics
        if d.code == "unused-entity"
    }
    assert unused <= {"card", "item", "monster", "relationship", "tile", "token", "character"}


# ----- tiles ---------------------------------------------------------------------------------


def tiles(model: Model) -> list[Entity]:
    return [t for t in model.of_kind("tile") if t.get("layout")]


def border_floor(layout: tuple[str, ...]) -> dict[str, list[int]]:
    return {
        "north": [c for c, ch in enumerate(layout[0]) if ch == "."],
        "south": [c for c, ch in enumerate(layout[-1]) if ch == "."],
        "west": [r for r, row in enumerate(layout) if row[0] == "."],
        "east": [r for r, row in enumerate(layout) if row[-1] == "."],
    }


def test_tile_layouts_match_their_grid_and_exits(model: Model) -> None:
    for tile in tiles(model):
        layout = tile.get("layout")
        assert len(layout) == tile.get("grid.rows"), tile.id
        assert {len(row) for row in layout} == {tile.get("grid.cols")}, tile.id
        exits = {side: list(cells) for side, cells in tile.get("exits").items()}
        assert exits == border_floor(layout), tile.id


def floor_region(layout: tuple[str, ...], start: tuple[int, int]) -> set[tuple[int, int]]:
    seen, todo = {start}, [start]
    while todo:
        col, row = todo.pop()
        for c, r in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
            inside = 0 <= r < len(layout) and 0 <= c < len(layout[r])
            if inside and layout[r][c] == "." and (c, r) not in seen:
                seen.add((c, r))
                todo.append((c, r))
    return seen


def test_every_floor_cell_of_a_tile_is_connected(model: Model) -> None:
    for tile in tiles(model):
        layout = tile.get("layout")
        floor = {(c, r) for r, row in enumerate(layout) for c, ch in enumerate(row) if ch == "."}
        assert floor_region(layout, min(floor)) == floor, tile.id


def test_icons_and_open_traps_stand_on_floor(model: Model) -> None:
    for tile in tiles(model):
        layout = tile.get("layout")
        for mark in (*(tile.get("icons") or ()), *(tile.get("open_traps") or ())):
            col, row = mark["cell"]
            assert layout[row][col] == ".", f"{tile.id}: {dict(mark)} stands on rock"


def test_every_labyrinth_tile_has_an_exit_and_joins_in_the_middle(model: Model) -> None:
    for tile in model.of_kind("tile"):
        if tile.get("type") != "labyrinth":
            continue
        exits = tile.get("exits")
        assert any(exits.values()), tile.id
        assert all(list(cells) in ([], [2]) for cells in exits.values()), tile.id


def test_the_final_tile_differs_in_size_and_holds_the_artifact(model: Model) -> None:
    [final] = [t for t in model.of_kind("tile") if t.get("type") == "final"]
    [cliff] = [t for t in model.of_kind("tile") if t.get("type") == "cliff"]
    sizes = {(t.get("grid.cols"), t.get("grid.rows")) for t in tiles(model) if t is not final}
    assert (final.get("grid.cols"), final.get("grid.rows")) not in sizes
    assert "artifact" in {i["icon"] for i in final.get("icons")}
    assert cliff.get("text.ru") and cliff.get("text.en")


def test_the_tiles_use_all_ten_icons_of_the_rules(model: Model) -> None:
    used = {i["icon"] for t in model.of_kind("tile") for i in t.get("icons") or ()}
    assert used >= RULE_ICONS
    traps = {o["trap"] for t in model.of_kind("tile") for o in t.get("open_traps") or ()}
    assert traps == {t.id for t in model.of_kind("trap")}


# ----- characters against thresholds ---------------------------------------------------------


def requirement_sets(model: Model) -> Iterator[tuple[str, list[Mapping[str, Any]]]]:
    for check in model.of_kind("check"):
        if check.get("requires"):
            yield check.id, list(check.get("requires"))
        for modifier in check.get("modifiers") or ():
            if modifier.get("requires"):
                yield f"{check.id}.{modifier['id']}", list(modifier["requires"])
    for table in model.of_kind("table"):
        for modifier in table.get("modifiers") or ():
            lowest = min(step["min"] for step in modifier["steps"])  # higher steps need items
            yield f"{table.id}.{modifier['id']}", [{"stat": modifier["stat"], "min": lowest}]


def meets(character: Entity, requires: list[Mapping[str, Any]]) -> bool:
    stats = {**character.get("stats"), "health": character.get("health")}
    return all(stats[r["stat"]] >= r.get("min", 0) for r in requires)


def test_every_threshold_is_met_by_some_character(model: Model) -> None:
    characters = model.of_kind("character")
    unmet = [
        name for name, req in requirement_sets(model) if not any(meets(c, req) for c in characters)
    ]
    assert unmet == []


def test_relic_keepers_and_attitudes(model: Model) -> None:
    keepers = {c.id for c in model.of_kind("character") if c.get("relic_keeper")}
    assert keepers == {"archaeologist", "professor"}
    for character in model.of_kind("character"):
        for other, attitude in character.get("attitudes").items():
            assert model.by_id[other].get(f"attitudes.{character.id}") == attitude


# ----- schemas -------------------------------------------------------------------------------


def schema_files() -> list[Path]:
    return [*sorted((SCHEMAS / "kinds").glob("*.json")), SCHEMAS / "trace.json"]


def undescribed(node: Any, path: str = "") -> Iterator[str]:
    if isinstance(node, Mapping):
        for name, prop in (node.get("properties") or {}).items():
            if isinstance(prop, Mapping) and "description" not in prop:
                yield f"{path}/properties/{name}"
        for key, child in node.items():
            yield from undescribed(child, f"{path}/{key}")
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from undescribed(child, f"{path}/{index}")


@pytest.mark.parametrize("path", schema_files(), ids=lambda p: p.name)
def test_schemas_are_draft7_and_describe_every_property(path: Path) -> None:
    schema = json.loads(path.read_text("utf-8"))
    Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert list(undescribed(schema)) == []


# ----- what the rules name exists ------------------------------------------------------------

SEED_ITEMS = [
    "machete", "torch", "lantern", "night-vision", "drone", "dynamite", "lockpick", "key",
    "doping", "energy-drink", "rifle", "amulet-of-perfection",
]  # fmt: skip
DECK_TYPES = [
    "event", "stash", "hidden-trap", "common-item", "unique-item", "magic-item",
    "mercenary", "spell", "secret-knowledge", "intrigue", "monster",
]  # fmt: skip
TOKEN_TYPES = [
    "cache", "statue", "door", "sarcophagus", "crevice", "shelter", "lever", "ceiling-hatch",
    "floor-hatch", "looted", "first-player", "team", "health", "banknote", "treasure",
    "antidote", "seal", "bridge",
]  # fmt: skip


def test_the_items_the_rules_name_exist_with_slot_and_hands(model: Model) -> None:
    for item_id in SEED_ITEMS:
        item = model.by_id[item_id]
        assert item.kind == "item"
        assert (
            item.get("slot") and item.get("hands") is not None and item.get("backpack") is not None
        )
    assert model.by_id["antidote"].kind == "token"


@pytest.mark.parametrize("deck_type", DECK_TYPES)
def test_every_deck_the_rules_name_has_cards(model: Model, deck_type: str) -> None:
    [deck] = [d for d in model.of_kind("deck") if d.get("type") == deck_type]
    assert sum(e.count for e in model.entities if e.get("deck") == deck.id) > 0


@pytest.mark.parametrize("token_type", TOKEN_TYPES)
def test_every_token_the_rules_name_exists(model: Model, token_type: str) -> None:
    assert any(t.get("type") == token_type for t in model.of_kind("token"))


def test_tokens_show_their_hidden_side(model: Model) -> None:
    hidden = {t.get("type"): t.get("hidden") for t in model.of_kind("token") if t.get("hidden")}
    assert hidden["cache"]["bonus"] >= 1
    assert {"treasures", "hidden_passage", "snake"} <= set(hidden["statue"])
    assert {"behind", "locked"} <= set(hidden["door"])
    effects = {t.get("hidden.effect") for t in model.of_kind("token") if t.get("type") == "lever"}
    assert effects == {"door", "floor-spikes", "cutter", "hidden-passage"}
    crevices = [t for t in model.of_kind("token") if t.get("type") == "crevice"]
    assert {c.get("orientation") for c in crevices} == {"vertical", "horizontal"}
    depths = {c.get("depth") for c in crevices if c.get("orientation") == "horizontal"}
    assert depths == {"shallow", "water", "deep", "spiked"}
    marks = {}
    for t in model.of_kind("token"):
        if t.get("mark"):
            marks.setdefault(t.get("mark"), set()).add(t.get("type"))
    assert marks and all(kinds == {"ceiling-hatch", "floor-hatch"} for kinds in marks.values())


def test_the_weakening_spell_exists(model: Model) -> None:
    spell = model.by_id["weakening-spell"]
    assert spell.get("weakening") is True
    assert model.by_id[spell.get("deck")].get("type") == "spell"
