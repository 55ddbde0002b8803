"""`relic build --pack ID --lang ru|all`: print-ready PDFs, PNGs, the rulebook and a manifest.

    load the model (each file through the cache), refuse unsafe assets   (a second process,
                                           while this one imports the card code: `Loading`)
    ├─ the rulebooks: check, compose, lay out    (a second process and its layout workers,
    │  every language, through the cache          started right after loading)
    ├─ the print set: profile, components, fonts (this process; sent to the book process,
    │                                             which draws its pictures from it)
    └─ the cards: render faces, impose, write    (this process and its render workers)
    link each book into its language's folder, list it in the manifest, prune the cache

Both cores stay busy: while the card workers render, the book's units are laid out beside
them, with placeholders for the component pictures; only the book's assembly waits for the
pictures it shows. While the print set is worked out, the book process imports its code and
parses the chapters. A book that nothing it reads has changed for (`rulebook/record.py`: its
files, the fields of the model it read, the pictures it shows) is linked from the cache, and
no book process starts.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import multiprocessing
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.commands.output import CacheLock, FolderError, build_lock, usable_folder

if TYPE_CHECKING:
    from pipeline.cards import BuildResult, PrintSet
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
    gc.disable()  # until the model is loaded (`_loaded`)
    try:
        return _run(args)
    finally:
        gc.unfreeze()  # a caller in the same process (a test) collects them again
        gc.enable()


def _loaded(args: argparse.Namespace, loading: Loading | None) -> Model:
    """The model, from the `loading` process if there is one, else loaded here (`_load`).
    The collector is off while the code is imported and the model loads; what they made lives
    as long as the build, so it is then frozen (`gc.freeze`) and the collector, on again,
    looks only at what the build makes after it (its passes over those long-lived objects
    cost a one-card edit about 0.05 s)."""
    try:
        return loading.model(args) if loading is not None else _load(args)
    finally:
        gc.freeze()
        gc.enable()


class Loading:
    """The model loaded in a second process while this one imports what draws and writes the
    cards (`_import_card_code`): each takes about a quarter of a second, on its own core.
    The loading process imports the loader and jsonschema, reads and validates the files the
    file cache does not have, checks the assets and sends the model back whole (pickled); a
    build whose files are all cached never imports the loader or jsonschema here."""

    def __init__(self, process, pipe):
        self.process = process
        self.pipe = pipe

    @classmethod
    def start(cls, args: argparse.Namespace) -> Loading:
        """Forked before any thread starts (`_ask_fonts` starts one)."""
        ctx = multiprocessing.get_context("fork")
        receiving, sending = ctx.Pipe(duplex=False)
        process = ctx.Process(target=_load_into, args=(args, sending), name="relic-load")
        process.start()
        sending.close()  # this end is the child's: its exit then ends the pipe (EOFError)
        return cls(process, receiving)

    def model(self, args: argparse.Namespace) -> Model:
        """The loaded model; the pack's problems raise here as `RelicError`. If the loading
        process failed otherwise (or died), the model is loaded again in this process, where
        a failure is reported like any other."""
        import pickle

        from pipeline.diagnostics import RelicError
        from pipeline.fsutil import UNREADABLE_PICKLE

        try:
            kind, payload = pickle.loads(self.pipe.recv_bytes())
        except UNREADABLE_PICKLE:  # (EOFError: the process ended without sending)
            kind, payload = "failed", None
        finally:
            self.pipe.close()
            self.process.join()
        if kind == "problems":
            raise RelicError(payload)
        return payload if kind == "model" else _load(args)

    def stop(self) -> None:
        """For a build that stops before it takes the model (an error, Ctrl-C): the loading
        process ends now rather than block on a pipe that nobody reads."""
        self.pipe.close()
        self.process.kill()
        self.process.join()


def _load_into(args: argparse.Namespace, sending) -> None:
    """In the loading process: ("model", the model), ("problems", its diagnostics) or
    ("failed", None), pickled into the pipe."""
    import pickle

    from pipeline.diagnostics import RelicError
    from pipeline.processes import die_with_parent

    die_with_parent()

    try:
        message: tuple[str, Any] = ("model", _load(args))
    except RelicError as exc:
        message = ("problems", exc.diagnostics)
    except BaseException:  # the build process loads again and reports it
        message = ("failed", None)
    with contextlib.suppress(OSError):  # the build stopped and closed its end
        sending.send_bytes(pickle.dumps(message, protocol=5))
    sending.close()


def _import_card_code() -> None:
    """What drawing faces, writing files and checking the book's record import (about 0.2 s
    of a one-card edit), imported while the model loads in the other process."""
    import importlib

    for name in ("pipeline.cards.faces",  # layouts, text, expressions: Jinja
                 "pyphen",  # imported by the first face that hyphenates (0.02 s)
                 "pipeline.cards.kept", "pipeline.cards.write",  # reportlab
                 "pipeline.rulebook.record"):
        importlib.import_module(name)


def _run(args: argparse.Namespace) -> int:
    from pipeline.processes import default_workers

    cache_dir = Path(args.cache)
    try:
        usable_folder(cache_dir, "cache folder")
        if args.out:
            usable_folder(Path(args.out), "output folder")
    except FolderError as exc:
        return usage(str(exc))
    jobs = args.jobs or default_workers()
    # forked before the card code is imported: each process imports what it needs, at once
    loading = Loading.start(args) if jobs > 1 else None
    try:
        from pipeline.cards.formats import checked_copies_scope

        with checked_copies_scope():
            return _run_loaded(args, cache_dir, jobs, loading)
    except BaseException:  # (after the model is taken, `stop` finds the process ended)
        if loading is not None:
            loading.stop()
        raise


def _run_loaded(args: argparse.Namespace, cache_dir: Path, jobs: int,
                loading: Loading | None) -> int:
    _import_card_code()
    _ask_fonts()
    if loading is not None:
        _read_default_fonts(cache_dir)
        _digest_project(args)
    from pipeline.cards.render import Workers

    with Workers(jobs) as workers:
        model = _loaded(args, loading)
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


def _ask_fonts() -> None:
    """Ask fontconfig now, while the model loads, for the fonts the cards and the book are set
    in by default (a pack's own fonts are asked for when its profile names them)."""
    from pipeline.cards.fonts import ask_fonts, font_pairs
    from pipeline.cards.formats import DEFAULT_FONTS
    from pipeline.rulebook.glyphs import font_pairs as book_font_pairs

    ask_fonts([*font_pairs(DEFAULT_FONTS), *book_font_pairs()])


def _read_default_fonts(cache_dir: Path) -> None:
    """Read the default card fonts (their copies kept in the cache) while the model loads in
    the other process: most packs print in them. A pack that names its own reads those when
    its profile is known, and a default font that is not installed is reported then, if the
    pack prints in it."""
    from pipeline.cards.faces.spec import remember_checked_layouts
    from pipeline.cards.faces.text import font_set
    from pipeline.cards.fonts import FontError
    from pipeline.cards.formats import DEFAULT_FONTS

    remember_checked_layouts(cache_dir)  # where the read fonts are kept
    with contextlib.suppress(FontError):
        font_set(tuple(sorted(DEFAULT_FONTS.items())))


def _digest_project(args: argparse.Namespace) -> None:
    """Work out what the book records of the project (its code, templates, libraries and
    fonts: `record.project_digest`, kept for the process) while the model loads in the other
    process: the book's record check, after loading, then costs only the pack's own files."""
    if args.no_rulebook or args.shop:
        return
    from pipeline.rulebook.record import project_digest

    project_digest()


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
    from pipeline.cards import BuildOptions, build, prepare
    from pipeline.cards.progress import Progress

    began = time.time() - 1  # file times are coarse
    langs = _languages(model, args)
    progress = Progress(quiet=args.quiet)
    options = BuildOptions(
        out_root=out_root, cache_dir=cache_dir,
        langs=() if args.lang == "all" else tuple(args.lang.split(",")),
        paper=args.paper, duplex=not args.no_duplex, proof=args.proof,
        png=(args.png and not args.no_png) or shop.pop("png", False), workers=jobs,
        keep_cache_days=NEVER, **shop)
    # A book whose every input is as it was when the cache's copy was made is linked from the
    # cache, with no book process (`rulebook/record.py`). Otherwise the book process starts
    # first: it imports its code and parses the chapters while the print set is worked out
    # here, once, and then sent to it (it draws its pictures from it).
    wanted = _wants_book(model, args)
    records = _recorded_books(model, langs, args, cache_dir) if wanted else None
    books = Books.start(model, langs, args, cache_dir, jobs,
                        _warm_workers(model, langs, args, cache_dir, jobs)) \
        if wanted and records is None else None
    if records is not None and not _drawings_hold(model, records):
        # a block the books draw apart changed: they are assembled again with it (if they
        # can be), and the book process measures the block while the print set is worked out
        books = Books.start(model, langs, args, cache_dir, jobs, warm=0, records=records)
        records = None
    try:
        print_set = prepare(model, options)
        if records is not None and not _pictures_hold(model, records, args, cache_dir,
                                                      print_set):
            # a picture changed, nothing else: the book is assembled again with it, beside
            # the cards, from its record (nothing composed or laid out) when the record can
            books = Books.start(model, langs, args, cache_dir, jobs, warm=0, records=records,
                                print_set=print_set)
            records = None
        if books is not None:
            books.give(print_set)
        result = build(model, options, progress, workers, print_set,
                       drawn=books.cards_done if books is not None else None)
        if books is not None:
            books.cards_done()
        _report_cards(result, args)
        if books is not None:
            books.finish(result, progress, args)
        elif records is not None:
            _install_books(records, result, args)
    finally:
        if books is not None:
            books.stop()
    _prune(cache_dir, args, began, cache_lock)


def _book_settings(model: Model, args: argparse.Namespace, lang: str) -> dict[str, Any]:
    paper = args.rulebook_paper or model.pack.data.get("rules", {}).get("paper", "a5")
    return {"lang": lang, "paper": paper, "proof": args.proof, "booklet": args.booklet}


def _recorded_books(model: Model, langs: tuple[str, ...], args: argparse.Namespace,
                    cache_dir: Path) -> dict[str, Any] | None:
    """Every language's book record, if for every one nothing the book read of the files and
    the entities has changed (else None: the books are made)."""
    from pipeline.rulebook import recorded_book

    records = {lang: recorded_book(model, _book_settings(model, args, lang), cache_dir)
               for lang in langs}
    return records if all(records.values()) else None


def _warm_workers(model: Model, langs: tuple[str, ...], args: argparse.Namespace,
                  cache_dir: Path, jobs: int) -> int:
    """How many layout workers import WeasyPrint at once: one a book when every book was
    made before in this cache (an edit: each book likely lays out the one part it changes,
    and a second worker importing WeasyPrint for nothing would slow the first by its CPU),
    else every worker."""
    from pipeline.rulebook import record_path

    made = all(record_path(model, _book_settings(model, args, lang), cache_dir).is_file()
               for lang in langs)
    return min(jobs, len(langs)) if made else jobs


def _drawings_hold(model: Model, records: dict[str, Any]) -> bool:
    """Every block the recorded books draw apart has the words it was drawn with."""
    return all(record.drawings_hold(model) for record in records.values())


def _pictures_hold(model: Model, records: dict[str, Any], args: argparse.Namespace,
                   cache_dir: Path, print_set: PrintSet) -> bool:
    """Every picture the recorded books show is the one the cards now print."""
    from pipeline.rulebook import FacePictures

    return all(record.pictures_hold(FacePictures(model, lang, cache_dir, proof=args.proof,
                                                 print_set=print_set), model)
               for lang, record in records.items())


def _install_books(records: dict[str, Any], result: BuildResult,
                   args: argparse.Namespace) -> None:
    """The recorded books, linked from the cache into their languages' folders."""
    from pipeline.cards.outputs import refresh_manifest
    from pipeline.cards.prune import mark_used
    from pipeline.rulebook import install

    folders = {lang.lang: lang.folder for lang in result.langs}
    for lang, record in records.items():
        mark_used(record.pdf, *record.used)
        written = install(Path(record.pdf), folders[lang], args.booklet)
        refresh_manifest(folders[lang])
        if not args.quiet:
            for path in written:
                print(f"relic: wrote {path} (from the cache: nothing the book shows changed)",
                      file=sys.stderr)


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
          + ", ".join(f"{name} {t:.2f} s ({cpu:.2f} s CPU)"
                      for (name, t), (_, cpu) in zip(result.stages, result.cpu, strict=True)),
          file=sys.stderr)


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
    reassembled: bool = False  # assembled again from its record, with new pictures
    seconds: float = 0.0
    problems: list[Any] = field(default_factory=list)


