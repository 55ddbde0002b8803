"""What the watcher reacts to: pack edits rebuild; schema, template and asset edits restart the
builder first; editors' temporary files do nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cards.formats import PROJECT_ROOT
from pipeline.diagnostics import RelicError
from pipeline.serve import out_folder
from pipeline.serve.session import Contents, classify, interesting, watched


def test_pack_edits_rebuild_and_project_edits_restart(tmp_path: Path) -> None:
    pack = tmp_path / "content" / "p"
    pack.mkdir(parents=True)
    inside = classify(pack, [str(pack / "cards.yaml")])
    assert inside is not None and not inside.restart
    template = classify(pack, [str(pack / "cards.yaml"),
                               str(PROJECT_ROOT / "templates" / "cards" / "cards.css")])
    assert template is not None and template.restart


def test_temporary_files_are_ignored(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    for name in (".cards.yaml.swp", "cards.yaml~", "#cards.yaml#", ".goutputstream-X",
                 "cards.yaml.tmp"):
        assert not interesting(str(pack / name)), name
    assert classify(pack, [str(pack / ".cards.yaml.swp")]) is None
    assert interesting(str(pack / "cards.yaml"))


def test_it_watches_the_pack_schemas_templates_and_assets(tmp_path: Path) -> None:
    paths = watched(tmp_path)
    assert paths[0] == tmp_path
    assert {p.name for p in paths[1:]} == {"schemas", "templates", "assets"}


def test_the_loop_never_builds_inside_the_pack(tmp_path: Path) -> None:
    pack = tmp_path / "content" / "p"
    pack.mkdir(parents=True)
    for bad in (pack, pack / "build", tmp_path / "content"):
        with pytest.raises(RelicError, match="among the pack's content"):
            out_folder(pack, bad)
    assert out_folder(pack, tmp_path / "build" / "p") == (tmp_path / "build" / "p").resolve()


def test_a_save_told_twice_builds_once(tmp_path: Path) -> None:
    cards = tmp_path / "cards.yaml"
    cards.write_text("- id: a\n", encoding="utf-8")
    contents = Contents()
    assert contents.new([str(cards)])  # the first time: new
    assert not contents.new([str(cards)])  # the same bytes again: no build of its own
    cards.write_text("", encoding="utf-8")  # a save seen half-way (truncated), then whole
    assert contents.new([str(cards)])
    cards.write_text("- id: a\n", encoding="utf-8")
    assert contents.new([str(cards)])
    assert contents.new([str(cards), str(tmp_path / "new.yaml")])  # not there: counts
    cards.unlink()
    assert contents.new([str(cards)])  # deleted
    assert contents.new([str(tmp_path)])  # a folder always counts
    assert contents.new([str(tmp_path)])
