"""`relic sim`, `relic odds`, `relic replay` and `relic check` on the tunnels, end to end."""

from __future__ import annotations

import json

from tunnels_support import ROOT, game, plain

from engine.games.tunnels.game import TunnelsGame
from pipeline.cli import main

PACK = ["--pack", "tunnels", "--content", str(ROOT / "content")]


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_sim_results_do_not_depend_on_jobs(capsys):
    args = ["sim", *PACK, "--players", "2", "--games", "6", "--seed", "7", "--format", "json"]
    one = json.loads(run(capsys, *args, "--jobs", "1"))
    two = json.loads(run(capsys, *args, "--jobs", "2"))
    assert one["report"] == two["report"] and one["games"] == two["games"]


def test_sim_reports_the_tunnels_own_figures(capsys, tmp_path):
    html = tmp_path / "report.html"
    out = run(capsys, "sim", *PACK, "--players", "2", "--games", "20", "--seed", "3",
              "--html", str(html))
    for heading in ("win rate by side", "win rate by scenario and side", "game length",
                    "endings by scenario", "the loot escaped", "warriors lost per game",
                    "deaths per game, by warrior", "what the special squares did",
                    "flooded-tunnel:stopped a move"):
        assert heading in out
    assert "<svg" in html.read_text(encoding="utf-8")


def test_sim_plays_one_scenario_on_request(capsys):
    report = json.loads(run(capsys, "sim", *PACK, "--players", "2", "--games", "4",
                            "--scenario", "to-freedom", "--format", "json"))["report"]
    assert report["games_by_scenario"] == {"to-freedom": 4}


def test_saved_replays_replay_and_verify(capsys, tmp_path):
    folder = tmp_path / "replays"
    run(capsys, "sim", *PACK, "--players", "2", "--games", "2", "--seed", "4",
        "--save-replay", str(folder))
    files = sorted(folder.glob("game-*.json"))
    assert len(files) == 2
    out = run(capsys, "replay", str(files[0]), "--verify", "tunnels", "--content",
              str(ROOT / "content"))
    assert "--- round 1 ---" in out and "Initiative rolls" in out and "wins" in out


def test_odds_prints_every_table(capsys):
    text = run(capsys, "odds", *PACK)
    for title in ("Booby-trapped tunnel", "Fate dice", "Melee attacks", "Grenade",
                  "Initiative"):
        assert title in text
    data = json.loads(run(capsys, "odds", *PACK, "--format", "json"))
    assert data["booby-trap"]["rows"][0]["chances"]["1 damage"] == "1/3"


def test_the_content_is_consistent():
    assert game().consistency() == []


def broken(**edits):
    raw = json.loads(json.dumps(plain()))
    by_id = {e["id"]: e for e in raw["entities"]}
    for dotted, value in edits.items():
        entity, *path = dotted.split("__")
        node = by_id[entity.replace("_", "-")]
        for part in path[:-1]:
            node = node[int(part)] if part.isdigit() else node[part]
        node[path[-1]] = value
    return TunnelsGame.from_model(raw).consistency()


def test_a_booby_trap_table_missing_a_face_is_found_at_its_rows():
    rows = plain()["entities"]
    table = next(e for e in rows if e["id"] == "booby-trap-table")
    found = broken(booby_trap_table__rows=table["rows"][:-1])
    assert [(f.code, f.entity, f.path) for f in found] == [
        ("table-coverage", "booby-trap-table", "rows")]
    assert "missing [6]" in found[0].message


def test_too_few_damage_markers_or_troglodytes_are_found():
    found = broken(damage__count=10, troglodyte__count=2)
    assert {(f.entity, f.path) for f in found} == {("damage", "count"), ("troglodyte", "count")}


def test_a_hit_face_off_the_die_is_found():
    found = broken(sergeant__attack={"dice": 2, "hits": [7]})
    assert [(f.code, f.entity, f.path) for f in found] == [
        ("unreachable", "sergeant", "attack.hits")]


def test_relic_check_points_at_the_content_line(capsys, tmp_path):
    import shutil

    pack = tmp_path / "tunnels"
    shutil.copytree(ROOT / "content" / "tunnels", pack)
    markers = pack / "markers.yaml"
    lines = markers.read_text(encoding="utf-8").splitlines()
    where = lines.index("  count: 15") + 1
    lines[where - 1] = "  count: 10"
    markers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["check", str(pack)]) == 1
    out = capsys.readouterr().out
    assert f"markers.yaml:{where}:10: error[engine-count]: 10 damage markers" in out