class Books:
    """Every requested language's rulebook, made in a second process while the cards build."""

    def __init__(self, process, queue, inbox, cards_event, langs: tuple[str, ...],
                 given: bool = False):
        self.process = process
        self.queue = queue
        self.inbox = inbox
        self.cards_event = cards_event
        self.langs = langs
        self.given = given  # the process has the print set from its start
        self.reports: dict[str, BookReport] = {}
        self.units: dict[str, tuple[int, int, int]] = {}  # lang -> (round, done, to do)

    @classmethod
    def start(cls, model: Model, langs: tuple[str, ...], args: argparse.Namespace,
              cache_dir: Path, jobs: int, warm: int,
              records: dict[str, Any] | None = None,
              print_set: PrintSet | None = None) -> Books:
        """`warm`: how many of the `jobs` layout workers import WeasyPrint while the books are
        composed, for the parts they will likely lay out (`_warm_workers`). `records`: the
        books' records, when only pictures they show changed (each book is then assembled
        again from its record, if it can be: `rulebook.reassemble_book`). `print_set`: the
        card build's, if it is worked out already (the process has it from the fork, not
        through `give`)."""
        ctx = multiprocessing.get_context("fork")
        queue, inbox, cards_event = ctx.Queue(), ctx.Queue(), ctx.Event()
        settings = _book_settings(model, args, "")
        process = ctx.Process(target=_books_process, name="relic-rulebooks",
                              args=(model, langs, settings, cache_dir, jobs, queue, cards_event,
                                    inbox, warm, records or {}, print_set))
        process.start()
        return cls(process, queue, inbox, cards_event, langs, given=print_set is not None)

    def give(self, print_set: PrintSet) -> None:
        """The card build's print set, for the book's pictures (`cards.prepare`), unless the
        process started with it."""
        if not self.given:
            self.inbox.put(print_set)

    def cards_done(self) -> None:
        """The card build has drawn every face (they are in the render cache): a picture still
        missing will not come from it, so the book draws it itself."""
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

    def _bar(self) -> tuple[tuple[int, int] | None, int]:
        """((round, units to lay out), units done) of the progress bar: the latest round a book
        still at work is in, counting every book in that round, the finished ones too (so that
        a book done first does not start a new bar); (None, 0) when no book is at work."""
        busy = [r for lang, (r, _, _) in self.units.items() if lang not in self.reports]
        if not busy:
            return None, 0
        now = [(d, t) for r, d, t in self.units.values() if r == max(busy)]
        return (max(busy), sum(t for _, t in now)), sum(d for d, _ in now)

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
            if any(lang not in self.units and lang not in self.reports for lang in self.langs):
                continue  # one bar for every book: wait until each has said what it lays out
            state, done = self._bar()
            if state is None:  # every book is done: so is the bar
                if shown is not None and counted < shown[1]:
                    progress.advance(shown[1] - counted)
                    counted = shown[1]
                continue
            if state != shown:
                label = f"laying out the rulebook ({', '.join(self.langs)})"
                if state[0] > 1:
                    label += f", round {state[0]} (with the page numbers of round {state[0] - 1})"
                progress.start(label, state[1])
                shown, counted = state, 0
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
                rounds = f"{report.rounds} round{'s' if report.rounds > 1 else ''}"
                how = ("from the cache" if report.cached and not report.laid_out else
                       "new pictures put in, nothing composed or laid out"
                       if report.reassembled else
                       f"{report.laid_out} of {report.units} parts laid out, {rounds}"
                       if report.laid_out <= report.units else  # a part laid out twice
                       f"{report.units} parts, {report.laid_out} layouts in {rounds}")
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
            self.process.terminate()  # (a process stopped before it led its own group)
        self.process.join(timeout=5)
        # A print set the book process did not read whole (it was stopped, or it needed no
        # picture) would keep the queue's feeder thread writing into a pipe nobody reads, and
        # this process would wait for that thread when it exits: never.
        self.inbox.cancel_join_thread()


