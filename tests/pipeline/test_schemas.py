"""Every schema is valid draft-07, documents every property, and uses x-ref only where it works."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from pipeline.schemas import CATALOGUE, REF_KEYWORD, SCHEMA_DIR

FIXTURE_SCHEMAS = Path(__file__).resolve().parent.parent / "fixtures" / "schemas"
SCHEMA_FILES = sorted(SCHEMA_DIR.rglob("*.json")) + sorted(FIXTURE_SCHEMAS.rglob("*.json"))
COMBINATORS = ("anyOf", "oneOf", "not")


def _ids(paths):
    return [str(p.relative_to(p.parents[2])) for p in paths]


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=_ids(SCHEMA_FILES))
def test_schema_is_valid_draft_07(path: Path) -> None:
    schema = json.loads(path.read_text("utf-8"))
    assert schema.get("$schema") == "http://json-schema.org/draft-07/schema#"
    Draft7Validator.check_schema(schema)


def _properties(node, where=""):
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield f"{where}.{name}", sub
        for key, sub in node.items():
            yield from _properties(sub, f"{where}/{key}")
    elif isinstance(node, list):
        for index, sub in enumerate(node):
            yield from _properties(sub, f"{where}[{index}]")


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=_ids(SCHEMA_FILES))
def test_every_property_has_a_description(path: Path) -> None:
    schema = json.loads(path.read_text("utf-8"))
    missing = [
        where
        for where, sub in _properties(schema)
        if isinstance(sub, dict) and not sub.get("description")
    ]
    assert missing == []


def _refs_under_combinators(node, inside=False):
    if isinstance(node, dict):
        if REF_KEYWORD in node and (inside or "$ref" in node):
            yield node
        for key, sub in node.items():
            yield from _refs_under_combinators(sub, inside or key in COMBINATORS)
    elif isinstance(node, list):
        for sub in node:
            yield from _refs_under_combinators(sub, inside)


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=_ids(SCHEMA_FILES))
def test_x_ref_is_never_under_a_combinator_or_beside_ref(path: Path) -> None:
    schema = json.loads(path.read_text("utf-8"))
    assert list(_refs_under_combinators(schema)) == []


def test_every_kind_schema_resolves_its_refs() -> None:
    """Compiling and running each validator resolves every $ref (unresolvable ones raise)."""
    for kind in CATALOGUE.kinds:
        errors, _ = CATALOGUE.check(f"kinds/{kind}.json", {"id": "x", "kind": kind})
        assert errors, f"an empty {kind} should not be valid"


def test_defs_accept_and_refuse_the_documented_forms() -> None:
    def ok(name, value):
        schema = {"$ref": f"relic://schemas/defs.json#/definitions/{name}"}
        return Draft7Validator(schema, registry=CATALOGUE.registry).is_valid(value)

    assert all(ok("dice", d) for d in ["d6", "3d6", "2d6+1", "1d20-2"])
    assert not any(ok("dice", d) for d in ["6", "d7", "0d6", "2x6", "d6+"])
    assert all(ok("range", r) for r in ["5", "2-3", "12+", "2-12+"])
    assert not any(ok("range", r) for r in ["2-", "+3", "a-b", "2--3"])
    assert all(ok("length", x) for x in ["63mm", "2.5in", "10pt", "1cm"])
    assert not ok("length", "63")
    assert all(ok("asset", a) for a in ["icons/skull.svg", "art/zombie.png"])
    assert not any(
        ok("asset", a)
        for a in [
            "../../etc/passwd",
            "/etc/passwd",
            "file:///etc/passwd",
            "http://example.com/x.png",
            "a/../../b.png",
        ]
    )
    assert ok("threshold", {"stat": "attention", "min": 3})
    assert not ok("threshold", {"stat": "charm", "min": 3})
