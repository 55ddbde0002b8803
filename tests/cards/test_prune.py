"""The render cache stays bounded: builds mark what they use, files unused for long go."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pipeline import cli
from pipeline.cards import BuildOptions, build
from pipeline.cards.prune import FOLDERS, mark_used, prune

DAY = 86400


def _age(root: Path, days: float) -> None:
    """Make every file under `root` look last used `days` days ago."""
    then = time.time() - days * DAY
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (then, then))


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_prune_removes_only_cache_files_unused_for_longer_than_the_limit(tmp_path: Path) -> None:
    now = time.time()
    old, recent, foreign = tmp_path / "png" / "old.png", tmp_path / "faces" / "new.json", \
        tmp_path / "notes" / "old.txt"
    for path, data in ((old, b"12345"), (recent, b"{}"), (foreign, b"mine")):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    os.utime(old, (now - 15 * DAY, now - 15 * DAY))
    os.utime(recent, (now - 13 * DAY, now - 13 * DAY))
    os.utime(foreign, (now - 99 * DAY, now - 99 * DAY))
    pruned = prune(tmp_path, keep_days=14, now=now)
    assert (pruned.files, pruned.bytes, pruned.days) == (1, 5, 14)
    assert not old.exists() and recent.exists()
    assert foreign.exists(), "only the cache's own folders are pruned"
    assert "png" in FOLDERS and "notes" not in FOLDERS
    mark_used(recent, tmp_path / "faces" / "gone.json")  # a missing file is no error
    assert recent.stat().st_mtime >= now


def test_a_file_renamed_away_while_pruning_is_skipped(tmp_path: Path, monkeypatch) -> None:
    """Another process (the book's, drawing its pictures) may rename its temporary file into
    place between the listing of a folder and the look at that file."""
    old = tmp_path / "jinja" / "old.cache"
    old.parent.mkdir()
    old.write_bytes(b"12")
    os.utime(old, (0, 0))
    (old.parent / "__jinja2_x.cache1234.tmp").write_bytes(b"half")
    listing = os.scandir

    def scandir(path):
        entries = list(listing(path))
        for entry in entries:
            if entry.name.endswith(".tmp"):
                os.replace(entry.path, old.parent / "x.cache")  # renamed after the listing
        return entries

    monkeypatch.setattr(os, "scandir", scandir)
    pruned = prune(tmp_path, keep_days=1)
    assert pruned.files == 1 and not old.exists() and (old.parent / "x.cache").exists()


def test_a_build_keeps_what_it_uses_and_drops_the_rest(mini_model, tmp_path: Path) -> None:
    """After every cache file has aged 30 days, a warm build marks the ones it uses, so the
    prune at its end removes only a stale file, the icons' operators (only a build that
    writes a file uses them; they are drawn again when one does) and what a process compiles or
    parses once (Jinja, fonts, hyphenation: this process did so in the first build; a later one
    compiles or parses them again), and the next build still renders nothing."""
    cache = tmp_path / "cache"
    options = BuildOptions(out_root=tmp_path / "out", cache_dir=cache, workers=1)
    build(mini_model, options)
    stale = cache / "faces" / "stale.json"
    stale.write_text('{"pdf": "gone.pdf", "page": 0}')
    _age(cache, 30)
    before = _files(cache)
    assert {f.split("/")[0] for f in before} >= {"measure", "faces", "outputs"}
    warm = build(mini_model, options)
    assert warm.rendered == 0
    icons = {f for f in before if f.startswith("icons/")}
    # (whether this process compiled or parsed them in the first build depends on the tests
    # that ran before it in the same process)
    once = {f for f in before if f.split("/")[0] in ("jinja", "ttf", "hyphenation")}
    assert icons
    assert before - _files(cache) == {"faces/stale.json"} | icons | once
    assert warm.pruned.files == 1 + len(icons) + len(once)
    again = build(mini_model, BuildOptions(out_root=tmp_path / "again", cache_dir=cache,
                                           workers=1, keep_cache_days=0))
    assert again.rendered == 0 and again.pruned.files == 0


def test_relic_build_reports_what_it_removed(tmp_path: Path, mini_model, capsys) -> None:
    cache = tmp_path / "cache"
    (cache / "png").mkdir(parents=True)
    stale = cache / "png" / "stale.png"
    stale.write_bytes(b"x" * 2000)
    _age(cache, 3)
    code = cli.main(["build", "--pack", "mini", "--content", str(mini_model.pack.root.parent),
                     "--out", str(tmp_path / "out"), "--cache", str(cache), "--jobs", "1",
                     "--no-png", "--no-rulebook", "--keep-cache-days", "2"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert not stale.exists()
    assert "relic: removed 1 cache files (0.0 MB) no build used for 2 days" in err
    with pytest.raises(SystemExit) as stop:
        cli.main(["build", "--pack", "mini", "--keep-cache-days", "-1"])
    assert stop.value.code == 2
    assert "-1 is not a number of days" in capsys.readouterr().err