def _books_process(model: Model, langs: tuple[str, ...], settings: dict[str, Any],
                   cache_dir: Path, jobs: int, queue, cards_event, inbox,
                   warm: int, records: dict[str, Any], given: PrintSet | None = None) -> None:
    """In the second process: every language's book, laid out by a pool of `jobs` workers,
    `warm` of them importing WeasyPrint at once (or assembled again from its record in
    `records`, with no workers). The process leads its own group, so that `Books.stop` ends
    its workers with it."""
    import os
    import threading
    from concurrent.futures import ProcessPoolExecutor

    from pipeline.processes import die_with_parent
    from pipeline.rulebook import layout

    os.setpgrp()
    die_with_parent()  # a build that is killed does not leave its books waiting for it
    context = multiprocessing.get_context("fork")
    release = context.Event()
    pool = None if records else ProcessPoolExecutor(
        max_workers=jobs, initializer=_worker_started, initargs=(release,), mp_context=context)
    executor = _Releasing(pool, release, warm) if pool is not None else None
    try:
        # the first task forks every worker at once (a fork pool starts them all then), from
        # this one thread: forking while other threads run is unsafe. The `warm` workers
        # import WeasyPrint while the books are composed. In an edit (`_warm_workers`) the
        # others are held until a part more than the warm workers can take comes: an idle
        # worker would take the first part and import WeasyPrint only then. Books assembled
        # again from their records (a new picture or block only) have no workers: one whose
        # record cannot serve after all is laid out in this process.
        for n in range(jobs) if pool is not None else ():
            pool.submit(layout.warm if n < warm else _held if warm else layout.started)
        print_set = _Inbox(inbox, given)
        # with a book for each worker, a book never laid out is laid out in book order: each
        # part once, and again only the parts that point forward (`BookRenderer.run`)
        in_order = len(langs) >= jobs
        threads = [threading.Thread(target=_one_book, args=(model, lang, settings, cache_dir,
                                                            executor, queue, cards_event,
                                                            print_set, in_order,
                                                            records.get(lang)))
                   for lang in langs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        release.set()
        if pool is not None:
            pool.shutdown(cancel_futures=True)


_RELEASE: Any = None  # a layout worker's `multiprocessing.Event`: see `_held`


def _worker_started(release: Any) -> None:
    """A layout worker's initializer (it inherits `release` when forked): it dies with the
    book process."""
    global _RELEASE
    from pipeline.processes import die_with_parent

    die_with_parent()
    _RELEASE = release


def _held() -> None:
    """A layout worker's first task in an edit (`_warm_workers`): it waits, neither importing
    WeasyPrint nor taking a part, until released (`_Releasing`), so that the first part goes
    to the worker that imported WeasyPrint, and that worker has the CPU to itself."""
    if _RELEASE is not None:
        _RELEASE.wait()


class _Releasing(Executor):
    """The layout pool as the books see it: the held workers (`_held`) are released
    once more parts are handed to it than the warm workers can take at once."""

    def __init__(self, pool, release, warm: int) -> None:
        import itertools

        self.pool = pool
        self.release = release
        self.warm = warm
        self.handed = itertools.count(1)  # (thread-safe under the GIL: one C call)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any):
        if next(self.handed) > self.warm:
            self.release.set()
        return self.pool.submit(fn, *args, **kwargs)


class _Inbox:
    """The print set the card build sends (`Books.give`), received once for every book (or
    `given` at the process's start)."""

    def __init__(self, queue, given: PrintSet | None = None) -> None:
        import threading

        self.queue = queue
        self.lock = threading.Lock()
        self.value: PrintSet | None = given

    def __call__(self) -> PrintSet:
        with self.lock:
            if self.value is None:
                self.value = self.queue.get()
            return self.value


def _one_book(model: Model, lang: str, settings: dict[str, Any], cache_dir: Path, executor,
              queue, cards_event, print_set: Callable[[], PrintSet], in_order: bool,
              record: Any = None) -> None:
    """One language's book: assembled again from its `record` with new pictures when it can
    be, else composed and laid out through the cache. Its report goes to `queue`."""
    from pipeline.diagnostics import RelicError, Span, error
    from pipeline.rulebook import FacePictures

    started = time.perf_counter()
    report = BookReport(lang)
    settings = {**settings, "lang": lang}
    try:
        pictures = FacePictures(model, lang, cache_dir, proof=settings["proof"],
                                faces_drawn=cards_event, print_set=print_set)
        finished = _reassembled(model, record, pictures, settings, cache_dir) \
            if record is not None else None
        report.reassembled = finished is not None
        if finished is None:
            finished = _made(model, settings, cache_dir, executor, queue, pictures, in_order)
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


def _reassembled(model: Model, record: Any, pictures: Any, settings: dict[str, Any],
                 cache_dir: Path) -> Any:
    """The recorded book assembled again with the pictures as they are now, and recorded;
    None when its record cannot give it (`rulebook.reassemble_book`)."""
    from pipeline.rulebook import reassemble_book, record_reassembled

    finished = reassemble_book(record, model, settings, cache_dir, pictures)
    if finished is not None:
        record_reassembled(record, model, pictures, finished, settings, cache_dir)
    return finished


def _made(model: Model, settings: dict[str, Any], cache_dir: Path, executor, queue,
          pictures: Any, in_order: bool) -> Any:
    """The book composed, laid out through the cache and assembled, and what it read
    recorded (`rulebook.record_book`)."""
    from pipeline.rulebook import make_book, prepare, record_book
    from pipeline.rulebook.record import RecordingModel, RecordingPictures

    lang = settings["lang"]
    recording = RecordingPictures(pictures)
    recorder = RecordingModel(model)
    composed = prepare(recorder, lang, paper=settings["paper"], proof=settings["proof"],
                       pictures=recording)
    finished = make_book(
        composed, model, cache_dir, pictures=recording, booklet=settings["booklet"],
        executor=executor, in_order=in_order,
        progress=lambda rnd, done, total: queue.put(("units", lang, (rnd, done, total))))
    record_book(model, recorder, recording, finished, settings, cache_dir)
    return finished
