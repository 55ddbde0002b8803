"""The builder: one long-lived process that re-checks and rebuilds a pack on request.

It runs the pipeline's own stages: `analyze()` (load, validate, resolve), then the cached cards
build (`pipeline.cards.build`: only faces whose content changed are rendered again). The slower
work that follows, the plug-in checks and a requested rulebook, runs in forked children ("jobs")
that a newer edit cancels. Staying alive keeps what rendering has loaded (the renderer, parsed
styles, font subsets) warm from one edit to the next.

The process leads its own process group, so that stopping it stops every render worker and
check it started (`BuilderProcess.stop`); it also dies with the process that started it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from pipeline.cards.progress import Progress as StageProgress
from pipeline.diagnostics import Diagnostic, RelicError, Severity, Span, error, relative
from pipeline.processes import die_with_parent
from pipeline.serve import reports
from pipeline.serve.messages import Built, Checked, Progress, Report, Request, Settings

NEVER_PRUNE = float("inf")  # pruning the shared cache is `relic build`'s, under its lock


class Stopped:
    """The builder's pipe closed: it exited or was killed."""


class PipeProgress(StageProgress):
    """The cards stage's progress, sent to the loop (at most one message per 5% step)."""

    def __init__(self, send: Callable[[Any], None], generation: int):
        super().__init__(quiet=True)
        self.send, self.generation = send, generation
        self.label, self.done, self.total, self.step = "", 0, 0, -1
        # each step's label and when it started: before the stage's first step, it expands
        # the model into components and checks the fonts
        self.steps: list[tuple[str, float]] = [("prepare", time.perf_counter())]

    def start(self, label: str, total: int) -> None:
        self.label, self.done, self.total, self.step = label, 0, total, -1
        self.mark(label.split(" (")[0])
        self._tell()

    def mark(self, label: str) -> None:
        self.steps.append((label, time.perf_counter()))

    def timings(self, until: float) -> tuple[tuple[str, float], ...]:
        """Seconds from each step's start to the next's (the last one ends at `until`)."""
        ends = [t for _, t in self.steps[1:]] + [until]
        return tuple((label, round(end - t, 3)) for (label, t), end in zip(self.steps, ends,
                                                                           strict=True))

    def advance(self, n: int = 1) -> None:
        self.done += n
        self._tell()

    def note(self, message: str) -> None:
        self.send(Progress(self.generation, message))

    def finish(self) -> None:
        pass

    def _tell(self) -> None:
        step = 20 * self.done // max(self.total, 1)
        if step != self.step:
            self.step = step
            self.send(Progress(self.generation, self.label, self.done, self.total))


# ----- inside the builder process --------------------------------------------------------------


def main(conn: Connection, settings: Settings) -> None:
    """The builder process: lead a process group, then serve requests until told to stop."""
    with contextlib.suppress(OSError):
        os.setpgrp()
    die_with_parent(signal.SIGTERM)  # its handler ends the builder's whole group
    signal.signal(signal.SIGTERM, _stop_group)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the loop decides when the builder stops
    from pipeline.commands.output import CacheLock
    from pipeline.stages import remember_files

    remember_files()  # an edit re-reads and re-validates only the files it changed
    # a shared hold on the render cache for as long as the builder lives: `relic build` prunes
    # it only when no other build uses it (this one never prunes)
    with CacheLock(settings.cache_dir):
        Builder(settings, conn).loop()


def _stop_group(signum: int, frame: object) -> None:
    """SIGTERM: take down this process and everything it started (its whole group)."""
    if os.getpgrp() == os.getpid():
        os.killpg(os.getpid(), signal.SIGKILL)
    os._exit(143)


@dataclass
class Job:
    """Slow work in a forked child: its pipe carries progress, then one final message."""

    name: str
    process: multiprocessing.Process
    conn: Connection
    generation: int


