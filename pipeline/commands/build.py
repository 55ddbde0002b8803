"""`relic build --pack ID --lang ru|all`: print-ready PDFs, PNGs, the rulebook and a manifest.

    load the model, refuse unsafe assets       (this process)
    ├─ the cards: render faces, impose, write   (this process and its render workers)
    └─ the rulebooks: check, compose, lay out   (a second process and its layout workers,
       every language, through the cache         started before the cards, so that neither
                                                  kind of work waits for the other)
    link each book into its language's folder, list it in the manifest, prune the cache

Both cores stay busy: while the card workers render, the book's units are laid out beside
them, with placeholders for the component pictures; only the book's assembly waits for the
pictures it shows.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.commands.output import CacheLock, FolderError, build_lock, usable_folder

if TYPE_CHECKING:
    from pipeline.cards import BuildResult
    from pipeline.cards.progress import Progress
    from pipeline.cards.render import Workers
    from pipeline.model import Model

NEVER = float("inf")  # the card build's own pruning is off: this command prunes, under a lock


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build print-ready PDFs, PNGs and the rulebook of a pack")
    p.add_argument("--pack", required=True, help="the pack id (a folder in the content folder)")
    p.add_argument("--lang", default="all", help="a language of the pack, or 'all' (default)")
    p.add_argument("--content", default="content", help="the content folder (default: content)")
    p.add_argument("--out", default=None,
                   help="output folder; files go to OUT/<lang>/ (default: build/<pack>)")
    p.add_argument("--cache", default="build/.cache", help="render cache (default: build/.cache)")
    p.add_argument("--paper", default=None, help="sheet for print-and-play: a4, letter, ...")
    p.add_argument("--no-duplex", action="store_true",
                   help="only the variant with backs on separate sheets")
    p.add_argument("--proof", action="store_true", help="mark provisional values on the cards")
    p.add_argument("--png", action="store_true",
                   help="also write a 300 DPI PNG of every component (png/)")
    p.add_argument("--no-png", action="store_true", help=argparse.SUPPRESS)  # the default now
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: all cores)")
    p.add_argument("--keep-cache-days", type=_days, default=None, metavar="DAYS",
                   help="remove cache files no build used for DAYS days (default 14)")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.add_argument("--rulebook-paper", default=None,
                   help="page size of the rulebook: a5 (default) or a4")
    p.add_argument("--booklet", action="store_true",
                   help="also write rulebook-booklet.pdf (saddle-stitch, two-up on A4 landscape)")
    p.add_argument("--no-rulebook", action="store_true", help="cards only, no rulebook")
    p.add_argument("--shop", default=None, metavar="VENDOR",
                   help="files for a print vendor instead of the print-and-play set: generic, "
                        "tgc, mpc, drivethru (templates/print/vendors/; a pack adds its own in "
                        "print/vendors/), drawn at the vendor's sizes into "
                        "build/<pack>/shops/VENDOR/<lang>/ (no rulebook)")
    p.set_defaults(run=run)


def _days(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a number of days (0 or more)")
    return value


def usage(message: str) -> int:
    print(f"relic: error[usage]: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from pipeline.cards.render import Workers, default_workers

    cache_dir = Path(args.cache)
    try:
        usable_folder(cache_dir, "cache folder")
        if args.out:
            usable_folder(Path(args.out), "output folder")
    except FolderError as exc:
        return usage(str(exc))
    jobs = args.jobs or default_workers()
    with Workers(jobs) as workers:  # they import WeasyPrint while the model loads
        model = _load(args)
        shop = _shop_options(model, args)
        subfolder = shop.pop("subfolder", "")
        out_root = Path(args.out) if args.out else Path("build") / model.pack.id / subfolder
        try:
            usable_folder(out_root, "output folder")
            with build_lock(out_root, model.pack.id), CacheLock(cache_dir) as cache_lock:
                _build(args, model, out_root, cache_dir, jobs, workers, cache_lock, shop)
        except FolderError as exc:
            return usage(str(exc))
    return 0


def _load(args: argparse.Namespace) -> Model:
    """The model, once its assets are known to be safe to read."""
    from pipeline.checks.assets import check as check_assets
    from pipeline.diagnostics import RelicError, Severity
    from pipeline.stages import files_cached_in, load_model, pack_dir_for

    with files_cached_in(Path(args.cache)):
        model = load_model(pack_dir_for(Path(args.content), args.pack))
    unsafe = [d for d in check_assets(model) if d.severity is Severity.ERROR]
    if unsafe:
        raise RelicError(unsafe)
    return model


def _shop_options(model: Model, args: argparse.Namespace) -> dict[str, Any]:
    """With --shop VENDOR: what the vendor changes in the build's options (pipeline/shops)."""
    if not args.shop:
        return {}
    from pipeline.shops import build_options

    return build_options(model, args.shop, quiet=args.quiet)


