"""The trace check (pipeline/checks/trace.py) and the catacombs trace itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.checks import trace
from pipeline.loader import load_yaml
from pipeline.stages import analyze, load_model

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "content" / "fixtures"
CATACOMBS = ROOT / "content" / "catacombs"
BROKEN = "tests/content/fixtures/trace-broken"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_every_kind_of_trace_error_points_at_its_line() -> None:
    found = sorted(
        (d.code, d.span.file, d.span.line, d.span.col)
        for d in analyze(FIXTURES / "trace-broken").diagnostics
    )
    assert found == [
        ("provisional-untraced", f"{BROKEN}/monsters.yaml", 21, 19),
        ("trace-duplicate-id", f"{BROKEN}/trace-engine.yaml", 2, 9),
        ("trace-stale-provisional", f"{BROKEN}/trace.yaml", 22, 40),
        ("trace-unknown-entity", f"{BROKEN}/trace.yaml", 13, 19),
        ("trace-unknown-path", f"{BROKEN}/trace.yaml", 10, 19),
        ("trace-unknown-schema", f"{BROKEN}/trace.yaml", 16, 18),
    ]


def test_unknown_entities_get_a_suggestion() -> None:
    [diag] = [
        d
        for d in analyze(FIXTURES / "trace-broken").diagnostics
        if d.code == "trace-unknown-entity"
    ]
    assert "vampire" in (diag.hint or "")


def test_a_pack_without_a_trace_is_not_traced() -> None:
    model = load_model(FIXTURES / "kit-short")
    assert list(trace.check(model)) == []


def write_pack(root: Path, trace_text: str) -> Path:
    pack = root / "traced"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: traced\ntitle: {ru: След, en: Trace}\nlanguages: [ru, en]\n"
        "print: {components: {deck: {format: poker, template: card}}}\n",
        encoding="utf-8",
    )
    (pack / "decks.yaml").write_text(
        "- id: spells\n  kind: deck\n  name: {ru: Заклинания, en: Spells}\n"
        "  cards: card\n  type: spell\n",
        encoding="utf-8",
    )
    (pack / "trace.yaml").write_text(trace_text, encoding="utf-8")
    return pack


def test_a_trace_file_must_match_its_schema(tmp_path: Path) -> None:
    pack = write_pack(tmp_path, "sections:\n  - id: cards\n    facts: []\n")
    [diag] = analyze(pack).diagnostics
    assert diag.code.startswith("schema")
    assert (diag.span.line, diag.span.col) == (2, 5)


def test_an_engine_fact_needs_a_status(tmp_path: Path) -> None:
    text = (
        "sections:\n  - id: cards\n    title: Cards\n    facts:\n"
        "      - {id: cards.draw, text: Draw a card., engine: engine.draw}\n"
    )
    [diag] = analyze(write_pack(tmp_path, text)).diagnostics
    assert diag.code.startswith("schema")
    assert "status" in diag.message


def test_a_clean_trace_passes(tmp_path: Path) -> None:
    text = (
        "sections:\n  - id: cards\n    title: Cards\n    facts:\n"
        "      - {id: cards.spells, text: Spells exist., content: [spells.type], "
        "schema: ['kinds/deck.json#/properties/type']}\n"
        "      - {id: cards.draw, text: Draw a card., engine: engine.draw, status: planned}\n"
    )
    assert analyze(write_pack(tmp_path, text)).diagnostics == []


# ----- the catacombs trace -------------------------------------------------------------------


def test_the_catacombs_trace_is_clean() -> None:
    assert list(trace.check(load_model(CATACOMBS))) == []


def test_every_provisional_value_is_traced_with_a_reason() -> None:
    model = load_model(CATACOMBS)
    marked = set(trace.content_provisional(model))
    decisions = [d for path in sorted(CATACOMBS.glob("trace*.yaml"))
                 for d in load_yaml(path).data.get("decisions") or ()]
    listed = {p for d in decisions for p in d.get("provisional", ())}
    assert marked and marked == listed
    for decision in decisions:
        assert decision["issue"].strip() and decision["decision"].strip()
    for entity in model.entities:
        for reason in entity.provisional.values():
            assert len(reason) > 20, f"{entity.id}: a provisional reason says too little"


def test_the_trace_follows_every_section_of_the_seed() -> None:
    source = load_yaml(CATACOMBS / "trace.yaml")
    ids = [s["id"] for s in source.data["sections"]]
    for section in (
        "setup",
        "shop",
        "loan",
        "usury",
        "teams",
        "first-turn",
        "caches",
        "statues",
        "sarcophagi",
        "doors",
        "hatches",
        "crevices",
        "depth",
        "shelters",
        "levers",
        "traps",
        "zombie",
        "venomous",
        "bandit",
        "ghost",
        "demon",
        "scarab",
        "vampire",
    ):
        assert section in ids
    facts = [f for s in source.data["sections"] for f in s["facts"]]
    assert len(facts) >= 200
