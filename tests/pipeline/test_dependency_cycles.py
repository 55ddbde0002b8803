"""References marked `x-depends` never form a cycle (the generic check in resolve)."""

from __future__ import annotations

from pipeline.loader import load_bytes
from pipeline.resolve import check_dependency_cycles
from pipeline.schemas import CATALOGUE
from pipeline.validate import validate_files


def _checks(needs: dict[str, list[str]]) -> list:
    text = "".join(
        f"- {{id: {cid}, kind: check, name: {{ru: П}}, subject: statue, action: study, "
        f"text: {{ru: Т}}, needs: [{', '.join(targets)}]}}\n"
        for cid, targets in needs.items()
    )
    validated = validate_files([load_bytes(text.encode(), "checks.yaml")])
    assert validated.diagnostics == []
    return validated.entities


def test_the_needs_field_is_marked_as_a_dependency() -> None:
    items = CATALOGUE.kind_schema("check")["properties"]["needs"]["items"]
    assert items["x-ref"] == "check" and items["x-depends"] is True


def test_no_cycle_no_diagnostic() -> None:
    assert check_dependency_cycles(_checks({"a": ["b"], "b": ["c"], "c": [], "d": ["b"]})) == []


def test_each_cycle_is_reported_once_at_its_first_member() -> None:
    found = check_dependency_cycles(_checks(
        {"a": ["b"], "b": ["a"], "c": ["c"], "d": ["e"], "e": ["f"], "f": ["d", "a"]}))
    assert [(d.code, d.span.line) for d in found] == [
        ("dependency-cycle", 1), ("dependency-cycle", 3), ("dependency-cycle", 4)]
    assert found[0].message == "needs goes round in a cycle: a → b → a"
    assert found[1].message == "'c' needs itself"
    assert found[2].message == "needs goes round in a cycle: d → e → f → d"


def test_a_cycle_of_three_thousand_needs_no_recursion() -> None:
    n = 3000
    found = check_dependency_cycles(_checks({f"c{i}": [f"c{(i + 1) % n}"] for i in range(n)}))
    [cycle] = found
    assert cycle.message == "needs goes round in a cycle: c0 → c1 → c2 → c3 → … → c2998 → c2999 " \
        "→ c0 (3000 in all)"
