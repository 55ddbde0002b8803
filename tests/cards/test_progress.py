"""Progress: plain lines when output is not a terminal or CI is set, a rich bar otherwise."""

from __future__ import annotations

import io

from pipeline.cards.progress import Progress


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_lines_when_not_a_terminal() -> None:
    stream = io.StringIO()
    progress = Progress(stream)
    assert not progress.fancy
    progress.start("ru: rendering", 100)
    for _ in range(100):
        progress.advance()
    progress.finish()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "relic: ru: rendering: 0/100"
    assert lines[-1] == "relic: ru: rendering: 100/100"
    assert len(lines) <= 12  # one line per 10 %, not one per item


def test_ci_variable_forces_plain_lines(monkeypatch) -> None:
    monkeypatch.setenv("CI", "1")
    assert not Progress(FakeTTY()).fancy
    monkeypatch.delenv("CI")
    assert Progress(FakeTTY()).fancy


def test_quiet_prints_nothing() -> None:
    stream = io.StringIO()
    progress = Progress(stream, quiet=True)
    progress.start("x", 3)
    progress.advance(3)
    progress.note("done")
    assert stream.getvalue() == ""