def _build(args: argparse.Namespace, model: Model, out_root: Path, cache_dir: Path, jobs: int,
           workers: Workers, cache_lock: CacheLock, shop: dict[str, Any]) -> None:
    from pipeline.cards import BuildOptions, build
    from pipeline.cards.progress import Progress

    began = time.time() - 1  # file times are coarse
    langs = _languages(model, args)
    progress = Progress(quiet=args.quiet)
    books = None
    if _wants_book(model, args):
        _load_print_set(model, args, cache_dir)
        books = Books.start(model, langs, args, cache_dir, jobs)
    try:
        options = BuildOptions(
            out_root=out_root, cache_dir=cache_dir,
            langs=() if args.lang == "all" else tuple(args.lang.split(",")),
            paper=args.paper, duplex=not args.no_duplex, proof=args.proof,
            png=(args.png and not args.no_png) or shop.pop("png", False), workers=jobs,
            keep_cache_days=NEVER, **shop)
        result = build(model, options, progress, workers)
        if books is not None:
            books.cards_done()
        _report_cards(result, args)
        if books is not None:
            books.finish(result, progress, args)
    finally:
        if books is not None:
            books.stop()
    _prune(cache_dir, args, began, cache_lock)


def _load_print_set(model: Model, args: argparse.Namespace, cache_dir: Path) -> None:
    """Read the print profile and its layouts (checked against their schemas, or taken from
    the cache's checked copies) once, before the book process is forked: both processes then
    hold them, instead of each reading and checking them (about a second of CPU)."""
    from pipeline.cards import _layout_text
    from pipeline.cards.faces.spec import remember_checked_layouts
    from pipeline.cards.formats import load_profile

    remember_checked_layouts(cache_dir)
    _layout_text(model, load_profile(model.pack, args.paper))


def _languages(model: Model, args: argparse.Namespace) -> tuple[str, ...]:
    return tuple(model.pack.languages) if args.lang == "all" else tuple(args.lang.split(","))


def _wants_book(model: Model, args: argparse.Namespace) -> bool:
    from pipeline.rulebook.source import languages_present

    return not (args.no_rulebook or args.shop) and bool(languages_present(model.pack.root))


def _report_cards(result: BuildResult, args: argparse.Namespace) -> None:
    if args.quiet:
        return
    for lang in result.langs:
        print(f"relic: built {lang.folder} ({lang.components} components, {lang.faces} faces,"
              f" {lang.rendered} rendered)", file=sys.stderr)
    secs = result.seconds or float("inf")
    print(f"relic: {result.components} components ({result.faces} distinct faces) in "
          f"{result.seconds:.2f} s: {result.components / secs:.0f} components/s, "
          f"{result.faces / secs:.0f} faces/s; "
          + ", ".join(f"{name} {t:.2f} s" for name, t in result.stages), file=sys.stderr)


def _prune(cache_dir: Path, args: argparse.Namespace, began: float, lock: CacheLock) -> None:
    from pipeline.cards.prune import KEEP_DAYS, prune

    days = KEEP_DAYS if args.keep_cache_days is None else args.keep_cache_days
    if not lock.alone():  # another build is using the cache: its files stay
        return
    pruned = prune(cache_dir, days, now=began)
    if pruned.files and not args.quiet:
        print(f"relic: removed {pruned.files} cache files ({pruned.bytes / 1e6:.1f} MB) no "
              f"build used for {pruned.days:g} days", file=sys.stderr)


# ----- the rulebooks, beside the cards ----------------------------------------------------------


@dataclass
class BookReport:
    lang: str
    pdf: Path | None = None
    units: int = 0
    laid_out: int = 0
    rounds: int = 0
    cached: bool = False
    seconds: float = 0.0
    problems: list[Any] = field(default_factory=list)


