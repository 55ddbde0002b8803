"""A small fixture pack (tests/serve/fixtures/vault), copied before any test edits it, and a
real `relic serve` on it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.serve.client import ServeProcess

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "vault"
PRINTED = {"draught", "echo", "torch", "zombie", "cache-plus-2"}  # entities with a card
BROKEN = ("  count: 2\n", "  count: [2\n")  # cards.yaml, line 17: an unclosed flow sequence
BROKEN_AT = ("cards.yaml", 17, 7)


def copy_pack(tmp_path: Path) -> Path:
    """A writable copy of the fixture in <tmp>/content/vault."""
    target = tmp_path / "content" / "vault"
    shutil.copytree(FIXTURE, target)
    return target


@pytest.fixture(scope="session")
def render_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One render cache for the session (per xdist worker): later servers start warm."""
    return tmp_path_factory.mktemp("render-cache")


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    return copy_pack(tmp_path)


@pytest.fixture
def served(pack: Path, render_cache: Path) -> Iterator[ServeProcess]:
    """`relic serve --port 0` on the copy, started in the copy's folder (so places read
    `content/vault/...`); stopped (Ctrl-C) after the test."""
    serve = ServeProcess(["--content", "content", "--out", str(pack.parent.parent / "out"),
                          "--cache", str(render_cache), "--jobs", "1"], cwd=pack.parent.parent)
    serve.start()
    try:
        yield serve
    finally:
        serve.stop()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
