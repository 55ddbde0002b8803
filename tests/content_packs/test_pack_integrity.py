"""Every rule-system pack passes `relic check --strict`, keeps its own schemas clean and traces
every seed fact and provisional value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator
from packdata import CONTENT, MISSING, PACKS, ROOT, entities, lookup

from engine.core import registry
from pipeline import cli
from pipeline.cards.faces.spec import find as find_layout
from pipeline.loader import load_yaml
from pipeline.schemas import CATALOGUE, REF_KEYWORD, SCHEMA_DIR

PROJECT_KINDS = {p.stem for p in (SCHEMA_DIR / "kinds").glob("*.json")}
PACK_SCHEMAS = sorted(p for pack in PACKS for p in (CONTENT / pack / "schemas").rglob("*.json"))
LOCAL_TABLES = [p for p in PACK_SCHEMAS if p.name == "table.json"]
COMBINATORS = ("anyOf", "oneOf", "not")
# Names of people and products that appear in the seeds and must not be carried over.
FOREIGN_NAMES = ("Дженни", "ЛеКлерк", "Jenny", "LeClerc", "Рыцарь Ужаса", "Knight of Terror")


def _schema_id(path: Path) -> str:
    return str(path.relative_to(CONTENT))


def _trace(pack: str) -> dict:
    merged: dict = {"sections": [], "decisions": []}
    for path in sorted((CONTENT / pack).glob("trace*.yaml")):
        data = load_yaml(path).data
        if data.get("seed"):
            merged.setdefault("seed", data["seed"])
        merged["sections"] += data.get("sections", [])
        merged["decisions"] += data.get("decisions", [])
    return merged


def _content_paths(trace: dict) -> list[str]:
    paths = [p for d in trace["decisions"] for p in d.get("content", [])]
    for section in trace["sections"]:
        paths += [p for f in section["facts"] for p in f.get("content", [])]
    return paths


def _resolves(pack: str, path: str) -> bool:
    entity_id, _, dotted = path.partition(".")
    found = entities(pack).get(entity_id)
    return found is not None and (not dotted or lookup(found, dotted) is not MISSING)


@pytest.mark.parametrize("pack", PACKS)
def test_strict_check_passes(pack: str, capsys) -> None:
    code = cli.main(["check", "--strict", str(CONTENT / pack)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.strip().endswith("0 error(s), 0 warning(s)")


@pytest.mark.parametrize("pack", PACKS)
def test_manifest_names_its_seed_and_a_registered_ruleset_if_any(pack: str) -> None:
    manifest = load_yaml(CONTENT / pack / "pack.yaml").data
    assert manifest["id"] == pack
    assert manifest["languages"] == ["ru", "en"]
    assert manifest.get("ruleset", pack) == pack
    if "ruleset" in manifest:
        assert registry.load(pack).name == pack
    assert manifest["seed"] == _trace(pack)["seed"]
    assert manifest["print"]["components"], "a pack prints at least one kind"


@pytest.mark.parametrize("path", PACK_SCHEMAS, ids=[_schema_id(p) for p in PACK_SCHEMAS])
def test_pack_schema_follows_the_conventions(path: Path) -> None:
    schema = json.loads(path.read_text("utf-8"))
    Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["$id"] == f"relic://schemas/kinds/{path.stem}.json"
    assert schema["properties"]["kind"]["const"] == path.stem
    assert schema["additionalProperties"] is False
    assert {"id", "kind"} <= set(schema["required"])
    undocumented, misplaced = [], []

    def walk(node, inside: bool, where: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if not sub.get("description"):
                    undocumented.append(f"{where}.{name}")
            if REF_KEYWORD in node and (inside or "$ref" in node):
                misplaced.append(where)
            for key, sub in node.items():
                walk(sub, inside or key in COMBINATORS, f"{where}/{key}")
        elif isinstance(node, list):
            for sub in node:
                walk(sub, inside, where)

    walk(schema, False, "")
    assert undocumented == []
    assert misplaced == []


@pytest.mark.parametrize("pack", PACKS)
def test_only_the_roll_table_overrides_a_project_kind(pack: str) -> None:
    local = {p.stem for p in (CONTENT / pack / "schemas" / "kinds").glob("*.json")}
    assert local & PROJECT_KINDS <= {"table"}


@pytest.mark.parametrize("path", LOCAL_TABLES, ids=[_schema_id(p) for p in LOCAL_TABLES])
def test_roll_tables_keep_the_project_conventions(path: Path) -> None:
    """The generic coverage check reads dice, range and rows[].roll: they must mean the same."""
    local = json.loads(path.read_text("utf-8"))["properties"]
    project = json.loads((SCHEMA_DIR / "kinds" / "table.json").read_text("utf-8"))["properties"]
    for name in ("id", "kind", "count", "provisional", "name", "dice", "range"):
        assert local[name] == project[name]
    local_row, project_row = local["rows"]["items"], project["rows"]["items"]
    assert local_row["properties"]["roll"] == project_row["properties"]["roll"]
    assert local_row["required"] == ["roll"]


@pytest.mark.parametrize("pack", PACKS)
def test_trace_matches_the_trace_schema(pack: str) -> None:
    schema = json.loads((SCHEMA_DIR / "trace.json").read_text("utf-8"))
    for path in sorted((CONTENT / pack).glob("trace*.yaml")):
        errors = [e.message for e in Draft7Validator(schema).iter_errors(load_yaml(path).data)]
        assert errors == [], path.name


@pytest.mark.parametrize("pack", PACKS)
def test_trace_ids_are_unique(pack: str) -> None:
    trace = _trace(pack)
    ids = [s["id"] for s in trace["sections"]] + [d["id"] for d in trace["decisions"]]
    ids += [f["id"] for s in trace["sections"] for f in s["facts"]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("pack", PACKS)
def test_trace_points_at_real_content(pack: str) -> None:
    dangling = [p for p in _content_paths(_trace(pack)) if not _resolves(pack, p)]
    assert dangling == []


@pytest.mark.parametrize("pack", PACKS)
def test_trace_schema_paths_exist(pack: str) -> None:
    trace = _trace(pack)
    paths = [p for s in trace["sections"] for f in s["facts"] for p in f.get("schema", [])]
    paths += [p for d in trace["decisions"] for p in d.get("schema", [])]
    roots = (CONTENT / pack / "schemas", SCHEMA_DIR)
    missing = [p for p in paths if not any((r / p.split("#")[0]).exists() for r in roots)]
    assert missing == []


@pytest.mark.parametrize("pack", PACKS)
def test_every_provisional_value_is_a_traced_decision(pack: str) -> None:
    marked = set()
    for e in entities(pack).values():
        raw = e.get("provisional")
        if isinstance(raw, str):
            marked.add(e["id"])
        elif raw:
            marked |= {f"{e['id']}.{dotted}" for dotted in raw}
    traced = {p for d in _trace(pack)["decisions"] for p in d.get("provisional", [])}
    assert marked == traced


@pytest.mark.parametrize("pack", PACKS)
def test_no_names_from_published_games(pack: str) -> None:
    for path in sorted((CONTENT / pack).rglob("*")):
        if path.is_file():
            body = path.read_text("utf-8")
            assert not [n for n in FOREIGN_NAMES if n in body], path.relative_to(ROOT)


@pytest.mark.parametrize("pack", PACKS)
def test_the_packs_kinds_come_from_the_pack_alone(pack: str) -> None:
    """The loader knows these kinds only through the pack's own schemas folder."""
    used = {e["kind"] for e in entities(pack).values()}
    local = {p.stem for p in (CONTENT / pack / "schemas" / "kinds").glob("*.json")}
    assert used <= local
    assert not (used - {"table"}) & set(CATALOGUE.kinds)


