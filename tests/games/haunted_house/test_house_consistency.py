"""The haunted house's consistency checks in `relic check`: each finding names the entity and
the dotted path of the content value it concerns."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from house_support import PACK, entity, game, plain

from engine.games.haunted_house.game import HauntedHouseGame
from pipeline import cli


def _findings(model: dict) -> list[tuple[str, str | None, str]]:
    return [(f.code, f.entity, f.path) for f in HauntedHouseGame.from_model(model).consistency()]


def test_the_pack_is_consistent() -> None:
    assert game().consistency() == []


def test_an_event_band_gap_is_found() -> None:
    model = plain()
    entity(model, "rats")["outcomes"][0]["roll"] = "4+"  # 3 is now in no band
    assert ("table-coverage", "rats", "outcomes") in _findings(model)


def test_an_unreachable_target_is_found() -> None:
    model = plain()
    entity(model, "vault")["effect"]["check"]["target"] = 17
    entity(model, "shade-in-the-mirrors")["sides"]["heroes"]["task"]["target"] = 20
    found = _findings(model)
    assert ("threshold-unreachable", "vault", "effect.check.target") in found
    assert ("threshold-unreachable", "shade-in-the-mirrors",
            "sides.heroes.task.target") in found


def test_a_track_that_does_not_climb_is_found() -> None:
    model = plain()
    entity(model, "ida-marsh")["traits"]["speed"]["track"] = [2, 3, 3, 4, 5, 4, 6, 6]
    assert ("track-order", "ida-marsh", "traits.speed.track") in _findings(model)


def test_the_fight_example_must_read_off_its_explorer_s_card() -> None:
    model = plain()
    entity(model, "vera-lanskaya")["traits"]["speed"]["track"] = [2, 3, 3, 4, 5, 6, 6, 7]
    assert ("example-mismatch", "combat-example", "losses.1.after") in _findings(model)


def test_too_few_explorers_or_omens_are_found() -> None:
    model = plain()
    model["entities"] = [e for e in model["entities"]
                         if e["id"] not in ("liza-kern", "bone-ring", "wax-doll", "black-veil")]
    found = _findings(model)
    assert ("count-short", None, "") in found
    assert ("count-short", "dread-roll", "certain_at") in found


def test_a_monster_trait_beyond_the_box_is_found() -> None:
    model = plain()
    entity(model, "werewolf")["by_players"]["6"]["might"] = 9
    assert ("dice-exceed-box", "werewolf", "by_players.6.might") in _findings(model)


@pytest.mark.slow
def test_relic_check_points_at_the_content_line(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "haunted-house"
    shutil.copytree(PACK, pack)
    events = pack / "events.yaml"
    text = events.read_text("utf-8")
    gap = text.replace("- {roll: 3+, effects: []}\n    - {roll: 0-2,",
                       "- {roll: 4+, effects: []}\n    - {roll: 0-2,", 1)
    assert gap != text
    events.write_text(gap, "utf-8")
    code = cli.main(["check", str(pack)])
    out = capsys.readouterr().out
    assert code == 1
    line = next(ln for ln in out.splitlines() if "table-coverage" in ln)
    assert "events.yaml:" in line and "cold-draught" in line
