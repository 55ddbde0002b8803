"""`relic sim` for the haunted house: the game's own report (wins by side and by scenario, when
the scenario began, survival, length), seeded results, and replays `relic replay` re-checks."""

from __future__ import annotations

import json
from pathlib import Path

from house_support import ROOT, game

from engine.core.sim import SimConfig, run
from engine.games.haunted_house.game import HauntedHouseGame
from pipeline import cli


def _sim(capsys, *args: str) -> str:
    code = cli.main(["sim", "--pack", "haunted-house", "--content", str(ROOT / "content"),
                     *args])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_the_report_has_the_game_s_own_sections(capsys) -> None:
    report = json.loads(_sim(capsys, "--players", "4", "--games", "12", "--seed", "3",
                             "--format", "json"))["report"]
    sides = report["wins_by_side"]
    assert set(sides) == {"heroes", "traitor", "none"} and abs(sum(sides.values()) - 1) < 1e-9
    assert set(report["scenarios_played"]) <= {"beast-under-the-roof", "shade-in-the-mirrors",
                                               "never began"}
    assert sum(report["scenarios_played"].values()) == 12
    assert all(k.split(": ")[1] in sides for k in report["wins_by_scenario"])
    assert report["scenario_start_mean_round"] >= 1
    assert 0 <= report["traitor_survival"] <= 1 and 0 <= report["hero_survival"] <= 1
    assert report["length"]["mean_rounds"] > report["rounds_after_start_mean"] > 0
    assert set(report["win_rate_by_side"]) <= {"hero", "traitor", "explorer"}


def test_the_text_report_reads_as_sections(capsys) -> None:
    out = _sim(capsys, "--players", "3", "--games", "6", "--seed", "1")
    for title in ("wins by side", "wins by scenario", "round the scenario began",
                  "traitor alive at the end", "heroes alive at the end", "game length"):
        assert title in out


def test_results_depend_on_the_seed_not_on_the_jobs() -> None:
    from house_support import _plain

    config = SimConfig(players=5, games=6, seed=9, bot="heuristic", max_rounds=40)
    one = run(HauntedHouseGame, _plain(), config)
    two = run(HauntedHouseGame, _plain(), SimConfig(**{**config.__dict__, "jobs": 2}))
    assert one.report == two.report
    assert [r.to_json() for r in one.records] == [r.to_json() for r in two.records]


def test_replays_verify(tmp_path: Path, capsys) -> None:
    _sim(capsys, "--players", "3", "--games", "2", "--seed", "5", "--save-replay", str(tmp_path))
    logs = sorted(tmp_path.glob("game-*.json"))
    assert len(logs) == 2
    for log in logs:
        code = cli.main(["replay", str(log), "--verify", "haunted-house", "--content",
                         str(ROOT / "content")])
        out = capsys.readouterr().out
        assert code == 0, out


def test_mcts_plays_through_the_core() -> None:
    """The core's MCTS bot picks legal actions in a short game of the haunted house."""
    g = game()
    state = g.new_initial_state(3, 2, {"max_rounds": 2})
    bots = [g.make_bot("mcts", s, 2) for s in range(3)]
    chosen = 0
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply(state.sample_chance())
            continue
        action = bots[state.current_player].choose(state)
        assert action in state.legal_actions()
        state.apply(action)
        chosen += 1
    assert chosen > 3 and sum(b.calls for b in bots) > 0


def test_the_heuristic_bots_finish_their_games() -> None:
    """Across player counts the heuristic bots end every game with a winner."""
    g = game()
    for players in g.player_counts:
        config = SimConfig(players=players, games=8, seed=21, bot="heuristic", max_rounds=40)
        result = run(HauntedHouseGame, __import__("house_support")._plain(), config)
        assert result.report["turn_bound_games"] == 0
        assert result.report["metrics"]["decisiveness"] == 1.0
