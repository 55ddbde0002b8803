"""Odds for packs without a rules engine agree with brute-force enumeration of the dice."""

from __future__ import annotations

import itertools
import json
import shutil
from fractions import Fraction

import pytest
from engine_support import ROOT

from engine.core.table_odds import pack_odds, roll_span
from pipeline import cli
from pipeline.stages import load_model


def _entities(pack: str) -> list[dict]:
    return load_model(ROOT / "content" / pack).to_plain()["entities"]


def _brute_rows(entity: dict) -> list[Fraction]:
    """Each row's chance by rolling every face, rerolled rows rolled again (conditioning)."""
    count, sides = (int(x or 1) for x in str(entity["dice"]).split("d"))
    hits = [0] * len(entity["rows"])
    kept = 0
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        total = sum(faces)
        for i, row in enumerate(entity["rows"]):
            low, high = roll_span(row["roll"])
            if total >= low and (high is None or total <= high):
                if not row.get("reroll"):
                    hits[i] += 1
                    kept += 1
                break
    return [Fraction(h, kept) for h in hits]


@pytest.mark.parametrize("pack", ["tunnels", "dice-dungeon"])
def test_table_rows_match_enumeration(pack: str) -> None:
    entities = _entities(pack)
    odds = pack_odds(entities)
    tables = [e for e in entities if e["kind"] == "table" and e.get("dice") and e.get("rows")]
    assert tables and sorted(odds["tables"]) == sorted(e["id"] for e in tables)
    for table in tables:
        got = [row["chance"] for row in odds["tables"][table["id"]]["rows"]]
        assert got == _brute_rows(table)
        assert sum(got) == 1


def test_pools_of_a_custom_die_match_enumeration() -> None:
    [die] = [e for e in _entities("haunted-house") if e["kind"] == "die"]
    pools = pack_odds([die])["dice"][die["id"]]
    for n in (1, 2, 3):
        counts: dict[int, int] = {}
        for faces in itertools.product(die["faces"], repeat=n):
            counts[sum(faces)] = counts.get(sum(faces), 0) + 1
        total = len(die["faces"]) ** n
        assert pools[n] == {t: Fraction(c, total) for t, c in sorted(counts.items())}


def test_relic_odds_answers_for_a_pack_without_an_engine(capsys, tmp_path) -> None:
    """A copy of the dice dungeon without its ruleset falls back to the table odds."""
    copy = tmp_path / "content" / "dice-dungeon"
    shutil.copytree(ROOT / "content" / "dice-dungeon", copy)
    manifest = copy / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "ruleset: dice-dungeon\n", ""), encoding="utf-8")
    assert cli.main(["odds", "--pack", "dice-dungeon", "--content", str(copy.parent)]) == 0
    text = capsys.readouterr().out
    assert "== table exploration-table (d6)" in text and "2:1/5" in text
    # The haunted house without its ruleset: its own die, by the pack's table odds.
    pack = tmp_path / "haunted-house"
    shutil.copytree(ROOT / "content" / "haunted-house", pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text("utf-8").replace("ruleset: haunted-house\n", ""),
                        "utf-8")
    assert cli.main(["odds", "--pack", "haunted-house", "--content", str(tmp_path),
                     "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    [one_die] = [r for r in found["die-house-die"]["rows"] if r["with"] == "1"]
    assert sum(Fraction(p) for p in one_die["chances"].values()) == 1