class Builder:
    def __init__(self, settings: Settings, conn: Connection):
        self.settings = settings
        self.conn = conn
        self.model = None  # the model of the last good build
        self.folders: dict[str, Path] = {}
        self.previous: dict[str, str] = {}  # files of the last good build: path -> sha256
        self.jobs: list[Job] = []

    def send(self, message: Any) -> None:
        self.conn.send(message)

    def loop(self) -> None:
        while True:
            ready = wait([self.conn, *(job.conn for job in self.jobs)])
            for job in [j for j in self.jobs if j.conn in ready]:
                self._from_job(job)
            if self.conn in ready:
                try:
                    request = self.conn.recv()
                except EOFError:
                    return
                if request is None:
                    return
                self.handle(request)

    def handle(self, request: Request) -> None:
        """One request; a bug below becomes an `internal` diagnostic, not a dead builder."""
        started = time.perf_counter()
        try:
            if request.what == "cards":
                self.cards(request.generation)
            elif request.what == "odds":
                self.send(reports.odds(self.model, request.generation, self.send)
                          if self.model is not None else self._no_model(request))
            elif request.what == "rulebook":
                self._rulebook(request)
        except Exception as exc:  # reported where the user looks, with its type
            problem = (error("internal", f"{type(exc).__name__}: {exc}", self._manifest_span(),
                             hint="this is a bug in Relic Press, not in the content"),)
            if request.what == "cards":
                self.send(Built(request.generation, False, problem,
                                time.perf_counter() - started))
            else:
                self.send(Report(request.generation, request.what, diagnostics=problem))

    # ----- cards --------------------------------------------------------------------------

    def cards(self, generation: int) -> None:
        from pipeline.stages import analyze

        started = time.perf_counter()
        self._cancel_jobs()  # their results would describe the content before this edit
        self.send(Progress(generation, "checking the content"))
        analysis = analyze(self.settings.pack_dir, plugins=False)
        checked = time.perf_counter()
        found = tuple(sorted(analysis.diagnostics, key=Diagnostic.sort_key))
        if not analysis.ok or analysis.model is None:
            self.send(Built(generation, False, found, time.perf_counter() - started))
            return
        try:
            with self._folder(analysis.model):
                built = self._build(analysis.model, generation, found, started,
                                    (("check", round(checked - started, 3)),))
        except RelicError as exc:
            problems = tuple(sorted({*found, *exc.diagnostics}, key=Diagnostic.sort_key))
            self.send(Built(generation, False, problems, time.perf_counter() - started))
            return
        self.send(built)
        if built.checks:
            self._start("checks", generation, _checks, analysis.model, generation)

    @contextlib.contextmanager
    def _folder(self, model) -> Iterator[None]:
        """The output folder, held as `relic build` holds it: a build of the same pack into
        the same folder (`relic watch` writes where `relic build` does) waits for no one."""
        from pipeline.commands.output import FolderError, build_lock

        try:
            with build_lock(self.settings.out_root, model.pack.id):
                yield
        except FolderError as exc:
            raise RelicError([error("build-running", str(exc), self._manifest_span(),
                                    hint="the next change builds again")]) from None

    def _build(self, model, generation: int, found: tuple[Diagnostic, ...], started: float,
               timings: tuple[tuple[str, float], ...]) -> Built:
        from pipeline.cards import BuildOptions, build
        from pipeline.checks.assets import check as check_assets
        from pipeline.serve.gallery import gallery, read_manifest

        unsafe = [d for d in check_assets(model) if d.severity is Severity.ERROR]
        if unsafe:
            raise RelicError(unsafe)
        s = self.settings
        options = BuildOptions(out_root=s.out_root, cache_dir=s.cache_dir, langs=s.langs,
                               duplex=s.duplex, png=True, pdf=s.pdf, workers=s.jobs,
                               keep_cache_days=NEVER_PRUNE)
        progress = PipeProgress(self.send, generation)
        result = build(model, options, progress)
        progress.mark("gallery")
        files: dict[str, str] = {}
        manifests = {}
        for lang in result.langs:
            manifests[lang.lang] = read_manifest(lang.folder, lang.lang)
            files.update({f"{lang.lang}/{p}": sha for p, sha in manifests[lang.lang].files.items()})
        changed = tuple(sorted(p for p, sha in files.items() if self.previous.get(p) != sha))
        self.previous, self.model = files, model
        self.folders = {lang.lang: lang.folder for lang in result.langs}
        if s.rulebook:
            changed += self._rulebooks(model, generation)
        shown = gallery(model, manifests[result.langs[0].lang]) if s.gallery else None
        timings += progress.timings(time.perf_counter())
        return Built(generation, True, found, time.perf_counter() - started, shown, changed,
                     tuple(str(f) for f in self.folders.values()), result.components,
                     result.rendered, checks=True, timings=timings)

    def _rulebooks(self, model, generation: int) -> tuple[str, ...]:
        """`relic watch --rulebook`: the rulebook of every built language, beside its cards."""
        from pipeline.cards.outputs import refresh_manifest

        if not (model.pack.root / "rules").is_dir():
            return ()
        written = []
        s = self.settings
        for lang, folder in self.folders.items():
            self.send(Progress(generation, f"rulebook ({lang})"))
            reports.book(model, lang, folder, s.cache_dir, s.rulebook_paper, s.jobs)
            refresh_manifest(folder)
            written.append(f"{lang}/rulebook.pdf")
        return tuple(written)

    # ----- reports and checks: jobs in forked children ------------------------------------

    def _rulebook(self, request: Request) -> None:
        if self.model is None or not self.folders:
            self.send(self._no_model(request))
            return
        if any(job.name == "rulebook" for job in self.jobs):
            return  # one is under way; its report answers this request too
        self._start("rulebook", request.generation, self._rulebook_job, request.generation)

    def _rulebook_job(self, generation: int) -> Report:
        s = self.settings
        lang = next(iter(self.folders))
        return reports.rulebook(self.model, lang, s.out_root, s.cache_dir, generation, self.send,
                                s.rulebook_paper, s.jobs)

    def _start(self, name: str, generation: int, work: Callable[..., Any], *args: Any) -> None:
        """Run `work(*args)` in a forked child; what it sends and returns comes back here."""
        context = multiprocessing.get_context("fork")
        ours, theirs = context.Pipe(duplex=False)
        process = context.Process(target=_job, args=(self, name, generation, theirs, work, args),
                                  daemon=True, name=f"relic-{name}")
        process.start()
        theirs.close()
        self.jobs.append(Job(name, process, ours, generation))

    def _from_job(self, job: Job) -> None:
        try:
            message = job.conn.recv()
        except EOFError:  # it died without its final word
            message = self._crashed(job)
        if isinstance(message, Progress):
            self.send(message)
            return
        job.conn.close()
        job.process.join()
        self.jobs.remove(job)
        self.send(message)

    def _crashed(self, job: Job) -> Any:
        return self.failed(job.name, job.generation, error(
            f"{job.name}-crashed", f"the {job.name} stopped without a result (exit code "
            f"{job.process.exitcode})", self._manifest_span()))

    @staticmethod
    def failed(name: str, generation: int, problem: Diagnostic) -> Any:
        """The final message of a job that could not finish."""
        if name == "checks":
            return Checked(generation, (problem,), 0.0)
        return Report(generation, name, diagnostics=(problem,))

    def _cancel_jobs(self) -> None:
        for job in self.jobs:
            job.process.kill()
            job.process.join()
            job.conn.close()
        self.jobs = []

    def _no_model(self, request: Request) -> Report:
        return reports.no_model(request.generation, request.what, self._manifest_span())

    def _manifest_span(self) -> Span:
        return Span(relative(self.settings.pack_dir / "pack.yaml"))


