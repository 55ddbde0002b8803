"""`relic odds` agrees with brute-force enumeration of every die face."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction

from engine_support import canonical_plain

from engine.games.catacombs.data import from_plain
from engine.games.catacombs.odds import all_odds

PLAIN = canonical_plain()
RAW = {e["id"]: e for e in PLAIN["entities"]}
ODDS = all_odds(from_plain(PLAIN))
FACES = range(1, 7)


def F(text: str) -> Fraction:
    return Fraction(text)


def raw_step(table: dict, effect: str, label: str) -> dict | None:
    match = re.search(r" (\d+)(?:-\d+|\+)$", label)
    if match is None:
        return None
    low = int(match.group(1))
    mod = next(m for m in table["modifiers"] if m["effect"] == effect)
    return next(s for s in mod["steps"] if s["min"] == low)


def row_of(table: dict, total: int) -> str:
    for row in table["rows"]:
        roll = row["roll"]
        if roll.endswith("+"):
            if total >= int(roll[:-1]):
                return roll
            continue
        low, _, high = roll.partition("-")
        if int(low) <= total <= int(high or low):
            return roll
    low = int(table["rows"][0]["roll"].split("-")[0].rstrip("+"))
    return row_of(table, low) if total < low else "none"


def test_treasure_table_rows_match_enumeration():
    table = RAW["treasure-table"]
    rows = ODDS["tables"]["treasure-table"]["rows"]
    assert rows
    for entry in rows:
        add_step = raw_step(table, "add-to-roll", entry["attention"])
        luck_step = raw_step(table, "jackpot", entry["luck"])
        add = add_step["add"] if add_step else 0
        jackpot = set(luck_step["success"]) if luck_step else set()
        counts: dict[str, int] = {r["roll"]: 0 for r in table["rows"]}
        for luck_die, die in itertools.product(FACES, FACES):
            if luck_die in jackpot:
                counts[table["rows"][-1]["roll"]] += 1
            else:
                counts[row_of(table, die + entry["bonus"] + add)] += 1
        for roll, n in counts.items():
            assert F(entry["rows"][roll]) == Fraction(n, 36), (entry, roll)


def test_sarcophagus_reroll_matches_enumeration():
    table = RAW["sarcophagus-table"]
    outcome = {}
    for row in table["rows"]:
        low, _, high = row["roll"].partition("-")
        for f in range(int(low), int(high or low) + 1):
            outcome[f] = row["outcome"]
    order = ["treasure", "empty", "monster"]
    plain_counts = {k: sum(1 for f in FACES if outcome[f] == k) for k in order}
    reroll = {k: 0 for k in order}
    for a, b in itertools.product(FACES, FACES):
        keep = outcome[a] if outcome[a] == "treasure" else min(outcome[a], outcome[b],
                                                               key=order.index)
        reroll[keep] += 1
    rows = ODDS["tables"]["sarcophagus-table"]["outcomes"]
    base, lucky = [r for r in rows if "seal" not in r["luck"]]
    sealed = [r for r in rows if "seal" in r["luck"]]
    for plain_row, seal_row in zip((base, lucky), sealed, strict=True):
        assert seal_row["outcomes"]["sealed"] == plain_row["outcomes"]["monster"]
        assert "monster" not in seal_row["outcomes"]
    for k in order:
        assert F(base["outcomes"].get(k, "0")) == Fraction(plain_counts[k], 6)
        assert F(lucky["outcomes"].get(k, "0")) == Fraction(reroll[k], 36)


def test_check_success_matches_enumeration():
    checked = 0
    for cid, rows in ODDS["checks"].items():
        raw = RAW[cid]
        if raw.get("roll", {}).get("parity"):
            continue
        mods = {m["id"]: m for m in raw.get("modifiers", [])}
        for row in rows:
            active = [] if row["with"] == "base" else [mods[m] for m in row["with"].split("+")]
            faces = set(raw["roll"].get("success", []))
            add = 0
            for m in active:
                faces = set(m.get("success", faces))
                add += m.get("add", 0)
            if "success" in row:
                hits = sum(1 for f in FACES if min(f + add, 6) in faces)
                assert F(row["success"]) == Fraction(hits, 6), (cid, row)
                checked += 1
    assert checked >= 10


def test_crevice_jump_per_character_matches_enumeration():
    jump = RAW["crevice-jump"]
    for row in ODDS["crevice_jump"]:
        stats = RAW[row["character"]]["stats"]
        length = stats["speed"]
        faces: set[int] = set()
        for m in jump["modifiers"]:
            if all(stats.get(t["stat"], 0) >= t["min"] for t in m.get("requires", [])):
                length += m.get("cells", 0)
                faces = set(m.get("success", faces))
        for key, value in row.items():
            if key == "character":
                continue
            width = int(key.split()[1])
            need = width + jump["cells_add"]
            expected = Fraction(1) if length >= need else Fraction(
                sum(1 for f in FACES if f in faces), 6)
            assert F(value) == expected, (row["character"], key)


def test_ghost_resistance_matches_enumeration():
    check = RAW["ghost-resist"]
    assert ODDS["ghost"]
    for row in ODDS["ghost"]:
        stats = RAW[row["character"]]["stats"]
        add = sum(m.get("add", 0) for m in check["modifiers"]
                  if all(stats.get(t["stat"], 0) >= t["min"] for t in m["requires"]))
        counts: dict[str, int] = {}
        for f in FACES:
            total = min(f + add, 6)
            band = next(b for b in check["results"] if _in(b["roll"], total))
            counts[band["result"]] = counts.get(band["result"], 0) + 1
        assert {k: F(v) for k, v in row["results"].items()} == {
            k: Fraction(n, 6) for k, n in counts.items()
        }


def _in(roll: str, total: int) -> bool:
    low, _, high = roll.partition("-")
    return int(low) <= total <= int(high or low)


def test_odds_are_json_fractions():
    text = json.dumps(ODDS)
    assert re.search(r'"\d+/\d+"', text)
