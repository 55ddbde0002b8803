"""`relic watch [--pack ID] [--lang ru|en|all]`: re-check and rebuild on every change."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from pipeline.diagnostics import Severity, relative

SHOWN_FILES = 12
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch",
        help="re-check and rebuild a pack whenever its files change",
        description="Watch a pack, the schemas and the templates; on every change re-check "
        "the content and rebuild its cards (only the faces the change touches are rendered "
        "again), printing the diagnostics and the files that changed. While the content has "
        "errors the last good build stays in place. Ctrl-C stops it.",
    )
    p.add_argument("--pack", help="the pack id (default: the only pack in the content folder)")
    p.add_argument("--lang", default="all", help="a language of the pack, or 'all' (default)")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder; files go to OUT/<lang>/ (default: build/<pack>)")
    p.add_argument("--cache", type=Path, default=Path("build/.cache"),
                   help="render cache (default: build/.cache)")
    p.add_argument("--jobs", type=int, default=0,
                   help="render processes for big rebuilds (default: all cores)")
    p.add_argument("--no-duplex", action="store_true",
                   help="only the variant with backs on separate sheets")
    p.add_argument("--rulebook", action="store_true",
                   help="also rebuild the rulebook after every good build (slower)")
    p.set_defaults(run=run)


class Printer:
    """The builder's messages as lines on the terminal."""

    def __init__(self, stream: TextIO = sys.stderr):
        self.stream = stream
        self.step: tuple[str, float] = ("", 0.0)  # the step under way and when it began
        self.shown = -1  # the last tenth of it printed

    def say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def __call__(self, message: Any) -> None:
        from pipeline.serve.builder import Stopped
        from pipeline.serve.messages import Built, Checked, Progress
        from pipeline.serve.session import Change

        if isinstance(message, Change):
            names = ", ".join(Path(p).name for p in message.paths[:SHOWN_FILES])
            self.say(f"relic: changed: {names}" + (" (restarting the builder)"
                                                   if message.restart else ""))
        elif isinstance(message, Progress):
            self.progress(message)
        elif isinstance(message, Built):
            self.built(message)
        elif isinstance(message, Checked):
            for d in message.diagnostics:
                self.say(d.text())
            errors = sum(d.severity is Severity.ERROR for d in message.diagnostics)
            self.say(f"relic: checks done in {message.seconds:.1f} s: {errors} error(s), "
                     f"{len(message.diagnostics) - errors} warning(s)")
        elif isinstance(message, Stopped):
            self.say("relic: the builder stopped; the next change starts it again")

    def progress(self, message) -> None:
        """Long steps only (a cold render): a line per tenth once a step has run 2 s."""
        now = time.monotonic()
        if message.label != self.step[0]:
            self.step, self.shown = (message.label, now), -1
        tenth = 10 * message.done // max(message.total, 1)
        if message.total and now - self.step[1] >= 2 and tenth != self.shown:
            self.shown = tenth
            self.say(f"relic: {message.label}: {message.done}/{message.total}")

    def built(self, message) -> None:
        for d in message.diagnostics:
            self.say(d.text())
        if not message.ok:
            self.say(f"relic: {message.errors} error(s); the last good build stays in place")
            return
        folders = ", ".join(relative(f) for f in message.folders)
        self.say(f"relic: built {folders} in {message.seconds:.2f} s: {message.components} "
                 f"components, {message.rendered} faces rendered")
        changed = list(message.changed)
        if changed:
            more = len(changed) - SHOWN_FILES
            self.say("relic: rebuilt " + ", ".join(changed[:SHOWN_FILES])
                     + (f" and {more} more" if more > 0 else ""))
        else:
            self.say("relic: no output changed")


async def _loop(settings, printer: Printer) -> None:
    from pipeline.serve.session import Session, watched

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    session = Session(settings, printer)
    try:
        session.start()
        shown = ", ".join(str(p) for p in watched(settings.pack_dir))
        printer.say(f"relic: watching {shown} (Ctrl-C stops)")
        await session.watch(stop)
    finally:
        session.stop()


def run(args: argparse.Namespace) -> int:
    from pipeline.processes import default_workers
    from pipeline.serve import choose_pack, out_folder
    from pipeline.serve.messages import Settings

    pack_dir = choose_pack(Path(args.content), args.pack)
    out = out_folder(pack_dir, args.out or Path("build") / pack_dir.name)
    settings = Settings(pack_dir=pack_dir.resolve(), out_root=out,
                        cache_dir=args.cache.resolve(),
                        langs=() if args.lang == "all" else tuple(args.lang.split(",")),
                        jobs=args.jobs or default_workers(), duplex=not args.no_duplex,
                        gallery=False, rulebook=args.rulebook)
    printer = Printer()
    asyncio.run(_loop(settings, printer))
    printer.say("relic: stopped")
    return 0