def _job(builder: Builder, name: str, generation: int, conn: Connection,
         work: Callable[..., Any], args: tuple) -> None:
    """A forked child: this copy of the builder talks through the job's own pipe."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    builder.conn = conn
    builder.jobs = []
    try:
        result = work(*args)
    except Exception as exc:  # a bug: said where the user looks
        result = builder.failed(name, generation, error(
            "internal", f"{type(exc).__name__}: {exc}", builder._manifest_span(),
            hint="this is a bug in Relic Press, not in the content"))
    conn.send(result)
    conn.close()


def _checks(model, generation: int) -> Checked:
    """The plug-in checks (the model came with the fork)."""
    from pipeline.stages import run_plugin_checks

    started = time.perf_counter()
    found = sorted(run_plugin_checks(model), key=Diagnostic.sort_key)
    return Checked(generation, tuple(found), time.perf_counter() - started)


# ----- in the loop's process ---------------------------------------------------------------


class BuilderProcess:
    """Starts the builder, sends it requests, hands its messages to `on_message` (from a
    reader thread), and stops it with everything it started."""

    def __init__(self, settings: Settings, on_message: Callable[[Any], None]):
        self.settings = settings
        self.on_message = on_message
        self.process: multiprocessing.Process | None = None
        self.conn: Connection | None = None
        self.reader: threading.Thread | None = None

    def start(self) -> None:
        context = multiprocessing.get_context("spawn")  # a clean process: the loop has threads
        ours, theirs = context.Pipe()
        self.process = context.Process(target=main, args=(theirs, self.settings),
                                       name="relic-builder")
        self.process.start()
        theirs.close()
        self.conn = ours
        self.reader = threading.Thread(target=self._read, args=(ours,), daemon=True,
                                       name="relic-builder-reader")
        self.reader.start()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def send(self, request: Request) -> None:
        if self.conn is None:
            raise RuntimeError("the builder is not running")
        self.conn.send(request)

    def _read(self, conn: Connection) -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                self.on_message(Stopped())
                return
            self.on_message(message)

    def stop(self, timeout: float = 2.0) -> None:
        """Ask politely, then end the whole process group; returns when it is gone."""
        process, conn = self.process, self.conn
        self.process = self.conn = None
        if process is None:
            return
        if conn is not None:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(None)
        process.join(0.3)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if process.exitcode is not None and not _group_alive(process.pid):
                break
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
            with contextlib.suppress(ProcessLookupError):
                if process.exitcode is None:
                    os.kill(process.pid, sig)
            process.join(timeout)
        if conn is not None:
            conn.close()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True