class Books:
    """Every requested language's rulebook, made in a second process while the cards build."""

    def __init__(self, process, queue, cards_event, langs: tuple[str, ...]):
        self.process = process
        self.queue = queue
        self.cards_event = cards_event
        self.langs = langs
        self.reports: dict[str, BookReport] = {}
        self.units: dict[str, tuple[int, int, int]] = {}  # lang -> (round, done, to do)

    @classmethod
    def start(cls, model: Model, langs: tuple[str, ...], args: argparse.Namespace,
              cache_dir: Path, jobs: int) -> Books:
        ctx = multiprocessing.get_context("fork")
        queue, cards_event = ctx.Queue(), ctx.Event()
        paper = args.rulebook_paper or model.pack.data.get("rules", {}).get("paper", "a5")
        settings = {"paper": paper, "proof": args.proof, "booklet": args.booklet}
        process = ctx.Process(target=_books_process, name="relic-rulebooks",
                              args=(model, langs, settings, cache_dir, jobs, queue, cards_event))
        process.start()
        return cls(process, queue, cards_event, langs)

    def cards_done(self) -> None:
        """The card build has rendered (and written) everything: a picture still missing will
        not come from it, so the book renders it itself."""
        self.cards_event.set()

    def _receive(self, timeout: float | None) -> bool:
        import queue as queues

        try:
            message = self.queue.get(timeout=timeout)
        except queues.Empty:
            return False
        kind, lang, payload = message
        if kind == "units":
            self.units[lang] = payload
        elif kind in ("done", "failed"):
            self.reports[lang] = payload
        return True

    def finish(self, result: BuildResult, progress: Progress, args: argparse.Namespace) -> None:
        """Wait for every book (with progress), then file each in its language's folder."""
        from pipeline.cards.outputs import refresh_manifest
        from pipeline.diagnostics import RelicError
        from pipeline.rulebook import install

        shown: tuple[int, int] | None = None  # (round, units to lay out) of the bar shown
        counted = 0
        while len(self.reports) < len(self.langs):
            if not self.process.is_alive() and self.queue.empty():
                raise RuntimeError("the rulebook process ended without a result")
            if self._receive(0.1):
                while self._receive(0):  # what came while the cards were built: the latest
                    pass
            busy = [u for lang, u in self.units.items() if lang not in self.reports]
            if not busy:
                continue
            state = (max(r for r, _, _ in busy), sum(t for _, _, t in busy))
            if state != shown:
                label = f"laying out the rulebook ({', '.join(self.langs)})"
                if state[0] > 1:
                    label += f", round {state[0]} (with the page numbers of round {state[0] - 1})"
                progress.start(label, state[1])
                shown, counted = state, 0
            done = sum(d for _, d, _ in busy)
            if done > counted:
                progress.advance(done - counted)
                counted = done
        progress.finish()
        problems = [d for r in self.reports.values() for d in r.problems]
        if problems:
            raise RelicError(problems)
        folders = {lang.lang: lang.folder for lang in result.langs}
        for lang in self.langs:
            report = self.reports[lang]
            folder = folders[lang]
            written = install(report.pdf, folder, args.booklet)
            refresh_manifest(folder)
            if not args.quiet:
                how = ("from the cache" if report.cached and not report.laid_out else
                       f"{report.laid_out} of {report.units} parts laid out, "
                       f"{report.rounds} round{'s' if report.rounds > 1 else ''}")
                for path in written:
                    print(f"relic: wrote {path} ({how}, {report.seconds:.2f} s)",
                          file=sys.stderr)

    def stop(self) -> None:
        """End the book process and its layout workers (its own process group), if the build
        ended before them (an error, Ctrl-C)."""
        import os
        import signal

        if self.process.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
        self.process.join(timeout=5)


def _books_process(model: Model, langs: tuple[str, ...], settings: dict[str, Any],
                   cache_dir: Path, jobs: int, queue, cards_event) -> None:
    """In the second process: every language's book, laid out by a pool of `jobs` workers.
    The process leads its own group, so that `Books.stop` ends its workers with it."""
    import os
    import threading
    from concurrent.futures import ProcessPoolExecutor

    from pipeline.rulebook import laid_out_before
    from pipeline.rulebook.layout import started, warm

    os.setpgrp()
    executor = ProcessPoolExecutor(max_workers=jobs,
                                   mp_context=multiprocessing.get_context("fork"))
    try:
        # the first task forks every worker at once (a fork pool starts them all then), from
        # this one thread: forking while other threads run is unsafe. A book never laid out
        # with this cache will be laid out whole: the workers import WeasyPrint while it is
        # composed. Otherwise most builds lay out nothing, and a worker imports it only for
        # its first unit (about a second of CPU saved per worker, beside the card work).
        first = not all(laid_out_before(model, lang, cache_dir, paper=settings["paper"],
                                        proof=settings["proof"]) for lang in langs)
        for _ in range(jobs):
            executor.submit(warm if first else started)
        threads = [threading.Thread(target=_one_book, args=(model, lang, settings, cache_dir,
                                                            executor, queue, cards_event))
                   for lang in langs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        executor.shutdown(cancel_futures=True)


def _one_book(model: Model, lang: str, settings: dict[str, Any], cache_dir: Path, executor,
              queue, cards_event) -> None:
    from pipeline.diagnostics import RelicError, Span, error
    from pipeline.rulebook import FacePictures, make_book, prepare

    started = time.perf_counter()
    report = BookReport(lang)
    try:
        pictures = FacePictures(model, lang, cache_dir, proof=settings["proof"],
                                faces_ready=cards_event.is_set)
        composed = prepare(model, lang, paper=settings["paper"], proof=settings["proof"],
                           pictures=pictures)
        finished = make_book(
            composed, model, cache_dir, pictures=pictures, booklet=settings["booklet"],
            executor=executor,
            progress=lambda rnd, done, total: queue.put(("units", lang, (rnd, done, total))))
        report.pdf = finished.pdf
        report.units, report.laid_out = finished.units, finished.laid_out
        report.rounds, report.cached = finished.rounds, finished.cached
    except RelicError as exc:
        report.problems = list(exc.diagnostics)
    except Exception as exc:  # reported like any internal error, with the book's language
        report.problems = [error("internal", f"rulebook ({lang}): {type(exc).__name__}: {exc}",
                                 Span(str(model.pack.root)))]
    report.seconds = time.perf_counter() - started
    queue.put(("failed" if report.problems else "done", lang, report))
