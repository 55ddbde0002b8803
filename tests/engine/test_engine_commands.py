"""`relic sim`, `relic odds` and `relic replay` end to end."""

from __future__ import annotations

import json

from engine_support import ROOT

from pipeline.cli import main

PACK = ["--pack", "catacombs", "--content", str(ROOT / "content")]


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_sim_results_do_not_depend_on_jobs(capsys):
    args = ["sim", *PACK, "--players", "3", "--games", "6", "--seed", "7", "--format", "json",
            "--max-rounds", "20"]
    one = json.loads(run(capsys, *args, "--jobs", "1"))
    two = json.loads(run(capsys, *args, "--jobs", "2"))
    assert one["report"] == two["report"] and one["games"] == two["games"]
    other = json.loads(run(capsys, *args[:-2], "--seed", "8", "--max-rounds", "20"))
    assert other["games"] != one["games"]


def test_sim_report_fields(capsys, tmp_path):
    html = tmp_path / "report.html"
    out = run(capsys, "sim", *PACK, "--players", "4", "--games", "4", "--seed", "1",
              "--max-rounds", "15", "--html", str(html), "--bot", "random")
    for heading in ("win rate by character", "win rate by seat", "game length",
                    "causes of death", "treasure per hero", "monsters met", "monsters killed",
                    "games hitting the turn bound", "balance", "branching factor"):
        assert heading in out
    assert "<svg" in html.read_text(encoding="utf-8")


def test_sim_saves_replays_that_replay_prints(capsys, tmp_path):
    folder = tmp_path / "replays"
    run(capsys, "sim", *PACK, "--players", "2", "--games", "3", "--seed", "4",
        "--max-rounds", "10", "--save-replay", str(folder), "--replays", "2")
    files = sorted(folder.glob("game-*.json"))
    assert [f.name for f in files] == ["game-00000.json", "game-00001.json"]
    out = run(capsys, "replay", str(files[0]), "--actions")
    assert "--- setup ---" in out and "--- round 1 ---" in out
    assert "draws" in out and "=== ended by" in out


def test_replay_rejects_other_files(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}', encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    assert "bad-replay" in capsys.readouterr().err


def test_odds_text_and_json(capsys):
    text = run(capsys, "odds", *PACK)
    assert "== table treasure-table" in text and "resisting a ghost" in text
    data = json.loads(run(capsys, "odds", *PACK, "--format", "json"))
    assert {"table-treasure-table", "checks", "crevice-jump", "ghost"} <= set(data)
    rows = data["table-treasure-table"]["rows"]
    assert rows and all(sum(_f(v) for v in r["chances"].values()) == 1 for r in rows)


def _f(text: str):
    from fractions import Fraction

    return Fraction(text)


def test_replay_verify_detects_a_tampered_log(capsys, tmp_path):
    folder = tmp_path / "replays"
    run(capsys, "sim", *PACK, "--players", "2", "--games", "1", "--seed", "5",
        "--max-rounds", "8", "--save-replay", str(folder), "--replays", "1")
    path = folder / "game-00000.json"
    out = run(capsys, "replay", str(path), "--verify", "catacombs", "--content",
              str(ROOT / "content"))
    assert "the replay is faithful" in out
    raw = json.loads(path.read_text(encoding="utf-8"))
    step = next(s for s in raw["steps"] if s.get("events"))
    step["events"] = ["r0 s0: something else happened"]
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["replay", str(path), "--verify", "catacombs", "--content",
                 str(ROOT / "content")]) == 1
    assert "events differ" in capsys.readouterr().out
