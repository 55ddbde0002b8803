"""`relic check` for the dice dungeon: the pack is clean, and each broken piece of content gives
a finding that names its entity and path (and, through the pipeline, its line)."""

from __future__ import annotations

import copy
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from dd_support import PACK, game, plain

from engine.core.game import Finding
from engine.games.dice_dungeon.game import DiceDungeonGame
from pipeline import cli


def findings(change: Callable[[dict], None]) -> list[Finding]:
    raw = copy.deepcopy(plain())
    change(raw)
    return DiceDungeonGame.from_model(raw).consistency()


def entity(raw: dict, ident: str) -> dict:
    return next(e for e in raw["entities"] if e["id"] == ident)


def test_the_pack_is_consistent() -> None:
    assert game().consistency() == []


def _door_on_a_wall(raw: dict) -> None:
    entity(raw, "spider-caves")["rooms"][0]["side"] = "west"


def _room_twice(raw: dict) -> None:
    entity(raw, "goblin-forge")["rooms"][1]["room"] = 1


def _unbeatable(raw: dict) -> None:
    entity(raw, "ogre")["health"] = 40


def _track_too_high(raw: dict) -> None:
    entity(raw, "wyvern")["health_track"][-1] = 40


def _key_in_the_boss_room(raw: dict) -> None:
    """The bone key moves from chest 6 to chest 1 only: the lich is monster 6, and with the
    treasure order one room behind the monster order chest 1 stands in the lich's room."""
    crypt = entity(raw, "sunken-crypt")
    crypt["chests"][5]["boxes"][0] = {"gold": 1}
    crypt["chests"][0]["boxes"][0] = {"item": "bone-key"}


def _trap_without_trap(raw: dict) -> None:
    entity(raw, "spider-caves")["chests"][1].pop("trap")


def _low_scoring(raw: dict) -> None:
    entity(raw, "spider-caves")["scoring"] = {"monster": 1}


def _no_reroll_end(raw: dict) -> None:
    table = entity(raw, "exploration-table")
    table["rows"] = [dict(r, reroll=True) for r in table["rows"]]


def _walled_in(raw: dict) -> None:
    caves = entity(raw, "spider-caves")
    rows = [list(r) for r in caves["map"]]
    for x, y in ((1, 2), (0, 2), (2, 1), (2, 0), (2, 2), (3, 1), (3, 0), (3, 2)):
        rows[y][x] = "#" if rows[y][x] == "." else rows[y][x]
    rows[3][0] = "#"
    caves["map"] = ["".join(r) for r in rows]
    caves["rooms"][0]["side"] = "east"


@pytest.mark.parametrize(("change", "code", "where"), [
    (_door_on_a_wall, "map-door", ("spider-caves", "rooms.0.side")),
    (_room_twice, "map-rooms", ("goblin-forge", "rooms")),
    (_unbeatable, "threshold-unreachable", ("ogre", "health")),
    (_track_too_high, "threshold-unreachable", ("wyvern", "health_track")),
    (_key_in_the_boss_room, "boss-key", ("sunken-crypt", "boss_keys.0")),
    (_trap_without_trap, "chest-trap", ("spider-caves", "chests.1")),
    (_low_scoring, "threshold-unreachable", ("spider-caves", "scoring")),
    (_no_reroll_end, "table-coverage", ("exploration-table", "rows")),
    (_walled_in, "map-door", ("spider-caves", "rooms.0.side")),
])
def test_broken_content_is_found(change, code: str, where: tuple[str, str]) -> None:
    found = findings(change)
    assert (code, *where) in {(f.code, f.entity, f.path) for f in found}, found


def test_a_finding_points_at_its_line(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "dice-dungeon"
    shutil.copytree(PACK, pack)
    monsters = pack / "monsters.yaml"
    text = monsters.read_text(encoding="utf-8")
    head = "- id: ogre\n  kind: dungeon-monster\n  name: {ru: Огр, en: Ogre}\n"
    assert head + "  health: 5\n" in text
    monsters.write_text(text.replace(head + "  health: 5\n", head + "  health: 40\n"),
                        encoding="utf-8")
    line = next(i for i, row in enumerate(monsters.read_text(encoding="utf-8").splitlines(), 1)
                if row == "  health: 40")
    assert cli.main(["check", str(pack)]) == 1
    out = capsys.readouterr().out
    assert f"monsters.yaml:{line}:" in out and "engine-threshold-unreachable" in out
