"""Simulated dice dungeon games: the game's own report sections, results that do not depend on
the number of jobs, and replays that `relic replay --verify` re-checks."""

from __future__ import annotations

from pathlib import Path

from dd_support import game, plain

from engine.core.replay import ReplayLog
from engine.core.sim import SimConfig, run, verify_replay
from engine.games.dice_dungeon.game import DiceDungeonGame
from pipeline import cli


def _config(players: int, games: int, jobs: int = 1, **options) -> SimConfig:
    values = {"adventure": "any", "campaign": False, **options}
    return SimConfig(players=players, games=games, seed=3, bot="heuristic", max_rounds=200,
                     jobs=jobs, keep_replays=2, options=tuple(sorted(values.items())))


def test_the_report_has_the_games_own_sections() -> None:
    result = run(DiceDungeonGame, plain(), _config(2, 8))
    report = result.report
    for key in ("win_rate_by_adventure", "score_by_adventure", "turns_by_adventure",
                "win_rate_by_class_mix", "score_by_class_mix", "deaths", "fights",
                "levels_cleared", "bonus_earned", "mean_score"):
        assert key in report, key
    assert sum(report["level_outcomes"].values()) == 8
    assert set(report["win_rate_by_adventure"]) <= {a.id for a in game().data.adventures}
    assert all("+" in mix for mix in report["win_rate_by_class_mix"])
    assert report["turn_bound_games"] == 0


def test_results_do_not_depend_on_the_jobs() -> None:
    one = run(DiceDungeonGame, plain(), _config(3, 4, jobs=1)).report
    two = run(DiceDungeonGame, plain(), _config(3, 4, jobs=2)).report
    assert one == two


def test_replays_verify() -> None:
    result = run(DiceDungeonGame, plain(), _config(2, 2, adventure="goblin-forge"))
    for record in result.records:
        assert record.replay is not None
        log = ReplayLog.from_json(record.replay)
        assert verify_replay(game(), log) == []


def test_a_campaign_plays_four_levels() -> None:
    result = run(DiceDungeonGame, plain(), _config(2, 1, campaign=True))
    [record] = result.records
    levels = record.summary.details["levels"]
    assert [lv["adventure"] for lv in levels] == [a.id for a in game().data.adventures]


def test_relic_sim_runs_from_the_command_line(tmp_path: Path, capsys) -> None:
    html = tmp_path / "report.html"
    code = cli.main(["sim", "--pack", "dice-dungeon", "--players", "1", "--games", "3",
                     "--adventure", "spider-caves", "--html", str(html),
                     "--save-replay", str(tmp_path / "replays")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "win rate by adventure" in out and "spider-caves" in out
    assert "<svg" in html.read_text(encoding="utf-8")
    replay = tmp_path / "replays" / "game-00000.json"
    assert cli.main(["replay", str(replay), "--verify", "dice-dungeon"]) == 0