def _formats(pack: str) -> set[str]:
    names: set[str] = set()
    for path in (
        ROOT / "templates" / "print" / "formats.yaml",
        CONTENT / pack / "print" / "formats.yaml",
    ):
        if path.exists():
            names |= set(load_yaml(path).data["formats"])
    return names


@pytest.mark.parametrize("pack", PACKS)
def test_print_profile_names_real_formats_and_templates(pack: str) -> None:
    profile = load_yaml(CONTENT / pack / "pack.yaml").data["print"]
    schema = {"$ref": "relic://schemas/print/profile.json"}
    validator = Draft7Validator(schema, registry=CATALOGUE.registry)
    assert [e.message for e in validator.iter_errors(profile)] == []
    for spec in profile["components"].values():
        assert spec["format"] in _formats(pack)
        assert find_layout(spec["template"], CONTENT / pack) is not None
        backs = [spec.get("back")] + [v.get("back") for v in spec.get("variants", [])]
        assert all(find_layout(f"backs/{b}", CONTENT / pack) for b in backs if b)


def test_every_treasure_token_prints_its_hidden_side() -> None:
    treasure = [e for e in entities("tunnels").values() if "hidden_side" in e]
    assert treasure and all(e["hidden"]["text"]["en"] for e in treasure)
    fronts = {(e["name"]["en"], e["text"]["en"]) for e in treasure}
    assert len(fronts) == 1, "the loot must not be told apart from the decoys by its front"


@pytest.mark.parametrize("pack", PACKS)
def test_every_entity_is_traced_to_the_seed_or_a_decision(pack: str) -> None:
    trace = _trace(pack)
    paths = _content_paths(trace) + [
        p for d in trace["decisions"] for p in d.get("provisional", [])
    ]
    traced = {p.split(".")[0] for p in paths}
    assert sorted(set(entities(pack)) - traced) == []
