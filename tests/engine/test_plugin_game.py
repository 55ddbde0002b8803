"""A game shipped as its own package plugs in through the `relic.games` entry point and is
played end to end by `relic check`, `odds`, `sim` and `replay --verify`, with no edit of the
pipeline. The game is pig (tests/fixtures/plugins/relic_pig): no heroes, tiles or treasure."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from engine.core import registry
from engine.core.testing import check_protocol
from pipeline.cli import main

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "fixtures" / "plugins"
GAMES = ROOT / "tests" / "fixtures" / "packs" / "games"
PACK = ["--pack", "pig", "--content", str(GAMES)]


@pytest.fixture
def pig(monkeypatch):
    """The plug-in's folder on sys.path, as if its package were installed."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    return registry.load("pig")


def run(capsys, *argv: str) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def test_without_the_package_the_ruleset_is_unknown(capsys):
    assert "pig" not in registry.names()
    assert main(["check", str(GAMES / "pig")]) == 1
    err = "".join(capsys.readouterr())
    assert "pack.yaml:7:10: error[unknown-ruleset]: no game is registered for ruleset 'pig'" in err


def test_the_entry_point_registers_the_game(pig):
    assert pig.name == "pig" and "pig" in registry.names() and "catacombs" in registry.names()
    assert pig.__module__ == "relic_pig.game"


def test_relic_check_runs_the_games_consistency_and_trace(pig, capsys, tmp_path):
    assert main(["check", "--strict", str(GAMES / "pig")]) == 0, capsys.readouterr().err
    capsys.readouterr()
    broken = tmp_path / "pig"
    import shutil

    shutil.copytree(GAMES / "pig", broken)
    race = broken / "race.yaml"
    race.write_text(race.read_text().replace("bust: [1]", "bust: [1, 7]"), encoding="utf-8")
    assert main(["check", str(broken)]) == 1
    err = "".join(capsys.readouterr())
    assert "race.yaml:5:9: error[engine-bust-face-unreachable]" in err


def test_relic_odds_matches_enumeration(pig, capsys):
    data = json.loads(run(capsys, "odds", *PACK, "--format", "json"))
    turn = {r["with"]: Fraction(r["chances"]["bust"]) for r in data["turn"]["rows"]}
    assert turn["hold at 5"] == _brute_bust(5) and turn["hold at 20"] == _brute_bust(20)
    assert data["roll"]["rows"][0]["chances"] == {str(f): "1/6" for f in range(1, 7)}


def _brute_bust(hold_at: int) -> Fraction:
    """Every sequence of rolls of a turn played to `hold_at`, weighted by its chance."""
    def walk(total: int, weight: Fraction) -> Fraction:
        if total >= hold_at:
            return Fraction(0)
        return sum((weight / 6 if face == 1 else walk(total + face, weight / 6))
                   for face in range(1, 7))
    return walk(0, Fraction(1))


def test_relic_sim_lists_the_games_options_and_reports(pig, capsys):
    with pytest.raises(SystemExit):
        main(["sim", *PACK, "--help"])
    assert "--hold-at" in capsys.readouterr().out
    args = ["sim", *PACK, "--players", "3", "--games", "20", "--seed", "5", "--format", "json",
            "--hold-at", "15"]
    one = json.loads(run(capsys, *args, "--jobs", "1"))
    two = json.loads(run(capsys, *args, "--jobs", "2"))
    assert one["report"] == two["report"] and one["games"] == two["games"]
    report = one["report"]
    assert report["games"] == 20 and set(report["win_rate_by_seat"]) == {"0", "1", "2"}
    assert report["endings"] == {"target": 20} and report["busts_per_game"] > 0
    assert one["config"]["hold_at"] == 15
    text = run(capsys, "sim", *PACK, "--players", "2", "--games", "5")
    assert "pig: 5 games, 2 players, bot heuristic" in text and "busts per game" in text


def test_replay_verify_uses_the_game_the_log_names(pig, capsys, tmp_path):
    run(capsys, "sim", *PACK, "--players", "2", "--games", "2", "--seed", "3",
        "--save-replay", str(tmp_path))
    log = tmp_path / "game-00000.json"
    raw = json.loads(log.read_text(encoding="utf-8"))
    assert raw["game"] == "pig" and raw["engine"] == "pig 1.0"
    out = run(capsys, "replay", str(log), "--verify", "pig", "--content", str(GAMES))
    assert "the replay is faithful" in out
    step = next(s for s in raw["steps"] if s["events"])
    step["events"] = ["r1 s0: rolls 9"]
    log.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["replay", str(log), "--verify", "pig", "--content", str(GAMES)]) == 1
    assert "events differ" in capsys.readouterr().out


def test_a_catacombs_log_is_not_verified_against_pig(pig, capsys, tmp_path):
    run(capsys, "sim", "--pack", "catacombs", "--content", str(ROOT / "content"), "--players",
        "2", "--games", "1", "--max-rounds", "3", "--save-replay", str(tmp_path))
    assert main(["replay", str(tmp_path / "game-00000.json"), "--verify", "pig", "--content",
                 str(GAMES)]) == 1
    assert "replay-pack-mismatch" in capsys.readouterr().err


def test_pig_keeps_the_protocol(pig):
    from pipeline.stages import load_model

    game = pig.from_model(load_model(GAMES / "pig").to_plain())
    for players in (2, 4):
        assert check_protocol(game, players, seeds=range(3), options={"max_rounds": 8}) > 10


def test_a_separate_process_finds_the_plugin_through_its_metadata():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), str(ROOT)])}
    out = subprocess.run([sys.executable, "-m", "pipeline.cli", "sim", *PACK, "--players", "2",
                          "--games", "3"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "pig: 3 games" in out.stdout


def test_no_game_is_named_in_the_pipeline():
    names = [*registry.names(), "catacombs", "pig"]
    hits = [(path, name) for path, name in itertools.product(
        sorted((ROOT / "pipeline").rglob("*.py")), names)
        if name in path.read_text(encoding="utf-8")]
    assert hits == []


def test_replay_prints_event_lines_whole_after_their_round_prefix(pig, capsys, tmp_path):
    run(capsys, "sim", *PACK, "--players", "2", "--games", "1", "--save-replay", str(tmp_path))
    log = tmp_path / "game-00000.json"
    raw = json.loads(log.read_text(encoding="utf-8"))
    raw["steps"][1]["events"] = ["r1 s0: the vault: opened", "a line: with colons"]
    log.write_text(json.dumps(raw), encoding="utf-8")
    out = run(capsys, "replay", str(log))
    assert "  the vault: opened\n" in out and "  a line: with colons\n" in out
