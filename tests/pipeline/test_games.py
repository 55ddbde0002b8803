"""The pipeline's door to the games (pipeline/games.py): unknown rulesets, packs without one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.cli import main

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "packs" / "valid" / "mini"


def with_ruleset(tmp_path: Path, ruleset: str) -> Path:
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + f"ruleset: {ruleset}\n",
                        encoding="utf-8")
    return pack


def test_an_unknown_ruleset_is_reported_at_its_line_with_did_you_mean(tmp_path, capsys):
    pack = with_ruleset(tmp_path, "catacomb")
    line = len((pack / "pack.yaml").read_text(encoding="utf-8").splitlines())
    assert main(["check", str(pack)]) == 1
    out = "".join(capsys.readouterr())
    assert f"pack.yaml:{line}:10: error[unknown-ruleset]: no game is registered for ruleset " \
           "'catacomb'" in out
    assert "hint: did you mean 'catacombs'?" in out


def test_sim_refuses_an_unknown_ruleset_the_same_way(tmp_path, capsys):
    pack = with_ruleset(tmp_path, "catacomb")
    assert main(["sim", "--pack", "mini", "--content", str(pack.parent), "--players", "2"]) == 1
    assert "error[unknown-ruleset]" in capsys.readouterr().err


def test_sim_on_a_pack_without_a_ruleset_says_so_and_exits_1(capsys):
    code = main(["sim", "--pack", "mini", "--content", str(MINI.parent), "--players", "2"])
    assert code == 1
    err = capsys.readouterr().err
    assert "error[no-ruleset]: pack 'mini' names no ruleset, so `relic sim` has no game" in err
    assert "Traceback" not in err


def test_sim_checks_players_and_bots_against_the_game(capsys):
    content = str(ROOT / "content")
    assert main(["sim", "--pack", "catacombs", "--content", content, "--players", "9"]) == 1
    assert "catacombs is played by 1 to 8 players, not 9" in capsys.readouterr().err
    assert main(["sim", "--pack", "catacombs", "--content", content, "--players", "2",
                 "--bot", "clever"]) == 1
    assert "has no bot 'clever' (it has heuristic, random, mcts)" in capsys.readouterr().err


def test_sim_plays_a_span_of_player_counts(capsys, tmp_path):
    import json

    html = tmp_path / "report.html"
    assert main(["sim", "--pack", "catacombs", "--content", str(ROOT / "content"), "--players",
                 "2..3", "--games", "2", "--max-rounds", "3", "--format", "json", "--html",
                 str(html)]) == 0
    found = json.loads(capsys.readouterr().out)["by_players"]
    assert sorted(found) == ["2", "3"]
    assert [found[k]["report"]["players"] for k in ("2", "3")] == [2, 3]
    assert html.read_text(encoding="utf-8").count("<h1>") == 2
    with pytest.raises(SystemExit) as stop:
        main(["sim", "--pack", "catacombs", "--players", "3..two"])
    assert stop.value.code == 2
    assert "not a number of players: '3..two' (write 4 or 3..6)" in capsys.readouterr().err


def test_players_may_be_left_out_only_for_a_game_of_one_player_count(capsys):
    content = str(ROOT / "content")
    assert main(["sim", "--pack", "catacombs", "--content", content, "--games", "1"]) == 1
    assert "give --players: catacombs is played by 1 to 8 players" in capsys.readouterr().err
    assert main(["sim", "--pack", "tunnels", "--content", content, "--games", "2"]) == 0
    assert "tunnels: 2 games, 2 players" in capsys.readouterr().out
