"""`relic check` runs the engine's consistency checks: mutated copies of the canonical content
fail at the line of the mutation; the canonical content has no engine errors."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.diagnostics import Severity
from pipeline.stages import analyze

ROOT = Path(__file__).resolve().parents[2]
CANONICAL = ROOT / "content" / "catacombs"


def mutated(tmp_path: Path, file: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of the pack with `old` replaced by `new` in `file`; the 1-based line changed."""
    pack = tmp_path / "catacombs"
    shutil.copytree(CANONICAL, pack)
    path = pack / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {file}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return pack, line


def errors_in(pack: Path, file: str) -> list:
    result = analyze(pack)
    return [d for d in result.diagnostics if d.severity is Severity.ERROR
            and d.span.file.endswith(file)]


def test_canonical_content_has_no_engine_errors():
    result = analyze(CANONICAL)
    engine = [d for d in result.diagnostics if d.code.startswith("engine-")
              and d.severity is Severity.ERROR]
    assert engine == []


def test_monster_count_over_its_kit(tmp_path):
    pack, line = mutated(tmp_path, "monsters.yaml", '"7-8": 8}', '"7-8": 9}')
    found = [d for d in errors_in(pack, "monsters.yaml") if d.code == "engine-count-over-kit"]
    assert [d.span.line for d in found] == [line]
    assert "zombie" in found[0].message and "9 copies" in found[0].message


def test_table_with_a_gap(tmp_path):
    pack, line = mutated(tmp_path, "tables.yaml", "    - roll: 4-5\n", "    - roll: 5-5\n")
    found = errors_in(pack, "tables.yaml")
    assert found, "a gap in the treasure table must be an error"
    assert line in {d.span.line for d in found}


def test_rolls_beyond_a_closed_table(tmp_path):
    pack, _ = mutated(tmp_path, "tables.yaml", "  range: 2-12+\n", "  range: 2-12\n")
    path = pack / "tables.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("roll: 12+", "roll: \"12\""),
                    encoding="utf-8")
    found = [d for d in errors_in(pack, "tables.yaml") if d.code == "engine-table-uncovered-total"]
    assert len(found) == 1 and "13" in found[0].message
    text = path.read_text(encoding="utf-8").splitlines()
    assert "roll: \"12\"" in text[found[0].span.line - 1]


def test_threshold_no_one_can_reach(tmp_path):
    pack, line = mutated(
        tmp_path, "checks.yaml",
        "requires: [{stat: strength, min: 5}, {stat: dexterity, min: 4}]",
        "requires: [{stat: strength, min: 15}, {stat: dexterity, min: 4}]",
    )
    found = [d for d in errors_in(pack, "checks.yaml") if d.code == "engine-threshold-unreachable"]
    assert [d.span.line for d in found] == [line]
    assert "strength 15+" in found[0].message


def test_relic_check_exit_code_and_output(tmp_path, capsys):
    pack, line = mutated(tmp_path, "monsters.yaml", '"7-8": 8}', '"7-8": 9}')
    assert main(["check", str(pack)]) == 1
    out = capsys.readouterr()
    assert f"monsters.yaml:{line}:" in out.out + out.err


@pytest.mark.parametrize("players", [1, 8])
def test_smoke_run_reports_an_engine_crash(tmp_path, players, monkeypatch):
    from engine.games.catacombs import consistency, movement

    def broken(state, hero, action):
        raise RuntimeError("deliberate")

    monkeypatch.setattr(movement, "do_move", broken)
    from engine.games.catacombs import registry

    monkeypatch.setitem(registry.HANDLERS, "move", broken)
    findings = consistency.smoke_run(_data(), max_players=players)
    assert findings and all(f.code == "smoke-run-error" for f in findings)
    assert "deliberate" in findings[0].message


def _data():
    from engine.games.catacombs.data import from_plain
    from pipeline.stages import load_model

    return from_plain(load_model(CANONICAL).to_plain())


def test_too_few_tokens_for_the_icons_is_a_warning(tmp_path):
    pack = tmp_path / "catacombs"
    shutil.copytree(CANONICAL, pack)
    path = pack / "tokens.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(- id: cache-plus-\d+\n  kind: token\n  count: )\d+", r"\g<1>1", text)
    path.write_text(text, encoding="utf-8")
    result = analyze(pack)
    short = [d for d in result.diagnostics if d.code == "engine-count-short"]
    assert short and short[0].severity is Severity.WARNING
    assert short[0].span.file.endswith("tokens.yaml") and "6 'cache' icon(s)" in short[0].message
