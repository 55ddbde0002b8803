"""kill -9 while a build writes its files, and between the two renames that swap them in.

The child (runner.py) sends itself SIGKILL at an exact audit event, so the kill lands at the
same moment every run. A kill while rendering is tests/cards/test_safety.py::
test_killing_a_build_leaves_the_previous_outputs_intact.
"""

from __future__ import annotations

import hashlib
import shutil
import signal
from pathlib import Path

import pytest

from pipeline.cards.outputs import recover
from tests.hostile.harness import assert_clean, remove, run_batch, scratch

ROOT = Path(__file__).resolve().parents[2]
CARDS_MINI = ROOT / "tests" / "cards" / "fixtures" / "mini"


def _hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def site():
    folder = scratch()
    shutil.copytree(CARDS_MINI, folder / "mini")
    yield folder
    remove(folder)


def _build(site: Path, name: str, kill_on: dict | None = None) -> tuple[dict | None, int]:
    argv = ["build", "--pack", "mini", "--content", str(site), "--out", str(site / "out"),
            "--cache", str(site / "cache"), "--lang", "ru", "--no-png", "--no-rulebook",
            "--jobs", "1", "--quiet"]
    case = {"name": name, "argv": argv, "timeout": 120,
            "allowed": [str(site / "mini"), str(site / "out"), str(site / "cache")]}
    results, violations, code = run_batch([case], site / f"{name}.log", kill_on=kill_on)
    assert violations == [], violations
    return (results[0] if results else None), code


def _edit(site: Path, old: str, new: str) -> None:
    cards = site / "mini" / "cards.yaml"
    text = cards.read_text("utf-8")
    assert old in text
    cards.write_text(text.replace(old, new), "utf-8")


@pytest.mark.slow
def test_kill_during_writing_and_between_renames(site: Path) -> None:
    first, code = _build(site, "first")
    assert code == 0 and first is not None and first["code"] == 0
    assert_clean(first)
    final = site / "out" / "ru"
    before = _hashes(final)
    assert any(name.endswith(".pdf") for name in before)

    # 1. killed at the first file written into the staging folder
    _edit(site, "Факелы гаснут", "Лампы гаснут")
    killed, code = _build(site, "writing", {"events": ["open", "os.link"],
                                            "pattern": r"/\.ru\.staging-\d+/"})
    assert killed is None and code == -signal.SIGKILL
    assert _hashes(final) == before  # the previous outputs, untouched
    assert list((site / "out").glob(".ru.staging-*"))  # it was cut off while writing

    # 2. killed after the old folder moved aside, before the new one moved in
    killed, code = _build(site, "swap", {"events": ["os.rename"],
                                         "pattern": r"/\.ru\.staging-\d+$"})
    assert killed is None and code == -signal.SIGKILL
    assert not final.exists() and list((site / "out").glob(".ru.old-*"))
    recover(final)  # what the next build does first
    assert _hashes(final) == before

    # 3. the next build finishes the edit and leaves nothing behind
    again, code = _build(site, "again")
    assert code == 0 and again is not None and again["code"] == 0
    after = _hashes(final)
    assert after != before and set(after) == set(before)
    # hidden staging or old folders would be leftovers; `.lock` is the build lock's file, which
    # stays (a later build takes the lock on it; it holds no output)
    leftovers = [p.name for p in (site / "out").iterdir()
                 if p.name.startswith(".") and p.name != ".lock"]
    assert leftovers == [], leftovers
