"""The file system, safely: output modes, reading without leaving the project, scanning a pack."""

from __future__ import annotations

import itertools
import os
import signal
from pathlib import Path

import pytest

from pipeline.fsutil import Refused, atomic_write, project_root, read_file, scan_tree


@pytest.fixture
def umask():
    def set_mask(mask: int) -> None:
        os.umask(mask)

    old = os.umask(0o022)
    yield set_mask
    os.umask(old)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_outputs_get_the_mode_of_the_umask(tmp_path: Path, umask, mask: int, mode: int) -> None:
    umask(mask)
    path = atomic_write(tmp_path / "out" / "a.pdf", b"%PDF")
    assert path.stat().st_mode & 0o777 == mode
    assert [p.name for p in path.parent.iterdir()] == ["a.pdf"]  # no temporary file left


def _refused(path: Path, project: Path) -> str:
    with pytest.raises(Refused) as info:
        read_file(path, 1000, project)
    return info.value.diagnostic.code


def test_a_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "p.yaml")
    signal.alarm(5)  # a blocking open would end the test here instead of hanging the suite
    try:
        assert _refused(tmp_path / "p.yaml", tmp_path) == "not-a-file"
    finally:
        signal.alarm(0)


def test_links_are_followed_inside_the_project_only(tmp_path: Path) -> None:
    project = tmp_path / "pack"
    (project / "data").mkdir(parents=True)
    (project / "data" / "a.yaml").write_text("a: 1\n")
    (tmp_path / "secret.yaml").write_text("s: 1\n")
    os.symlink("data/a.yaml", project / "in.yaml")
    os.symlink("../secret.yaml", project / "out.yaml")
    os.symlink("loop.yaml", project / "loop.yaml")
    assert read_file(project / "in.yaml", 1000, project) == b"a: 1\n"
    assert _refused(project / "out.yaml", project) == "link-outside"
    assert _refused(project / "loop.yaml", project) == "symlink-loop"
    assert _refused(project / "data", project) == "not-a-file"


def test_size_is_bounded_before_and_while_reading(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_bytes(b"x" * 2000)
    assert _refused(tmp_path / "big.yaml", tmp_path) == "file-too-large"


def test_the_project_is_the_nearest_folder_with_a_marker(tmp_path: Path) -> None:
    pack = tmp_path / "repo" / "content" / "pack"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: pack\n")
    assert project_root(pack) == pack.resolve()  # no marker above: the pack itself
    (tmp_path / "repo" / ".git").mkdir()
    project_root.cache_clear()
    assert project_root(pack) == (tmp_path / "repo").resolve()
    assert project_root(pack / "sub") == (tmp_path / "repo").resolve()


def test_a_diamond_of_links_is_walked_once_per_folder(tmp_path: Path) -> None:
    """Each level links twice to the next: 2^20 paths, but 21 real folders."""
    levels = [tmp_path / f"l{i}" for i in range(21)]
    for level in levels:
        level.mkdir()
        (level / "x.yaml").write_text("a: 1\n")
    for here, nxt in itertools.pairwise(levels):
        os.symlink(nxt, here / "left")
        os.symlink(nxt, here / "right")
    tree = scan_tree(levels[0], tmp_path)
    assert len(tree.files) == 21
    assert {d.code for d in tree.diagnostics} == {"duplicate-folder"}
    assert len(tree.diagnostics) == 20
