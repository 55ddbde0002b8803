"""Progress: a rich bar on a terminal, plain lines in CI or when output is not a TTY."""

from __future__ import annotations

import os
import sys
from typing import TextIO


class Progress:
    """Counts work done in named steps; `quiet` prints nothing."""

    def __init__(self, stream: TextIO | None = None, quiet: bool = False):
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.fancy = not quiet and self.stream.isatty() and not os.environ.get("CI")
        self._bar = None
        self._task = None
        self._done = 0
        self._total = 0
        self._label = ""
        self._last_line = -1

    def start(self, label: str, total: int) -> None:
        self.finish()
        self._label, self._total, self._done = label, total, 0
        if self.quiet:
            return
        if self.fancy:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), transient=True,
                                 console=None)
            self._bar.start()
            self._task = self._bar.add_task(label, total=total)
        else:
            self._line()

    def advance(self, n: int = 1) -> None:
        self._done += n
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.update(self._task, completed=self._done)
        else:
            self._line()

    def _line(self) -> None:
        # plain mode: at most one line per 10% step, so CI logs stay short
        step = 10 * self._done // max(self._total, 1)
        if step != self._last_line or self._done == self._total:
            if step != self._last_line:
                print(f"relic: {self._label}: {self._done}/{self._total}", file=self.stream,
                      flush=True)
            self._last_line = step

    def note(self, message: str) -> None:
        if not self.quiet:
            self.finish()
            print(f"relic: {message}", file=self.stream, flush=True)

    def finish(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        self._last_line = -1
