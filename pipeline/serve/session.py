"""The edit loop shared by `relic serve` and `relic watch`.

`watchfiles` watches the pack, the project's schemas, templates and assets. A change to the pack
asks the builder for a rebuild (at most one at a time: edits made while it runs are gathered
into the next one); a change to schemas, templates or assets restarts the builder first, so
that nothing it loaded before the change survives it. Every message of the builder reaches the
`listener` in the loop's thread.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.cards.formats import PROJECT_ROOT
from pipeline.serve.builder import BuilderProcess, Stopped
from pipeline.serve.messages import Built, Request, Settings

PROJECT_DIRS = ("schemas", "templates", "assets")
IGNORED_SUFFIXES = (".swp", ".swx", ".tmp", "~", ".part")


@dataclass(frozen=True)
class Change:
    """What one batch of file events touched."""

    paths: tuple[str, ...]
    restart: bool  # something outside the pack (schemas, templates, assets)


def watched(pack_dir: Path) -> tuple[Path, ...]:
    return (pack_dir, *(PROJECT_ROOT / d for d in PROJECT_DIRS if (PROJECT_ROOT / d).is_dir()))


def interesting(path: str) -> bool:
    """Editors' swap and backup files and hidden files never start a rebuild."""
    name = Path(path).name
    return not (name.startswith((".", "#")) or name.endswith(IGNORED_SUFFIXES))


def classify(pack_dir: Path, paths: Iterable[str]) -> Change | None:
    kept = tuple(sorted(p for p in paths if interesting(p)))
    if not kept:
        return None
    pack = pack_dir.resolve()
    outside = any(pack not in Path(p).resolve().parents for p in kept)
    return Change(kept, outside)


class Contents:
    """The bytes (sha256) each changed file had when a build was last asked for: one save
    often comes as two batches of events (truncate, then write), and the second one, with
    nothing new in it, needs no build of its own."""

    def __init__(self) -> None:
        self.seen: dict[str, bytes] = {}

    def new(self, paths: Iterable[str]) -> bool:
        """Whether any of `paths` now differs from what a build was asked for (an unreadable
        path, a folder or a deleted file always counts); remembers what they hold now."""
        fresh = False
        for path in paths:
            try:
                digest = hashlib.sha256(Path(path).read_bytes()).digest()
            except OSError:
                self.seen.pop(path, None)
                fresh = True
                continue
            fresh |= self.seen.get(path) != digest
            self.seen[path] = digest
        return fresh


class Session:
    def __init__(self, settings: Settings, listener: Callable[[Any], None]):
        self.settings = settings
        self.listener = listener
        self.contents = Contents()
        self.generation = 0
        self.busy = False
        self.dirty = False
        self.restart_due = False
        self.builder: BuilderProcess | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    # ----- the builder ----------------------------------------------------------------------

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._spawn()
        self.rebuild()

    def _spawn(self) -> None:
        builder = BuilderProcess(self.settings, lambda m: self._from_thread(builder, m))
        self.builder = builder
        builder.start()

    def _from_thread(self, builder: BuilderProcess, message: Any) -> None:
        assert self.loop is not None
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._receive, builder, message)

    def _receive(self, builder: BuilderProcess, message: Any) -> None:
        if builder is not self.builder:
            return  # a builder that was replaced or stopped: nothing it says matters now
        if isinstance(message, Stopped):
            self.busy = False
            self.listener(message)
            return
        if isinstance(message, Built) and message.generation == self.generation:
            self.busy = False
        self.listener(message)
        if not self.busy and (self.dirty or self.restart_due):
            self.rebuild()

    def rebuild(self) -> None:
        """A new build now, or as soon as the running one is done."""
        if self.busy:
            self.dirty = True
            return
        if self.restart_due or not self._alive():
            self.restart_due = False
            if self.builder is not None:
                self.builder.stop()
            self._spawn()
        self.dirty = False
        self.busy = True
        self.generation += 1
        self._send(Request(self.generation, "cards"))

    def ask(self, what: str) -> None:
        """A report (odds, rulebook) from the builder; its answer comes to the listener."""
        if not self._alive():
            self.rebuild()  # a report needs a model: the rebuild gives it first
        self._send(Request(self.generation, what))

    def _alive(self) -> bool:
        process = self.builder.process if self.builder is not None else None
        return process is not None and process.is_alive()

    def _send(self, request: Request) -> None:
        assert self.builder is not None
        self.builder.send(request)
        self.listener(request)

    def changed(self, change: Change) -> None:
        if not self.contents.new(change.paths) and not change.restart and self._alive():
            return  # the bytes a build already has (or will read): the same save, told twice
        self.listener(change)
        if change.restart:
            self.restart_due = True
        self.rebuild()

    def stop(self) -> None:
        builder, self.builder = self.builder, None
        if builder is not None:
            builder.stop()

    # ----- watching ---------------------------------------------------------------------------

    async def watch(self, stop: asyncio.Event) -> None:
        """Rebuild on every change until `stop` is set."""
        from watchfiles import awatch

        paths = watched(self.settings.pack_dir)
        async for events in awatch(*paths, stop_event=stop, debounce=400, step=30,
                                   recursive=True):
            change = classify(self.settings.pack_dir, (p for _, p in events))
            if change is not None:
                self.changed(change)
