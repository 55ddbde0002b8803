"""The catacombs' component counts (engine/games/catacombs/counts.py), through `relic check`:
each mutation of a copy of the canonical content gives exactly one diagnostic, at its line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from engine.games.catacombs.counts import deck_sizes, starting_cards
from engine.games.catacombs.data import from_plain
from pipeline.stages import analyze, load_model

ROOT = Path(__file__).resolve().parents[2]
CANONICAL = ROOT / "content" / "catacombs"


def mutated(tmp_path: Path, file: str, old: str, new: str, regex: bool = False
            ) -> tuple[Path, int]:
    """A copy of the pack with `old` replaced by `new` once in `file`; the line changed."""
    pack = tmp_path / "catacombs"
    shutil.copytree(CANONICAL, pack)
    path = pack / file
    text = path.read_text(encoding="utf-8")
    found = re.search(old if regex else re.escape(old), text)
    assert found and len(re.findall(old if regex else re.escape(old), text)) == 1, old
    line = text[: found.start()].count("\n") + 1
    path.write_text(text[: found.start()] + found.expand(new) + text[found.end():],
                    encoding="utf-8")
    return pack, line


def findings(pack: Path) -> list[tuple[str, str, int]]:
    """Every diagnostic as (code, file name, line), warnings included."""
    return [(d.code, Path(d.span.file).name, d.span.line) for d in analyze(pack).diagnostics]


def test_the_canonical_components_suffice():
    assert findings(CANONICAL) == []


def test_a_monster_count_over_its_kit_gives_exactly_one_diagnostic(tmp_path):
    pack, line = mutated(tmp_path, "monsters.yaml", '"7-8": 8}', '"7-8": 9}')
    assert findings(pack) == [("engine-count-over-kit", "monsters.yaml", line)]


def test_a_kit_larger_than_the_printed_copies(tmp_path):
    pack, _ = mutated(tmp_path, "monsters.yaml", r"(- id: zombie\n(?:.*\n)*?  kit: )8",
                      r"\g<1>40", regex=True)
    zombie_kit = [d for d in analyze(pack).diagnostics if d.code == "engine-kit-exceeds-count"]
    assert len(zombie_kit) == 1 and "40 in the box" in zombie_kit[0].message


def test_species_must_add_up_to_the_kit(tmp_path):
    pack, _ = mutated(tmp_path, "monsters.yaml", r"(species:\n(?:.*\n)*?      kit: )3",
                      r"\g<1>4", regex=True)
    assert [code for code, _, _ in findings(pack)] == ["engine-species-kit-mismatch"]


def test_a_monster_below_its_minimum_players(tmp_path):
    pack, line = mutated(tmp_path, "monsters.yaml", 'by_players: {"1-3": 0, "4-8": 1}',
                         'by_players: {"1-3": 1, "4-8": 1}')
    assert findings(pack) == [("engine-count-below-min-players", "monsters.yaml", line)]


def test_a_shop_deck_too_small_for_eight_players(tmp_path):
    pack, _ = mutated(tmp_path, "rules.yaml", "  common_per_character: 3\n",
                         "  common_per_character: 30\n")
    [diag] = analyze(pack).diagnostics
    assert diag.code == "engine-deck-too-small"
    assert "8 players need 240" in diag.message and "taken by starting characters" in diag.message


def test_the_shop_fits_eight_players():
    data = from_plain(load_model(CANONICAL).to_plain())
    sizes, taken = deck_sizes(data), starting_cards(data)
    assert sizes["common-item-deck"] - taken["common-item-deck"] >= 3 * 8
    assert sizes["magic-item-deck"] - taken["magic-item-deck"] >= 2 * 8
    assert sizes["unique-item-deck"] > 0 and sizes["mercenary-deck"] > 0
    assert len(data.titles) == 8 * 7 // 2 == 28


def test_a_missing_relationship_title(tmp_path):
    pack, _ = mutated(tmp_path, "relationships.yaml",
                      r"- id: oligarch-journalist\n(?:  .*\n)+", "", regex=True)
    engine = [(code, file) for code, file, _ in findings(pack) if code.startswith("engine-")]
    assert engine == [("engine-relationship-missing", "characters.yaml")]


def test_a_title_starting_where_no_board_says(tmp_path):
    pack, line = mutated(tmp_path, "relationships.yaml",
                         r"(- id: oligarch-archaeologist\n(?:  .*\n)*?  start: )antipathy",
                         r"\g<1>sympathy", regex=True)
    assert findings(pack) == [("engine-relationship-start", "relationships.yaml", line + 5)]


def test_an_attitude_towards_a_stranger(tmp_path):
    pack, line = mutated(tmp_path, "characters.yaml",
                         "  attitudes:\n    archaeologist: antipathy\n",
                         "  attitudes:\n    zz: neutral\n    archaeologist: antipathy\n")
    assert findings(pack) == [("engine-attitude-unknown-character", "characters.yaml", line + 1)]


def test_a_missing_attitude(tmp_path):
    pack, line = mutated(tmp_path, "characters.yaml",
                         "  attitudes:\n    archaeologist: antipathy\n", "  attitudes:\n")
    assert ("engine-attitude-missing", "characters.yaml", line + 1) in findings(pack)


def test_too_few_looted_tokens_for_the_icons_is_a_warning(tmp_path):
    pack, line = mutated(tmp_path, "tokens.yaml", r"(- id: looted\n  kind: token\n  count: )6",
                         r"\g<1>2", regex=True)
    [diag] = analyze(pack).diagnostics
    assert (diag.code, diag.severity.value, diag.span.line) == ("engine-count-short", "warning",
                                                                line + 2)
    assert "3 'looted' icon(s)" in diag.message and "the last ones stay empty" in diag.message


@pytest.mark.parametrize(("pool", "pattern"), [
    ("banknote", r"(- id: banknote\n  kind: token\n  count: )\d+"),
    ("blue team markers", r"(- id: team-blue\n  kind: token\n  count: )\d+"),
])
def test_token_pools_cover_the_starting_kits(tmp_path, pool, pattern):
    pack, line = mutated(tmp_path, "tokens.yaml", pattern, r"\g<1>1", regex=True)
    [diag] = analyze(pack).diagnostics
    assert diag.code == "engine-pool-short" and pool in diag.message
    assert diag.span.line == line + 2
